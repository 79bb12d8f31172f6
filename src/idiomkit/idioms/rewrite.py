"""Rewrite the figurative idioms of a text so an encoder reads their meaning: mark, gloss or replace each span.

:class:`Rewriter` finds the lexicon's idioms (:class:`~idiomkit.idioms.matcher.Matcher`), asks an optional sense
check whether each is meant figuratively (no sense check: every match counts as figurative; a bare use, with
nothing around it to judge by, counts as figurative whatever the check says: :mod:`~idiomkit.idioms.context`),
and rewrites the figurative ones; a text with nothing figurative comes back unchanged (the same string). Modes:

- ``mark``: « » around the span: "she finally «kicked the bucket»".
- ``gloss``: the meaning in brackets right after the span, where a reader expects it (not at the end of the text,
  where it would drift from its idiom once there are two): "she finally kicked the bucket (to die)".
- ``replace``: the span becomes its first meaning, cut to its core and shaped to the sentence
  (:mod:`~idiomkit.idioms.shape`): "she finally died", "She told someone a secret" (for "to tell someone a
  secret, especially without intending to"), "She was right", "he is teasing me", "Ele errou de novo". A verb
  phrase takes the tense, person and aspect of the idiom's verb (irregular verbs and "be" included), the idiom's
  slots fill the meaning's "someone"/"one's", a plural noun idiom gives a plural meaning; "a"/"an" before the span
  agrees with the new first word; a capitalised span gives a capitalised meaning. A Portuguese idiom whose first
  meaning is English (LIdioms) is glossed instead.

Example::

    rewriter = Rewriter(Lexicon.from_pairs([("kick the bucket", "to die")]), mode="replace")
    rewriter.rewrite("She finally kicked the bucket.")  # "She finally died."
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from idiomkit.errors import OptionError
from idiomkit.idioms.context import bare_use
from idiomkit.idioms.fit import fits
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.matcher import Match, Matcher
from idiomkit.idioms.morphology import word_set
from idiomkit.idioms.shape import shape_meaning
from idiomkit.idioms.shape_pt import pt_agree_after, pt_article

MODES = ("mark", "gloss", "replace")


class SenseLike(Protocol):
    """What the rewriter needs of a sense check (:class:`~idiomkit.idioms.sense.SenseCheck` has it): a probability
    and a threshold; a check with a ``threshold_for(language)`` method has one threshold per language."""

    threshold: float

    def figurative_probability(self, sentence: str, match: Match) -> float: ...


def threshold_of(sense: SenseLike, language: str) -> float:
    """``sense``'s threshold for a match in ``language`` (``threshold_for`` where it has one, else ``threshold``)."""
    per_language = getattr(sense, "threshold_for", None)
    return float(per_language(language)) if per_language is not None else float(sense.threshold)


@dataclass(frozen=True)
class Found:
    """One match: the sense check's probability (None without one), its decision, and what replaced it."""

    match: Match
    probability: float | None
    figurative: bool
    replacement: str | None  # None: left as it is (a literal use, or no meaning fits the sentence)
    bare: bool = False  # nothing around the idiom to judge by: figurative whatever the sense check says


