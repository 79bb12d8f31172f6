"""Find a lexicon's idioms in running text, tolerant of inflection, slots, articles and short insertions.

Each entry is parsed into a pattern of token slots (:mod:`~idiomkit.idioms.patterns`: words with every inflection
from :mod:`~idiomkit.idioms.morphology` and :mod:`~idiomkit.idioms.morphology_en`, optional determiners, fillers for
"someone"/"one's"). A sentence is cut into Unicode word tokens (letters/digits/underscore/combining marks, inner
apostrophes; hyphens split), so an idiom never matches inside a word. Each pattern is indexed by the forms of its
rarest content word (its *anchor*), so a sentence only tries the few patterns whose anchor it contains.

Tolerated: English verb inflection (regular + one table of irregular verbs), plurals, possessives, comparatives;
an optional "be" ("[be] on cloud nine"); up to ``max_gap`` inserted words around a determiner slot ("spill all
the beans", "kick the proverbial bucket", "keep a close eye on") or, in idioms of 3+ words, an object after the
first word when a function word follows ("keep the wolves at bay"); Portuguese regular -ar/-er/-ir conjugation
(with c/qu, g/gu, ç/c, c/ç, g/j spelling changes), common irregular verbs (ser estar ter ir fazer dar pôr ver
vir dizer trazer saber querer poder haver cair sair ler; spoken tô/tá/tava), gender/number agreement, the
contractions em/de/a/por + article (na/no/nas/nos...) and spoken pra/pro for para, one inserted word after such
a contraction ("na maior seca"), an idiom's first word in any form of the verb it may be a form of when another
content word follows ("aguente firme" matches "aguenta firme", "vá com Deus" "vai com Deus"), words written
without their accents (informal "nao", the 1913 spelling's "ôlho" for "olho"), a reflexive whose hyphen a
dictionary lost ("tornarse" is "tornar-se"), hyphen or space in compounds ("pão-duro"/"pão duro").
Not tolerated: a match across a sentence break (. ! ? ; : … or a blank line); inserted words that are
prepositions, conjunctions or (beside a determiner slot) articles, or that cross a comma/bracket/quote/dash;
Portuguese gerunds as inserted words ("está fechando os olhos" is not "estar a olho"); insertions into slot-less
word pairs ("dark brown horse" is not "dark horse"); "a" for "the" ("on a table" is
not "on the table"); changed word order or passives ("the beans were spilled"); synonyms; a missing idiom word;
Portuguese clitics glued to the verb. An idiom that is one word after its slots are dropped keeps its article
as required ("a steal" does not match "they steal"). An idiom's possessive must be filled ("For part" is not "for
my part"); a bracket, quote or dash between two idiom words breaks a match ("power — that" is not "powers that
be"; a comma does not).

Example::

    matcher = Matcher(Lexicon.from_pairs([("kick the bucket", "to die")]))
    [m.text for m in matcher.find("Sadly, he kicked the bucket.")]  # ["kicked the bucket"]
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from idiomkit.idioms.lexicon import Entry, Lexicon, check_language
from idiomkit.idioms.patterns import FILL, OPT, TOKEN, WORD, Pattern, Slot, compile_patterns, is_gerund, token_key

log = logging.getLogger(__name__)

# no match crosses a sentence end, a blank line, a bracket, a quote or a dash ("powers that be" is not "power —
# that"); inserted words cross no comma either, but idiom words next to each other may
_BREAK = re.compile(r"[.!?;:…()\[\]{}\"“”«»—–]|\s--?\s|\n\s*\n")
_CLAUSE = re.compile(rf"{_BREAK.pattern}|,")


def tokenize(sentence: str) -> list[tuple[str, int, int]]:
    """``(key, start, end)`` of every word token: the key case-folded and NFC, offsets into ``sentence``.

    Example::

        tokenize("Pão-duro!")  # [("pão", 0, 3), ("duro", 4, 8)]
    """
    return [(token_key(m.group()), m.start(), m.end()) for m in TOKEN.finditer(sentence)]


class _Text(NamedTuple):
    """A tokenised sentence: each token's key, and how many sentence breaks and clause breaks come before it."""

    keys: list[str]
    sentence: list[int]
    clause: list[int]


