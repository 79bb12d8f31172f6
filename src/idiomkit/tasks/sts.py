"""STS evaluator (Spearman of cosine vs gold) on STS-B / ASSIN 2 pairs — a training-time STS check that keeps
2B dev held out (used to watch STS while learning idioms and to choose interpolation ratios).

:class:`StsEvaluator` is sentence-transformers' ``EmbeddingSimilarityEvaluator`` (cosine, Spearman) with the pairs'
distinct sentences encoded once by idiomkit's encoder and the score also given per source."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr
from sentence_transformers.sentence_transformer.evaluation import EmbeddingSimilarityEvaluator

from idiomkit.data.sts import StsPair
from idiomkit.embedding.encode import encode_texts
from idiomkit.metrics.similarity import cosine_rows


class StsEvaluator(EmbeddingSimilarityEvaluator):
    """``{<name>_sts: Spearman over all pairs, <name>_sts_<source>: per source}``; primary metric ``<name>_sts``."""

    def __init__(self, pairs: Sequence[StsPair], *, name: str = "val", batch_size: int = 64):
        self.pairs = list(pairs)
        super().__init__(
            [p.sentence_1 for p in self.pairs],
            [p.sentence_2 for p in self.pairs],
            [p.score for p in self.pairs],
            batch_size=batch_size,
            main_similarity="cosine",
            name=name,
            write_csv=False,
        )
        self.primary_metric = f"{name}_sts"
        self.embeddings: dict[str, np.ndarray] = {}

    def embed_inputs(self, model, sentences, **kwargs) -> np.ndarray:
        """The embeddings encoded by :meth:`__call__` (each distinct sentence once, idiomkit's pooling)."""
        return np.stack([self.embeddings[t] for t in sentences])

    def __call__(self, model, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict[str, float]:
        texts = list(dict.fromkeys(t for p in self.pairs for t in (p.sentence_1, p.sentence_2)))
        self.embeddings = dict(zip(texts, encode_texts(model, texts, batch_size=self.batch_size), strict=True))
        scored = super().__call__(model, output_path, epoch, steps)
        self.primary_metric = f"{self.name}_sts"
        sims = cosine_rows(self.embed_inputs(model, self.sentences1), self.embed_inputs(model, self.sentences2))
        gold = np.array(self.scores)
        out = {f"{self.name}_sts": float(scored[f"{self.name}_spearman_cosine" if self.name else "spearman_cosine"])}
        for source in dict.fromkeys(p.source for p in self.pairs):
            mask = np.array([p.source == source for p in self.pairs])
            out[f"{self.name}_sts_{source}"] = float(spearmanr(sims[mask], gold[mask]).statistic)
        self.embeddings = {}
        return out