@dataclass(frozen=True)
class Reading:
    """A text, what was found in it, and the rewritten text (``text`` itself when nothing was figurative)."""

    text: str
    rewritten: str
    mode: str
    found: tuple[Found, ...]
    edits: tuple[tuple[int, int, str], ...] = ()  # (start, end, new text): text[start:end] became new, in order

    @property
    def changed(self) -> bool:
        return self.rewritten != self.text

    def map_span(self, start: int, end: int) -> tuple[int, int]:
        """The character span ``[start, end)`` of ``text`` in ``rewritten``: text before or after a rewritten
        idiom moves with the rewrite; a span that reaches into a rewritten idiom takes in all of its new text.

        Example::

            reading = Rewriter(lexicon, mode="replace").read("She finally kicked the bucket.")  # "She finally died."
            reading.map_span(12, 29), reading.map_span(0, 3), reading.map_span(29, 30)  # (12, 16), (0, 3), (16, 17)
        """
        new_start = new_end = None
        shift_start = shift_end = 0
        delta = 0  # how much the rewritten text has grown before the current edit
        for a, b, new in self.edits:
            if a <= start < b:
                new_start = a + delta
            elif b <= start:
                shift_start = delta + len(new) - (b - a)
            if a < end <= b:
                new_end = a + delta + len(new)
            elif b <= end:
                shift_end = delta + len(new) - (b - a)
            delta += len(new) - (b - a)
        mapped = (
            start + shift_start if new_start is None else new_start,
            end + shift_end if new_end is None else new_end,
        )
        return mapped[0], max(mapped)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (match fields flattened into each found item)."""
        items = [
            {
                **asdict(f.match),
                "meanings": list(f.match.meanings),
                "probability": f.probability,
                "figurative": f.figurative,
                "bare": f.bare,
                "replacement": f.replacement,
            }
            for f in self.found
        ]
        return {"text": self.text, "rewritten": self.rewritten, "mode": self.mode, "found": items}


def check_mode(mode: str) -> str:
    """``mode`` if it is one of :data:`MODES`, else OptionError."""
    if mode not in MODES:
        raise OptionError(f"unknown reader mode {mode!r} (expected one of {', '.join(MODES)})")
    return mode


# --- replace: the article before the span ---------------------------------------------------------------------


def _article(before: str, replacement: str) -> str:
    """``before`` with a final "a"/"an" made to agree with the replacement's first letter."""
    m = re.search(r"\b(a|an|A|An)(\s+)$", before)
    if not m:
        return before
    if re.match(r"(?:\d|(?:two|three|four|five|six|seven|eight|nine|ten|many|several|some)\b)", replacement, re.I):
        return before[: m.start(1)]  # "a" + "two people who ..." -> "two people who ..."
    vowel = replacement[:1].lower() in "aeiou" and not re.match(
        r"(?:one\b|once\b|uni(?:que|t|vers|form|on)|us[eu]|eu)", replacement, re.I
    )
    word = ("an" if vowel else "a") if m.group(1).islower() else ("An" if vowel else "A")
    return before[: m.start(1)] + word + m.group(2)


_KEEPS_THE = re.compile(r"(?!(?:a|an|the|this|that|it|its|his|her|their|my|your|our|one|some|any|no)\b)\w+\s+\w", re.I)


def _drop_article(before: str, idiom: str, replacement: str = "") -> str:
    """``before`` without its final article when the idiom starts with one (the matcher leaves a leading article
    out of the span): "was a" + "piece of cake" -> "was" + "easy"; an idiom's "the" stays before a replacement of
    two or more words that starts with no determiner ("The acid test" -> "The conclusive test")."""
    if re.match(r"the\s", idiom, re.I) and _KEEPS_THE.match(replacement):
        return before
    if re.match(r"(?:a|an|the)\s", idiom, re.I):
        return re.sub(r"\b(?:a|an|the)\s+$", "", before, flags=re.I)
    return before


def _edge(text: str, start: int) -> int:
    """Where the part of ``text[:start]`` that :func:`_drop_article`, :func:`_article` and
    :func:`~idiomkit.idioms.shape_pt.pt_article` may change begins: the whitespace before ``start``, the article
    before it (at most 4 letters: "umas") and one character more (their ``\\b`` sees it)."""
    k = start
    while k and text[k - 1].isspace():  # str.isspace: the \s of a str regex
        k -= 1
    return max(0, k - 5)


# --- the text's language -----------------------------------------------------------------------------------------

