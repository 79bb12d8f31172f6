"""The core test's scoring with a stub encoder: groups (seen/held-out, language, source) and the raw TSV."""

from __future__ import annotations

import numpy as np

import idiomkit.tasks.meaning_triples as mt
from idiomkit.data.meaning_triples import Triple, is_carved

VECTORS = {"s": [1, 0], "fig": [1, 0.1], "lit": [0, 1], "s2": [0, 1], "fig2": [1, 0], "lit2": [0.1, 1]}


def test_groups_and_accuracy(monkeypatch):
    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([VECTORS[t] for t in texts], float))
    triples = [Triple("kick the bucket", "EN", "s", "fig", "lit", "ncs", heldout=True),
               Triple("pão duro", "PT", "s2", "fig2", "lit2", "astitch", heldout=False)]  # fmt: skip
    metrics, cos = mt.score_triples(None, triples)
    assert cos.shape == (2, 2) and cos[0, 0] > cos[0, 1] and cos[1, 0] < cos[1, 1]
    assert metrics["all"]["accuracy"] == 0.5
    assert metrics["heldout"]["accuracy"] == 1.0 and metrics["heldout_EN"]["n"] == 1
    assert metrics["seen"]["accuracy"] == 0.0 and metrics["PT"]["n"] == 1
    assert set(metrics) >= {"source_ncs", "source_astitch", "seen_PT"}
    lines = mt.triples_tsv(triples, cos).splitlines()
    assert lines[0].startswith("idiom\tlanguage\tsource\theldout")
    assert lines[1].startswith("kick the bucket\tEN\tncs\t1\t")


def test_carving_is_a_fixed_half_by_idiom():
    names = [f"idiom {i}" for i in range(400)]
    share = sum(map(is_carved, names)) / len(names)
    assert 0.4 < share < 0.6
    assert is_carved("Kick the Bucket") == is_carved("kick the bucket")
