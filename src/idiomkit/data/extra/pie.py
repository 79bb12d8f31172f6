"""PIE (Zhou, Gong & Bhat 2021), ISP splits: idiomatic sentence → literal paraphrase, plus the idiom's sense.

Files ``idioms_extra/pie_zhou2021/ISP/{train,valid,test}.csv`` (header ``Idiom, Sense, Idiomatic_Sent, Literal_Sent,
Idiomatic_Label, Literal_Label``; ``Idiomatic_Label`` is kept as ``idiom_tags``, B/I/O per whitespace token, and
marks the idiom's words only in part: "brings home the [bacon]"). Idioms are PIE's lemma forms ("pull leg", "get
goat"). The ISP splits are by sentence, not by idiom: every idiom is in every split. Rows whose paraphrase equals the
idiomatic sentence are skipped (counted in the log).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import read_csv_rows
from idiomkit.data.extra.overlap import dataset_dir, text
from idiomkit.errors import check_choice

log = logging.getLogger(__name__)

SPLITS = ("train", "valid", "test")
COLUMNS = ("Idiom", "Sense", "Idiomatic_Sent", "Literal_Sent")


@dataclass(frozen=True)
class PieParaphrase:
    """An idiomatic sentence and its literal paraphrase (the idiom span rewritten literally)."""

    idiom: str
    language: str  # always "EN"
    split: str  # "train", "valid" or "test"
    idiomatic_sentence: str
    literal_sentence: str
    sense: str | None  # the idiom's dictionary sense (None where the cell is empty)
    idiom_tags: tuple[str, ...] = ()  # Idiomatic_Label: B/I/O per whitespace token of idiomatic_sentence


def pie_file(data_dir: str | Path, split: str) -> Path:
    check_choice("PIE split", split, SPLITS)
    return dataset_dir(data_dir, "pie") / "ISP" / f"{split}.csv"


def load_pie_split(data_dir: str | Path, split: str) -> list[PieParaphrase]:
    """One ISP split."""
    path = pie_file(data_dir, split)
    out, same = [], 0
    for row, rec in read_csv_rows(path, COLUMNS):
        item = PieParaphrase(
            idiom=text(path, row, rec, "Idiom"),
            language="EN",
            split=split,
            idiomatic_sentence=text(path, row, rec, "Idiomatic_Sent"),
            literal_sentence=text(path, row, rec, "Literal_Sent"),
            sense=rec["Sense"].strip() or None,
            idiom_tags=tuple(rec.get("Idiomatic_Label", "").split()),
        )
        if item.idiomatic_sentence == item.literal_sentence:
            same += 1
            continue
        out.append(item)
    if same:
        log.info("%s: skipped %d row(s) whose Literal_Sent equals Idiomatic_Sent", path, same)
    return out


def load_pie(data_dir: str | Path, splits: tuple[str, ...] = SPLITS) -> list[PieParaphrase]:
    """The ISP splits' (idiomatic sentence, literal paraphrase) pairs, in split order."""
    return [item for split in splits for item in load_pie_split(data_dir, split)]
