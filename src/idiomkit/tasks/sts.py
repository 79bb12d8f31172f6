"""STS evaluator (Spearman of cosine vs gold) on STS-B / ASSIN 2 pairs — a training-time STS check that keeps
2B dev held out (used to watch STS while learning idioms and to choose interpolation ratios)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr

from idiomkit.data.sts import StsPair
from idiomkit.embed.encode import encode_texts


def cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    return (a * b).sum(axis=1)


class StsEvaluator:
    """``{<name>_sts: Spearman over all pairs, <name>_sts_<source>: per source}`` (sentence-transformers protocol)."""

    def __init__(self, pairs: Sequence[StsPair], *, name: str = "val", batch_size: int = 64):
        self.pairs, self.name, self.batch_size = list(pairs), name, batch_size
        self.greater_is_better = True
        self.primary_metric = f"{name}_sts"

    def __call__(self, model, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict[str, float]:
        texts = list(dict.fromkeys(t for p in self.pairs for t in (p.sentence_1, p.sentence_2)))
        emb = encode_texts(model, texts, batch_size=self.batch_size)
        index = {t: i for i, t in enumerate(texts)}
        sims = cosine_rows(
            emb[[index[p.sentence_1] for p in self.pairs]], emb[[index[p.sentence_2] for p in self.pairs]]
        )
        gold = np.array([p.score for p in self.pairs])
        out = {f"{self.name}_sts": float(spearmanr(sims, gold).statistic)}
        for source in dict.fromkeys(p.source for p in self.pairs):
            mask = np.array([p.source == source for p in self.pairs])
            out[f"{self.name}_sts_{source}"] = float(spearmanr(sims[mask], gold[mask]).statistic)
        return out
