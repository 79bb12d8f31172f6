"""What a span put in an idiom's slots, and a meaning's placeholders filled from it (the rewriter's ``replace``
mode, :mod:`~idiomkit.idioms.shape`).

:func:`span_fills` lays the span over the idiom again (the matcher's walk) and reads its possessive, its filler
and the token of each idiom word (:class:`Fills`); :func:`fill_slots` puts them into the meaning: its
"someone's"/"one's" becomes the span's possessive, its "someone" that possessive's object form or the span's
filler, "oneself" its reflexive ("pulling my leg" + "to tease someone" -> "to tease me").

Example::

    match = Matcher(Lexicon.from_pairs([("pull someone's leg", "to tease someone")])).find("pulling my leg")[0]
    fill_slots("to tease someone", match.idiom, span_fills(match))  # "to tease me"
"""

from __future__ import annotations

import re
from typing import NamedTuple

from idiomkit.idioms.matcher import Match, tokenize
from idiomkit.idioms.morphology import word_set
from idiomkit.idioms.patterns import FILL, OPT, Slot, parse_idiom

# --- where the idiom's words lie in the span ----------------------------------------------------------------------


class Fills(NamedTuple):
    """What the span put in the idiom's slots: its possessive ("my", "the boy's"), its filler ("him", "the new
    guy"; or an object pronoun inserted into an idiom without a filler: "given *him* the slip"), the span's tokens
    aligned with each idiom word (``words``: (idiom word, span token)) and whether the filler or the possessive
    is the idiom's someone / someone's (``object``: it may follow a meaning that is a bare verb, "tease me")."""

    possessive: str | None
    filler: str | None
    words: tuple[tuple[str, str], ...]
    object: str | None = None
    reflexive: str | None = None  # the span's word for the idiom's reflexive ("make yourself at home": himself)


def _align(slots: list[Slot], keys: list[str], k: int, t: int, out: dict[int, tuple[int, int]]) -> bool:
    """Lay ``slots[k:]`` over ``keys[t:]`` to their end (the matcher's walk, recording each slot's tokens)."""
    if k == len(slots):
        return t == len(keys)
    slot = slots[k]
    if slot.kind == FILL:
        for count in range(slot.lo, slot.hi + 1):
            last = t + count - 1
            if last >= len(keys):
                break
            if slot.poss and count and keys[last] not in slot.accept and not keys[last].endswith("'s"):
                continue
            if _align(slots, keys, k + 1, t + count, out):
                out[k] = (t, t + count)
                return True
        return False
    for tt in range(t, min(t + slot.gap, len(keys) - 1) + 1):
        if (keys[tt] in slot.accept or (slot.poss and keys[tt].endswith("'s"))) and _align(
            slots, keys, k + 1, tt + 1, out
        ):
            out[k] = (tt, tt + 1)
            return True
    if slot.kind == OPT and _align(slots, keys, k + 1, t, out):
        out[k] = (t, t)
        return True
    return False


def span_fills(match: Match) -> Fills:
    """The span's possessive, filler and idiom words (:class:`Fills`); empty when the span cannot be laid over
    the idiom again."""
    tokens = tokenize(match.text)
    keys = [key for key, _, _ in tokens]
    slots = parse_idiom(match.idiom, match.language)
    out: dict[int, tuple[int, int]] = {}
    if not slots or not _align(slots, keys, 0, 0, out):
        return Fills(None, None, ())
    possessive = filler = obj = reflexive = None
    words = []
    determiners: list[tuple[int, int]] = []
    for k, slot in enumerate(slots):
        a, b = out.get(k, (0, 0))
        if a == b:
            continue
        text = match.text[tokens[a][1] : tokens[b - 1][2]]
        if slot.kind == FILL:
            possessive, filler = (text, filler) if slot.poss else (possessive, text)
            obj = _object_of(text) if slot.poss else text
        elif slot.kind == OPT and slot.poss and slot.word != "the" and (slot.word or _is_possessive(keys[a])):
            possessive = text  # one's, your, [pron] filled with a possessive
        elif slot.kind == OPT and slot.poss and not slot.word and keys[a] in _OBJECTS and b == a + 1:
            filler = obj = text  # [pron] filled with an object pronoun: "giving it the cold shoulder"
            continue
        elif slot.kind == OPT and slot.poss and not slot.word:
            determiners.append((a, b))
        elif slot.word:
            words.append((slot.word, text))
            if slot.word in _REFLEXIVES:
                reflexive = text
    covered = {t for a, b in out.values() for t in range(a, b)}
    inserted = [t for t in range(len(keys)) if t not in covered]
    if filler is None and len(inserted) == 1 and keys[inserted[0]] in OBJECT_PRONOUNS:
        filler = obj = match.text[tokens[inserted[0]][1] : tokens[inserted[0]][2]]
    elif filler is None and inserted and inserted == list(range(inserted[0], inserted[-1] + 1)):
        # [pron] filled with a determiner and the noun after it: "took the weather for granted"
        start = next((a for a, b in determiners if b == inserted[0]), None)
        if start is not None:
            filler = obj = match.text[tokens[start][1] : tokens[inserted[-1]][2]]
    return Fills(possessive, filler, tuple(words), obj, reflexive)