# frequent function words of one language that are no word of the other ("a", "as", "no", "do", "me" are both)
_CUES = {
    "EN": word_set(
        "the of and to is are was were be been this that these those with for from have has had it its which who "
        "would will he she they we you his their our an at by or but what there"
    ),
    "PT": word_set(
        "de da dos das em na nos nas ao aos à às pelo pela pelos pelas um uma uns umas os que não é e ele ela eles "
        "elas com para por mas mais como foi está são ser seu sua muito também já isso esse essa este esta"
    ),
}
LANGUAGE_MARGIN = 2  # cue words one language needs beyond the other's before the text counts as written in it
_CUE_WORD = re.compile(r"\w+")


def text_language(text: str) -> str | None:
    """EN or PT when the text's function words say so (:data:`LANGUAGE_MARGIN` more cue words of one language than
    of the other), else None: a short or mixed text, read with both languages' idioms."""
    words = _CUE_WORD.findall(text.casefold())
    en, pt = (sum(w in _CUES[language] for w in words) for language in ("EN", "PT"))
    if abs(en - pt) < LANGUAGE_MARGIN:
        return None
    return "EN" if en > pt else "PT"


_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n\s*\n")


def in_their_language(text: str, matches: Sequence[Match]) -> list[Match]:
    """The ``matches`` whose idiom is in the language of their sentence (:func:`text_language` of each sentence of
    ``text``; a sentence that does not tell keeps both languages' idioms): a Portuguese sentence is not read with
    English idioms ("Ele pisou na bola de novo": "de novo" is not the English "anew")."""
    if not matches:  # most texts: no sentence needs its language
        return []
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(text))]
    languages = [text_language(text[a:b]) for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    return [m for m in matches if languages[bisect_right(starts, m.start) - 1] in (None, m.language)]


# --- the rewriter -----------------------------------------------------------------------------------------------


class Rewriter:
    """Marks, glosses or replaces the figurative idioms of texts (module docstring).

    Args:
        lexicon: the idioms and their meanings.
        mode: ``mark``, ``gloss`` or ``replace``.
        sense: a sense check (``figurative_probability`` and ``threshold``, optionally ``threshold_for``); None:
            every match is figurative.
        language: only idioms of this language (EN or PT); None: each sentence's language as its function words
            tell (:func:`in_their_language`), both when they do not.
        max_gap: the matcher's most inserted words.

    Example::

        Rewriter(lexicon, mode="gloss").rewrite("He spilled the beans.")  # "He spilled the beans (reveal a secret)."
    """

    def __init__(
        self,
        lexicon: Lexicon,
        mode: str = "replace",
        sense: SenseLike | None = None,
        language: str | None = None,
        max_gap: int = 2,
    ) -> None:
        self.lexicon, self.mode, self.sense = lexicon, check_mode(mode), sense
        self.language, self.max_gap = language, max_gap
        self.matcher = Matcher(lexicon, max_gap=max_gap)

    def read(self, text: str) -> Reading:
        """What was found in ``text`` and the rewritten text."""
        return self._reading(text, self._matches(text))

    def read_all(self, texts: Sequence[str]) -> list[Reading]:
        """:meth:`read` of every text; a sense check that scores in batches (one with ``prefetch``, the encoder)
        first scores every match of ``texts`` in one pass, so its one-by-one answers cost nothing more."""
        matches = [self._matches(t) for t in texts]
        prefetch = getattr(self.sense, "prefetch", None)
        if prefetch is not None:
            prefetch([(t, m.start, m.end) for t, found in zip(texts, matches, strict=True) for m in found])
        return [self._reading(t, found) for t, found in zip(texts, matches, strict=True)]

    def _matches(self, text: str) -> list[Match]:
        matches = self.matcher.find(text, self.language)
        return matches if self.language else in_their_language(text, matches)

    def _reading(self, text: str, matches: Sequence[Match]) -> Reading:
        found = tuple(self._judge(text, m) for m in matches)
        # right to left; the rewritten text is head[:at] + the pieces reversed, so that each replacement costs the
        # size of its neighbourhood, not of the text: an article edit only reaches the word before the span. Each
        # edit is kept in the original text's offsets (Reading.map_span moves spans through them).
        head, at, pieces, edits = text, len(text), [], []
        for item in sorted((f for f in found if f.replacement is not None), key=lambda f: -f.match.start):
            if item.match.end > at:  # an edit reached into this span (the matcher's spans never do): join first
                head, pieces = head[:at] + "".join(reversed(pieces)), []
                at = len(head)
            edge = _edge(head, item.match.start)
            old = before = head[edge : item.match.start]
            new = item.replacement
            begin = item.match.start
            if self._replaces(item.match):
                cut = _drop_article(before, item.match.idiom, new)
                new = new[:1].upper() + new[1:] if before[len(cut) : len(cut) + 1].isupper() else new
                before = _article(cut, new) if item.match.language == "EN" else pt_article(cut, new)
                begin = edge + len(os.path.commonprefix([old, before]))  # a dropped or changed article is edited
                while begin and head[begin - 1].isalnum():  # from its first letter: "a big fish" -> "an important.."
                    begin -= 1
            tail = head[item.match.end : at]
            agreed = pt_agree_after(tail, item.match.text, new) if self._replaces(item.match) else None
            if agreed is not None and item.match.language == "PT":  # "o cérebro alterado": after the span
                a, b, word = agreed
                edits.append((item.match.end + a, item.match.end + b, word))
                tail = tail[:a] + word + tail[b:]
            edits.append((begin, item.match.end, head[begin:edge] + before[max(0, begin - edge) :] + new))
            pieces += [tail, new, before]
            at = edge
        if not found:
            return Reading(text, text, self.mode, found)
        return Reading(text, head[:at] + "".join(reversed(pieces)), self.mode, found, tuple(reversed(edits)))

    def rewrite(self, text: str) -> str:
        """``text`` rewritten (the same string when nothing figurative was found)."""
        return self.read(text).rewritten

    def _judge(self, text: str, match: Match) -> Found:
        probability = None if self.sense is None else float(self.sense.figurative_probability(text, match))
        bare = probability is not None and probability < threshold_of(self.sense, match.language)
        bare = bare and bare_use(text, match)  # "She spilled the beans.": nothing makes it literal
        figurative = probability is None or probability >= threshold_of(self.sense, match.language) or bare
        replacement = self._replacement(match, text[: match.start], text[match.end :]) if figurative else None
        return Found(match, probability, figurative, replacement, bare)

    def _replaces(self, match: Match) -> bool:
        return self.mode == "replace" and not self._english_gloss(match)

    def _english_gloss(self, match: Match) -> bool:
        """An idiom whose first meaning is in another language (a Portuguese idiom with an English meaning): glossed
        for multilingual encoders, never replaced (a replacement would put English words into Portuguese text)."""
        entry = self.lexicon.get(match.idiom, match.language)
        return entry is not None and entry.meaning_language(0) != match.language

    def _replacement(self, match: Match, before: str = "", after: str = "") -> str | None:
        """What the span becomes; ``before`` / ``after``: the text around it (the replacement agrees with it). In
        ``replace`` mode, the first of the entry's meanings (in the idiom's language) that fits the sentence
        (:func:`~idiomkit.idioms.fit.fits`); None when none does: the idiom is left as it is."""
        meaning = match.meanings[0]
        if self.mode == "mark":
            return f"«{match.text}»"
        if self.mode == "gloss" or self._english_gloss(match):
            return f"{match.text} ({meaning})"
        entry = self.lexicon.get(match.idiom, match.language)
        for i, other in enumerate(match.meanings):  # the first meaning that fits the sentence (fit.fits)
            if entry is not None and i < len(entry.meanings) and entry.meaning_language(i) != match.language:
                continue
            shaped = shape_meaning(other, match, before, after[:40])
            if fits(shaped, match, after, before, other):
                return shaped
        return None
