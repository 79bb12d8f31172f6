"""Word-by-word literal renderings of English idiom words, for the core test's literal misreadings.

The core test (:mod:`idiomkit.data.meaning_triples`) misreads an idiom in running text by replacing each content
word of its span by a *literal* rendering of that word ("kicked the bucket" -> "struck the pail"): the idiom's own
words, read at their most frequent sense. A word's rendering comes from WordNet 3.0 (Princeton; the Debian package
``wordnet-base``, ``/usr/share/wordnet``):

1. its lemma in each part of speech: WordNet's morphy (exception lists, then the detachment rules);
2. per part of speech, the lemma's first synset (its most frequent sense): its first other one-word lemma, else
   the first one-word lemma of its hypernym (nouns, verbs) or similar adjective (adjectives), else a several-word
   one of either, else the second synset's first other one-word lemma; never a lemma holding the word itself;
3. inflected like the word (plural, third person, past, participle, -ing) by the English inflector the idiom
   reader's rewrites use (:mod:`idiomkit.idioms.morphology_en`: its irregular verb and noun tables and spelling
   rules); an adjective's comparative or superlative with more/most.

In a sentence (:func:`literal_span`) a word is read as a noun after a determiner or preposition, as a verb after
``to`` or a modal, else in the part of speech its lemma has most sense-tagged occurrences in (WordNet's
``cntlist.rev``).

Function words (articles, pronouns, prepositions, particles, auxiliaries) are kept as they are. A word with no
rendering makes its triple a discard (counted in the log). The renderings of every word in the PIE idiom spans are
stored in ``resources/literal_words.tsv`` (``word, pos, literal, lemma, how, count``, one row per part of speech,
``pos`` empty for a word WordNet does not know; ``literal`` and ``how`` empty where none was found), so scoring
needs no WordNet; regenerate it with ``make core-test-lists`` (installs ``wordnet-base`` when it is missing;
:mod:`idiomkit.data.core_lists`). WordNet's licence is permissive (BSD-style; "WordNet 3.0 Copyright 2006 by
Princeton University").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from idiomkit.data.csvio import read_resource_tsv, write_resource_tsv
from idiomkit.data.errors import DataError
from idiomkit.idioms.morphology_en import be_form, en_plural, inflect, verb_form

log = logging.getLogger(__name__)

WORDNET_DIR = Path("/usr/share/wordnet")
RESOURCE = Path(__file__).parent / "resources" / "literal_words.tsv"
COLUMNS = ("word", "pos", "literal", "lemma", "how", "count")
POS_FILES = {"v": "verb", "n": "noun", "a": "adj", "r": "adv"}  # also the tie order
DETACH = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


FUNCTION_WORDS = _words(
    "a an the this that these those some any no every each all both either neither such what which who whom whose "
    "i me my mine you your yours he him his she her hers it its we us our ours they them their theirs one one's "
    "oneself myself yourself himself herself itself ourselves themselves someone somebody something anyone "
    "anything everyone everything nothing nobody "
    "of in on at to for from by with without into onto upon over under above below up down out off away back "
    "about around round through across along after before behind between among against beyond within toward "
    "towards till until via per than as like "
    "and or but nor so yet if then not n't 's ' "
    "be is am are was were been being do does did done have has had having will would shall should can could may "
    "might must ca wo 'll 'd 're 've 'm"
)
_WORD = re.compile(r"^[a-z][a-z'-]*$")


@dataclass(frozen=True)
class Rendering:
    """A word's literal rendering (``literal`` None when WordNet gives none)."""

    word: str
    literal: str | None
    lemma: str = ""
    pos: str = ""
    how: str = ""  # "synonym", "hypernym", "similar", "synonym2" (second sense) or "" (none)
    count: int = 0  # the lemma's sense-tagged occurrences in this part of speech (WordNet's cntlist)


