"""Reading a long text costs time linear in its idioms (it was quadratic: 97 KB with 3,800 idioms took minutes), with
the same output: the rewrite of a text is the rewrite of its sentences read one by one, and the sense check's
features and probabilities of a long text's matches are those of the plain per-match computation.

Linear is tested as growth, never as seconds (a bound in seconds fails on a busy machine): four times the text
takes less than :data:`MAX_GROWTH` times as long (linear: about 4; quadratic: about 16), each size's best of
:data:`REPEATS` reads, the two sizes read in turn so that a slow spell of the machine slows both. The seconds
themselves are ``benchmarks/speed/read_speed.py``'s."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

import pytest

from idiomkit.idioms import sense as sense_module
from idiomkit.idioms.matcher import Matcher
from idiomkit.idioms.rewrite import Rewriter
from idiomkit.idioms.sense import GROUPS, _TextIndex, default_sense_check, features
from idiomkit.idioms.sources import default_lexicon

SENTENCES = (
    "She finally kicked the bucket.",
    "The test was a piece of cake.",
    "His joke broke the ice.",
    "Break a leg!",
    "We are all in the same boat.",
    "It costs an arm and a leg.",
    "She hit the nail on the head.",
    "Call it a day.",
    "Once in a blue moon we meet.",
    "The fisherman literally kicked the bucket over.",
    "Ele é um pão duro.",
    "That's the last straw.",
    'He said "break the ice" twice.',
    "In 2024 it was a piece of cake (really).",
    "Piece of cake, call it a day.",
    "An a piece of cake.",
)
EDGES = (
    ' Literally, the so-called "big fish" (kicked the bucket) — 3rd time; ÉLAN kicked   the bucket\n\n'
    "Ele é um pão-duro. O’Neil’s piece of cake. e\u0301 kick the bucket x\u0301y. It was a  piece of cake. "
    "The A piece of cake! the\tpiece of cake; Fisherman Joe's fish kicked the bucket. "
)  # quotes, brackets, dashes, digits, capitals, cue words, combining marks, curly apostrophes, odd spacing


MAX_GROWTH = 12.0  # time(4N) / time(N): linear reads give about 4, the old quadratic ones about 16
REPEATS = 3


def growth(read: Callable[[str], object], small: str, large: str) -> float:
    """Best time to read ``large`` over best time to read ``small`` (:data:`REPEATS` reads each, in turn, after one
    warm-up read)."""
    read(small)
    best = {small: math.inf, large: math.inf}
    for _ in range(REPEATS):
        for text in (small, large):
            start = time.perf_counter()
            read(text)
            best[text] = min(best[text], time.perf_counter() - start)
    return best[large] / best[small]


def test_the_growth_bound_tells_a_quadratic_reader_from_a_linear_one():
    """The bound can fail: a reader that rescans the rest of the text at every 50th character (quadratic, as the
    old rewrite was) grows past it."""
    text = " ".join(sentences(900))

    def quadratic(t: str) -> int:
        return sum(t[i:].count("e") for i in range(0, len(t), 50))

    assert growth(quadratic, text, text * 4) > MAX_GROWTH


@pytest.fixture(scope="module")
def lexicon():
    return default_lexicon()


def sentences(n: int) -> list[str]:
    """``n`` sentences of SENTENCES in turn, every fifth after a numbered name (a growing vocabulary)."""
    return [
        f"Ann{i} says: {SENTENCES[i % len(SENTENCES)]}" if i % 5 == 4 else SENTENCES[i % len(SENTENCES)]
        for i in range(n)
    ]


def test_a_4000_idiom_text_is_rewritten_as_its_sentences_one_by_one_in_linear_time(lexicon):
    """Every match figurative (no sense check): the text's reading is its sentences' readings, joined; 97 KB took
    12 s when each replacement rebuilt and searched the whole text. Four times the text, about four times the
    time."""
    rewriter = Rewriter(lexicon, "replace")
    parts = sentences(3600)
    text = " ".join(parts)
    reading = rewriter.read(text)
    pieces = [rewriter.read(p) for p in parts]
    offsets = [0]
    for p in parts:
        offsets.append(offsets[-1] + len(p) + 1)
    assert len(reading.found) > 3800 and len(text) > 90_000
    assert reading.rewritten == " ".join(p.rewritten for p in pieces)
    assert [(f.match.start, f.match.end, f.replacement) for f in reading.found] == [
        (f.match.start + at, f.match.end + at, f.replacement)
        for p, at in zip(pieces, offsets, strict=False)
        for f in p.found
    ]
    ratio = growth(rewriter.read, " ".join(parts[:900]), text)
    assert ratio < MAX_GROWTH, f"4x the text took {ratio:.1f}x as long ({len(reading.found)} idioms)"


def test_a_1000_idiom_text_with_the_sense_check_reads_in_linear_time_and_scores_as_before(lexicon, monkeypatch):
    """The shipped sense check on a 24 KB text of ~1,000 idioms (30 s before: every match re-read the whole text):
    four times the text takes about four times as long, and every 40th match's probability is exactly the one of
    the per-match computation."""
    check = default_sense_check()
    rewriter = Rewriter(lexicon, "replace", check)
    text = " ".join(sentences(950))
    reading = rewriter.read(text)
    assert len(reading.found) >= 1000 and any(f.figurative for f in reading.found)
    assert any(not f.figurative for f in reading.found)
    ratio = growth(rewriter.read, " ".join(sentences(240)), text)
    assert ratio < MAX_GROWTH, f"4x the text took {ratio:.1f}x as long ({len(reading.found)} idioms)"
    monkeypatch.setattr(sense_module, "LONG_TEXT", len(text) + 1)  # the plain per-match computation
    plain = default_sense_check()
    sample = reading.found[::40]
    assert [f.probability for f in sample] == [plain.figurative_probability(text, f.match) for f in sample]


def test_the_indexed_features_are_the_plain_features(lexicon):
    """Every match of a text full of edge cases, and random spans (those that cut no word), all feature groups."""
    text = " ".join(sentences(40)) + EDGES * 3
    check = default_sense_check()
    index = _TextIndex(text, check.weights)
    matches = Matcher(lexicon).find(text)
    assert len(matches) > 60
    for m in matches:
        assert index.features(m.start, m.end, m.idiom, m.language, GROUPS) == features(
            text, m.start, m.end, m.idiom, m.language, GROUPS
        ), m
    rng, compared = random.Random(0), 0
    for _ in range(400):
        start = rng.randrange(len(text))
        end = min(len(text), start + rng.randrange(40))
        indexed = index.features(start, end, "kick the bucket", "EN", GROUPS)
        if indexed is not None:
            compared += 1
            assert indexed == features(text, start, end, "kick the bucket", "EN", GROUPS), (start, end)
    assert compared > 50


def test_a_text_whose_lowercasing_moves_offsets_is_read_without_the_index(lexicon, monkeypatch):
    """ "İ" lower-cases to two characters and "Σ" by context: such a text is not indexed, and its matches score as
    in the plain computation."""
    rewriter = Rewriter(lexicon, "replace", default_sense_check())
    for odd in ("İstanbul broke the ice. ", "ΣΑΣ broke the ice. "):
        text = odd * 110
        assert len(text) >= sense_module.LONG_TEXT and not _TextIndex(text, {}).usable
        found = rewriter.read(text).found
        with monkeypatch.context() as patch:
            patch.setattr(sense_module, "LONG_TEXT", len(text) + 1)
            plain = default_sense_check()
            assert [f.probability for f in found] == [plain.figurative_probability(text, f.match) for f in found]
        assert len(found) == 110
