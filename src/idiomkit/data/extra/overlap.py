"""Where the extra idiom datasets live, TSV reading, and each folder's ``benchmark_idiom_overlap.tsv``.

``benchmark_idiom_overlap.tsv`` (TSV, header) lists the dataset's idioms / compounds that coincide with an idiom of a
benchmark held-out split. Columns:

- ``candidate_idiom``: the idiom as this dataset writes it (what :func:`load_overlap` returns);
- ``benchmark_idiom``: the benchmark's idiom it matches;
- ``benchmark_splits``: comma-separated held-out splits holding it (e.g. ``semeval_2B_eval_EN``, ``idiolink_test``);
- ``match``: ``exact`` (same string) or ``contains`` (the benchmark idiom is inside the candidate).

miqa and figqa have no idiom field and no such file (their PROVENANCE reports no benchmark overlap): they give an
empty set. Every other folder must have the file (clue has none, so asking for it is a DataError). The lists
cover SemEval-2022 T2 and IdioLink only: other held-out idioms (AdMIRe, the Xiao held-out idioms) are not in them.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import check_header, csv_value_rows, decode, record_of, require_text
from idiomkit.data.errors import DataError
from idiomkit.errors import OptionError

ROOT = "idioms_extra"
OVERLAP_FILE = "benchmark_idiom_overlap.tsv"
FOLDERS = {
    "pie": "pie_zhou2021",
    "astitch": "astitch_nc_senses",
    "ncs": "ncs_garcia2021",
    "lidioms": "lidioms",
    "itu": "itu_llm_idiom_corpus",
    "mt_ambiguity": "mt_ambiguity_idioms",
    "miqa": "miqa",
    "figqa": "figqa",
    "clue": "clue",
}
NO_IDIOM_FIELD = frozenset({"miqa", "figqa"})
MATCHES = ("exact", "contains")
OVERLAP_COLUMNS = ("candidate_idiom", "benchmark_idiom", "benchmark_splits", "match")


@dataclass(frozen=True)
class OverlapRow:
    """One row of ``benchmark_idiom_overlap.tsv``."""

    candidate_idiom: str
    benchmark_idiom: str
    benchmark_splits: tuple[str, ...]
    match: str  # "exact" or "contains"


def dataset_name(dataset: str) -> str:
    """The short name (``pie``) of a dataset given by short name or folder name (``pie_zhou2021``)."""
    for short, folder in FOLDERS.items():
        if dataset in (short, folder):
            return short
    raise OptionError(f"unknown extra dataset '{dataset}' (expected one of {', '.join(FOLDERS)})")


def dataset_dir(data_dir: str | Path, dataset: str) -> Path:
    """``data_dir/idioms_extra/<folder>`` of a dataset."""
    return Path(data_dir) / ROOT / FOLDERS[dataset_name(dataset)]


def text(path: Path, row: int, rec: dict[str, str], field: str) -> str:
    """A non-empty text field with surrounding whitespace removed (DataError when empty)."""
    return require_text(path, row, rec, field).strip()


def read_tsv_rows(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """``(row, record)`` of each non-blank data row of a UTF-8 TSV file with a header (no quoting)."""
    text = decode(path)
    rows = csv_value_rows(path, text, delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(rows)[1]
    check_header(path, header, required)
    out = []
    for number, values in rows:
        if any(v.strip() for v in values):
            out.append((number, record_of(path, number, header, values)))
    return out


def load_overlap_rows(data_dir: str | Path, dataset: str) -> list[OverlapRow]:
    """Every row of a dataset's ``benchmark_idiom_overlap.tsv`` (empty for miqa / figqa)."""
    if dataset_name(dataset) in NO_IDIOM_FIELD:
        return []
    path = dataset_dir(data_dir, dataset) / OVERLAP_FILE
    out = []
    for row, rec in read_tsv_rows(path, OVERLAP_COLUMNS):
        if rec["match"] not in MATCHES:
            raise DataError(path, row, "match", f"'{rec['match']}' is not one of {', '.join(MATCHES)}")
        splits = tuple(s.strip() for s in text(path, row, rec, "benchmark_splits").split(","))
        out.append(
            OverlapRow(
                candidate_idiom=text(path, row, rec, "candidate_idiom"),
                benchmark_idiom=text(path, row, rec, "benchmark_idiom"),
                benchmark_splits=splits,
                match=rec["match"],
            )
        )
    return out


def load_overlap(data_dir: str | Path, dataset: str) -> set[str]:
    """The dataset's idioms that coincide with a benchmark held-out idiom (column ``candidate_idiom``)."""
    return {row.candidate_idiom for row in load_overlap_rows(data_dir, dataset)}
