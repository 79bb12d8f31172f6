"""Parse a lexicon entry into a match pattern: a sequence of token slots, indexed by its rarest word.

Each idiom compiles to *slots*: a *word* (the idiom's word with every inflection, :mod:`~idiomkit.idioms.morphology`
and :mod:`~idiomkit.idioms.morphology_en`; an -ed/-ing word after the first keeps its ending: "posted" is never
"post"), an optional *determiner* (the idiom's "the" -> the/this/that/possessives; "a/an" -> a/an; "[pron]" -> any
determiner or pronoun; PT o/a/os/as/seu/sua...), a *possessive* ("one's"/"your"/"my"... -> any possessive or a noun's
's, never nothing: a determiner slot the matcher must fill) or a *filler*
("someone"/"something"/"alguém"/"(somebody)": one or two words; "someone's": one to three words ending in a
possessive: "my", "the old man's"). A parenthesised part is optional; "be" is optional in an idiom of two or more
other words; words may be inserted only around a determiner, or after the first word of an idiom of 3+ words when a
function word follows (:func:`parse_idiom`). A :class:`Pattern` adds the slot of the idiom's rarest content word (its
*anchor*, whose forms index it) and how far before the anchor a match may start.

Example::

    [s.word for s in parse_idiom("pull someone's leg", "EN")]  # ["pull", "", "leg"]
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from idiomkit.idioms.lexicon import Entry
from idiomkit.idioms.morphology import (
    EN_FUNCTION,
    PT_ARTICLE_CONTRACTIONS,
    PT_CONTRACTIONS,
    PT_DETS,
    PT_FUNCTION,
    pt_forms,
    pt_head_forms,
)
from idiomkit.idioms.morphology import word_set as _set
from idiomkit.idioms.morphology_en import en_forms

_EN_POSSESSIVES = _set("my your his her its our their one's someone's somebody's thy whose")
_EN_ARTICLES = _set("a an the this that these those some any no every each another")
_EN_THE = _set("the this that these those") | _EN_POSSESSIVES  # what an idiom's "the" may become
_EN_A = _set("a an")
_EN_OBJECTS = _set(
    "me you him her it us them one someone somebody anyone anybody everyone everybody myself yourself himself "
    "herself itself ourselves yourselves themselves oneself"
)
_EN_REFLEXIVES = _set("myself yourself himself herself itself oneself ourselves yourselves themselves")
_EN_FILLERS = _set("someone somebody something sb sth anyone anybody anything")
_EN_POSS_FILLERS = _set("someone's somebody's sb's something's")
_EN_STOP = EN_FUNCTION | _EN_REFLEXIVES | {"is", "be", "have", "do", "get", "go", "make", "take", "give", "put", "come"}

_PT_INDEFINITE = _set("um uma uns umas")
_PT_FILLERS = _set("alguém algo fulano sicrano")
# never an inserted word: prepositions and conjunctions change what the words around them mean together ...
_GAP_LINKS = (
    _set("of in on at to for from by with about into onto upon over under up down out off through across and or")
    | _set("but nor so as than then if when while because de em por para com sem sob sobre entre até e ou mas que")
    | _set("como porque quando se")
    | frozenset().union(*PT_CONTRACTIONS)
)
# ... and beside a determiner slot an article must be the determiner ("on the table" is not "on a table")
_GAP_BLOCK = _GAP_LINKS | _set("a an the o os as um uma uns umas")
_PT_STOP = PT_FUNCTION | {"ser", "estar", "ter", "ir", "haver", "dar", "fazer"}

_W = r"(?:\w[\u0300-\u036f]*)+"
TOKEN = re.compile(rf"{_W}(?:['’]{_W})*")  # a word token: see :func:`idiomkit.idioms.matcher.tokenize`
_PIECE = re.compile(rf"\[([^\]]*)\]|\(([^)]*)\)|({_W}(?:['’]{_W})*)")
_HYPHENS = ("-", "‐", "‑")
_GLUED_SE = re.compile(r"\b(\w{2,}[aeiô]r)se\b")  # "tornarse" (a dictionary's lost hyphen) is "tornar-se"
WORD, OPT, FILL = 0, 1, 2


def token_key(token: str) -> str:
    """A token as it is compared: case-folded, NFC, with a typographic apostrophe made plain."""
    key = token.casefold()
    return key if key.isascii() else unicodedata.normalize("NFC", key).replace("’", "'")


class Slot(NamedTuple):
    """One position of a compiled idiom: a WORD (one token in ``accept``), an OPT (zero or one token in
    ``accept``, or a possessive when ``poss``) or a FILL (``lo``..``hi`` tokens; the last a possessive if ``poss``).
    ``gap``: how many inserted words may come before a WORD (or an OPT and the WORD after it), none of them in
    ``block`` nor, with ``gerunds``, a gerund (:func:`is_gerund`); ``word``: the idiom's word."""

    kind: int
    accept: frozenset[str]
    lo: int = 1
    hi: int = 1
    gap: int = 0
    poss: bool = False
    word: str = ""
    block: frozenset[str] = _GAP_BLOCK
    gerunds: bool = False


