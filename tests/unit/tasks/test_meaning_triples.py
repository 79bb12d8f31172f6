"""The core test's scoring with a stub encoder: groups (seen/held-out, language, source, lookup-equal), the
bootstrap interval over idioms and the raw TSV."""

from __future__ import annotations

import numpy as np

import idiomkit.tasks.meaning_triples as mt
from idiomkit.data.meaning_triples import HELDOUT_PERCENT, Triple, is_carved
from idiomkit.idioms.lexicon import Lexicon

VECTORS = {"s": [1, 0], "fig": [1, 0.1], "lit": [0, 1], "s2": [0, 1], "fig2": [1, 0], "lit2": [0.1, 1]}


def test_groups_and_accuracy(monkeypatch):
    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([VECTORS[t] for t in texts], float))
    triples = [
        Triple("kick the bucket", "EN", "s", "fig", "lit", "ncs", heldout=True),
        Triple("pão duro", "PT", "s2", "fig2", "lit2", "astitch", heldout=False),
    ]
    metrics, cos = mt.score_triples(None, triples)
    assert cos.shape == (2, 2) and cos[0, 0] > cos[0, 1] and cos[1, 0] < cos[1, 1]
    assert metrics["all"]["accuracy"] == 0.5
    assert metrics["heldout"]["accuracy"] == 1.0 and metrics["heldout_EN"]["n"] == 1
    assert metrics["seen"]["accuracy"] == 0.0 and metrics["PT"]["n"] == 1
    assert set(metrics) >= {"source_ncs", "source_astitch", "seen_PT"}
    lines = mt.triples_tsv(triples, cos).splitlines()
    assert lines[0].startswith("idiom\tlanguage\tsource\theldout\tlookup_equal\t")
    assert lines[1].startswith("kick the bucket\tEN\tncs\t1\t\ts\t")
    assert metrics["heldout"]["accuracy_ci95"] == [1.0, 1.0] and metrics["heldout"]["idioms"] == 1


def test_lookup_equal_triples_are_reported_apart(monkeypatch):
    """A seen triple whose paraphrase the lexicon's meaning reproduces counts in seen_lookup_equal, not _free."""
    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([VECTORS[t] for t in texts], float))
    lexicon = Lexicon.from_pairs([("pão duro", "fig2")], language="PT")
    looked_up = Triple("pão duro", "PT", "s2", "fig2", "lit2", "astitch")
    free = Triple("kick the bucket", "EN", "s", "fig", "lit", "pie")
    assert mt.lookup_equal(looked_up, lexicon) and not mt.lookup_equal(free, lexicon)
    assert not mt.lookup_equal(looked_up, Lexicon.from_pairs([("pão duro", "fig2")], language="EN"))
    metrics, cos = mt.score_triples(None, [free, looked_up], lexicon=lexicon)
    assert metrics["seen"]["n"] == 2 and metrics["seen_lookup_free"]["n"] == 1
    assert metrics["seen_lookup_free"]["accuracy"] == 1.0 and metrics["seen_lookup_equal"]["accuracy"] == 0.0
    assert mt.triples_tsv([free, looked_up], cos, lexicon).splitlines()[2].split("\t")[4] == "1"
    assert "seen_lookup_free" not in mt.score_triples(None, [free], lexicon=None)[0]


def test_lookup_equal_finds_a_meaning_inside_a_sentence_paraphrase():
    lexicon = Lexicon.from_pairs([("break a leg", "good luck")])
    said = Triple("break a leg", "EN", "He said `` break a leg ! ''", "He said `` good luck ! ''", "x", "pie")
    wished = Triple("break a leg", "EN", "Good luck , break a leg !", "Good luck , do well !", "x", "pie")
    assert mt.lookup_equal(said, lexicon)
    assert not mt.lookup_equal(wished, lexicon)  # the sentence holds the meaning already


def test_bootstrap_interval_resamples_idioms():
    # idiom a: 4 of 4 right, idiom b: 0 of 4: resampling idioms (not triples) gives 0, .5 or 1 only
    correct = np.array([1, 1, 1, 1, 0, 0, 0, 0], float)
    clusters = ["a"] * 4 + ["b"] * 4
    lo, hi = mt.bootstrap_ci(correct, clusters)
    assert (lo, hi) == (0.0, 1.0) and mt.bootstrap_ci(correct, clusters) == (lo, hi)
    # many idioms, each half right: a narrow interval around .5, seeded
    many = [f"i{k}" for k in range(200) for _ in range(2)]
    lo, hi = mt.bootstrap_ci(np.tile([1.0, 0.0], 200), many)
    assert lo == hi == 0.5
    noisy = np.random.default_rng(1).integers(0, 2, 400).astype(float)
    lo, hi = mt.bootstrap_ci(noisy, many)
    assert lo < noisy.mean() < hi and hi - lo < 0.15
    assert (lo, hi) != mt.bootstrap_ci(noisy, many, seed=1)


def test_carving_is_a_fixed_share_by_idiom():
    names = [f"idiom {i}" for i in range(2000)]
    share = sum(map(is_carved, names)) / len(names)
    assert abs(share - HELDOUT_PERCENT / 100) < 0.03
    assert is_carved("Kick the Bucket") == is_carved("kick the bucket")


def test_a_model_without_reader_is_split_by_the_evaluation_lexicon(monkeypatch):
    """Lookup-equal of a plain model is measured against the evaluation lexicon of the run's data (the one a
    scored reader gets), never the shipped one, which knows the held-out idioms."""
    import idiomkit.idioms.sources as sources

    evaluation = Lexicon.from_pairs([("pão duro", "fig2")], language="PT")
    asked = []
    monkeypatch.setattr(sources, "evaluation_lexicon", lambda data_dir: asked.append(data_dir) or evaluation)
    monkeypatch.setattr(sources, "default_lexicon", lambda: (_ for _ in ()).throw(AssertionError("shipped used")))
    lexicon, which = mt.reader_lexicon(object(), "/data")
    assert lexicon is evaluation and which == "evaluation" and asked == ["/data"]
