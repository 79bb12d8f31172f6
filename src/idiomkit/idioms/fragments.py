"""Fragment meanings: a source's meaning that is no paraphrase but a piece of one, left by a parse or by the build's
cut to the first clause (:func:`~idiomkit.idioms.lexicon_build.clean_meaning`). The reader writes an entry's first
meaning into the sentence, so a fragment there reads "the last minute" as "an arbitrary" or "keep counsel" as "or".
The lexicon build (:mod:`~idiomkit.idioms.lexicon_build`) drops such rows with :func:`drop_fragments`, counted per
source; an idiom keeps its other meanings.

A meaning is a fragment when

- its words are all articles and connectives: "or", "and", "the ... the", "such a, what a";
- it ends with an article or a coordinating conjunction: "on behalf of the", "to have commanding power or
  influence, and" (Portuguese "a" is also a preposition, so a meaning may end with it: "atender a");
- (English, with WordNet) it is an article and one word that WordNet has as an adjective or adverb and never as a
  noun: "an arbitrary", "A sheltered", "the busy" (the cut kept the adjective, not its noun).

Example::

    is_fragment("an arbitrary", "EN", light_words()), is_fragment("to die", "EN", light_words())  # True, False
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from idiomkit.idioms.morphology import word_set

if TYPE_CHECKING:
    from idiomkit.idioms.light import LightWords
    from idiomkit.idioms.sources import BuildReport

log = logging.getLogger(__name__)


class Sense(NamedTuple):
    """One (idiom, meaning) row of a source; ``meaning_language`` empty: the idiom's language; ``labelled``: the
    source labels the sense idiomatic or figurative (set by :func:`~idiomkit.idioms.lexicon_build.screen`)."""

    idiom: str
    language: str
    meaning: str
    source: str
    meaning_language: str = ""
    labelled: bool = False

    @property
    def gloss_language(self) -> str:
        return self.meaning_language or self.language


# articles a meaning cannot end with (Portuguese "a" is a preposition too: "atender a", "relativamente a")
_ARTICLES = {"EN": word_set("a an the"), "PT": word_set("o os as um uma uns umas")}
_COORDINATORS = {"EN": word_set("and or but nor"), "PT": word_set("e ou mas nem")}
_CONNECTIVES = {"EN": word_set("both either neither such what"), "PT": word_set("tanto quanto como")}
_WORD = re.compile(r"[\w'-]*\w")  # hyphens kept: "bajulando-o" ends with a verb, not with the article "o"


def is_fragment(meaning: str, language: str, words: LightWords | None = None) -> bool:
    """Whether ``meaning`` (written in ``language``) is a fragment (module docstring); ``words``: WordNet's nouns
    and adjectives (:func:`~idiomkit.idioms.light.light_words`), for the article + adjective rule (English only)."""
    found = _WORD.findall(meaning.casefold())
    articles, coordinators = _ARTICLES.get(language, set()), _COORDINATORS.get(language, set())
    if not found or set(found) <= articles | coordinators | _CONNECTIVES.get(language, set()):
        return True
    if found[-1] in articles | coordinators:
        return True
    if words is None or language != "EN" or len(found) != 2 or found[0] not in articles:
        return False
    return found[1] not in words.nouns and found[1] in words.restatements


def drop_fragments(rows: Iterable[Sense], report: BuildReport, words: LightWords | None = None) -> list[Sense]:
    """The ``rows`` whose meaning is no fragment (:func:`is_fragment`); each dropped row counted in ``report``
    (``dropped: meaning a fragment``) and logged."""
    kept, dropped = [], []
    for row in rows:
        if is_fragment(row.meaning, row.gloss_language, words):
            report.count(row.source, "dropped: meaning a fragment")
            dropped.append(row)
        else:
            kept.append(row)
    examples = ", ".join(f"{r.idiom!r} -> {r.meaning!r}" for r in dropped[:8])
    log.info("lexicon: %d fragment meanings dropped (%s%s)", len(dropped), examples, ", ..." if dropped[8:] else "")
    return kept