def is_gerund(word: str) -> bool:
    """A Portuguese gerund ("fechando"): never an inserted word, the verb of the phrase would change ("está
    fechando os olhos" is not "estar a olho"); five letters or fewer are spared ("lindo", "indo")."""
    return len(word) > 5 and word.endswith(("ando", "endo", "indo", "ondo"))


def _en_slot(word: str, later: bool = False) -> Slot:
    """An English idiom word's slot; an -ed/-ing word ``later`` than the idiom's first keeps its ending ("keep
    someone posted" is not "keep his post")."""
    if word in _EN_POSS_FILLERS:
        return Slot(FILL, _EN_POSSESSIVES, 1, 3, poss=True)
    if word in _EN_FILLERS:
        return Slot(FILL, frozenset(), 1, 2)
    if word in ("a", "an"):
        return Slot(OPT, _EN_A, word=word)
    if word == "the" or word in _EN_POSSESSIVES:
        return Slot(OPT, _EN_THE if word == "the" else _EN_POSSESSIVES, poss=True, word=word)
    if word in _EN_REFLEXIVES:
        return Slot(WORD, _EN_REFLEXIVES, word=word)
    return Slot(WORD, en_forms(word, keep_ending=later), word=word)


def _pt_slot(word: str) -> Slot:
    if word in _PT_FILLERS:
        return Slot(FILL, frozenset(), 1, 2)
    if word in PT_DETS and word not in ("à", "ao", "às", "aos"):  # "um" stays indefinite, "o" definite
        return Slot(OPT, _PT_INDEFINITE if word in _PT_INDEFINITE else PT_DETS - _PT_INDEFINITE, word=word)
    return Slot(WORD, pt_forms(word), word=word)


def _bracket(inner: str, language: str) -> Slot:
    """``[pron]``, ``[sth]``...: a filler for someone/something, else an optional determiner or pronoun."""
    word = token_key(inner.strip())
    if word in _EN_POSS_FILLERS:
        return Slot(FILL, _EN_POSSESSIVES, 1, 3, poss=True)
    if word in _EN_FILLERS or word in _PT_FILLERS:
        return Slot(FILL, frozenset(), 1, 2)
    if language == "PT":
        return Slot(OPT, PT_DETS | _set("me te se lhe nos vos"))
    return Slot(OPT, _EN_ARTICLES | _EN_POSSESSIVES | _EN_OBJECTS, poss=True)


def _optional(slot: Slot) -> Slot:
    """A slot made optional (an idiom's parenthesised part)."""
    return slot._replace(kind=OPT) if slot.kind == WORD else slot._replace(lo=0) if slot.kind == FILL else slot


