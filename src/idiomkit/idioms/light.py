"""Light entries: an English two-word entry of one light or function word and one adjective or adverb
(one WordNet has as an adjective or adverb and never as a noun) whose first meaning restates that word: "be sure"
(certainly), "out loud" (aloud), "of late" (recently), "on the cheap" (cheaply), "go mad" (to become insane).
Such an entry is the word itself said with a light word, and rewriting it says the word again; the lexicon build
(:mod:`~idiomkit.idioms.lexicon_build`) drops them with :func:`drop_light`, counted per source.

A meaning restates the word when one of its content stems (:func:`~idiomkit.data.extra.dictionaries.content_stems`,
light words aside) is a stem of the word, of a synonym in any of its adjective or adverb senses ("sure" ->
"certain"), of the head adjective such a sense is similar to ("mad" -> "insane") or of the adjective an adverb is
derived from. Articles do not count as words ("on the cheap"); a slot ("do someone proud") or a hyphen
("watered-down") makes an entry no light one. Real idioms go too where their first meaning restates the word
("make merry": "to feast; to be joyful or jovial").

Example::

    words = LightWords.read()  # WordNet (Debian wordnet-base)
    is_light("be sure", "certainly, undoubtedly", words)  # True
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from idiomkit.data.extra.dictionaries import content_stems
from idiomkit.data.extra.wordnet import WORDNET_DIR, read_synsets
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.morphology import word_set
from idiomkit.idioms.sources import FUNCTION_WORDS, BuildReport

log = logging.getLogger(__name__)

# light words: an idiom of these only is dropped by the build's screening; one of them beside one adjective or
# adverb that its meaning restates makes a light entry
EN_LIGHT = (
    word_set(
        "i you he she we they me him us them it this that do does did done doing have has had having be is am are was "
        "were been being get gets got getting give gives gave given make makes made take takes took taken go goes went "
        "gone come came say said would will shall should can could may might must let lets think know see like well "
        "yes no not all every time ever here there now then so too very much many more most few couple kind sort lot "
        "way thing things one two first last"
    )
    | FUNCTION_WORDS
)
_ARTICLES = word_set("a an the")
_SLOTS = word_set("someone somebody something one one's someone's somebody's sb sth")
_WORD = re.compile(r"[\w']+")
_RELATED = ("&", "\\")  # WordNet pointers: similar to (a satellite's head adjective), derived from (an adverb's)


@dataclass(frozen=True)
class LightWords:
    """What the filter reads of WordNet: the words it has as nouns, and each adjective or adverb's restatements
    (the content stems of the word, its synonyms, their head adjectives and the adjectives they derive from)."""

    nouns: frozenset[str]
    restatements: dict[str, frozenset[str]]
    verbs: frozenset[str] = frozenset()  # the verbs and modifiers (adjectives, adverbs): the meaning choice's parts
    modifiers: frozenset[str] = frozenset()  # of speech (:mod:`~idiomkit.idioms.choice`)

    @property
    def known(self) -> frozenset[str]:
        """Every lemma: the words the rare-word rule knows (:mod:`~idiomkit.idioms.curation`)."""
        return self.nouns | self.verbs | self.modifiers | frozenset(self.restatements)

    @classmethod
    def read(cls, wordnet_dir: str | Path = WORDNET_DIR) -> LightWords:
        """From WordNet's data files (a missing or malformed one is a DataError naming it)."""
        synsets = read_synsets(wordnet_dir)
        nouns = frozenset(lemma.casefold() for s in synsets.values() if s.pos == "n" for lemma in s.lemmas)
        related: dict[str, set[str]] = {}
        for synset in synsets.values():
            if synset.pos not in ("a", "r"):
                continue
            lemmas = set(synset.lemmas)
            for symbol, offset, pos in synset.pointers:
                if symbol in _RELATED and (pos, offset) in synsets:
                    lemmas |= set(synsets[pos, offset].lemmas)
            for lemma in synset.lemmas:
                related.setdefault(lemma.casefold(), {lemma}).update(lemmas)
        verbs = frozenset(lemma.casefold() for s in synsets.values() if s.pos == "v" for lemma in s.lemmas)
        modifiers = frozenset(lemma.casefold() for s in synsets.values() if s.pos in ("a", "r") for lemma in s.lemmas)
        restatements = {word: _stems(" ".join(lemmas)) for word, lemmas in related.items()}
        return cls(nouns, restatements, verbs, modifiers)


@cache
def light_words(wordnet_dir: str | Path = WORDNET_DIR) -> LightWords:
    """:meth:`LightWords.read`, read once."""
    return LightWords.read(wordnet_dir)


def _stems(text: str) -> frozenset[str]:
    """The content stems of ``text`` (WordNet's "_" a space), light words aside."""
    text = text.replace("_", " ").casefold()
    return frozenset(content_stems(" ".join(w for w in _WORD.findall(text) if w not in EN_LIGHT)))


def is_light(idiom: str, meaning: str, words: LightWords) -> bool:
    """Whether an English entry is a light one (module docstring): two words (articles aside, no slot, no
    hyphen), one light, the other an adjective or adverb and never a noun, that ``meaning`` restates.

    Example::

        is_light("out loud", "using the voice; aloud", words), is_light("kick the bucket", "to die", words)
        # True, False
    """
    found = [w for w in _WORD.findall(idiom.casefold()) if w not in _ARTICLES]
    if "-" in idiom or len(found) != 2 or _SLOTS & set(found):
        return False
    heavy = [w for w in found if w not in EN_LIGHT]
    if len(heavy) != 1 or heavy[0] in words.nouns or heavy[0] not in words.restatements:
        return False
    return bool(_stems(meaning) & words.restatements[heavy[0]])


def drop_light(lex: Lexicon, words: LightWords, report: BuildReport) -> int:
    """Remove the light English entries (their first meaning judged), counting them per source
    (``dropped: light entry``) and logging how many went."""
    light = [entry for entry in lex if entry.language == "EN" and is_light(entry.idiom, entry.meanings[0], words)]
    for entry in light:
        for source in entry.sources:
            report.count(source, "dropped: light entry")
    gone = lex.remove([entry.idiom for entry in light], "EN")
    log.info("lexicon: %d light entries dropped (%s)", gone, ", ".join(sorted(e.idiom for e in light)))
    return gone
