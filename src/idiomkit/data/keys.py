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


def normalise_idiom(text: str) -> str:
    """An idiom's comparison key: slots, articles and possessive fillers dropped, then :func:`normalise_sentence`."""
    text = _SLOTS.sub(" ", unicodedata.normalize("NFKC", text).casefold().replace("’", "'"))
    words = [w.strip("'") for w in re.findall(r"[\w']+", text)]
    kept = [w for w in words if w and w not in FILLERS]
    return " ".join(kept or [w for w in words if w]) or normalise_sentence(text)
