"""The held-out dedup: comparison keys, and the filter's drops and counts on a hand-built index."""

from __future__ import annotations

import logging

from idiomkit.data.heldout import HeldOut, filter_heldout
from idiomkit.data.keys import normalise_idiom, normalise_sentence


def test_sentence_key_ignores_case_punctuation_width_and_spaces():
    assert normalise_sentence("  He  KICKED the bucket!! ") == normalise_sentence("he kicked the bucket")
    assert normalise_sentence("Ｃafé, “ok”") == "café ok"  # NFKC folds the full-width letter
    assert normalise_sentence("he kicked the bucket") != normalise_sentence("he kicked the pail")


def test_idiom_key_drops_slots_articles_and_possessives():
    assert normalise_idiom("Keep [pron] eye on") == normalise_idiom("keep an eye on") == "keep eye on"
    assert normalise_idiom("pull someone's leg") == normalise_idiom("Pull (somebody's) leg") == "pull leg"
    assert normalise_idiom("Pão-duro") == "pão duro"


INDEX = HeldOut(frozenset({normalise_sentence("A held-out sentence.")}), frozenset({normalise_idiom("big fish")}))


def test_filter_drops_planted_sentence_and_idiom_and_counts_them(caplog):
    rows = [("a HELD-OUT sentence", "x", "night owl"), ("fine", "fine too", "the big fish"), ("ok", "ok", "home run")]
    with caplog.at_level(logging.INFO, logger="idiomkit.data.heldout"):
        out = filter_heldout("toy", rows, lambda r: r[:2], lambda r: [r[2]], index=INDEX)
    assert out.kept == [rows[2]]
    assert out.counts() == {"total": 3, "kept": 1, "dropped_sentence": 1, "dropped_idiom": 1}
    assert "held-out dedup toy: kept 1 of 3 (1 with a held-out sentence, 1 of a held-out idiom)" in caplog.text


def test_without_an_idiom_function_only_sentences_are_checked():
    out = filter_heldout("sts", [("big fish", "a held-out sentence")], lambda r: r, index=INDEX)
    assert out.kept == [] and out.dropped_sentence == 1
    out = filter_heldout("sts", [("big fish", "fine")], lambda r: r, index=INDEX)
    assert len(out.kept) == 1


def test_with_idioms_adds_idioms_and_keeps_the_rest():
    more = INDEX.with_idioms(["kick the bucket"], "core")
    assert more.has_idiom("kicked the bucket") is False  # keys compare lemma forms, not inflections
    assert more.has_idiom("Kick the Bucket") and more.has_idiom("big fish")
    assert more.sizes["core idioms"] == 1 and more.sentences == INDEX.sentences
