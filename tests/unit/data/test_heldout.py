"""The held-out dedup: comparison keys, the variant-aware check (held-out idioms in any form), and the filter's
drops and counts on a hand-built index."""

from __future__ import annotations

import logging

import pytest

from idiomkit.data.heldout import HeldOut, IdiomForms, filter_heldout, idiom_sequence
from idiomkit.data.keys import canonical_spelling, normalise_idiom, normalise_sentence


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
    assert out.counts() == {"total": 3, "kept": 1, "dropped_sentence": 1, "dropped_idiom": 1, "dropped_form": 0}
    assert "held-out dedup toy: kept 1 of 3 (1 with a held-out sentence, 1 of a held-out idiom, 0 holding" in (
        caplog.text
    )


def test_without_an_idiom_function_only_sentences_are_checked():
    out = filter_heldout("sts", [("big fish", "a held-out sentence")], lambda r: r, index=INDEX)
    assert out.kept == [] and out.dropped_sentence == 1
    out = filter_heldout("sts", [("big fish", "fine")], lambda r: r, index=INDEX)
    assert len(out.kept) == 1


def test_with_idioms_adds_idioms_and_keeps_the_rest():
    assert INDEX.has_idiom("kicked the bucket") is False
    more = INDEX.with_idioms([("kick the bucket", "EN")], "core")
    assert more.has_idiom("Kick the Bucket") and more.has_idiom("big fish")
    assert more.has_idiom("kicked the bucket")  # in any form: the variant check reads the label as text
    assert more.sizes["core idioms"] == 1 and more.sentences == INDEX.sentences


# --- held-out idioms in any form: the examples, and what must not match ---------------------------------

HELD = [
    ("pull leg", "EN"),
    ("wash hands of", "EN"),
    ("ants in pants", "EN"),
    ("twist arm", "EN"),
    ("wear heart on sleeve", "EN"),
    ("get act together", "EN"),
    ("find feet", "EN"),
    ("as easy as pie", "EN"),
    ("knight in shining armour", "EN"),
    ("beat about the bush", "EN"),
    ("mend fences", "EN"),
    ("in the doldrums", "EN"),
    ("stone's throw", "EN"),
    ("wouldn't be caught dead", "EN"),
    ("ar livre", "PT"),
]
FOUND = [
    ("he was pulling my leg", "pull leg"),
    ("Stop pulling someone's leg.", "pull leg"),
    ("As a big brother, he was always pulling his sister's leg.", "pull leg"),
    ("wash one's hands", "wash hands of"),
    ("I washed my hands of it months ago.", "wash hands of"),
    ("They must have ants in their pants.", "ants in pants"),
    ("have ants in your pants", "ants in pants"),
    ("They had to twist his arm a bit.", "twist arm"),
    ("No arm-twisting was needed.", "twist arm"),
    ("He wore his heart on his sleeve.", "wear heart on sleeve"),
    ("wear your heart on your sleeve", "wear heart on sleeve"),
    ("The official had to get his act together.", "get act together"),
    ("Give him time to find his feet.", "find feet"),
    ("She quickly found her feet.", "find feet"),
    ("The exam was as easy as a pie .", "as easy as pie"),  # PIE's tokenised text
    ("a knight in shining armor", "knight in shining armour"),  # American spelling
    ("Stop beating around the bush.", "beat about the bush"),  # about / around
    ("Diplomatic fence mending took months.", "mend fences"),  # the other way round
    ("The economy has been in the doldrums.", "in the doldrums"),
    ("be in the doldrums", "in the doldrums"),
    ("His workplace is a stone 's throw away .", "stone's throw"),
    ("He would n't be caught dead there .", "wouldn't be caught dead"),
    ("Almoçamos ao ar livre.", "ar livre"),
]
NOT_FOUND = [
    "He pulled a hamstring in his left leg.",  # too many other words between
    "She twisted her ankle and hurt her arm.",
    "My feet hurt, and I could not find my shoes.",  # wrong order, far apart
    "The pie was not easy to bake.",
    "The bush was beaten flat by the storm.",
    "He washed the dishes by hand.",  # a content word between the idiom's words
    "There were ants in the kitchen.",
    "She wore a heart-shaped pendant.",
    "We got together after the act.",
    "armor plating for a knight",
    "livre acesso ao ar condicionado",
    "He fell in. The doldrums came later.",  # a sentence break between the words
]


@pytest.fixture(scope="module")
def forms():
    return IdiomForms(HELD)


@pytest.mark.parametrize(("text", "idiom"), FOUND)
def test_every_form_of_a_heldout_idiom_is_found(forms, text, idiom):
    assert forms.find(text) == [idiom]


@pytest.mark.parametrize("text", NOT_FOUND)
def test_literal_neighbours_are_not_found(forms, text):
    assert forms.find(text) == []


def test_british_and_american_spellings_compare_equal():
    for british, american in (("armour", "armor"), ("realised", "realized"), ("centre", "center"), ("grey", "gray")):
        assert canonical_spelling(british) == canonical_spelling(american)
    assert canonical_spelling("four") == "four" and canonical_spelling("your") == "your"


def test_the_sequence_is_the_content_words_or_all_but_articles():
    assert idiom_sequence("wash one's hands of", "EN") == (["wash", "hands"], True)
    assert idiom_sequence("wouldn't be caught dead", "EN") == (["caught", "dead"], True)
    assert idiom_sequence("on the doorstep", "EN") == (["on", "doorstep"], False)
    assert idiom_sequence("a steal", "EN") == ([], False)  # one word left: the matcher alone
    assert idiom_sequence("ao ar livre", "PT") == (["ar", "livre"], True)


def test_the_index_finds_forms_inside_texts_and_labels_and_the_filter_counts_them(caplog):
    index = HeldOut(frozenset(), frozenset({normalise_idiom(i) for i, _ in HELD}), forms=frozenset(HELD))
    assert index.has_idiom("pulling someone's leg") and index.has_idiom("wash one's hands")
    assert index.has_idiom("knight in shining armor") and not index.has_idiom("kick the bucket")
    rows = [("O menino brinca ao ar livre.",), ("He was pulling my leg.",), ("A plain sentence.",)]
    with caplog.at_level(logging.INFO, logger="idiomkit.data.heldout"):
        out = filter_heldout("sts", rows, lambda r: r, index=index)
    assert out.kept == [rows[2]] and out.dropped_form == 2
    assert "2 holding a held-out idiom in another form" in caplog.text
    assert filter_heldout("2B task rule", rows, lambda r: r, index=index, forms=False).kept == rows
