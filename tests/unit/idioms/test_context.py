"""A bare use (:func:`idiomkit.idioms.context.bare_use`): nothing around the idiom but function words, time
adverbs and names, so the reader reads it as figurative; any content word, a long text or another language is no
bare use."""

from __future__ import annotations

from dataclasses import replace

import pytest

from idiomkit.idioms import Lexicon, Matcher
from idiomkit.idioms.context import bare_use

MATCHER = Matcher(
    Lexicon.from_pairs([("spill the beans", "to reveal a secret"), ("man in the street", "an average person")])
)
PT = Matcher(Lexicon.from_pairs([("pisar na bola", "errar")], language="PT"))


@pytest.mark.parametrize(
    "text, bare",
    [
        ("She spilled the beans.", True),
        ("She spilled the beans yesterday!", True),
        ("Why did you spill the beans?", False),  # "why" asks: not a function word here
        ("Oh, John spilled the beans again.", True),  # a name
        ("She’s finally spilled the beans.", True),  # a curly apostrophe
        ("She spilled the beans all over the floor.", False),
        ("The cook spilled the beans.", False),
        ("Spilled the beans.", True),
        ("Beans spilled the beans.", False),  # a capitalised first word is no name
        ("She spilled all the beans.", False),  # a word inserted in the idiom: the match itself is uncertain
        ("A man is dancing in the street.", False),  # not "man in the street" with three words inserted
    ],
)
def test_a_bare_use_has_only_function_words_around_it(text, bare):
    (match,) = MATCHER.find(text)
    assert bare_use(text, match) is bare


def test_portuguese_has_its_own_function_words_and_a_long_text_is_never_bare():
    (match,) = PT.find("Ela pisou na bola de novo.")
    assert bare_use("Ela pisou na bola de novo.", match)
    (match,) = PT.find("Ela pisou na bola de futebol.")
    assert not bare_use("Ela pisou na bola de futebol.", match)
    text = "She spilled the beans. " + "and then " * 20
    (match,) = MATCHER.find(text)
    assert not bare_use(text, match)
    (match,) = MATCHER.find("She spilled the beans.")
    assert not bare_use("She spilled the beans.", replace(match, language="GL"))
