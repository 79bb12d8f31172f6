"""Idiom/definition (I/D) and sentence/paraphrase (S/P) pairs in the spirit of Xiao, Gupta & Michaels.

Sources (``data_dir``):

- ``epie/``: static + formal idioms with dictionary meanings (HTML, first sense kept), tagged sentences; formal
  sentences have literal paraphrases in ``translated_sentences.txt`` (line-aligned, one line short: the last
  sentence has none); static sentences get a paraphrase by replacing the BIO-tagged idiom span with the idiom's
  definition (the paper's construction).
- ``definitions/baiango_english_idioms/idioms.csv``: ``"{idiom}>>{definition}"`` lines (public domain).
- ``definitions/wiktionary_idiom_dataset/wiktionary.csv``: ``idiom,definition`` (CC BY-SA 4.0).

Idioms from all sources merge on :func:`idiom_key` (lower case, slots such as ``[pron]``/``(somebody)``, articles
and possessive fillers dropped). Each key falls in one of train / val / heldout by a fixed hash
(:func:`split_of`): held-out idioms never appear in training pairs, as definitions, sentences or negatives.
"""

from __future__ import annotations

import hashlib
import html
import logging
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from idiomkit.data.csvio import csv_value_rows, decode, read_csv_rows, read_text_lines
from idiomkit.data.errors import DataError
from idiomkit.data.semeval2a import Example2A
from idiomkit.errors import InputError, check_choice

log = logging.getLogger(__name__)

SPLITS = ("train", "val", "heldout")
SPLIT_PERCENT = (70, 10, 20)  # train / val / heldout, by hash of the idiom key
SOURCE_PRIORITY = ("epie", "wiktionary", "baiango")  # which definition is an idiom's primary one

EPIE_KINDS = {
    "static": ("Static_idioms.txt", "Static_idioms_meanings.txt", "Static_Idioms_Corpus/Static_Idioms"),
    "formal": ("Formal_idioms.txt", "Formal_idioms_meanings_final.txt", "Formal_Idioms_Corpus/Formal_Idioms"),
}
# The known gap of each shipped EPIE meanings file: (meaning lines without a sense block, lines). Those idioms get no
# EPIE definition: said once at INFO; other counts mean the file changed, a WARNING.
EPIE_NO_SENSE = {"static": (14, 359), "formal": (61, 358)}
BAIANGO = "definitions/baiango_english_idioms/idioms.csv"
WIKTIONARY = "definitions/wiktionary_idiom_dataset/wiktionary.csv"
FILLERS = frozenset(
    ("a", "an", "the", "one", "one's", "someone", "someone's", "somebody", "somebody's", "something", "sth", "sb")
    + ("your", "his", "her", "their", "my", "our", "its")
)


@dataclass(frozen=True)
class Definition:
    key: str
    idiom: str
    text: str
    source: str  # epie | baiango | wiktionary


@dataclass(frozen=True)
class SentencePair:
    key: str
    sentence: str
    paraphrase: str
    source: str  # epie-formal | epie-static


@dataclass
class Idiom:
    """One idiom (merged over sources): display text, definitions (primary first), sentence pairs."""

    key: str
    text: str
    definitions: list[Definition] = field(default_factory=list)
    pairs: list[SentencePair] = field(default_factory=list)

    @property
    def split(self) -> str:
        return split_of(self.key)

    @property
    def definition(self) -> str:
        """The primary definition (EPIE, then Wiktionary, then baiango)."""
        best = min(self.definitions, key=lambda d: SOURCE_PRIORITY.index(d.source))
        return best.text


@dataclass
class IdiomData:
    idioms: dict[str, Idiom]
    files: list[Path]

    def split(self, name: str) -> list[Idiom]:
        check_choice("split", name, SPLITS)
        return [i for i in self.idioms.values() if i.split == name and i.definitions]


# --- keys and split -------------------------------------------------------------------------------------------


