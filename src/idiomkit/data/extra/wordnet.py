"""WordNet (Debian/Ubuntu package ``wordnet-base``) as an idiom source: the multiword lemmas that are idioms, with
their synset's gloss, for the lexicon build (:mod:`idiomkit.idioms.lexicon_build`; licence: WordNet 3.0).

Most multiword lemmas of WordNet are compounds and terms ("dining room", "medical diagnosis", "skin tumor"), not
idioms. :func:`wordnet_reason` keeps a lemma with an idiomatic usage mark (colloquialism, slang, trope) and drops,
counted per reason: names and codes, whole lexicographer files of compounds (animals, artefacts, foods...), two-word
nouns outside the abstract noun files, and in any file a noun that is a kind of its own head word (its hypernyms,
two levels up, hold a sense of its last word: "peer review", "morning sickness"), a noun with a classifying
adjective (one whose every adjective sense is relational: "dental surgeon", "ovarian cyst"), a medical term
(a noun under a disease, disorder, symptom or injury: "erythema nodosum"), a noun with a topic
domain (a technical term: "field goal", "operating system"), number words, and a lemma whose gloss or synonyms
restate its content words ("tree frog" -> "arboreal frog").

Example::

    rows = load_wordnet()  # [DictSense("kick the bucket", "EN", "pass from physical life", "EN", "wordnet"), ...]
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import NamedTuple

from idiomkit.data.csvio import decode
from idiomkit.data.errors import DataError
from idiomkit.data.extra.dictionaries import DictSense, content_stems, log_source_counts, restates

WORDNET_DIR = Path("/usr/share/wordnet")  # Debian/Ubuntu package wordnet-base
WN_POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _word_list(text: str) -> list[str]:
    return text.split()


# noun files whose two-word compounds may be idioms ("black sheep", "bottom line", "low spirits") when no other rule
# drops them; elsewhere a two-word noun needs a usage mark
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
WN_NUMBERS = _words(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred thousand million billion trillion dozen score first second third half quarter"
)
HYPERNYM_DEPTH = 2  # how far up a noun's hypernyms are searched for its own head word
# a noun under one of these (any depth) is a medical term ("erythema nodosum", "valley fever")
WN_MEDICAL = _words("disease ill_health pathology symptom disorder injury infection")
WN_LEXNAMES = tuple(
    _word_list(
        "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
        "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location "
        "noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process "
        "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change "
        "verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation "
        "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather "
        "adj.ppl"
    )
)  # the standard lexnames order (lex_filenum = index)


class Synset(NamedTuple):
    """One synset of a ``data.*`` file: its lemmas (``_`` kept), pointers ``(symbol, offset, pos)`` and gloss."""

    pos: str
    offset: str
    lexfile: str
    lemmas: tuple[str, ...]
    pointers: tuple[tuple[str, str, str], ...]
    gloss: str


class WordnetLemma(NamedTuple):
    """A multiword WordNet lemma with its synset's gloss, lexicographer file, usage and topic domains, and two
    signs of a compound: ``kind_of_head`` (a hyponym of its own head word) and ``classifying`` (a noun whose first
    word is a relational adjective only), and ``medical`` (a noun under a disease, disorder or symptom)."""

    lemma: str
    gloss: str
    lexfile: str
    usage: frozenset[str]
    synonyms: tuple[str, ...]
    topic: frozenset[str] = frozenset()
    kind_of_head: bool = False
    classifying: bool = False
    medical: bool = False


def _synset(path: Path, number: int, pos: str, line: str) -> Synset:
    """One data line as a :class:`Synset` (a DataError naming file, line and field when malformed)."""
    head, _, gloss = line.partition(" | ")
    fields = head.split()
    try:
        offset, lexnum, count = fields[0], int(fields[1]), int(fields[3], 16)
        words = [re.sub(r"\([a-z]+\)$", "", fields[4 + 2 * i]) for i in range(count)]
        at = 4 + 2 * count
        pointers = tuple(
            (fields[at + 1 + 4 * i], fields[at + 2 + 4 * i], fields[at + 3 + 4 * i].replace("s", "a"))
            for i in range(int(fields[at]))
        )
    except (IndexError, ValueError):
        raise DataError(path, number, "synset", "malformed WordNet data line") from None
    lexfile = WN_LEXNAMES[lexnum] if lexnum < len(WN_LEXNAMES) else f"{pos}.{lexnum}"
    return Synset(WN_POS[pos], offset, lexfile, tuple(words), pointers, gloss.strip())


def read_synsets(wordnet_dir: str | Path = WORDNET_DIR) -> dict[tuple[str, str], Synset]:
    """Every synset of WordNet's ``data.{noun,verb,adj,adv}`` files by ``(pos letter, offset)`` (satellite
    adjectives under ``a``); read once per state of the files (the lexicon build reads them twice). Callers must
    not change the dict."""
    root = Path(wordnet_dir).resolve()
    files = [root / f"data.{pos}" for pos in WN_POS]
    stamps = tuple((p.stat().st_mtime_ns, p.stat().st_size) if p.is_file() else None for p in files)
    return _read_synsets(root, stamps)


@cache
def _read_synsets(root: Path, stamps: tuple) -> dict[tuple[str, str], Synset]:
    """:func:`read_synsets` for one state (``stamps``: the data files' mtimes and sizes) of the files."""
    out = {}
    for pos in WN_POS:
        path = root / f"data.{pos}"
        for number, line in enumerate(decode(path).split("\n"), start=1):
            if line and not line.startswith("  "):
                synset = _synset(path, number, pos, line)
                out[synset.pos, synset.offset] = synset
    return out


class _Net:
    """Look-ups over the synsets: a word's synsets per part of speech, a synset's hypernyms."""

    def __init__(self, synsets: dict[tuple[str, str], Synset]):
        self.synsets = synsets
        self._medical_memo: dict[tuple[tuple[str, str], int], bool] = {}
        self.of_word: dict[tuple[str, str], set[tuple[str, str]]] = {}
        for key, synset in synsets.items():
            for lemma in synset.lemmas:
                self.of_word.setdefault((synset.pos, lemma.casefold()), set()).add(key)

    def hypernyms(self, key: tuple[str, str], depth: int = HYPERNYM_DEPTH) -> set[tuple[str, str]]:
        found, front = set(), {key}
        for _ in range(depth):
            front = {(p, o) for k in front for sym, o, p in self.synsets[k].pointers if sym in ("@", "@i")}
            found |= front
        return found

    def head_senses(self, lemma: str) -> set[tuple[str, str]]:
        """The noun senses of a compound's head word: its last word, or the one before "of" ("breach of trust")."""
        words = lemma.casefold().split("_")
        head = words[words.index("of") - 1] if "of" in words[1:] else words[-1]
        return self.of_word.get(("n", head), set())

    def kind_of_head(self, key: tuple[str, str], lemma: str) -> bool:
        """A noun that is a kind of its head word: its synset or hypernyms hold a sense of it ("peer review" is a
        review), or the head word has a sense in the noun's own lexicographer file ("espionage agent" and "agent"
        are both noun.person; "sitting duck" and "duck" are not)."""
        if key[0] != "n":
            return False
        head = self.head_senses(lemma)
        lexfile = self.synsets[key].lexfile
        return bool(head & (self.hypernyms(key) | {key})) or any(self.synsets[h].lexfile == lexfile for h in head)

    def medical(self, key: tuple[str, str]) -> bool:
        """A noun under a disease, disorder, symptom or injury (:data:`WN_MEDICAL`), up to 12 hypernyms up."""
        return key[0] == "n" and self._under_medical(key, 12)

    def _under_medical(self, key: tuple[str, str], depth: int) -> bool:
        """Whether a hypernym of ``key`` at most ``depth`` levels up is named in :data:`WN_MEDICAL` (memoised:
        the hypernym paths of WordNet's nouns share most of their synsets)."""
        if depth == 0:
            return False
        memo = self._medical_memo
        if (key, depth) not in memo:
            parents = [(p, o) for sym, o, p in self.synsets[key].pointers if sym in ("@", "@i")]
            memo[key, depth] = any(
                any(lemma.casefold() in WN_MEDICAL for lemma in self.synsets[k].lemmas)
                or self._under_medical(k, depth - 1)
                for k in parents
            )
        return memo[key, depth]

    def classifying(self, key: tuple[str, str], lemma: str) -> bool:
        """A noun whose first word's adjective senses are all relational ("dental", "ovarian")."""
        senses = self.of_word.get(("a", lemma.split("_")[0].casefold()), set())
        return key[0] == "n" and bool(senses) and all(self.synsets[s].lexfile == "adj.pert" for s in senses)


def read_wordnet(wordnet_dir: str | Path = WORDNET_DIR) -> list[WordnetLemma]:
    """Every multiword lemma of WordNet's data files (a malformed synset line is a DataError naming file, line
    and field)."""
    net = _Net(read_synsets(wordnet_dir))
    heads = {key: s.lemmas[0].casefold() for key, s in net.synsets.items()}
    out = []
    for key, synset in net.synsets.items():
        usage, topic = (
            frozenset(heads.get((p, o), "") for s, o, p in synset.pointers if s == sym) for sym in (";u", ";c")
        )
        definition = synset.gloss.split('; "')[0].split(";")[0].strip()
        for lemma in (w for w in synset.lemmas if "_" in w):
            others = tuple(w.replace("_", " ") for w in synset.lemmas if w != lemma)
            signs = (net.kind_of_head(key, lemma), net.classifying(key, lemma), net.medical(key))
            out.append(WordnetLemma(lemma.replace("_", " "), definition, synset.lexfile, usage, others, topic, *signs))
    return out


def wordnet_reason(lemma: WordnetLemma) -> str | None:
    """Why a multiword WordNet lemma is not taken as an idiom (None: it is kept; module docstring)."""
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
    if all(w.casefold() in WN_NUMBERS for w in words):
        return "number"
    if lemma.kind_of_head:
        return "noun: a kind of its head word"
    if lemma.classifying:
        return "noun: classifying adjective"
    if lemma.medical:
        return "noun: medical term"
    if lemma.lexfile.startswith("noun.") and lemma.topic:
        return "noun: technical term (topic domain)"
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
    log_source_counts("WordNet", root, len(lemmas), len(out), skipped)
    return out
