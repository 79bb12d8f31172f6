"""Held-out hygiene: the one filter every training source goes through.

:func:`heldout_index` collects, once per data directory, the normalised sentences of every held-out split (2B
dev/eval/test, 2A dev/eval/test, IdioLink val/test, AdMIRe dev/test, the Xiao held-out idioms' sentences, STS-B and
ASSIN 2 dev (they are 2B dev's STS rows) and test) and the idioms of the benchmarks that promise unseen idioms
(2A dev/eval/test, IdioLink val/test, AdMIRe dev/test, the Xiao held-out idioms, the core test's held-out idioms
listed in ``data/resources/core_test_heldout.tsv`` with its held-out triples' sentences
(:mod:`idiomkit.data.meaning_triples`), and any extra idioms a caller adds). :func:`filter_heldout` drops every
training example one of whose sentences is held out, or whose idiom is, and logs how many it dropped per source
and rule.

Sentences compare after :func:`normalise_sentence` (Unicode NFKC, case folded, punctuation removed, whitespace
collapsed); idioms after :func:`normalise_idiom` (the same, slots such as ``[pron]``/``(somebody)``, articles and
possessive fillers dropped: "keep [pron] eye on" and "keep an eye on" are one idiom).

Example::

    index = heldout_index("../shared/data")
    kept = filter_heldout("sts-train", pairs, lambda p: (p.sentence_1, p.sentence_2), index=index).kept
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Generic, TypeVar

from idiomkit.data.admire import load_admire
from idiomkit.data.definitions import load_idiom_data
from idiomkit.data.errors import DataError
from idiomkit.data.idiolink import load_idiolink
from idiomkit.data.keys import normalise_idiom, normalise_sentence
from idiomkit.data.meaning_triples import CoreTest, load_core_test
from idiomkit.data.semeval2a import load_dev
from idiomkit.data.semeval2022 import load_subtask_b, semeval_root
from idiomkit.data.sts import load_sts

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class HeldOut:
    """Normalised held-out sentences and idioms, with how many each split contributed."""

    sentences: frozenset[str]
    idioms: frozenset[str]
    sizes: dict[str, int] = field(default_factory=dict, compare=False)
    benchmark_idioms: frozenset[str] = frozenset()  # the idioms of the benchmarks' own held-out splits

    def with_idioms(self, idioms: Iterable[str], name: str = "extra") -> HeldOut:
        """This index plus more held-out idioms (e.g. the core test's held-out idioms)."""
        extra = {normalise_idiom(i) for i in idioms}
        sizes = {**self.sizes, f"{name} idioms": len(extra)}
        return HeldOut(self.sentences, self.idioms | extra, sizes, self.benchmark_idioms)

    def has_sentence(self, text: str) -> bool:
        return normalise_sentence(text) in self.sentences

    def has_idiom(self, idiom: str) -> bool:
        return normalise_idiom(idiom) in self.idioms


@dataclass
class Filtered(Generic[T]):
    """What :func:`filter_heldout` kept, and how many it dropped by each rule."""

    source: str
    kept: list[T]
    total: int
    dropped_sentence: int = 0
    dropped_idiom: int = 0

    @property
    def dropped(self) -> int:
        return self.dropped_sentence + self.dropped_idiom

    def counts(self) -> dict[str, int]:
        return {
            "total": self.total,
            "kept": len(self.kept),
            "dropped_sentence": self.dropped_sentence,
            "dropped_idiom": self.dropped_idiom,
        }


def filter_heldout(
    source: str,
    examples: Sequence[T],
    sentences: Callable[[T], Iterable[str]],
    idioms: Callable[[T], Iterable[str]] | None = None,
    *,
    index: HeldOut,
) -> Filtered[T]:
    """Drop every example with a held-out sentence (``sentences(example)``) or a held-out idiom
    (``idioms(example)``); logs the counts for ``source``.

    Args:
        source: the training source's name, for the log line.
        examples: the source's examples, in order (kept ones stay in order).
        sentences: the texts of one example that must not occur in a held-out split.
        idioms: the idioms an example is about (None: the source names no idiom).
        index: the held-out sentences and idioms (:func:`heldout_index`).
    """
    out = Filtered(source, [], len(examples))
    for example in examples:
        if any(index.has_sentence(s) for s in sentences(example) if s):
            out.dropped_sentence += 1
        elif idioms is not None and any(index.has_idiom(i) for i in idioms(example) if i):
            out.dropped_idiom += 1
        else:
            out.kept.append(example)
    log.info(
        "held-out dedup %s: kept %d of %d (%d with a held-out sentence, %d of a held-out idiom)",
        source,
        len(out.kept),
        out.total,
        out.dropped_sentence,
        out.dropped_idiom,
    )
    return out


# --- the held-out splits ------------------------------------------------------------------------------------


A_HELDOUT = {"dev": "SubTaskA/Data/dev.csv", "eval": "SubTaskA/Data/eval.csv", "test": "SubTaskA/TestData/test.csv"}


def _semeval(data_dir: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    sentences: dict[str, list[str]] = {}
    idioms: dict[str, list[str]] = {}
    for split in ("dev", "eval", "test"):
        pairs = load_subtask_b(data_dir, split, strict=False).pairs
        sentences[f"2B {split}"] = [s for p in pairs for s in (p.sentence1, p.sentence2)]
    for split, path in A_HELDOUT.items():
        rows = load_dev(semeval_root(data_dir) / path)
        sentences[f"2A {split}"] = [r.target for r in rows]
        idioms[f"2A {split}"] = [r.mwe for r in rows]
    return sentences, idioms


def _idiolink(data_dir: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    sentences, idioms = {}, {}
    for split in ("val", "test"):
        data = load_idiolink(data_dir, split)
        records = [*data.documents, *data.queries]
        sentences[f"IdioLink {split}"] = [r.sentence for r in records]
        idioms[f"IdioLink {split}"] = [r.idiom for r in records if r.idiom]
    return sentences, idioms


def _admire(data_dir: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    sentences, idioms = {}, {}
    for split in ("dev", "test"):
        items = load_admire(data_dir, split, strict=False).items
        sentences[f"AdMIRe {split}"] = [i.sentence for i in items]
        idioms[f"AdMIRe {split}"] = [i.compound for i in items]
    return sentences, idioms


def _xiao(data_dir: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    held = [i for i in load_idiom_data(data_dir).idioms.values() if i.split == "heldout"]
    return (
        {"Xiao held-out": [s for i in held for p in i.pairs for s in (p.sentence, p.paraphrase)]},
        {"Xiao held-out": [i.key for i in held]},
    )


def _sts(data_dir: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    out = {}
    for split in ("dev", "test"):
        out[f"STS {split}"] = [s for p in load_sts(data_dir, split) for s in (p.sentence_1, p.sentence_2)]
    return out, {}


# each loader of held-out splits, with the folder under the data directory it reads
HELDOUT_SOURCES = {"semeval2022_task2": _semeval, "idiolink": _idiolink, "admire": _admire, "epie": _xiao, "sts": _sts}
CORE_TEST_DIR = "idioms_extra"  # the core test's held-out idioms join the index when its data is there


@lru_cache(maxsize=4)
def _benchmark_index(data_dir: str) -> HeldOut:
    sentences: set[str] = set()
    idioms: set[str] = set()
    sizes: dict[str, int] = {}
    for folder, load in HELDOUT_SOURCES.items():
        if not (Path(data_dir) / folder).is_dir():
            log.warning("held-out dedup: no %s under %s, so nothing is checked against its splits", folder, data_dir)
            continue
        try:
            split_sentences, split_idioms = load(Path(data_dir))
        except DataError as exc:
            if exc.problem != "file not found":
                raise
            log.warning("held-out dedup: %s is missing, so nothing is checked against the %s splits", exc.path, folder)
            continue
        for name, texts in split_sentences.items():
            sentences.update(normalise_sentence(t) for t in texts if t)
            sizes[f"{name} sentences"] = len(texts)
        for name, names in split_idioms.items():
            keys = {normalise_idiom(i) for i in names if i}
            idioms.update(keys)
            sizes[f"{name} idioms"] = len(keys)
    return HeldOut(frozenset(sentences), frozenset(idioms), sizes, frozenset(idioms))


def benchmark_index(data_dir: str | Path) -> HeldOut:
    """The benchmarks' held-out splits alone (:func:`heldout_index` without the core test's idioms)."""
    return _benchmark_index(str(Path(data_dir).resolve()))


@lru_cache(maxsize=4)
def _cached_index(data_dir: str) -> HeldOut:
    bench = _benchmark_index(data_dir)
    sentences, idioms, sizes = set(bench.sentences), set(bench.idioms), dict(bench.sizes)
    if (Path(data_dir) / CORE_TEST_DIR).is_dir():
        core = load_core_test(data_dir, bench.benchmark_idioms)
        keys = {normalise_idiom(i) for i in core.heldout_idioms}
        sizes["core test held-out idioms"] = len(keys)
        sizes["core test held-out sentences"] = len(core.heldout_sentences)
        idioms |= keys
        sentences.update(normalise_sentence(s) for s in core.heldout_sentences)
    log.info("held-out index: %d sentences, %d idioms", len(sentences), len(idioms))
    return HeldOut(frozenset(sentences), frozenset(idioms), sizes, bench.benchmark_idioms)


def core_test(data_dir: str | Path) -> CoreTest:
    """The core test (:mod:`idiomkit.data.meaning_triples`) with its held-out idioms as the dedup keeps them out."""
    return load_core_test(data_dir, heldout_index(data_dir).benchmark_idioms)


def heldout_index(data_dir: str | Path) -> HeldOut:
    """Every held-out split's normalised sentences and promised-unseen idioms (cached per data directory)."""
    return _cached_index(str(Path(data_dir).resolve()))