def idiom_key(text: str) -> str:
    """Normalised idiom key: ``Keep [pron] eye on`` and ``keep an eye on`` both give ``keep eye on``."""
    s = re.sub(r"\[[^\]]*\]|\([^)]*\)", " ", text.lower()).replace("’", "'")
    words = [w.strip("'") for w in re.findall(r"[a-z0-9']+", s)]
    kept = [w for w in words if w and w not in FILLERS]
    return " ".join(kept) or " ".join(w for w in words if w) or text.strip().lower()


def display_text(raw: str) -> str:
    """An EPIE idiom as plain text: ``[pron]`` -> ``one's``, ``(somebody)`` -> ``somebody``."""
    s = raw.replace("[pron]", "one's").replace("(", "").replace(")", "")
    return " ".join(s.split())


def split_of(key: str) -> str:
    """train / val / heldout by a fixed hash of the key (independent of seeds and of which sources are loaded)."""
    bucket = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 100
    if bucket < SPLIT_PERCENT[0]:
        return "train"
    return "val" if bucket < SPLIT_PERCENT[0] + SPLIT_PERCENT[1] else "heldout"


# --- EPIE -----------------------------------------------------------------------------------------------------


def epie_first_sense(line: str) -> str | None:
    """The first dictionary sense of an EPIE meanings line (HTML stripped, examples and labels dropped)."""
    m = re.search(r'<div class="ds-(?:single|list)">(.*?)</div>', line, re.S)
    if not m:
        return None
    s = re.sub(r'<span class="illustration">.*?</span>', " ", m.group(1), flags=re.S)
    s = re.sub(r"^\s*(?:\d+\.\s*)?(?:<i>[^<]*</i>\s*)*", "", s)  # sense number, leading labels (slang, Fig.)
    s = html.unescape(re.sub(r"<[^>]+>", "", s))
    s = " ".join(s.split())
    return s or None


def substitute_phrase(definition: str) -> str:
    """A definition shaped to stand in for the idiom inside a sentence: first sentence, no final period."""
    first = re.split(r"(?<=[.!?])\s", definition.strip())[0].rstrip(".!? ")
    return first[:1].lower() + first[1:] if first[1:2].islower() or len(first) == 1 else first


def _aligned(paths: Sequence[Path]) -> list[list[str]]:
    columns = [read_text_lines(p) for p in paths]
    for p, col in zip(paths[1:], columns[1:], strict=True):
        if len(col) != len(columns[0]):
            raise DataError(p, None, None, f"has {len(col)} lines, {paths[0].name} has {len(columns[0])}")
    return columns


def load_epie_definitions(data_dir: str | Path, kind: str) -> tuple[list[tuple[str, str, str | None]], list[Path]]:
    """(raw idiom, display text, first-sense definition or None) per EPIE ``kind`` (static | formal) idiom."""
    root = Path(data_dir) / "epie"
    names, meanings, _ = EPIE_KINDS[kind]
    paths = [root / names, root / meanings]
    idioms, senses = _aligned(paths)
    out = []
    for row, (raw, line) in enumerate(zip(idioms, senses, strict=True), start=1):
        if not raw.strip():
            raise DataError(paths[0], row, "idiom", "is empty")
        out.append((raw.strip(), display_text(raw.strip()), epie_first_sense(line)))
    if no_sense := [row for row, (_, _, text) in enumerate(out, start=1) if text is None]:
        known = (len(no_sense), len(out)) == EPIE_NO_SENSE[kind]
        log_once(
            logging.INFO if known else logging.WARNING,  # an idiom is dropped (unless another source defines it)
            "%s: %d of %d meaning lines have no sense block (first: row %d)%s; those idioms get no EPIE "
            "definition and are left out unless another source defines them",
            paths[1],
            len(no_sense),
            len(out),
            no_sense[0],
            " (the known gap of EPIE)"
            if known
            else " (the shipped file has {} of {}: it changed)".format(*EPIE_NO_SENSE[kind]),
        )
    return out, paths


