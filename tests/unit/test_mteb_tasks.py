"""mteb task classes: mteb's main score equals idiomkit's own score (same data, same model, same metric).

Both code paths run end to end (loaders included) on deterministic subsets of the real data written to a temporary
data directory; the full-size comparison is ``benchmarks/checks/mteb_check.py``.
"""

import math

import pytest

from idiomkit.mteb_tasks import (  # noqa: E402
    organiser_sts_scores,
    r_precision,
)

pytest.importorskip("mteb")


def test_organiser_rule_uses_the_models_prediction_for_other_id():
    from datasets import Dataset

    rows = Dataset.from_dict(
        {
            "id": ["a", "b", "c", "d", "x"],
            "score": [1.0, None, 1.0, None, None],
            "other_id": ["", "x", "", "c", ""],
            "subset": ["idiom", "idiom", "idiom", "idiom", ""],
            "language": ["EN", "EN", "PT", "PT", ""],
        }
    )
    cos = [0.9, 0.2, 0.5, 0.7, 0.4]  # b's gold = pred(x) = 0.4; d's gold = pred(c) = 0.5
    out = organiser_sts_scores(
        rows, {"cosine_scores": cos, "manhattan_distances": cos, "euclidean_distances": cos, "similarity_scores": None}
    )
    # gold [1, .4, 1, .5] vs pred [.9, .2, .5, .7] over the idiom rows
    from scipy.stats import spearmanr

    assert out["cosine_spearman"] == pytest.approx(spearmanr([1, 0.4, 1, 0.5], [0.9, 0.2, 0.5, 0.7]).statistic)
    assert out["spearman"] == out["cosine_spearman"]  # no model similarity -> cosine
    assert math.isnan(out["sts_all_cosine_spearman"])


def test_r_precision_breaks_ties_by_doc_id_descending():
    qrels = {"q": {"d1": 1, "d2": 1}}
    assert r_precision(qrels, {"q": {"d1": 0.5, "d3": 0.5, "d2": 0.1}}) == {"q": 0.5}  # d3 > d1 on the tie
    assert r_precision(qrels, {"q": {"d2": 0.9, "d1": 0.8, "d3": 0.1}}) == {"q": 1.0}