# --- slots --------------------------------------------------------------------------------------------------------

_OBJECT = {"my": "me", "your": "you", "his": "him", "her": "her", "its": "it", "our": "us", "their": "them"}
_REFLEXIVE = {
    "my": "myself",
    "your": "yourself",
    "his": "himself",
    "her": "herself",
    "its": "itself",
    "our": "ourselves",
    "their": "themselves",
}
PLACEHOLDER = re.compile(
    r"\b(?:someone's|somebody's|one's|someone|somebody|oneself|something)\b(?!\s+else)", re.I
)  # "someone else's work" is no slot
_OBJECTS = word_set("me you him her us them it")
_EITHER = re.compile(r"\b(?:something or some(?:one|body)|some(?:one|body) or something)\b", re.I)
OBJECT_PRONOUNS = word_set("me you him her us them")
_SUBJECT_FORM = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they"}
_REFLEXIVES = word_set("myself yourself himself herself itself oneself ourselves yourselves themselves")
_FINITE_NEXT = word_set("must will would can could should shall may might is was has had does did are were have do")


def _is_possessive(key: str) -> bool:
    return key in _OBJECT or key.endswith("'s")


def _object_of(possessive: str) -> str:
    """A possessive's object form: my -> me; the boy's -> the boy."""
    low = possessive.casefold()
    if low in _OBJECT:
        return _OBJECT[low]
    return re.sub(r"['’]s$|['’]$", "", possessive)


def fill_slots(meaning: str, idiom: str, fills: Fills) -> str:
    """The meaning's someone/someone's/one's/oneself/something (the first of each) filled from the span (module
    docstring), "something or someone" (either way round) with the span's filler, whatever it is ("took the weather
    for granted": "the value of the weather"); each placeholder left as it is when the span has nothing for it."""
    idiom_words = set(re.findall(r"[\w']+", idiom.casefold()))
    filler_is_thing = bool(idiom_words & {"something", "sth"}) and not idiom_words & {"someone", "somebody", "sb"}
    done: set[str] = set()
    if fills.filler and _EITHER.search(meaning):  # "the value of something or someone": the span's filler, whatever
        meaning = _EITHER.sub(lambda _: fills.filler, meaning, count=1)
        done |= {"someone", "somebody", "something"}

    def swap(m: re.Match[str]) -> str:
        word = m.group().casefold()
        kind = "poss" if word.endswith("'s") else word
        if kind in done:
            return m.group()
        new = None
        if kind == "poss":
            new = fills.possessive
        elif kind in ("someone", "somebody"):
            if fills.filler and not filler_is_thing:
                new = fills.filler
            elif fills.possessive:
                new = _object_of(fills.possessive)
        elif kind == "oneself" and (fills.reflexive or fills.possessive):
            new = fills.reflexive or _REFLEXIVE.get(fills.possessive.casefold())
        elif kind == "something" and fills.filler and filler_is_thing:
            new = fills.filler
        if new is None:
            return m.group()
        done.add(kind)
        following = re.match(r"\s+(\w+)", meaning[m.end() :])
        if kind in ("someone", "somebody") and following and following.group(1).casefold() in _FINITE_NEXT:
            new = _SUBJECT_FORM.get(new.casefold(), new)  # "that somebody must leave": "that he must leave"
        return new

    return PLACEHOLDER.sub(swap, meaning)
