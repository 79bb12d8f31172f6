"""benchmarks/analysis/semeval2b_levels.py: where a card's 2B dev similarities sit, on hand-made gold rows."""

from __future__ import annotations

import pytest
from helpers import benchmark_script

from idiomkit.data.semeval2022 import GoldRow


def test_levels_are_the_hand_computed_medians_share_and_other_id_gap():
    levels = benchmark_script("analysis/semeval2b_levels").levels
    gold = [
        GoldRow("1", "dev.EN.1", "EN", 1.0, None),  # a correct idiom pair
        GoldRow("2", "dev.EN.2", "EN", 1.0, None),
        GoldRow("3", "dev.EN.3", "EN", None, "4"),  # an incorrect one, graded against row 4's similarity
        GoldRow("4", "dev.EN.4", "EN", 0.4, None),
        GoldRow("5", "dev.EN.sts.5", "EN", 0.9, None),
        GoldRow("6", "dev.EN.sts.6", "EN", 0.1, None),
        GoldRow("7", "dev.EN.sts.7", "EN", 0.5, None),
    ]
    sims = {"1": 0.9, "2": 0.8, "3": 0.7, "4": 0.6, "5": 0.95, "6": 0.3, "7": 0.84}
    out = levels(sims, gold)
    assert out["idiom pairs, gold 1"] == pytest.approx(0.85)
    assert (out["STS pairs, gold >= .8"], out["STS pairs, gold <= .2"]) == (0.95, 0.3)
    assert out["STS rows above the idiom median"] == pytest.approx(1 / 3)  # .95 only (.84 < .85)
    assert out["otherID gap"] == pytest.approx(0.1)  # .7 - .6
