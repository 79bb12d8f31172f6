"""Fragment meanings (the lexicon build's screen): connectives only, a dangling article or conjunction, an article
and one adjective; other meanings kept, each drop counted and logged."""

from __future__ import annotations

import logging

import pytest

from idiomkit.idioms.fragments import drop_fragments, is_fragment
from idiomkit.idioms.lexicon_build import Sense, lexicon_from_rows
from idiomkit.idioms.light import LightWords
from idiomkit.idioms.sources import BuildReport

# "arbitrary" and "sheltered" are adjectives only; "plain" is an adjective and a noun
WORDS = LightWords(
    nouns=frozenset({"plain", "deadline", "search"}),
    restatements={w: frozenset({w}) for w in ("arbitrary", "sheltered", "plain", "futile")},
)


@pytest.mark.parametrize(
    ("meaning", "language"),
    [
        ("or", "EN"),  # a parse that kept the connective only
        ("the ... the", "EN"),
        ("such a, what a", "EN"),
        ("on behalf of the", "EN"),  # a dangling article
        ("to have commanding power or influence, and", "EN"),  # a dangling conjunction
        ("one who dresses and/", "EN"),
        ("an arbitrary", "EN"),  # the cut kept the adjective, not its noun
        ("A sheltered", "EN"),
        ("valor dependente de convenção e", "PT"),
        ("ou", "PT"),
    ],
)
def test_fragments(meaning, language):
    assert is_fragment(meaning, language, WORDS)


@pytest.mark.parametrize(
    ("meaning", "language"),
    [
        ("to die", "EN"),
        ("very close to a deadline", "EN"),
        ("and so on, et cetera", "EN"),  # a leading conjunction with content after it
        ("a plain", "EN"),  # a noun too
        ("a futile search", "EN"),
        ("planear, atender a", "PT"),  # Portuguese "a" is a preposition too
        ("andar servilmente, bajulando-o", "PT"),  # a clitic, not the article "o"
        ("an arbitrary", "PT"),  # the adjective rule is English only
    ],
)
def test_meanings_that_are_not_fragments(meaning, language):
    assert not is_fragment(meaning, language, WORDS)


def test_the_adjective_rule_needs_wordnet():
    assert not is_fragment("an arbitrary", "EN") and is_fragment("on behalf of the", "EN")


def test_drop_fragments_counts_per_source_and_the_build_keeps_the_other_meanings(caplog):
    rows = [
        Sense("last minute", "EN", "an arbitrary", "theidioms"),  # an idiom source: the entry is an idiom
        Sense("last minute", "EN", "very close to a deadline", "theidioms"),
        Sense("keep counsel", "EN", "or", "gcide"),
        Sense("na qualidade de", "PT", "such a, what a", "freedict", "EN"),  # judged in its gloss's language
    ]
    report = BuildReport()
    with caplog.at_level(logging.INFO, logger="idiomkit.idioms.fragments"):
        kept = drop_fragments(rows, report, WORDS)
    assert kept == [rows[1]]
    assert report.as_dict() == {
        "freedict": {"dropped: meaning a fragment": 1},
        "gcide": {"dropped: meaning a fragment": 1},
        "theidioms": {"dropped: meaning a fragment": 1},
    }
    assert "3 fragment meanings dropped ('last minute' -> 'an arbitrary'" in caplog.text
    lex = lexicon_from_rows(rows, light=WORDS)
    assert lex.get("last minute").meanings == ("very close to a deadline",) and lex.get("keep counsel") is None
