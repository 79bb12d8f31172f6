"""The core test's scoring with a stub encoder: groups (held-out human-written by language, held-out PIE, seen,
lookup-equal, source), the bootstrap interval over idioms, the raw TSV, and the shortcut controls beside each
group."""

from __future__ import annotations

import numpy as np

import idiomkit.tasks.meaning_triples as mt
from idiomkit.data.meaning_triples import HELDOUT_PERCENT, Triple, is_carved
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.tasks.core_controls import fit_controls

VECTORS = {"s": [1, 0], "fig": [1, 0.1], "lit": [0, 1], "s2": [0, 1], "fig2": [1, 0], "lit2": [0.1, 1]}


def test_groups_and_accuracy(monkeypatch):
    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([VECTORS[t] for t in texts], float))
    triples = [
        Triple("kick the bucket", "EN", "s", "fig", "lit", "ncs", heldout=True),
        Triple("pão duro", "PT", "s2", "fig2", "lit2", "astitch-2a", heldout=False),
        Triple("spill the beans", "EN", "s", "lit", "fig", "pie", heldout=True),
    ]
    metrics, cos = mt.score_triples(None, triples)
    assert cos.shape == (3, 2) and cos[0, 0] > cos[0, 1] and cos[1, 0] < cos[1, 1]
    assert metrics["all"]["accuracy"] == 1 / 3
    assert metrics["heldout"]["accuracy"] == 1.0 and metrics["heldout_EN"]["n"] == 1  # human-written only
    assert metrics["heldout_pie"]["n"] == 1 and metrics["heldout_pie"]["accuracy"] == 0.0  # the diagnostic apart
    assert metrics["heldout_PT"] == {"n": 0} and metrics["lookup_equal"] == {"n": 0}
    assert metrics["seen"]["accuracy"] == 0.0 and metrics["seen_PT"]["n"] == 1 and metrics["seen_human"]["n"] == 1
    assert set(metrics) >= {"source_ncs", "source_astitch-2a", "source_pie"}
    lines = mt.triples_tsv(triples, cos).splitlines()
    assert lines[0].startswith("idiom\tlanguage\tsource\theldout\tlookup_equal\tcolumn\t")
    assert lines[1].startswith("kick the bucket\tEN\tncs\t1\t\theldout\ts\t")
    assert [line.split("\t")[5] for line in lines[2:]] == ["seen", "heldout_pie"]
    assert metrics["heldout"]["accuracy_ci95"] == [1.0, 1.0] and metrics["heldout"]["idioms"] == 1


def test_lookup_equal_triples_are_reported_apart(monkeypatch):
    """A seen triple whose paraphrase the lexicon's meaning reproduces counts in lookup_equal, not in seen."""
    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([VECTORS[t] for t in texts], float))
    lexicon = Lexicon.from_pairs([("pão duro", "fig2")], language="PT")
    looked_up = Triple("pão duro", "PT", "s2", "fig2", "lit2", "astitch")
    free = Triple("kick the bucket", "EN", "s", "fig", "lit", "pie")
    assert mt.lookup_equal(looked_up, lexicon) and not mt.lookup_equal(free, lexicon)
    assert not mt.lookup_equal(looked_up, Lexicon.from_pairs([("pão duro", "fig2")], language="EN"))
    metrics, cos = mt.score_triples(None, [free, looked_up], lexicon=lexicon)
    assert metrics["seen"]["n"] == 1 and metrics["lookup_equal"]["n"] == 1
    assert metrics["seen"]["accuracy"] == 1.0 and metrics["lookup_equal"]["accuracy"] == 0.0
    assert mt.triples_tsv([free, looked_up], cos, lexicon).splitlines()[2].split("\t")[4:6] == ["1", "lookup_equal"]
    assert mt.score_triples(None, [free, looked_up], lexicon=None)[0]["seen"]["n"] == 2  # no lexicon: none apart


def test_controls_sit_beside_every_group_and_mark_headline_status(monkeypatch):
    """Both controls are fitted on training rows only; a group where one scores above .55 is no headline."""
    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([[1.0, 0.0]] * len(texts)))
    training = [Triple("x", "EN", f"a b c {i}", f"a b c {i} calm", f"a b c {i} pail", "pie") for i in range(20)]
    controls = fit_controls(training)
    assert controls.fit["rows"] == 20 and controls.fit["bow_accuracy_on_training_rows"] == 1.0
    given_away = Triple("y", "EN", "q r", "q r calm", "q r pail", "ncs", heldout=True)  # the training words
    unseen = Triple("z", "PT", "u v", "u v w", "u v k", "ncs", heldout=True)  # none of them: a tie
    metrics, _ = mt.score_triples(None, [given_away, unseen], controls=controls)
    assert metrics["heldout_EN"]["controls"]["bow"] == 1.0 and not metrics["heldout_EN"]["controls"]["headline"]
    assert metrics["heldout_PT"]["controls"]["bow"] == 0.5  # a tie is right half the time
    assert metrics["heldout_PT"]["controls"]["length_overlap"] == 0.5  # equal length, equal overlap
    assert metrics["heldout_PT"]["controls"]["headline"]
    assert set(metrics["heldout"]["controls"]) >= {"bow_ci95", "length_overlap_ci95", "reversed"}
    table = mt.MeaningTriplesTask().summary_table(metrics)
    assert table[0][-4:] == ["control: BoW", "control: length/overlap", "headline", "balanced (n_eff)"]
    assert [r[0] for r in table[1:]] == ["heldout_EN", "heldout_PT", "heldout"]
    assert table[1][-2] == "no" and table[2][-2] == "yes"


