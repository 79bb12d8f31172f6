"""English inflection: one irregular verb table read by the matcher (every form) and the rewriter (one form)."""

from __future__ import annotations

import pytest

from idiomkit.idioms import Lexicon, Matcher
from idiomkit.idioms.morphology_en import EN_VERBS, FORMS, en_forms, en_lemmas, inflect, verb_form, verb_lemma
from idiomkit.idioms.rewrite import Rewriter


def test_swim_inflects_one_way_in_the_matcher_and_the_rewriter():
    # the rewriter once had its own table of irregular pasts, without "swim": it wrote "swimmed", a form the
    # matcher's table never accepted; both read EN_VERBS now
    assert inflect("swim", "past") == "swam" and "swam" in en_forms("swim") and "swimmed" not in en_forms("swim")
    assert verb_form("swam", "swim") == "past" and verb_form("swum", "swim") == "participle"
    assert inflect("swim", "participle") == "swum"
    lexicon = Lexicon.from_pairs([("kick the bucket", "to swim"), ("swim against the tide", "to resist")])
    assert Rewriter(lexicon, "replace").rewrite("He kicked the bucket.") == "He swam."
    assert [m.text for m in Matcher(lexicon).find("They swam against the tide.")] == ["swam against the tide"]


def test_dye_keeps_its_e_before_ing_everywhere():
    # the rewriter once wrote "dying" for "dye" (its e-dropping rule only spared "ee"); the matcher wanted "dyeing"
    assert inflect("dye", "ing") == "dyeing" and verb_form("dyeing", "dye") == "ing"
    assert inflect("die", "ing") == "dying" and "dying" not in en_forms("dye")


@pytest.mark.parametrize("lemma", sorted(EN_VERBS))
def test_every_form_the_rewriter_makes_the_matcher_accepts_and_reads_back(lemma):
    for form in FORMS:
        word = inflect(lemma, form)
        assert word in en_forms(lemma), (lemma, form, word)
        assert inflect(lemma, verb_form(word, lemma)) == word, (lemma, form, word)  # "cut": past reads as base
    participle = inflect(lemma, "participle")  # "gone"; "kept" reads as a past, the same word
    assert participle in en_forms(lemma) and inflect(lemma, verb_form(participle, lemma)) == participle, lemma


def test_regular_verbs_round_trip():
    for lemma in ("kick", "stop", "try", "die", "fix", "free", "hoe", "visit", "panic", "picnic"):
        assert [verb_form(inflect(lemma, f), lemma) for f in FORMS] == list(FORMS), lemma


def test_a_final_ic_takes_k_before_ed_and_ing_and_is_read_back():
    assert [inflect("panic", f) for f in ("past", "ing")] == ["panicked", "panicking"]
    assert "panic" in en_lemmas("panicked") and "panicking" in en_forms("panic")
    assert inflect("kick", "past") == "kicked"  # a -ck verb keeps its spelling


@pytest.mark.parametrize(
    ("word", "lemma"),
    [
        ("saved", "save"),
        ("baying", "bay"),
        ("being", "be"),
        ("lying", "lie"),  # -ying of an -ie verb: the rewriter's two lemmatisers once disagreed here
        ("tied", "tie"),
        ("tried", "try"),
        ("panicking", "panic"),
        ("fled", "flee"),  # an irregular -ed form, from the verb table
        ("stopped", "stop"),
        ("bing", None),  # not "be"
        ("broke", None),  # irregular forms without -ed/-ing are the caller's
        ("table", None),
    ],
)
def test_one_lemma_for_every_ed_and_ing_form(word, lemma):
    assert verb_lemma(word) == lemma
    if lemma is not None:
        assert word in en_forms(lemma)
