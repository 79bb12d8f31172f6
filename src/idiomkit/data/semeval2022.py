"""SemEval-2022 Task 2 (Tayyar Madabushi et al.): typed records and strict loaders.

Subtask B (idiomatic STS): ``train_data.csv`` (training pairs), ``dev.csv`` + ``dev.gold.csv`` (the only split
with public gold), ``eval.csv`` and ``test.csv`` (no gold). Subtask A (idiomaticity detection): the
``SubTaskA/Data`` files. Every loader raises :class:`~idiomkit.data.errors.DataError` with file, row and field
on bad input; with ``strict=False`` bad rows are skipped and their count is logged instead.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import collect_records, csv_records, parse_score, require_text
from idiomkit.data.errors import DataError
from idiomkit.errors import OptionError

log = logging.getLogger(__name__)

LANGUAGES = ("EN", "PT", "GL")
ROOT = "semeval2022_task2"
B_FILES = {
    "train": "SubTaskB/TrainData/train_data.csv",
    "dev": "SubTaskB/EvaluationData/dev.csv",
    "dev_gold": "SubTaskB/EvaluationData/dev.gold.csv",
    "eval": "SubTaskB/EvaluationData/eval.csv",
    "test": "SubTaskB/TestData/test.csv",
}
A_FILES = {
    "train_zero_shot": "SubTaskA/Data/train_zero_shot.csv",
    "train_one_shot": "SubTaskA/Data/train_one_shot.csv",
    "dev": "SubTaskA/Data/dev.csv",
    "dev_gold": "SubTaskA/Data/dev_gold.csv",
}


class _TwoMwes:
    """Mixin of the subtask B rows with an ``mwe1`` and an optional ``mwe2`` (fields of the dataclass using it)."""

    mwe1: str
    mwe2: str | None

    @property
    def mwes(self) -> tuple[str, ...]:
        """The row's MWEs: ``mwe1``, then ``mwe2`` when it has one."""
        return tuple(m for m in (self.mwe1, self.mwe2) if m)


@dataclass(frozen=True)
class TrainPair(_TwoMwes):
    """One row of subtask B ``train_data.csv``.

    ``sim`` is 1.0 when ``sentence_2`` paraphrases the MWE correctly; ``None`` when the similarity is defined
    by the pair (``alternative_1`` = correct paraphrase sentence, ``alternative_2`` = incorrect one).
    """

    id: str
    mwe1: str
    mwe2: str | None
    language: str
    sentence_1: str
    sentence_2: str
    sim: float | None
    alternative_1: str | None
    alternative_2: str | None


@dataclass(frozen=True)
class EvalPair(_TwoMwes):
    """One sentence pair of subtask B dev/eval/test (``sentence2`` usually paraphrases the MWE)."""

    id: str
    language: str
    mwe1: str
    mwe2: str | None
    sentence1: str
    sentence2: str


@dataclass(frozen=True)
class GoldRow:
    """One row of ``dev.gold.csv``. An empty ``sim`` means: gold = the system's prediction for ``other_id``."""

    id: str
    data_id: str
    language: str
    sim: float | None
    other_id: str | None

    @property
    def is_sts(self) -> bool:
        """The organisers' rule: the third dot-separated part of DataID is ``sts``."""
        parts = self.data_id.split(".")
        return len(parts) > 2 and parts[2] == "sts"


@dataclass(frozen=True)
class SubtaskBSplit:
    """A subtask B evaluation split: its pairs and (dev only) gold rows."""

    name: str
    pairs: list[EvalPair]
    gold: list[GoldRow] | None
    files: tuple[Path, ...]

    @property
    def languages(self) -> list[str]:
        return [lang for lang in LANGUAGES if any(p.language == lang for p in self.pairs)]


@dataclass(frozen=True)
class SubtaskAExample:
    """One subtask A example; ``label`` 0 = idiomatic, 1 = non-idiomatic (None when unlabelled)."""

    id: str
    language: str
    mwe: str
    setting: str | None
    previous: str
    target: str
    next: str
    label: int | None


def semeval_root(data_dir: str | Path) -> Path:
    return Path(data_dir) / ROOT


def _mwe(value: str) -> str | None:
    return None if value in ("", "None") else value