def parse_idiom(text: str, language: str, max_gap: int = 2, loose: bool = False) -> list[Slot]:
    """The slots of an idiom, trimmed to its first and last word; words may be inserted (up to ``max_gap``) only
    around a determiner or other optional slot ("keep an eye on" -> "keep a close eye on"); ``loose``: also before
    an idiom's only content word (the lexicon build's common-phrase screen, which errs on the side of finding).
    Memoised (the slots are immutable, the list new): every matcher parses its whole lexicon, and the evaluation
    lexicon's held-out screen builds several over the same entries.

    Example::

        [s.word for s in parse_idiom("pull someone's leg", "EN")]  # ["pull", "", "leg"]
    """
    return list(_parsed_idiom(text, language, max_gap, loose))


@lru_cache(maxsize=1 << 17)
def _parsed_idiom(text: str, language: str, max_gap: int, loose: bool) -> tuple[Slot, ...]:
    return tuple(_parse_idiom(text, language, max_gap, loose))


def _parse_idiom(text: str, language: str, max_gap: int, loose: bool) -> list[Slot]:
    """:func:`parse_idiom`, computed."""
    text = unicodedata.normalize("NFC", text).casefold().replace("’", "'")
    slots = _parse(_GLUED_SE.sub(r"\1-se", text) if language == "PT" else text, language)
    if sum(s.kind == WORD and s.word != "be" for s in slots) >= 2:  # "be" is often contracted ("you're")
        slots = [s._replace(kind=OPT) if s.word == "be" else s for s in slots]
    words = [i for i, s in enumerate(slots) if s.kind == WORD]
    if len(words) == 1 and words[0] and slots[words[0] - 1].kind == OPT:  # "a steal": the article is required
        slots[words[0] - 1] = slots[words[0] - 1]._replace(kind=WORD)
        words.insert(0, words[0] - 1)
    if not words:
        return []
    if language == "PT" and sum(slots[i].word not in PT_FUNCTION for i in words) >= 2:
        head = slots[words[0]]  # the head verb in any form ("aguente firme"), when another content word follows
        slots[words[0]] = head._replace(accept=pt_head_forms(head.word))
    slots = slots[words[0] : words[-1] + 1]
    if language == "PT":
        slots = _gaps(slots, max_gap, PT_FUNCTION, PT_ARTICLE_CONTRACTIONS, loose)
        return [s._replace(gerunds=True) for s in slots]
    return _gaps(slots, max_gap, EN_FUNCTION, loose=loose)


def _gaps(
    slots: list[Slot],
    max_gap: int,
    function: frozenset[str],
    determiners: frozenset[str] = frozenset(),
    loose: bool = False,
) -> list[Slot]:
    """Where words may be inserted: around a determiner (not an article, preposition or conjunction: "keep a
    close eye on"), one word after a word of ``determiners`` (a Portuguese preposition + article: "na maior
    seca"), and after the first word of an idiom of 3+ words when a function word follows (an object: "keep the wolves
    at bay"; not a preposition or conjunction); never before an idiom's only content word ("on a bread roll" is no
    "on a roll", "on the soccer ball" no "on the ball"). An OPT shares the gap of the WORD after it."""
    three = sum(s.kind == WORD for s in slots) >= 3
    content = [i for i, s in enumerate(slots) if s.kind == WORD and s.word not in function]
    sole = content[0] if len(content) == 1 and not loose else None  # "on a roll": an inserted word makes it literal
    for i in range(len(slots) - 1, 0, -1):
        slot, before, after = slots[i], slots[i - 1], slots[i + 1] if i + 1 < len(slots) else None
        if slot.kind == WORD and slot.gap and before.kind == OPT:
            slots[i] = slot._replace(gap=0 if i == sole else max_gap)
        elif slot.kind == WORD and slot.gap and before.word in determiners:
            slots[i] = slot._replace(gap=min(1, max_gap))
        elif slot.kind == WORD and slot.gap and i == 1 and three and slot.word in function:
            slots[i] = slot._replace(gap=max_gap, block=_GAP_LINKS)
        elif slot.kind == WORD:
            slots[i] = slot._replace(gap=0)
        elif slot.kind == OPT and after:
            slots[i] = slot._replace(gap=after.gap if after.kind == WORD else 0, block=after.block)
    return [slots[0]._replace(gap=0), *slots[1:]]


