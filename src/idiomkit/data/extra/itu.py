"""ITU "Using LLMs to Advance Idiom Corpus Construction" (Arslan et al., MWE 2025): GPT-4 English sentences for 53
verb–noun idioms, literal vs figurative use.

Files ``idioms_extra/itu_llm_idiom_corpus/Datasets/EN/gpt4_en_gerçek.csv`` (literal; Turkish *gerçek*) and
``gpt4_en_mecaz.csv`` (figurative; *mecaz*), header ``submission, category, idiom, type``. Idioms are lemma forms
("lose temper"); many "literal" sentences do not contain the expression. A sentence repeated with the same idiom
and usage is read once (the repeats are counted in the log).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import read_csv_rows
from idiomkit.data.errors import DataError
from idiomkit.data.extra.overlap import dataset_dir, text
from idiomkit.errors import check_choice

log = logging.getLogger(__name__)

FILES = {"literal": "gpt4_en_ger\u00e7ek.csv", "figurative": "gpt4_en_mecaz.csv"}
GENERATIONS = ("Zero-shot", "Enhanced-prompting")
COLUMNS = ("submission", "category", "idiom", "type")


@dataclass(frozen=True)
class IdiomUsage:
    """A generated sentence using an idiom's expression literally or figuratively."""

    idiom: str
    language: str  # always "EN"
    sentence: str
    usage: str  # "literal" or "figurative"
    generation: str  # "Zero-shot" or "Enhanced-prompting"
    split: str | None = None  # the corpus has no splits


def itu_file(data_dir: str | Path, usage: str) -> Path:
    check_choice("usage", usage, FILES)
    return dataset_dir(data_dir, "itu") / "Datasets" / "EN" / FILES[usage]


def _parse(path: Path, row: int, rec: dict[str, str], usage: str) -> IdiomUsage:
    if rec["category"] != usage:
        raise DataError(path, row, "category", f"'{rec['category']}' in the {usage} file")
    if rec["type"] not in GENERATIONS:
        raise DataError(path, row, "type", f"'{rec['type']}' is not one of {', '.join(GENERATIONS)}")
    return IdiomUsage(text(path, row, rec, "idiom"), "EN", text(path, row, rec, "submission"), usage, rec["type"])


def load_itu(data_dir: str | Path, usages: tuple[str, ...] = ("literal", "figurative")) -> list[IdiomUsage]:
    """The sentences of ``usages``, literal file first."""
    out = []
    for usage in usages:
        path, seen, repeated = itu_file(data_dir, usage), set(), 0
        for row, rec in read_csv_rows(path, COLUMNS):
            item = _parse(path, row, rec, usage)
            repeated += (item.idiom, item.sentence) in seen
            if (item.idiom, item.sentence) not in seen:
                seen.add((item.idiom, item.sentence))
                out.append(item)
        if repeated:
            log.info("%s: skipped %d repeated sentence(s)", path, repeated)
    return out