_LOGGED: set[tuple] = set()


def log_once(level: int, message: str, *args: object) -> None:
    """``log.log(level, message, *args)`` the first time this process sees the same message and arguments, at DEBUG
    after that: a source read several times in a run (the flagship reads EPIE twice) says each thing once."""
    key = (level, message, *map(str, args))
    log.log(logging.DEBUG if key in _LOGGED else level, message, *args)
    _LOGGED.add(key)


def _tagged_span(path: Path, row: int, words: str, tags: str) -> tuple[list[str], int, int] | None:
    """(tokens, first, last + 1) of the BIO-tagged idiom of a line, None if untagged."""
    tokens, labels = words.split(" "), tags.split(" ")
    if len(tokens) != len(labels):
        raise DataError(path, row, "tags", f"{len(labels)} tags for {len(tokens)} tokens")
    bad = [t for t in labels if t not in ("O", "B-IDIOM", "I-IDIOM")]
    if bad:
        raise DataError(path, row, "tags", f"unknown tag '{bad[0]}' (expected O, B-IDIOM, I-IDIOM)")
    idx = [i for i, t in enumerate(labels) if t in ("B-IDIOM", "I-IDIOM")]
    if not idx:
        return None
    return tokens, idx[0], idx[-1] + 1


def _formal_label(path: Path, row: int, value: str) -> int:
    """An EPIE formal-corpus label: 1 = idiomatic, 0 = literal."""
    if value.strip() not in ("0", "1"):
        raise DataError(path, row, "label", f"'{value}' is not 0 or 1")
    return int(value)


def _log_unused(source: str, total: int, reasons: Counter) -> None:
    """One log line: how many of ``total`` sentences of ``source`` gave no pair, and why."""
    if unused := {reason: n for reason, n in reasons.items() if n}:
        detail = ", ".join(f"{n} {reason}" for reason, n in unused.items())
        log.info("%s: %d of %d sentences give no sentence pair (%s)", source, sum(unused.values()), total, detail)


def load_epie_pairs(data_dir: str | Path, definitions: dict[str, str]) -> tuple[list[SentencePair], list[Path]]:
    """Sentence/paraphrase pairs: formal (idiomatic label, translated paraphrase that differs from the sentence)
    and static (idiom span replaced by ``definitions[key]``; sentences whose idiom has no definition skipped)."""
    root = Path(data_dir) / "epie"
    pairs: list[SentencePair] = []
    stem = root / EPIE_KINDS["formal"][2]
    f_paths = [Path(f"{stem}_Words.txt"), Path(f"{stem}_Candidates.txt"), Path(f"{stem}_Labels.txt")]
    words, cands, labels = _aligned(f_paths)
    t_path = stem.parent / "translated_sentences.txt"
    translated = read_text_lines(t_path)
    if not 0 <= len(words) - len(translated) <= 1:
        raise DataError(t_path, None, None, f"has {len(translated)} lines for {len(words)} sentences")
    formal = Counter()
    for row, (w, c, lab, t) in enumerate(zip(words, cands, labels, translated, strict=False), start=1):
        if _formal_label(f_paths[2], row, lab) != 1:
            formal["literal"] += 1
        elif not t.strip() or t.strip().lower() == w.strip().lower():
            formal["no paraphrase (missing or identical translation)"] += 1
        else:
            pairs.append(SentencePair(idiom_key(c), w.strip(), t.strip(), "epie-formal"))
    formal["no paraphrase (missing or identical translation)"] += len(words) - len(translated)
    _log_unused("EPIE formal", len(words), formal)
    stem = root / EPIE_KINDS["static"][2]
    s_paths = [Path(f"{stem}_Words.txt"), Path(f"{stem}_Candidates.txt"), Path(f"{stem}_Tags.txt")]
    static = Counter()
    s_lines = _aligned(s_paths)
    for row, (w, c, tags) in enumerate(zip(*s_lines, strict=True), start=1):
        key = idiom_key(c)
        span = _tagged_span(s_paths[2], row, w, tags)  # validated on every row, with or without a definition
        if key not in definitions:
            static["idiom without a definition"] += 1
        elif span is None:
            static["no tagged idiom span"] += 1
        else:
            tokens, a, b = span
            pairs.append(
                SentencePair(key, w.strip(), " ".join(tokens[:a] + [definitions[key]] + tokens[b:]), "epie-static")
            )
    _log_unused("EPIE static", len(s_lines[0]), static)
    return pairs, f_paths + [t_path] + s_paths