class WordNet:
    """The parts of a WordNet 3.0 database directory the renderings need (index, data and exception files)."""

    def __init__(self, root: str | Path = WORDNET_DIR):
        self.root = Path(root)
        if not (self.root / "index.noun").is_file():
            raise DataError(
                self.root / "index.noun",
                None,
                None,
                "file not found (install WordNet: apt-get install -y wordnet-base)",
            )
        self.index: dict[str, dict[str, tuple[int, list[int]]]] = {p: {} for p in POS_FILES}
        self.exceptions: dict[str, dict[str, list[str]]] = {p: {} for p in POS_FILES}
        for pos, name in POS_FILES.items():
            path = self.root / f"index.{name}"
            for number, line in enumerate(path.read_text(encoding="latin-1").splitlines(), start=1):
                if not line.startswith(" "):  # the licence header
                    lemma, entry = _index_entry(path, number, line)
                    self.index[pos][lemma] = entry
            exc = self.root / f"{name}.exc"
            for line in exc.read_text(encoding="latin-1").splitlines() if exc.is_file() else []:
                form, *lemmas = line.split()
                self.exceptions[pos][form] = lemmas
        self.counts: dict[tuple[str, str], int] = {}
        cntlist = self.root / "cntlist.rev"
        lines = cntlist.read_text(encoding="latin-1").splitlines() if cntlist.is_file() else []
        for number, line in enumerate(lines, start=1):
            key, count = _count_entry(cntlist, number, line)
            self.counts[key] = self.counts.get(key, 0) + count
        self._data = {pos: (self.root / f"data.{name}").read_bytes() for pos, name in POS_FILES.items()}

    def lemmas(self, word: str, pos: str) -> list[str]:
        """Morphy: the lemmas of ``word`` in ``pos`` that WordNet lists (exceptions first, then the word itself,
        then the detachment rules)."""
        found = [lemma for lemma in self.exceptions[pos].get(word, []) if lemma in self.index[pos]]
        if word in self.index[pos]:
            found.append(word)
        for suffix, ending in DETACH[pos]:
            if word.endswith(suffix) and len(word) > len(suffix) + 1:
                base = word[: len(word) - len(suffix)] + ending
                if base in self.index[pos]:
                    found.append(base)
        return list(dict.fromkeys(found))

    def synset(self, pos: str, offset: int) -> tuple[list[str], list[tuple[str, str, int]]]:
        """A synset's lemmas (in order) and pointers ``(symbol, pos, offset)``."""
        data = self._data[pos]
        try:
            end = data.index(b"\n", offset)
            cells = data[offset:end].decode("latin-1").split(" | ")[0].split()
            n_words = int(cells[3], 16)
            words = [re.sub(r"\(.*\)$", "", cells[4 + 2 * i]).lower() for i in range(n_words)]
            at = 4 + 2 * n_words
            n_pointers = int(cells[at])
            pointers = []
            for i in range(n_pointers):
                symbol, target, target_pos = cells[at + 1 + 4 * i : at + 4 + 4 * i]
                pointers.append((symbol, "a" if target_pos == "s" else target_pos, int(target)))
        except (IndexError, ValueError):
            path = self.root / f"data.{POS_FILES[pos]}"
            raise DataError(path, None, None, f"malformed synset at byte offset {offset}") from None
        return words, pointers


def _index_entry(path: Path, number: int, line: str) -> tuple[str, tuple[int, list[int]]]:
    """One ``index.<pos>`` line: ``(lemma, (sense-tagged count, synset offsets))``; DataError naming the line."""
    cells = line.split()
    try:
        n_synsets, n_pointers = int(cells[2]), int(cells[3])
        tagged = int(cells[5 + n_pointers])
        offsets = [int(c) for c in cells[6 + n_pointers :][:n_synsets]]
    except (IndexError, ValueError):
        raise DataError(path, number, None, f"malformed WordNet index line {line[:40]!r}") from None
    return cells[0], (tagged, offsets)