def row_language(path: Path, row: int, value: str) -> str:
    """``value`` of a row's Language field, refused (file, row, field) unless one of :data:`LANGUAGES`."""
    if value not in LANGUAGES:
        raise DataError(path, row, "Language", f"unknown language '{value}' (expected one of {', '.join(LANGUAGES)})")
    return value


def load_train_pairs(data_dir: str | Path, *, path: str | Path | None = None, strict: bool = True) -> list[TrainPair]:
    """Load subtask B ``train_data.csv`` (or another file of the same schema, e.g. ``train_one_shot.csv``)."""
    path = Path(path) if path else semeval_root(data_dir) / B_FILES["train"]
    cols = ["ID", "MWE1", "MWE2", "Language", "sentence_1", "sentence_2", "sim", "alternative_1", "alternative_2"]

    def parse(row: int, rec: dict[str, str]) -> TrainPair:
        sim = parse_score(path, row, "sim", rec["sim"], allow_missing=("None",))
        alt1 = alt2 = None
        if sim is None:
            alt1 = require_text(path, row, rec, "alternative_1")
            alt2 = require_text(path, row, rec, "alternative_2")
        return TrainPair(
            id=rec["ID"],
            mwe1=require_text(path, row, rec, "MWE1"),
            mwe2=_mwe(rec["MWE2"]),
            language=row_language(path, row, rec["Language"]),
            sentence_1=require_text(path, row, rec, "sentence_1"),
            sentence_2=require_text(path, row, rec, "sentence_2"),
            sim=sim,
            alternative_1=alt1,
            alternative_2=alt2,
        )

    return collect_records(path, csv_records(path, cols), parse, strict=strict, id_field="ID")


def load_eval_pairs(path: str | Path, *, strict: bool = True) -> list[EvalPair]:
    """Load a subtask B dev/eval/test pair file (columns ID, Language, MWE1, MWE2, sentence1, sentence2)."""
    path = Path(path)

    def parse(row: int, rec: dict[str, str]) -> EvalPair:
        return EvalPair(
            id=rec["ID"],
            language=row_language(path, row, rec["Language"]),
            mwe1=require_text(path, row, rec, "MWE1"),
            mwe2=_mwe(rec["MWE2"]),
            sentence1=require_text(path, row, rec, "sentence1"),
            sentence2=require_text(path, row, rec, "sentence2"),
        )

    cols = ["ID", "Language", "MWE1", "MWE2", "sentence1", "sentence2"]
    pairs = collect_records(path, csv_records(path, cols), parse, strict=strict, id_field="ID")
    _require_rows(path, pairs, "ID", strict)
    return pairs


def _require_rows(path: Path, rows: list, field: str, strict: bool) -> None:
    """Refuse a file with a header and no data rows (lenient: none left after skipping the bad ones), naming it
    rather than letting the next file be blamed (a header-only dev.csv made every gold ID "not an ID of the pair
    file") or a split silently come back empty."""
    if not rows:
        raise DataError(path, None, field, "no rows (the file has a header only)" if strict else "no valid rows left")


def load_2b_gold(path: str | Path, *, pair_ids: set[str] | None = None, strict: bool = True) -> list[GoldRow]:
    """Load ``dev.gold.csv``; with ``pair_ids``, check that every ID and otherID points to a pair."""
    path = Path(path)

    def parse(row: int, rec: dict[str, str]) -> GoldRow:
        require_text(path, row, rec, "DataID")
        sim = parse_score(path, row, "sim", rec["sim"], allow_missing=("",))
        other = rec["otherID"] or None
        if sim is None and other is None:
            raise DataError(path, row, "sim", "is empty and otherID is empty: no gold similarity")
        if pair_ids is not None:
            if rec["ID"] not in pair_ids:
                raise DataError(path, row, "ID", f"'{rec['ID']}' is not an ID of the pair file")
            if sim is None and other not in pair_ids:
                raise DataError(path, row, "otherID", f"'{other}' points to no pair")
        return GoldRow(rec["ID"], rec["DataID"], row_language(path, row, rec["Language"]), sim, other)

    gold = collect_records(
        path, csv_records(path, ["ID", "DataID", "Language", "sim", "otherID"]), parse, strict=strict, id_field="ID"
    )
    _require_rows(path, gold, "ID", strict)
    return gold


