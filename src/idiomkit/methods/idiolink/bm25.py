"""IdioLink BM25 baseline as a method: the index is built from the documents, queries are scored against it.

The scoring code is the task's (:func:`idiomkit.tasks.idiolink.bm25_scores`: bm25s, or rank-bm25's Okapi formula);
nothing is learned beyond the index statistics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from idiomkit.methods.base import Method
from idiomkit.tasks.idiolink import BM25_B, BM25_K1, bm25_scores


@dataclass
class BM25(Method):
    """``fit(documents)`` keeps the index texts; ``predict(queries)`` gives ``(n_queries, n_documents)`` scores."""

    name: ClassVar[str] = "idiolink/bm25"
    description: ClassVar[str] = "BM25 over the paper's tokenizer (k1=0.9, b=0.4)"

    k1: float = BM25_K1
    b: float = BM25_B
    method: str = "lucene"
    documents: list[str] = field(default_factory=list)

    def fit(self, documents: Sequence[str]) -> BM25:
        self.documents = list(documents)
        return self

    def predict(self, queries: Sequence[str]) -> np.ndarray:
        return bm25_scores(self.documents, queries, k1=self.k1, b=self.b, method=self.method)
