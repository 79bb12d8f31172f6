"""The shipped sense check (``idioms/resources/sense.json``, written by ``benchmarks/sense/sense_check.py``)."""

from __future__ import annotations

import pytest

from idiomkit.idioms import Lexicon, Matcher
from idiomkit.idioms.sense import RESOURCE, SenseCheck, default_sense_check


@pytest.fixture(scope="module")
def check() -> SenseCheck:
    return default_sense_check()


def _big_fish(sentence: str):
    (match,) = Matcher(Lexicon.from_pairs([("big fish", "an important person")])).find(sentence)
    assert match.text == "big fish"
    return match


def test_the_shipped_model_loads_and_is_small(check):
    assert RESOURCE.stat().st_size < 1_000_000
    assert 0.0 < check.threshold < 1.0 and len(check.weights) > 1000
    assert {"validation", "evaluation", "samples", "C"} <= set(check.summary)


def test_big_fish_literal_and_figurative(check):
    """The idiom "big fish" is in no training source: both judgements come from the context."""
    literal, figurative = "The fisherman landed a big fish.", "The CEO is a big fish in this town."
    assert not check.is_figurative(literal, _big_fish(literal))
    assert check.is_figurative(figurative, _big_fish(figurative))
    assert check.figurative_probability(literal, _big_fish(literal)) < check.figurative_probability(
        figurative, _big_fish(figurative)
    )
