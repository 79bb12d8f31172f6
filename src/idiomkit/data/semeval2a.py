"""SemEval-2022 Task 2 subtask A (idiomaticity detection): strict loaders and the MWE's span in the target.

Files under ``semeval2022_task2/SubTaskA/Data``: ``train_zero_shot.csv`` and ``train_one_shot.csv`` (columns
DataID, Language, MWE, Setting, Previous, Target, Next, Label), ``dev.csv`` (ID, Language, MWE, Previous, Target,
Next) joined by ``ID`` to ``dev_gold.csv`` (ID, DataID, Language, Label). Label 0 = idiomatic, 1 = non-idiomatic.
Every problem raises :class:`~idiomkit.data.errors.DataError` naming file, row and field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import check_unique, read_csv_rows, require_text
from idiomkit.data.errors import DataError
from idiomkit.data.semeval2022 import A_FILES, row_language, semeval_root
from idiomkit.errors import OptionError

SETTINGS = ("zero_shot", "one_shot")
TRAIN_COLUMNS = ["DataID", "Language", "MWE", "Setting", "Previous", "Target", "Next", "Label"]
DEV_COLUMNS = ["ID", "Language", "MWE", "Previous", "Target", "Next"]
GOLD_COLUMNS = ["ID", "DataID", "Language", "Label"]


@dataclass(frozen=True)
class Example2A:
    """One subtask A example; ``label`` 0 = idiomatic, 1 = non-idiomatic (None when unlabelled)."""

    id: str
    language: str
    mwe: str
    previous: str
    target: str
    next: str
    label: int | None
    setting: str | None = None

    @property
    def span(self) -> tuple[int, int]:
        """Character span of the MWE in ``target`` (see :func:`find_mwe`)."""
        return find_mwe(self.target, self.mwe)


def find_mwe(text: str, mwe: str) -> tuple[int, int]:
    """Span of ``mwe`` in ``text``: exact (case-insensitive) match, else each word matched by its stem
    (``efeito especial`` finds ``efeitos especiais``, ``gelo-seco`` finds ``gelo seco``), else the whole text."""
    start = text.lower().find(mwe.lower())
    if start >= 0:
        return start, start + len(mwe)
    words = re.split(r"[\s\-]+", mwe.strip())
    stems = [re.escape(w[: max(3, len(w) - 2)] if len(w) > 3 else w) for w in words]
    match = re.search(r"\b" + r"\w*\W+".join(stems) + r"\w*", text, flags=re.IGNORECASE)
    return (match.start(), match.end()) if match else (0, len(text))


def _label(path: Path, row: int, value: str) -> int:
    if value.strip() not in ("0", "1"):
        raise DataError(path, row, "Label", f"'{value}' is not 0 (idiomatic) or 1 (non-idiomatic)")
    return int(value)


def load_train(path: str | Path, setting: str) -> list[Example2A]:
    """A labelled training file (at least one row); every row's ``Setting`` must be ``setting``."""
    path = Path(path)
    seen: dict[str, int] = {}
    out = []
    for row, rec in read_csv_rows(path, TRAIN_COLUMNS):
        check_unique(path, row, "DataID", require_text(path, row, rec, "DataID"), seen)
        if rec["Setting"] != setting:
            raise DataError(path, row, "Setting", f"'{rec['Setting']}' (expected '{setting}' in this file)")
        out.append(
            Example2A(
                id=rec["DataID"],
                language=row_language(path, row, rec["Language"]),
                mwe=require_text(path, row, rec, "MWE"),
                previous=rec["Previous"],
                target=require_text(path, row, rec, "Target"),
                next=rec["Next"],
                label=_label(path, row, rec["Label"]),
                setting=setting,
            )
        )
    if not seen:  # a method trained or ruled by it would fail later on, without naming the file
        raise DataError(path, None, "DataID", "no rows (the file has a header only)")
    return out


def load_2a_gold(path: str | Path) -> dict[str, tuple[int, str, int]]:
    """``dev_gold.csv`` as ``{ID: (label, language, row)}``."""
    path = Path(path)
    seen: dict[str, int] = {}
    gold = {}
    for row, rec in read_csv_rows(path, GOLD_COLUMNS):
        check_unique(path, row, "ID", require_text(path, row, rec, "ID"), seen)
        require_text(path, row, rec, "DataID")
        gold[rec["ID"]] = (_label(path, row, rec["Label"]), row_language(path, row, rec["Language"]), row)
    return gold


def load_dev(dev_path: str | Path, gold_path: str | Path | None = None) -> list[Example2A]:
    """``dev.csv`` joined by ID to ``dev_gold.csv``: every ID needs one gold row with the same language."""
    dev_path = Path(dev_path)
    gold = load_2a_gold(gold_path) if gold_path is not None else None
    seen: dict[str, int] = {}
    out = []
    for row, rec in read_csv_rows(dev_path, DEV_COLUMNS):
        ex_id = require_text(dev_path, row, rec, "ID")
        check_unique(dev_path, row, "ID", ex_id, seen)
        language = row_language(dev_path, row, rec["Language"])
        label = None
        if gold is not None:
            if ex_id not in gold:
                raise DataError(dev_path, row, "ID", f"'{ex_id}' has no row in {Path(gold_path).name}")
            label, gold_lang, gold_row = gold[ex_id]
            if gold_lang != language:
                raise DataError(gold_path, gold_row, "Language", f"'{gold_lang}' but {dev_path.name} says '{language}'")
        out.append(
            Example2A(
                id=ex_id,
                language=language,
                mwe=require_text(dev_path, row, rec, "MWE"),
                previous=rec["Previous"],
                target=require_text(dev_path, row, rec, "Target"),
                next=rec["Next"],
                label=label,
            )
        )
    if gold is not None:
        extra = set(gold) - set(seen)
        if extra:
            first = min(extra, key=lambda i: gold[i][2])
            raise DataError(gold_path, gold[first][2], "ID", f"'{first}' is not an ID of {dev_path.name}")
    return out


def data_paths(data_dir: str | Path) -> dict[str, Path]:
    root = semeval_root(data_dir)
    return {name: root / rel for name, rel in A_FILES.items()}


def load_setting(data_dir: str | Path, setting: str) -> tuple[list[Example2A], list[Path]]:
    """Training examples of a setting: ``zero_shot`` = train_zero_shot; ``one_shot`` adds train_one_shot."""
    if setting not in SETTINGS:
        raise OptionError(f"unknown setting '{setting}' (expected {' or '.join(SETTINGS)})")
    paths = data_paths(data_dir)
    train = load_train(paths["train_zero_shot"], "zero_shot")
    files = [paths["train_zero_shot"]]
    if setting == "one_shot":
        train += load_train(paths["train_one_shot"], "one_shot")
        files.append(paths["train_one_shot"])
    return train, files


def load_dev_split(data_dir: str | Path) -> tuple[list[Example2A], list[Path]]:
    """The held-out dev split with gold labels, and the two files read."""
    paths = data_paths(data_dir)
    return load_dev(paths["dev"], paths["dev_gold"]), [paths["dev"], paths["dev_gold"]]
