"""Fig-QA (Liu et al., NAACL 2022): creative metaphors in minimal pairs → correct vs opposite interpretation.

Files ``idioms_extra/figqa/data/filtered/train_xl.csv`` (split ``train``: train_xl holds train and train_s) and
``dev.csv`` (split ``dev``), header ``startphrase, ending1, ending2, labels, valid, qid``: ``labels`` 0 means ending1
is correct, 1 ending2; the two rows of a pair share ``qid``. Rows with ``valid`` 0 or with two equal endings are
skipped (counted in the log). Not idioms: one-off metaphors and similes.
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

FILES = {"train": "train_xl.csv", "dev": "dev.csv"}
COLUMNS = ("startphrase", "ending1", "ending2", "labels", "valid", "qid")


@dataclass(frozen=True)
class FigQaItem:
    """A figurative sentence with its correct and its opposite interpretation."""

    premise: str  # startphrase
    correct: str
    wrong: str  # the opposite meaning (not a literal misreading)
    qid: str  # shared by the two sentences of a minimal pair
    split: str  # "train" (train_xl.csv) or "dev"
    language: str = "EN"


def figqa_file(data_dir: str | Path, split: str) -> Path:
    check_choice("Fig-QA split", split, FILES)
    return dataset_dir(data_dir, "figqa") / "data" / "filtered" / FILES[split]


def _flag(path: Path, row: int, rec: dict[str, str], field: str) -> int:
    if rec[field] not in ("0", "1"):
        raise DataError(path, row, field, f"'{rec[field]}' is not 0 or 1")
    return int(rec[field])


def _item(path: Path, row: int, rec: dict[str, str], split: str) -> FigQaItem | None:
    endings = (text(path, row, rec, "ending1"), text(path, row, rec, "ending2"))
    label, valid = _flag(path, row, rec, "labels"), _flag(path, row, rec, "valid")
    premise, qid = text(path, row, rec, "startphrase"), text(path, row, rec, "qid")
    if not valid or endings[0] == endings[1]:
        return None
    return FigQaItem(premise, endings[label], endings[1 - label], qid, split)


def load_figqa(data_dir: str | Path, splits: tuple[str, ...] = ("train", "dev")) -> list[FigQaItem]:
    """The Fig-QA rows of ``splits``."""
    out = []
    for split in splits:
        path = figqa_file(data_dir, split)
        items = [_item(path, row, rec, split) for row, rec in read_csv_rows(path, COLUMNS)]
        out += [item for item in items if item is not None]
        if skipped := items.count(None):
            log.info("%s: skipped %d row(s) marked invalid or with two equal endings", path, skipped)
    return out