def _count_entry(path: Path, number: int, line: str) -> tuple[tuple[str, str], int]:
    """One ``cntlist.rev`` line: ``((lemma, pos), count)``; DataError naming the line."""
    try:
        key, _, count = line.split()
        lemma, _, rest = key.partition("%")
        return (lemma, "nvara"[int(rest[0]) - 1]), int(count)
    except (IndexError, ValueError):
        raise DataError(path, number, None, f"malformed cntlist line {line[:40]!r}") from None


def is_content_word(word: str) -> bool:
    """A lower-case word (letters, apostrophes, hyphens) that is not a function word: what gets rendered."""
    return bool(_WORD.match(word)) and word not in FUNCTION_WORDS


def _verb_form(word: str, lemma: str) -> str:
    """Which verb form ``word`` is of ``lemma``: :func:`~idiomkit.idioms.morphology_en.verb_form`, else (a form
    the English tables do not know: "ups", "upped" of "up") read from its ending."""
    form = verb_form(word, lemma)
    if form != "base":
        return form
    return "ing" if word.endswith("ing") else "s" if word.endswith("s") and not word.endswith("ss") else "past"


def inflect_like(literal: str, word: str, lemma: str, pos: str) -> str:
    """``literal`` (a lemma) in the form ``word`` has relative to its ``lemma``, spelled by the English inflector
    the idiom reader's rewrites use (:mod:`idiomkit.idioms.morphology_en`): a noun's plural, a verb's form (``be``
    by :func:`~idiomkit.idioms.morphology_en.be_form`), an adjective's comparative or superlative with more/most.

    Example::

        inflect_like("strike", "kicked", "kick", "v"), inflect_like("pail", "buckets", "bucket", "n")  # struck, pails
    """
    if word == lemma:
        return literal
    if pos == "n":
        return en_plural(literal)
    if pos == "v":
        form = _verb_form(word, lemma)
        return be_form(form) if literal == "be" else inflect(literal, form)
    if pos == "a":
        return ("more " if word.endswith("er") else "most ") + literal
    return literal


def _candidates(words: Iterable[str], lemma: str, multiword: bool) -> str | None:
    for cand in words:
        text = cand.replace("_", " ")
        if (" " in text) != multiword or "-" in text or lemma in text.split() or lemma in cand:
            continue
        if all(_WORD.match(w) for w in text.split()):
            return text
    return None


def _literal(wn: WordNet, pos: str, lemma: str) -> tuple[str | None, str]:
    """A lemma's literal rendering and how it was found: the first sense's one-word synonym, else its hypernym's
    (similar adjective's) one-word lemma, else a several-word synonym or hypernym, else the second sense's."""
    offsets = wn.index[pos][lemma][1]
    words, pointers = wn.synset(pos, offsets[0])
    symbols = {"n": ("@", "@i"), "v": ("@",), "a": ("&",)}.get(pos, ())
    related = [wn.synset(target_pos, offset)[0] for symbol, target_pos, offset in pointers if symbol in symbols]
    up = "hypernym" if pos in "nv" else "similar"
    for multiword in (False, True):
        found = _candidates(words, lemma, multiword)
        if found:
            return found, "synonym"
        for lemmas in related:
            found = _candidates(lemmas, lemma, multiword)
            if found:
                return found, up
    if len(offsets) > 1:
        found = _candidates(wn.synset(pos, offsets[1])[0], lemma, False)
        if found:
            return found, "synonym2"
    return None, ""


def render(word: str, wn: WordNet) -> list[Rendering]:
    """The literal renderings of one (lower-cased) word, one per part of speech WordNet knows it in (its first
    morphy lemma there), with the lemma's sense-tagged count (see the module docstring)."""
    out = []
    for pos in POS_FILES:
        lemmas = wn.lemmas(word, pos)
        if not lemmas:
            continue
        lemma = lemmas[0]
        literal, how = _literal(wn, pos, lemma)
        literal = inflect_like(literal, word, lemma, pos) if literal else None
        out.append(Rendering(word, literal, lemma, pos, how, wn.counts.get((lemma, pos), 0)))
    return out or [Rendering(word, None)]  # pos "": WordNet does not know the word