def _text(sentence: str, tokens: list[tuple[str, int, int]]) -> _Text:
    """Breaks (no match crosses one): . ! ? ; : … brackets, quotes, dashes or a blank line; clause breaks (no
    inserted word crosses one): those and commas."""
    out = _Text([t[0] for t in tokens], [], [])
    hard = soft = prev = 0
    for _, start, end in tokens:
        if prev and _CLAUSE.search(sentence, prev, start):
            soft += 1
            hard += bool(_BREAK.search(sentence, prev, start))
        out.sentence.append(hard)
        out.clause.append(soft)
        prev = end
    return out


def _walk(slots: tuple[Slot, ...], k: int, t: int, text: _Text, base: int, skipped: int = 0) -> int:
    """The end token of the first way ``slots[k:]`` match from token ``t`` inside sentence ``base``, or -1.
    ``skipped``: the words inserted since the last idiom word (none a ``block`` word, none after a clause break)."""
    if k == len(slots):
        return t
    kind, accept, lo, hi, gap, poss, _, block, gerunds = slots[k]
    keys, sentence, clause = text
    if kind == FILL:
        return _fill(slots, k, t, text, base)
    for tt in range(t, min(t + gap - skipped, len(keys) - 1) + 1):
        if sentence[tt] != base or (tt > t and clause[tt] != clause[t - 1]):
            break
        if keys[tt] in accept or (poss and keys[tt].endswith("'s")):
            end = _walk(slots, k + 1, tt + 1, text, base, 0 if kind == WORD else skipped + tt - t)
            if end >= 0:
                return end
        if keys[tt] in block or (gerunds and is_gerund(keys[tt])):
            break
    if kind == OPT and not _must_fill(slots[k]):
        return _walk(slots, k + 1, t, text, base, gap)  # no determiner: no inserted words
    return -1


def _must_fill(slot: Slot) -> bool:
    """An optional slot that must be filled: an idiom's possessive (``poss``, its word no "the" and no bracket):
    "For part" is not "for my part"."""
    return slot.poss and slot.word not in ("", "the")


def _fill(slots: tuple[Slot, ...], k: int, t: int, text: _Text, base: int) -> int:
    """A filler: ``lo``..``hi`` words (the last a possessive if ``poss``), then the rest of the idiom."""
    _, accept, lo, hi, _, poss, *_ = slots[k]
    keys = text.keys
    for count in range(lo, hi + 1):
        last = t + count - 1
        if last >= len(keys) or (count and text.sentence[last] != base):
            break
        if poss and count and keys[last] not in accept and not keys[last].endswith("'s"):
            continue
        if (end := _walk(slots, k + 1, t + count, text, base)) >= 0:
            return end
    return -1


@dataclass(frozen=True)
class Match:
    """One idiom found in a sentence: ``sentence[start:end] == text`` (character offsets); ``sources`` are the
    lexicon sources of its entry and ``meaning_languages`` the languages of its meanings (not compared)."""

    start: int
    end: int
    text: str
    idiom: str
    language: str
    meanings: tuple[str, ...]
    sources: tuple[str, ...] = field(default=(), compare=False)
    meaning_languages: tuple[str, ...] = field(default=(), compare=False)


