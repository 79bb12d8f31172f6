"""The core test's triples: an idiomatic sentence, its figurative paraphrase, its literal misreading.

Sources (``data_dir/idioms_extra``):

- NCS (Garcia et al. 2021), EN/PT: "This is a <compound>" with the compound replaced by a synonym (paraphrase) or
  word by word (misreading); compounds rated idiomatic (compositionality below :data:`MAX_COMPOSITIONALITY`) only.
- AStitch noun-compound senses, EN/PT, train rows: the compound itself, a figurative meaning (paraphrase) and the
  literal meaning (misreading); compounds with no figurative meaning are left out.

Held-out idioms: those of a benchmark's held-out split (the idioms the held-out dedup already keeps out of training)
and half of the rest by a fixed hash (:func:`is_carved`), minus any idiom a benchmark's training split names (2B
train, 2A zero-shot train, IdioLink train, the Xiao train/val idioms). So a held-out idiom is one no training source
may show: the held-out dedup (:mod:`idiomkit.data.heldout`, whose :func:`~idiomkit.data.heldout.core_test` is the
way to load this test) drops them from every training source.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from idiomkit.data.definitions import load_idiom_data
from idiomkit.data.extra.astitch import astitch_file, load_astitch
from idiomkit.data.extra.ncs import load_ncs, ncs_files
from idiomkit.data.idiolink import load_idiolink
from idiomkit.data.keys import normalise_idiom
from idiomkit.data.semeval2a import load_setting
from idiomkit.data.semeval2022 import load_train_pairs

log = logging.getLogger(__name__)

MAX_COMPOSITIONALITY = 2.5  # NCS compounds rated at most this (0 idiomatic .. 5 compositional) are idiomatic
HELDOUT_PERCENT = 50  # share of the test's idioms carved out (by hash) as held out from all training


@dataclass(frozen=True)
class Triple:
    """One item of the core test."""

    idiom: str
    language: str  # "EN" or "PT"
    sentence: str  # the idiomatic sentence (or the compound itself)
    paraphrase: str  # its figurative meaning
    misreading: str  # its literal (word-by-word) misreading
    source: str  # "ncs" or "astitch"
    heldout: bool = False


@dataclass(frozen=True)
class CoreTest:
    triples: list[Triple]
    files: list[Path]

    @property
    def heldout_idioms(self) -> set[str]:
        return {t.idiom for t in self.triples if t.heldout}


def is_carved(idiom: str) -> bool:
    """Whether the fixed hash puts ``idiom`` in the held-out half (independent of seeds and sources)."""
    return int(hashlib.sha256(normalise_idiom(idiom).encode()).hexdigest()[:8], 16) % 100 < HELDOUT_PERCENT


def benchmark_training_idioms(data_dir: Path) -> set[str]:
    """Normalised idioms named by a benchmark's training split (never held out by the core test)."""
    names = [m for p in load_train_pairs(data_dir) for m in p.mwes]
    names += [ex.mwe for ex in load_setting(data_dir, "zero_shot")[0]]
    names += [d.idiom for d in load_idiolink(data_dir, "train").documents]
    names += [i.key for i in load_idiom_data(data_dir).idioms.values() if i.split in ("train", "val")]
    return {normalise_idiom(n) for n in names if n}


def ncs_triples(data_dir: Path) -> list[Triple]:
    items = load_ncs(data_dir)
    kept = [c for c in items if c.compositionality < MAX_COMPOSITIONALITY]
    log.info("core test: NCS %d of %d compounds rated idiomatic (< %.1f)", len(kept), len(items), MAX_COMPOSITIONALITY)
    return [Triple(c.idiom, c.language, c.sentence, c.synonym_rewrite, c.literal_rewrite, "ncs") for c in kept]


def astitch_triples(data_dir: Path) -> list[Triple]:
    items = load_astitch(data_dir, splits=("train",))
    kept = [c for c in items if c.figurative_meanings]
    log.info("core test: AStitch %d of %d train compounds with a figurative meaning", len(kept), len(items))
    return [Triple(c.idiom, c.language, c.idiom, c.figurative_meanings[0], c.literal_meaning, "astitch")
            for c in kept]  # fmt: skip


@lru_cache(maxsize=4)
def _core_test(data_dir: str, benchmark_heldout: frozenset[str]) -> CoreTest:
    root = Path(data_dir)
    triples = ncs_triples(root) + astitch_triples(root)
    trained = benchmark_training_idioms(root)

    def held(idiom: str) -> bool:
        key = normalise_idiom(idiom)
        return key not in trained and (key in benchmark_heldout or is_carved(idiom))

    out = [Triple(**{**t.__dict__, "heldout": held(t.idiom)}) for t in triples]
    files = [*ncs_files(root, "EN").values(), *ncs_files(root, "PT").values(), astitch_file(root, "EN"),
             astitch_file(root, "PT")]  # fmt: skip
    log.info("core test: %d triples, %d of %d idioms held out", len(out), len({t.idiom for t in out if t.heldout}),
             len({t.idiom for t in out}))  # fmt: skip
    return CoreTest(out, files)


def load_core_test(data_dir: str | Path, benchmark_heldout: frozenset[str] = frozenset()) -> CoreTest:
    """The core test's triples (cached); ``benchmark_heldout``: normalised idioms of the benchmarks' held-out
    splits (use :func:`idiomkit.data.heldout.core_test`, which passes them)."""
    return _core_test(str(Path(data_dir).resolve()), benchmark_heldout)