def test_a_control_far_below_chance_is_no_headline_either(monkeypatch):
    """The same shortcut the other way round: a column where the bag of words is always wrong is no headline."""
    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([[1.0, 0.0]] * len(texts)))
    training = [Triple("x", "EN", f"a b c {i}", f"a b c {i} calm", f"a b c {i} pail", "pie") for i in range(20)]
    reversed_words = Triple("y", "EN", "q r", "q r pail", "q r calm", "ncs", heldout=True)  # paraphrase says "pail"
    metrics, _ = mt.score_triples(None, [reversed_words], controls=fit_controls(training))
    assert metrics["heldout_EN"]["controls"]["bow"] == 0.0 and not metrics["heldout_EN"]["controls"]["headline"]


def test_control_balanced_accuracy_weights_the_triples_so_each_control_scores_half(monkeypatch):
    """Four idioms, the bag of words right on three of them: weighted so it scores .5, a model right exactly where
    the bag of words is right scores .5 too, however high its raw accuracy."""
    training = [Triple("x", "EN", f"a b c {i}", f"a b c {i} calm", f"a b c {i} pail", "pie") for i in range(20)]
    controls = fit_controls(training)
    right = [Triple(f"i{k}", "EN", f"q{k} r", f"q{k} r calm", f"q{k} r pail", "ncs", heldout=True) for k in range(3)]
    wrong = Triple("i3", "EN", "q3 r", "q3 r pail", "q3 r calm", "ncs", heldout=True)
    triples = [*right, wrong]
    vectors = {t.paraphrase: [1.0, 0.0] for t in right} | {t.misreading: [0.0, 1.0] for t in right}
    vectors |= {wrong.paraphrase: [0.0, 1.0], wrong.misreading: [1.0, 0.0]}
    vectors |= {t.sentence: [1.0, 0.0] for t in triples}
    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([vectors[t] for t in texts]))
    metrics, _ = mt.score_triples(None, triples, controls=controls)
    block = metrics["heldout_EN"]
    assert block["accuracy"] == 0.75 and block["controls"]["bow"] == 0.75
    balanced = block["controls"]["balanced"]
    assert abs(balanced["accuracy"] - 0.5) < 1e-9  # the model knows what the bag of words knows, no more
    assert abs(balanced["n_eff"] - 3) < 1e-6  # weights 1/6, 1/6, 1/6, 1/2: 1 / (3/36 + 1/4)
    low, high = balanced["accuracy_ci95"]
    assert 0.0 <= low <= high <= 1.0


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


def test_the_card_records_which_lexicon_split_off_the_lookup_equal_triples(monkeypatch, tmp_path):
    """A model without a reader is split by the evaluation lexicon, whose reader version the block records (its seen
    column changes with it); a model whose own reader splits it records none (its card's ``reader_version`` does)."""
    from idiomkit.data.meaning_triples import CoreTest
    from idiomkit.idioms.version import READER_VERSION
    from idiomkit.tasks.base import EvalContext

    monkeypatch.setattr(mt, "encode_texts", lambda model, texts, **kw: np.array([VECTORS[t] for t in texts], float))
    training = [Triple("x", "EN", f"a b c {i}", f"a b c {i} calm", f"a b c {i} pail", "pie") for i in range(20)]
    monkeypatch.setattr(mt, "fitted_controls", lambda data_dir: fit_controls(training))
    triples = [Triple("pão duro", "PT", "s2", "fig2", "lit2", "astitch"), Triple("k", "EN", "s", "fig", "lit", "pie")]
    monkeypatch.setattr(mt, "core_test", lambda data_dir: CoreTest(triples, []))
    lexicon = Lexicon.from_pairs([("pão duro", "fig2")], language="PT")
    params = {}
    for which in ("evaluation", "the reader's"):
        monkeypatch.setattr(mt, "reader_lexicon", lambda model, data_dir, which=which: (lexicon, which))
        out = mt.MeaningTriplesTask().run(None, mt.MeaningTriplesOptions(), EvalContext(tmp_path))
        params[which] = out.params
        assert out.metrics["lookup_equal"]["n"] == 1 and out.metrics["seen"]["n"] == 1
    assert params["evaluation"]["lookup_lexicon_version"] == READER_VERSION
    assert "lookup_lexicon_version" not in params["the reader's"]