def build_literal_words(words: Iterable[str], wordnet_dir: str | Path = WORDNET_DIR) -> list[Rendering]:
    """The renderings of ``words`` (lower-cased; function words and non-words left out), sorted by word."""
    wn = WordNet(wordnet_dir)
    wanted = sorted({w.lower() for w in words if is_content_word(w.lower())})
    out = [r for w in wanted for r in render(w, wn)]
    rendered = {r.word for r in out if r.literal}
    log.info(
        "literal words: %d of %d words rendered in some part of speech; renderings: %s",
        len(rendered),
        len(wanted),
        ", ".join(
            f"{h or 'none'} {sum(r.how == h for r in out)}" for h in ("synonym", "hypernym", "similar", "synonym2", "")
        ),
    )
    return out


def write_literal_words(renderings: Iterable[Rendering], path: str | Path = RESOURCE) -> Path:
    rows = ((r.word, r.pos, r.literal or "", r.lemma, r.how, r.count) for r in renderings)
    return write_resource_tsv(path, COLUMNS, rows)


Words = dict[str, dict[str, tuple[str | None, int]]]  # word -> pos -> (literal rendering or None, count)


@lru_cache(maxsize=2)
def load_literal_words(path: str | Path = RESOURCE) -> Words:
    """``{word: {pos: (literal rendering or None, count)}}`` from the stored TSV."""
    path = Path(path)
    out: Words = {}
    for row, (word, pos, literal, _, _, count) in read_resource_tsv(path, COLUMNS):
        if not word:
            raise DataError(path, row, "word", "is empty")
        if pos and pos not in POS_FILES:
            raise DataError(path, row, "pos", f"'{pos}' is not one of {', '.join(POS_FILES)} or empty")
        if not count.isdigit():
            raise DataError(path, row, "count", f"'{count}' is not a count")
        options = out.setdefault(word, {})
        if pos:
            options[pos] = (literal or None, int(count))
    return out


NOUN_BEFORE = _words(
    "a an the this that these those my your his her its our their one's 's of in on at for from "
    "with into by some any no"
)
VERB_BEFORE = _words("to will would shall should can could may might must do does did n't not 'll 'd")


def part_of_speech(options: dict[str, tuple[str | None, int]], previous: str) -> str:
    """The part of speech a word is read in: a noun after a determiner or preposition, a verb after ``to`` or a
    modal, else the one with the most sense-tagged occurrences (ties: verb, noun, adjective, adverb)."""
    if previous in NOUN_BEFORE and "n" in options:
        return "n"
    if previous in VERB_BEFORE and "v" in options:
        return "v"
    order = list(POS_FILES)
    return max(options, key=lambda pos: (options[pos][1], -order.index(pos)))


def literal_span(tokens: list[str], positions: Iterable[int], words: Words) -> list[str] | None:
    """``tokens`` with each content word at ``positions`` rendered literally (case of the first letter kept; in the
    :func:`part_of_speech` read there, else the next one with a rendering); None when a word has none."""
    out = list(tokens)
    for i in positions:
        low = tokens[i].lower()
        if not is_content_word(low):
            continue
        options = words.get(low)
        if not options:
            return None
        first = part_of_speech(options, tokens[i - 1].lower() if i else "")
        ranked = [first, *sorted((p for p in options if p != first), key=lambda p: -options[p][1])]
        literal = next((options[p][0] for p in ranked if options[p][0]), None)
        if literal is None:
            return None
        out[i] = literal[0].upper() + literal[1:] if tokens[i][:1].isupper() else literal
    return out
