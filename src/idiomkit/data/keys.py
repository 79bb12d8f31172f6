"""Comparison keys of sentences and idioms: the forms the held-out dedup, the lexicon and the core test compare."""

from __future__ import annotations

import re
import unicodedata

FILLERS = frozenset(
    ("a", "an", "the", "one", "one's", "someone", "someone's", "somebody", "somebody's", "something", "sth", "sb")
    + ("your", "his", "her", "their", "my", "our", "its", "alguém", "algo")
)
_SLOTS = re.compile(r"\[[^\]]*\]|\([^)]*\)")
_PUNCT = re.compile(r"[^\w\s]|_")


def strip_accents(text: str) -> str:
    """``text`` without its accents (``bôca`` -> ``boca``, ``não`` -> ``nao``): decomposed, combining marks dropped,
    composed again."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def normalise_sentence(text: str) -> str:
    """NFKC, case folded, punctuation and symbols as spaces, whitespace collapsed: how sentences are compared."""
    text = _PUNCT.sub(" ", unicodedata.normalize("NFKC", text).casefold())
    return " ".join(text.split())


def idiom_words(text: str) -> list[str]:
    """An idiom's words, case folded, slots such as ``[pron]``/``(somebody)`` dropped, outer apostrophes stripped
    (``one's`` stays ``one's``)."""
    text = _SLOTS.sub(" ", unicodedata.normalize("NFKC", text).casefold().replace("’", "'"))
    return [w for w in (w.strip("'") for w in re.findall(r"[\w']+", text)) if w]


def normalise_idiom(text: str) -> str:
    """An idiom's comparison key: slots, articles and possessive fillers dropped, then :func:`normalise_sentence`."""
    words = idiom_words(text)
    kept = [w for w in words if w not in FILLERS]
    return " ".join(kept or words) or normalise_sentence(_SLOTS.sub(" ", text))


# British spellings -> American, whole words (the suffix rules of :func:`canonical_spelling` do the rest)
_SPELLING_WORDS = {
    "grey": "gray",
    "greys": "grays",
    "plough": "plow",
    "ploughs": "plows",
    "kerb": "curb",
    "tyre": "tire",
    "tyres": "tires",
    "storey": "story",
    "storeys": "stories",
    "mould": "mold",
    "moult": "molt",
    "smoulder": "smolder",
    "pyjamas": "pajamas",
    "sceptic": "skeptic",
    "sceptical": "skeptical",
    "manoeuvre": "maneuver",
    "jewellery": "jewelry",
    "aeroplane": "airplane",
    "programme": "program",
    "cheque": "check",
    "whisky": "whiskey",
    "arse": "ass",
    "mum": "mom",
    "towards": "toward",
    "amongst": "among",
    "whilst": "while",
    "learnt": "learned",
    "spelt": "spelled",
    "burnt": "burned",
    "dreamt": "dreamed",
    "spoilt": "spoiled",
    "leapt": "leaped",
    "defence": "defense",
    "offence": "offense",
    "licence": "license",
    "pretence": "pretense",
}
_SPELLING_RULES = (
    (re.compile(r"^(\w{2,})our(s|ed|ing|ful|ite|ites|able|er|ers)?$"), r"\1or\2"),  # armour, colour, favourite
    (re.compile(r"^(\w{3,})is(e|es|ed|ing|ation|ations)$"), r"\1iz\2"),  # realise, organisation
    (re.compile(r"^(\w{2,})ys(e|es|ed|ing)$"), r"\1yz\2"),  # analyse, paralysed
    (re.compile(r"^(\w{2,})tre(s)?$"), r"\1ter\2"),  # centre, theatre, metre
    (re.compile(r"^(\w{4,})ogue(s)?$"), r"\1og\2"),  # catalogue, dialogue
    (re.compile(r"^(\w{2,}[aeiou])ll(ed|ing|er|ers)$"), r"\1l\2"),  # travelled, cancelling
)


def canonical_spelling(word: str) -> str:
    """One spelling for a British/American pair (``armour`` -> ``armor``, ``realised`` -> ``realized``,
    ``centre`` -> ``center``, ``travelled`` -> ``traveled``, ``grey`` -> ``gray``), for comparisons that must find
    an idiom in either spelling; applied to both sides, so a rule that also rewrites an unrelated word (``four`` is
    spared: four letters) only joins words that then compare equal on both sides.

    Example::

        canonical_spelling("armour") == canonical_spelling("armor")  # True
    """
    word = _SPELLING_WORDS.get(word, word)
    if len(word) < 5:
        return word
    for pattern, replacement in _SPELLING_RULES:
        new = pattern.sub(replacement, word)
        if new != word:
            return new
    return word