def load_epie_usages(
    data_dir: str | Path, setting: str = "zero_shot"
) -> tuple[list[Example2A], dict[str, str], list[Path]]:
    """The labelled EPIE formal sentences (idiomatic or literal use of an idiom that can be read either way) as
    SemEval-2A-style examples: MWE = the BIO-tagged span, label 0 = idiomatic / 1 = literal (EPIE's 1 / 0), id
    ``epie-formal-<row>``, ``setting`` as given (``extra``: training only, see ``training.classifier``). Returns
    (examples, idiom key by example id, files); untagged rows are dropped and counted in the log."""
    stem = Path(data_dir) / "epie" / EPIE_KINDS["formal"][2]
    paths = [Path(f"{stem}_{n}.txt") for n in ("Words", "Candidates", "Labels", "Tags")]
    out, key_of, untagged = [], {}, 0
    for row, (w, c, lab, tags) in enumerate(zip(*_aligned(paths), strict=True), start=1):
        label = _formal_label(paths[2], row, lab)
        if (span := _tagged_span(paths[3], row, w.strip(), tags.strip())) is None:
            untagged += 1
            continue
        tokens, a, b = span
        mwe = " ".join(tokens[a:b])
        ex = Example2A(f"epie-formal-{row}", "EN", mwe, "", w.strip(), "", 1 - label, setting)
        out.append(ex)
        key_of[ex.id] = idiom_key(c)
    if untagged:
        log.info("EPIE formal: %d of %d sentences have no tagged idiom span, dropped", untagged, untagged + len(out))
    return out, key_of, paths


# --- definition lists -----------------------------------------------------------------------------------------


def load_baiango(data_dir: str | Path) -> tuple[list[Definition], Path]:
    """baiango/english_idioms: one CSV-quoted ``{idiom}>>{definition}`` per line, no header."""
    path = Path(data_dir) / BAIANGO
    if not path.is_file():
        raise DataError(path, None, None, "file not found")
    out = []
    for row, values in csv_value_rows(path, decode(path, first_row=1), first_row=1, columns=("idiom",)):
        if not values:
            continue
        m = re.fullmatch(r"\{(.*)\}>>\{(.*)\}", values[0].strip(), re.S)
        if len(values) != 1 or not m:
            raise DataError(path, row, "idiom", "expected one '{idiom}>>{definition}' value")
        idiom, text = m.group(1).strip(), m.group(2).strip()
        if not idiom or not text:
            raise DataError(path, row, "definition" if idiom else "idiom", "is empty")
        out.append(Definition(idiom_key(idiom), idiom.lower() if idiom[:1].isupper() else idiom, text, "baiango"))
    return out, path


def load_wiktionary(data_dir: str | Path) -> tuple[list[Definition], Path]:
    path = Path(data_dir) / WIKTIONARY
    out = []
    for row, rec in read_csv_rows(path, ["idiom", "definition"]):
        for name in ("idiom", "definition"):
            if not rec[name].strip():
                raise DataError(path, row, name, "is empty")
        out.append(Definition(idiom_key(rec["idiom"]), rec["idiom"].strip(), rec["definition"].strip(), "wiktionary"))
    return out, path


