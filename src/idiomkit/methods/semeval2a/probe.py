"""SemEval-2022 2A logistic-regression probe on frozen embeddings (the protocol of :class:`SemEval2ATask`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from idiomkit.methods.base import Method
from idiomkit.tasks.semeval2a import fit_probe


@dataclass
class LogisticProbe(Method):
    """C chosen on the ``val_idx`` rows by macro-F1 (:func:`idiomkit.tasks.semeval2a.fit_probe`), then refitted on
    all rows, exactly as the 2A task does."""

    name: ClassVar[str] = "semeval2a/probe"
    description: ClassVar[str] = "logistic-regression probe on frozen span/sentence embeddings"

    seed: int = 0
    C: float | None = None
    validation_macro_f1: dict[str, float] = field(default_factory=dict)
    classifier: Any = None

    def fit(self, x: np.ndarray, y: np.ndarray, fit_idx: Sequence[int], val_idx: Sequence[int]) -> LogisticProbe:
        from sklearn.linear_model import LogisticRegression

        self.C, self.validation_macro_f1 = fit_probe(x[fit_idx], y[fit_idx], x[val_idx], y[val_idx], self.seed)
        self.classifier = LogisticRegression(C=self.C, max_iter=2000, random_state=self.seed).fit(x, y)
        return self

    def predict(self, x: np.ndarray) -> list[int]:
        """Labels (0 idiomatic / 1 literal)."""
        return [int(v) for v in self.classifier.predict(x)]