def load_subtask_b(data_dir: str | Path, split: str = "dev", *, strict: bool = True) -> SubtaskBSplit:
    """Load a subtask B evaluation split (``dev`` with gold; ``eval``/``test`` without)."""
    if split not in ("dev", "eval", "test"):
        raise OptionError(f"unknown subtask B split '{split}' (expected dev, eval or test)")
    root = semeval_root(data_dir)
    pair_path = root / B_FILES[split]
    pairs = load_eval_pairs(pair_path, strict=strict)
    if split != "dev":
        return SubtaskBSplit(split, pairs, None, (pair_path,))
    gold_path = root / B_FILES["dev_gold"]
    gold = load_2b_gold(gold_path, pair_ids={p.id for p in pairs}, strict=strict)
    return SubtaskBSplit(split, pairs, gold, (pair_path, gold_path))


def load_subtask_a(data_dir: str | Path, name: str, *, strict: bool = True) -> list[SubtaskAExample]:
    """Load a subtask A file: ``train_zero_shot``, ``train_one_shot`` or ``dev`` (labels from ``dev_gold``)."""
    if name not in ("train_zero_shot", "train_one_shot", "dev"):
        raise OptionError(f"unknown subtask A file '{name}'")
    root = semeval_root(data_dir)
    path = root / A_FILES[name]
    gold_path = root / A_FILES["dev_gold"]
    gold = _gold_labels(gold_path, strict) if name == "dev" else {}
    id_col = "ID" if name == "dev" else "DataID"

    def label_of(row: int, rec: dict[str, str]) -> int:
        if name != "dev":
            return _label(path, row, rec["Label"])
        if rec[id_col] not in gold:
            raise DataError(path, row, id_col, f"'{rec[id_col]}' has no row in {gold_path.name}")
        return gold[rec[id_col]][0]

    def setting_of(row: int, rec: dict[str, str]) -> str | None:
        """A train file holds its own setting only (a one_shot row in train_zero_shot.csv would leak one-shot
        examples into zero-shot training)."""
        if name == "dev":
            return rec.get("Setting")
        expected = name.removeprefix("train_")
        if rec["Setting"] != expected:
            raise DataError(path, row, "Setting", f"'{rec['Setting']}' (expected '{expected}' in this file)")
        return expected

    def parse(row: int, rec: dict[str, str]) -> SubtaskAExample:
        return SubtaskAExample(
            id=rec[id_col],
            language=row_language(path, row, rec["Language"]),
            mwe=require_text(path, row, rec, "MWE"),
            setting=setting_of(row, rec),
            previous=rec["Previous"],
            target=require_text(path, row, rec, "Target"),
            next=rec["Next"],
            label=label_of(row, rec),
        )

    cols = [id_col, "Language", "MWE", "Previous", "Target", "Next"] + ([] if name == "dev" else ["Setting", "Label"])
    examples = collect_records(path, csv_records(path, cols), parse, strict=strict, id_field=id_col)
    if name == "dev":
        _check_gold_used(gold_path, gold, {ex.id for ex in examples}, path, strict)
    return examples


def _gold_labels(path: Path, strict: bool) -> dict[str, tuple[int, int]]:
    """Subtask A ``dev_gold.csv`` as ``{ID: (label, row)}``; a repeated ID is refused (strict) or skipped and
    counted, never allowed to overwrite the first row."""

    def parse(row: int, rec: dict[str, str]) -> tuple[str, int, int]:
        return require_text(path, row, rec, "ID"), _label(path, row, rec["Label"]), row

    rows = collect_records(path, csv_records(path, ["ID", "Label"]), parse, strict=strict, id_field="ID")
    return {gold_id: (label, row) for gold_id, label, row in rows}


def _check_gold_used(
    gold_path: Path, gold: dict[str, tuple[int, int]], dev_ids: set[str], dev_path: Path, strict: bool
) -> None:
    """Every gold row labels a dev example: refused (strict) or counted in the log (lenient)."""
    unused = sorted((row, gold_id) for gold_id, (_, row) in gold.items() if gold_id not in dev_ids)
    if not unused:
        return
    row, gold_id = unused[0]
    err = DataError(gold_path, row, "ID", f"'{gold_id}' is not an ID of {dev_path.name}")
    if strict:
        raise err
    log.warning("%s: %d gold row(s) label no loaded dev example; first: %s", gold_path, len(unused), err)


def _label(path: Path, row: int, value: str) -> int:
    if value not in ("0", "1"):
        raise DataError(path, row, "Label", f"'{value}' is not 0 or 1")
    return int(value)