# --- merged data ----------------------------------------------------------------------------------------------


def merge(definitions: Iterable[Definition], pairs: Iterable[SentencePair]) -> dict[str, Idiom]:
    """Idioms by key: first-seen display text, de-duplicated definitions, sentence pairs (the repeated definitions
    and the pairs of idioms without a definition are counted in the log)."""
    idioms: dict[str, Idiom] = {}
    repeated = orphans = 0
    for d in definitions:
        idiom = idioms.setdefault(d.key, Idiom(d.key, d.idiom))
        if all(x.text.lower() != d.text.lower() for x in idiom.definitions):
            idiom.definitions.append(d)
        else:
            repeated += 1
    for p in pairs:
        if p.key in idioms:
            idioms[p.key].pairs.append(p)
        else:
            orphans += 1
    if repeated or orphans:
        log.info(
            "idiom data: %d repeated definition(s) merged, %d sentence pair(s) of idioms without a definition left out",
            repeated,
            orphans,
        )
    return idioms


def load_idiom_data(data_dir: str | Path, sources: Sequence[str] = ("epie", "baiango", "wiktionary")) -> IdiomData:
    """All idioms with definitions (and EPIE sentence pairs), merged by key."""
    defs: list[Definition] = []
    files: list[Path] = []
    pairs: list[SentencePair] = []
    if "epie" in sources:
        for kind in EPIE_KINDS:
            rows, paths = load_epie_definitions(data_dir, kind)
            files += paths
            defs += [Definition(idiom_key(raw), shown, text, "epie") for raw, shown, text in rows if text]
        first: dict[str, str] = {}
        for d in defs:
            first.setdefault(d.key, substitute_phrase(d.text))
        pairs, paths = load_epie_pairs(data_dir, first)
        files += paths
    for name, loader in (("baiango", load_baiango), ("wiktionary", load_wiktionary)):
        if name in sources:
            more, path = loader(data_dir)
            defs += more
            files.append(path)
    return IdiomData(merge(defs, pairs), files)


# --- pairs with sampled negatives -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    """An anchor, its positive and a negative drawn from another idiom of the same split."""

    key: str
    anchor: str
    positive: str
    negative: str
    kind: str  # id | sp


def _negative(rng: random.Random, key: str, pool: Sequence[tuple[str, str]]) -> str:
    while True:
        other_key, text = pool[rng.randrange(len(pool))]
        if other_key != key:
            return text


def id_pairs(idioms: Sequence[Idiom], seed: int = 0, all_definitions: bool = True) -> list[Pair]:
    """(idiom, definition, other idiom's definition): every definition of each idiom, or the primary one only."""
    rng = random.Random(seed)
    chosen = [(i, [d.text for d in i.definitions] if all_definitions else [i.definition]) for i in idioms]
    pool = [(i.key, t) for i, texts in chosen for t in texts]
    if len({k for k, _ in pool}) < 2:
        raise InputError("need at least two idioms with definitions to draw incorrect definitions")
    return [Pair(i.key, i.text, t, _negative(rng, i.key, pool), "id") for i, texts in chosen for t in texts]


def sp_pairs(idioms: Sequence[Idiom], seed: int = 0, per_idiom: int | None = None) -> list[Pair]:
    """(sentence, paraphrase, other idiom's paraphrase); at most ``per_idiom`` sentences per idiom (seeded)."""
    rng = random.Random(seed)
    chosen = []
    for i in idioms:
        items = list(i.pairs)
        if per_idiom is not None and len(items) > per_idiom:
            items = rng.sample(items, per_idiom)
        chosen += items
    pool = [(p.key, p.paraphrase) for p in chosen]
    if chosen and len({k for k, _ in pool}) < 2:
        raise InputError("need sentences of at least two idioms to draw incorrect paraphrases")
    return [Pair(p.key, p.sentence, p.paraphrase, _negative(rng, p.key, pool), "sp") for p in chosen]