class Matcher:
    """Finds a lexicon's idioms in sentences (see the module docstring for what it tolerates).

    Args:
        lexicon: a :class:`Lexicon` or its entries.
        max_gap: the most inserted words before each idiom word ("spill *all* the beans").

    Example::

        matcher = Matcher(Lexicon.from_pairs([("pull someone's leg", "tease")]))
        matcher.find("He pulled my leg.")[0].text  # "pulled my leg"
    """

    def __init__(self, lexicon: Lexicon | Iterable[Entry], max_gap: int = 2, loose: bool = False) -> None:
        entries = lexicon.entries() if isinstance(lexicon, Lexicon) else list(lexicon)
        self.max_gap = max_gap
        self._patterns: list[Pattern]
        self._patterns, self.skipped = compile_patterns(entries, max_gap, loose)
        self._index: dict[str | None, dict[str, list[int]]] = {None: {}, "EN": {}, "PT": {}}
        for number, pattern in enumerate(self._patterns):
            for form in pattern.slots[pattern.anchor].accept:
                self._index[None].setdefault(form, []).append(number)
                self._index[pattern.entry.language].setdefault(form, []).append(number)
        skipped = {reason: len(idioms) for reason, idioms in self.skipped.items()}
        log.info("idiom matcher: %d idioms compiled, %d skipped %s", len(self), sum(skipped.values()), skipped)

    def __len__(self) -> int:
        return len(self._patterns)

    def find(self, sentence: str, language: str | None = None) -> list[Match]:
        """The idioms in ``sentence`` (of ``language``, if given): non-overlapping, chosen longest idiom first
        (then longest span, then leftmost), returned in sentence order.

        Example::

            matcher.find("Ela bateu as botas ontem.", language="PT")  # [Match(4, 18, "bateu as botas", ...)]
        """
        tokens = tokenize(sentence)
        return self._select(sentence, tokens, self._hits(sentence, tokens, language))

    def find_all(self, sentence: str, language: str | None = None) -> list[Match]:
        """Every reading of ``sentence`` that some idiom matches, overlapping ones included (:meth:`find` keeps the
        longest of overlapping matches and drops the rest), in sentence order.

        Example::

            matcher = Matcher(Lexicon.from_pairs([("out of hand", "uncontrolled"), ("get out of hand", "worsen")]))
            [m.text for m in matcher.find("Things got out of hand.")]  # ["got out of hand"]
            [m.text for m in matcher.find_all("Things got out of hand.")]  # ["got out of hand", "out of hand"]
        """
        tokens = tokenize(sentence)
        hits = sorted(self._hits(sentence, tokens, language), key=lambda h: (h[1], -(h[2] - h[1]), h[0]))
        return [self._match(sentence, tokens, *hit) for hit in hits]

    def _hits(self, sentence: str, tokens: list[tuple[str, int, int]], language: str | None) -> list:
        """Every (pattern, first token, end token) that matches, overlaps included."""
        starts = self._starts([t[0] for t in tokens], check_language(language) if language else None)
        if not starts:
            return []
        text = _text(sentence, tokens)
        hits = []
        for number, start in starts:
            end = _walk(self._patterns[number].slots, 0, start, text, text.sentence[start])
            if end > start:
                hits.append((number, start, end))
        return hits

    def _starts(self, keys: list[str], language: str | None) -> set[tuple[int, int]]:
        """(pattern, first token) pairs worth trying: the pattern's anchor is in the sentence and its first word
        is close enough before it."""
        index, out = self._index[language], set()
        for i, key in enumerate(keys):
            for number in index.get(key, ()):
                pattern = self._patterns[number]
                first = pattern.slots[0].accept
                out.update((number, s) for s in range(max(0, i - pattern.left), i + 1) if keys[s] in first)
        return out

    def _select(self, sentence: str, tokens: list[tuple[str, int, int]], hits: list) -> list[Match]:
        hits.sort(key=lambda h: (-self._patterns[h[0]].words, -(h[2] - h[1]), h[1], h[0]))
        taken: set[int] = set()
        out = []
        for number, start, end in hits:
            if taken.isdisjoint(range(start, end)):
                taken.update(range(start, end))
                out.append(self._match(sentence, tokens, number, start, end))
        return sorted(out, key=lambda m: m.start)

    def _match(self, sentence: str, tokens: list[tuple[str, int, int]], number: int, start: int, end: int) -> Match:
        entry = self._patterns[number].entry
        first, last = tokens[start][1], tokens[end - 1][2]
        return Match(
            first,
            last,
            sentence[first:last],
            entry.idiom,
            entry.language,
            entry.meanings,
            entry.sources,
            entry.meaning_languages,
        )
