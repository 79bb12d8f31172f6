"""WordNet (Debian/Ubuntu package ``wordnet-base``) as an idiom source: the multiword lemmas that are idioms, with
their synset's gloss, for the lexicon build (:mod:`idiomkit.idioms.sources`; licence: WordNet 3.0).

Example::

    rows = load_wordnet()  # [DictSense("kick the bucket", "EN", "pass from physical life", "EN", "wordnet"), ...]
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from idiomkit.data.csvio import _decode
from idiomkit.data.errors import DataError
from idiomkit.data.extra.dictionaries import DictSense, _report, content_stems, restates

WORDNET_DIR = Path("/usr/share/wordnet")  # Debian/Ubuntu package wordnet-base


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _words_list(text: str) -> list[str]:
    return text.split()


WN_POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
# noun files whose two-word compounds may be idioms ("black sheep", "bottom line", "low spirits") when the gloss does
# not restate them; elsewhere a two-word noun needs a usage mark
WN_ABSTRACT_NOUNS = _words(
    "noun.person noun.state noun.feeling noun.attribute noun.communication noun.event noun.motive "
    "noun.act noun.cognition"
)
# lexicographer files whose multiword lemmas are names, taxa, substances or artefacts (compounds, not idioms)
WN_SKIP_LEXFILES = _words(
    "noun.animal noun.plant noun.body noun.substance noun.food noun.artifact noun.location noun.object "
    "noun.group noun.Tops noun.shape noun.quantity noun.time noun.process noun.possession noun.relation "
    "adj.pert"
)
# usage-domain synsets (pointer ";u") that mark a lemma idiomatic / informal
WN_IDIOMATIC_USAGE = frozenset({"colloquialism", "slang", "trope", "figure_of_speech", "disparagement"})
WN_LEXNAMES = tuple(
    _words_list(
        "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
        "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location "
        "noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process "
        "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change "
        "verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation "
        "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather "
        "adj.ppl"
    )
)  # the standard lexnames order (lex_filenum = index)


class WordnetLemma(NamedTuple):
    """A multiword WordNet lemma with its synset's gloss, lexicographer file and usage domains."""

    lemma: str
    gloss: str
    lexfile: str
    usage: frozenset[str]
    synonyms: tuple[str, ...]


def read_wordnet(wordnet_dir: str | Path = WORDNET_DIR) -> list[WordnetLemma]:
    """Every multiword lemma of WordNet's ``data.{noun,verb,adj,adv}`` files (a malformed synset line is a
    DataError naming file, line and field)."""
    root = Path(wordnet_dir)
    lines: dict[str, list[str]] = {}
    for pos in WN_POS:
        path = root / f"data.{pos}"
        lines[pos] = _decode(path).split("\n")
    heads = {}  # (pos letter, offset) -> first lemma, for usage-domain pointers
    parsed = []
    for pos, rows in lines.items():
        path = root / f"data.{pos}"
        for number, line in enumerate(rows, start=1):
            if not line or line.startswith("  "):
                continue
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            try:
                offset, lexnum, count = fields[0], int(fields[1]), int(fields[3], 16)
                words = [fields[4 + 2 * i] for i in range(count)]
                at = 4 + 2 * count
                pointers = [
                    (fields[at + 1 + 4 * i], fields[at + 2 + 4 * i], fields[at + 3 + 4 * i])
                    for i in range(int(fields[at]))
                ]
            except (IndexError, ValueError):
                raise DataError(path, number, "synset", "malformed WordNet data line") from None
            lemmas = [re.sub(r"\([a-z]+\)$", "", w) for w in words]
            heads[WN_POS[pos], offset] = lemmas[0]
            parsed.append((pos, lexnum, lemmas, pointers, gloss.strip()))
    out = []
    for pos, lexnum, lemmas, pointers, gloss in parsed:
        usage = frozenset(heads.get((p, off), "").casefold() for sym, off, p in pointers if sym == ";u")
        lexfile = WN_LEXNAMES[lexnum] if lexnum < len(WN_LEXNAMES) else f"{pos}.{lexnum}"
        definition = gloss.split('; "')[0].split(";")[0].strip()
        for lemma in lemmas:
            if "_" in lemma:
                others = tuple(w.replace("_", " ") for w in lemmas if w != lemma)
                out.append(WordnetLemma(lemma.replace("_", " "), definition, lexfile, usage, others))
    return out


def wordnet_reason(lemma: WordnetLemma) -> str | None:
    """Why a multiword WordNet lemma is not taken as an idiom (None: it is kept).

    Kept: a lemma marked colloquial / slang / figure of speech, or one outside the compound-heavy lexicographer
    files (:data:`WN_SKIP_LEXFILES`) whose gloss and synonyms do not restate its content words, that is not a
    name (capitalised), a hyphenated two-word compound or a two-word noun compound of a concrete noun file (two-word
    nouns are kept from :data:`WN_ABSTRACT_NOUNS` only: "black sheep", "bottom line").
    """
    words = lemma.lemma.split()
    if any(w[:1].isupper() for w in words) or re.search(r"[\d.]", lemma.lemma):
        return "name or code"
    if lemma.usage & WN_IDIOMATIC_USAGE:
        return None
    if lemma.usage & {"trade_name", "trademark", "plural", "combining_form", "archaism"}:
        return "usage: name or archaic"
    if lemma.lexfile in WN_SKIP_LEXFILES:
        return "compound-heavy lexicographer file"
    if lemma.lexfile.startswith("noun.") and len(words) < 3 and lemma.lexfile not in WN_ABSTRACT_NOUNS:
        return "two-word noun compound"
    if "-" in lemma.lemma and len(words) < 3:
        return "hyphenated compound"
    if restates(lemma.lemma, " ".join((lemma.gloss, *lemma.synonyms))):
        return "gloss restates the phrase"
    if not content_stems(lemma.lemma):
        return "function words only"
    return None


def load_wordnet(wordnet_dir: str | Path = WORDNET_DIR) -> list[DictSense]:
    """WordNet's idiomatic multiword lemmas (:func:`wordnet_reason`) with their synset's gloss; the dropped ones
    are counted per reason in the log. A missing WordNet (package ``wordnet-base`` not installed) is a DataError."""
    root = Path(wordnet_dir)
    if not (root / "data.verb").is_file():
        raise DataError(root / "data.verb", None, None, "file not found (install the Debian package wordnet-base)")
    lemmas = read_wordnet(root)
    out, skipped = [], Counter()
    for lemma in lemmas:
        if why := wordnet_reason(lemma):
            skipped[why] += 1
            continue
        out.append(DictSense(lemma.lemma, "EN", lemma.gloss, "EN", "wordnet"))
    _report("WordNet", root, len(lemmas), len(out), skipped)
    return out
