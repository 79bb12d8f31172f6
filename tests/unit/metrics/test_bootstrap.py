"""The weighted statistics of the paired bootstrap equal the plain ones on the resampled list, repeats written out."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import spearmanr

from idiomkit.metrics.bootstrap import (
    cluster_weights,
    percentile_interval,
    weighted_macro_f1,
    weighted_mean,
    weighted_spearman,
)
from idiomkit.metrics.classification import macro_f1


def _expanded(values: np.ndarray, row: np.ndarray) -> np.ndarray:
    return np.repeat(values, row.astype(int))


def test_cluster_weights_draw_whole_clusters_and_row_zero_is_the_sample_as_it_is():
    clusters = ["a", "a", "b", "c", "c", "c"]
    weights = cluster_weights(clusters, resamples=50, seed=1)
    assert weights.shape == (51, 6) and (weights[0] == 1).all()
    for row in weights[1:]:
        assert row[0] == row[1] and row[3] == row[4] == row[5]  # an idiom's items are drawn together
        assert row[0] + row[2] + row[3] == 3  # three draws of the three clusters
    assert len({tuple(row) for row in weights[1:]}) > 1
    assert np.array_equal(weights, cluster_weights(clusters, resamples=50, seed=1))


def test_the_draws_are_numpys_integer_draws_of_clusters_as_the_core_test_made_its_committed_intervals():
    """Row r + 1 counts the clusters ``default_rng(seed).integers(0, K, (R, K))[r]`` drew: the draws behind every
    committed core-test interval (its ``bootstrap_ci`` now uses these weights), so those intervals still reproduce."""
    from idiomkit.tasks.meaning_triples import bootstrap_ci

    clusters = ["b", "a", "c", "a", "d", "c", "c"]  # sorted keys a b c d -> 0 1 2 3
    draws = np.random.default_rng(4).integers(0, 4, size=(30, 4))
    weights = cluster_weights(clusters, resamples=30, seed=4)
    index = {"a": 0, "b": 1, "c": 2, "d": 3}
    for row, drawn in zip(weights[1:], draws, strict=True):
        assert list(row) == [float((drawn == index[c]).sum()) for c in clusters]
    correct = np.array([1, 0, 1, 1, 0, 0, 1], dtype=float)
    hits = np.array([1.0, 1.0, 2.0, 0.0])  # correct per cluster a b c d
    sizes = np.array([2.0, 1.0, 3.0, 1.0])
    draws = np.random.default_rng(0).integers(0, 4, size=(2000, 4))
    means = hits[draws].sum(1) / sizes[draws].sum(1)
    assert bootstrap_ci(correct, clusters) == tuple(float(q) for q in np.quantile(means, [0.025, 0.975]))


def test_weighted_statistics_equal_the_plain_ones_on_the_expanded_resample():
    rng = np.random.default_rng(0)
    n = 40
    gold = rng.integers(0, 5, n).astype(float)  # ties, as STS gold scores have
    predicted = rng.normal(size=n)
    predicted[:4] = predicted[4]  # and tied predictions
    labels, guesses = rng.integers(0, 2, n), rng.integers(0, 2, n)
    weights = cluster_weights([str(i // 2) for i in range(n)], resamples=20, seed=3)
    rho = weighted_spearman(gold, predicted, weights)
    f1 = weighted_macro_f1(labels, guesses, weights)
    mean = weighted_mean(predicted, weights)
    untied = rng.normal(size=n)  # no ties: the ranks' faster path
    rho_untied = weighted_spearman(untied, predicted, weights)
    for i, row in enumerate(weights):
        expected = spearmanr(_expanded(untied, row), _expanded(predicted, row)).statistic
        assert rho_untied[i] == pytest.approx(expected, abs=1e-12)
        assert rho[i] == pytest.approx(spearmanr(_expanded(gold, row), _expanded(predicted, row)).statistic, abs=1e-12)
        assert f1[i] == pytest.approx(macro_f1(list(_expanded(labels, row)), list(_expanded(guesses, row))), abs=1e-12)
        assert mean[i] == pytest.approx(_expanded(predicted, row).mean(), abs=1e-12)


def test_macro_f1_of_a_resample_with_one_label_only_averages_that_label():
    weights = np.array([[1.0, 1.0, 0.0, 0.0]])
    gold, guesses = np.array([1, 1, 0, 0]), np.array([1, 1, 0, 1])
    assert weighted_macro_f1(gold, guesses, weights)[0] == macro_f1([1, 1], [1, 1]) == 1.0


def test_percentile_interval_leaves_out_resamples_with_nothing_to_correlate():
    values = np.r_[np.linspace(0, 1, 101), np.nan]
    assert percentile_interval(values, level=0.9) == pytest.approx((0.05, 0.95))