def _parse(text: str, language: str) -> list[Slot]:
    """The slots of an (already case-folded) idiom text; a WORD's ``gap`` is 1 unless it is hyphen-joined to the
    word before it or follows a filler."""
    slots: list[Slot] = []
    end = 0
    for m in _PIECE.finditer(text):
        bracket, group, word = m.groups()
        if bracket is not None:
            slots.append(_bracket(bracket, language))
        elif group is not None:
            slots += [_optional(s) for s in _parse(group, language)]
        else:
            slot = _pt_slot(word) if language == "PT" else _en_slot(word, later=bool(slots))
            joined = text[end : m.start()].strip() in _HYPHENS or (slots and slots[-1].kind == FILL)
            slots.append(slot._replace(gap=0 if joined else 1) if slot.kind == WORD else slot)
        end = m.end()
    return slots


def skip_reason(slots: list[Slot], language: str) -> str | None:
    """Why a compiled idiom would match too much (None: keep it)."""
    function = PT_FUNCTION if language == "PT" else EN_FUNCTION
    words = [s.word for s in slots if s.kind == WORD]
    if not any(w and w not in function for w in words):
        return "stopwords only"
    if len(words) == 1 and len(words[0]) < 4:
        return "single short word"
    return None


class Pattern(NamedTuple):
    """A compiled lexicon entry."""

    entry: Entry
    slots: tuple[Slot, ...]
    anchor: int  # the slot whose forms index the pattern
    left: int  # the most tokens from the match's first token to the anchor's
    words: int  # how many idiom words (WORD slots): longer idioms win overlaps


def _anchor(slots: list[Slot], stop: frozenset[str], freq: Counter[str]) -> int:
    """The slot of the idiom's rarest content word (a stopword only when it has nothing else)."""
    words = [i for i, s in enumerate(slots) if s.kind == WORD]
    return min(
        words, key=lambda i: (slots[i].word in stop or not slots[i].word, freq[slots[i].word], -len(slots[i].word))
    )


def _left(slots: list[Slot], anchor: int) -> int:
    width = {WORD: lambda s: 1 + s.gap, OPT: lambda s: 1, FILL: lambda s: s.hi}
    return sum(width[s.kind](s) for s in slots[:anchor]) + slots[anchor].gap


def compile_patterns(
    entries: Iterable[Entry], max_gap: int = 2, loose: bool = False
) -> tuple[list[Pattern], dict[str, list[str]]]:
    """The patterns of ``entries`` (see :func:`parse_idiom`, ``loose``), and the idioms skipped by reason
    (:func:`skip_reason`). The anchor is the rarest word across all the entries."""
    compiled, skipped = [], {}
    for entry in entries:
        slots = parse_idiom(entry.idiom, entry.language, max_gap, loose)
        if reason := skip_reason(slots, entry.language):
            skipped.setdefault(reason, []).append(entry.idiom)
        else:
            compiled.append((entry, slots))
    freq = Counter(w for _, slots in compiled for w in {s.word for s in slots if s.kind == WORD})
    patterns = []
    for entry, slots in compiled:
        anchor = _anchor(slots, _PT_STOP if entry.language == "PT" else _EN_STOP, freq)
        words = sum(s.kind == WORD for s in slots)
        patterns.append(Pattern(entry, tuple(slots), anchor, _left(slots, anchor), words))
    return patterns, skipped
