"""Similarity metrics: row-wise cosine of two embedding arrays and Spearman's rho of predictions against gold."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr


def cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine similarity of two (n, d) arrays."""
    a = a / np.linalg.norm(a, axis=1, keepdims=True).clip(min=1e-12)
    b = b / np.linalg.norm(b, axis=1, keepdims=True).clip(min=1e-12)
    return np.einsum("ij,ij->i", a, b)


def spearman(gold: Sequence[float], pred: Sequence[float]) -> float:
    """Spearman's rho of ``pred`` against ``gold``; NaN for fewer than two pairs (no correlation to speak of)."""
    if len(gold) < 2:
        return float("nan")
    return float(spearmanr(gold, pred).statistic)
