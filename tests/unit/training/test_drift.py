"""benchmarks/analysis/drift.py: a sentence's own drift and the space drawing together, by hand on three sentences."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import benchmark_script


def test_drift_measures_self_cosine_and_the_pairs_drawing_together():
    drift = benchmark_script("analysis/drift").drift
    base = np.eye(3)  # three orthogonal sentences: pairwise cosines 0
    trained = base + 1.0  # each gains the same direction: rows (2, 1, 1) ..., pairwise cosine 5/6 once normalised
    trained /= np.linalg.norm(trained, axis=1, keepdims=True)
    out = drift(trained, base)
    assert out["self_cos"] == pytest.approx(2 / np.sqrt(6), abs=1e-4)  # (2,1,1)/sqrt(6) against (1,0,0)
    assert out["pair_cos_base"] == 0.0 and out["pair_cos_trained"] == pytest.approx(5 / 6, abs=1e-4)
    assert out["pair_mse"] == pytest.approx((5 / 6) ** 2, abs=1e-5)
    assert drift(base, base) == {"self_cos": 1.0, "pair_cos_base": 0.0, "pair_cos_trained": 0.0, "pair_mse": 0.0}
