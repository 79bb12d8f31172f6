"""Paired bootstrap of a difference between two systems scored on the same items.

A resample draws whole clusters (an idiom, a query's expression; or each item alone) with replacement. Instead of
building each resampled list, a resample is a row of *weights*: how many times each item was drawn
(:func:`cluster_weights`). Every statistic here takes the per-item values and a ``(resamples, items)`` weight matrix
and returns one number per resample, exactly as if the drawn items had been listed with their repeats:

- :func:`weighted_mean` (accuracy, a per-item score);
- :func:`weighted_spearman` (ties get mid-ranks, as :func:`scipy.stats.spearmanr` gives them);
- :func:`weighted_macro_f1` (as :func:`idiomkit.metrics.classification.macro_f1`).

Row 0 of a weight matrix from :func:`cluster_weights` is all ones: the statistic on the items as they are, so a test
can hold it against the metric the task reported.

Example::

    weights = cluster_weights(idioms, resamples=1000, seed=0)
    diff = weighted_mean(trained_correct, weights) - weighted_mean(base_correct, weights)
    low, high = percentile_interval(diff[1:])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

RESAMPLES = 1000
SEED = 0


def cluster_weights(clusters: Sequence[str], *, resamples: int = RESAMPLES, seed: int = SEED) -> np.ndarray:
    """``(resamples + 1, items)`` weights: row 0 all ones, then one row per resample of whole clusters (as many
    draws as there are clusters, ``default_rng(seed).integers`` over the sorted cluster keys: the draws the core
    test's interval, :func:`idiomkit.tasks.meaning_triples.bootstrap_ci`, has always made), each item weighted by
    how often its cluster was drawn."""
    keys, inverse = np.unique(np.asarray(clusters, dtype=object).astype(str), return_inverse=True)
    draws = np.random.default_rng(seed).integers(0, len(keys), size=(resamples, len(keys)))
    offsets = (draws + len(keys) * np.arange(resamples)[:, None]).ravel()
    counts = np.bincount(offsets, minlength=resamples * len(keys)).reshape(resamples, len(keys))
    return np.vstack([np.ones(len(inverse)), counts[:, inverse]]).astype(float)


def percentile_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """The percentile interval of ``values`` (NaNs, from a resample with nothing to correlate, left out)."""
    values = values[np.isfinite(values)]
    low, high = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The mean of ``values`` under each row of ``weights``."""
    return (weights @ np.asarray(values, dtype=float)) / weights.sum(1)


def _weighted_ranks(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each item's mid-rank among the weighted items (an item drawn k times stands k times; ties share)."""
    order = np.argsort(values, kind="stable")
    ordered = np.asarray(values, dtype=float)[order]
    new_value = np.r_[True, ordered[1:] != ordered[:-1]]
    drawn = weights[:, order]
    ranks = np.empty_like(weights)
    if new_value.all():  # no ties (cosines, mostly): each item is its own group
        ranks[:, order] = np.cumsum(drawn, axis=1) - drawn + (drawn + 1) / 2
        return ranks
    totals = np.add.reduceat(drawn, np.flatnonzero(new_value), axis=1)
    mid = np.cumsum(totals, axis=1) - totals + (totals + 1) / 2
    ranks[:, order] = mid[:, np.cumsum(new_value) - 1]
    return ranks


def _weighted_pearson(a: np.ndarray, b: np.ndarray, weights: np.ndarray) -> np.ndarray:
    total = weights.sum(1, keepdims=True)
    a = a - (weights * a).sum(1, keepdims=True) / total
    b = b - (weights * b).sum(1, keepdims=True) / total
    cov = (weights * a * b).sum(1)
    spread = np.sqrt((weights * a * a).sum(1) * (weights * b * b).sum(1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(spread > 0, cov / spread, np.nan)


def weighted_spearman(gold: np.ndarray, predicted: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Spearman's rho of ``predicted`` against ``gold`` under each row of ``weights``."""
    gold_ranks = _weighted_ranks(np.asarray(gold, dtype=float), weights)
    return _weighted_pearson(gold_ranks, _weighted_ranks(np.asarray(predicted, dtype=float), weights), weights)


def weighted_macro_f1(gold: np.ndarray, predicted: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Macro F1 under each row of ``weights``: the mean F1 over the labels drawn as gold or predicted, as
    :func:`idiomkit.metrics.classification.macro_f1`."""
    gold, predicted = np.asarray(gold), np.asarray(predicted)
    total, present = np.zeros(len(weights)), np.zeros(len(weights))
    for label in np.union1d(gold, predicted):
        tp = weights @ ((gold == label) & (predicted == label)).astype(float)
        fp = weights @ ((gold != label) & (predicted == label)).astype(float)
        fn = weights @ ((gold == label) & (predicted != label)).astype(float)
        denominator = 2 * tp + fp + fn
        total += np.divide(2 * tp, denominator, out=np.zeros_like(tp), where=denominator > 0)
        present += denominator > 0
    return total / present
