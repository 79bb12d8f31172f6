"""CLUE (Ramírez Trives 2025), English part: conventional figurative units → meaning + one real context.

File ``idioms_extra/clue/clue_en.xlsx``, first sheet, header ``CFU, Type, Concept, Context``; ``Type`` is simplex
(one-word metaphor), idiom, simile or proverb. Needs ``openpyxl``. Blank rows are skipped (counted in the log); rows
are numbered like CSV rows (header = 0). ``idiom`` drops a leading "(to) " from the CFU.
"""

from __future__ import annotations

import logging
import zipfile
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import check_header, check_unique, read_bytes
from idiomkit.data.errors import DataError
from idiomkit.data.extra.overlap import dataset_dir, text

log = logging.getLogger(__name__)

KINDS = ("simplex", "idiom", "simile", "proverb")
COLUMNS = ("CFU", "Type", "Concept", "Context")


@dataclass(frozen=True)
class ClueUnit:
    """A conventional figurative unit with its basic meaning and a real context sentence."""

    idiom: str  # the CFU without a leading "(to) "
    language: str  # always "EN"
    kind: str  # "simplex", "idiom", "simile" or "proverb"
    meaning: str  # the CFU's "Concept"
    context: str
    cfu: str  # the CFU as written ("(to) kick the bucket", "behind closed/locked doors")
    split: str | None = None  # no splits


def _sheet_rows(path: Path) -> list[list[str]]:
    """The first sheet's rows as stripped strings (empty cells give '')."""
    try:
        import openpyxl
        from openpyxl.utils.exceptions import InvalidFileException
    except ImportError:
        raise ModuleNotFoundError("reading CLUE's .xlsx needs openpyxl: pip install openpyxl") from None
    read_bytes(path)  # a missing or unreadable file is a DataError
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise DataError(path, None, None, f"not a readable .xlsx file ({exc})") from None
    try:
        rows = book.worksheets[0].iter_rows(values_only=True)
        return [["" if v is None else str(v).strip() for v in row] for row in rows]
    finally:
        book.close()


def _record(path: Path, row: int, header: list[str], values: list[str]) -> dict[str, str]:
    """``{column: value}``; a value in a column without a header name is a DataError."""
    for i, value in enumerate(values):
        if value and (i >= len(header) or not header[i]):
            raise DataError(path, row, f"column {i + 1}", f"value {value[:40]!r} under no header")
    return {name: values[i] if i < len(values) else "" for i, name in enumerate(header) if name}


def _unit(path: Path, row: int, rec: dict[str, str]) -> ClueUnit:
    kind = rec["Type"]
    if kind not in KINDS:
        raise DataError(path, row, "Type", f"'{kind}' is not one of {', '.join(KINDS)}")
    cfu = text(path, row, rec, "CFU")
    idiom = cfu.removeprefix("(to) ").strip()
    return ClueUnit(idiom, "EN", kind, text(path, row, rec, "Concept"), text(path, row, rec, "Context"), cfu)


def load_clue(data_dir: str | Path, kinds: tuple[str, ...] = KINDS) -> list[ClueUnit]:
    """The CLUE units whose type is in ``kinds``."""
    path = dataset_dir(data_dir, "clue") / "clue_en.xlsx"
    rows = _sheet_rows(path)
    header = rows[0] if rows else []
    check_header(path, [h for h in header if h], COLUMNS)
    out, seen, blank = [], {}, 0
    for row, values in enumerate(rows[1:], start=1):
        if not any(values):
            blank += 1
            continue
        unit = _unit(path, row, _record(path, row, header, values))
        check_unique(path, row, "CFU", unit.cfu, seen)
        if unit.kind in kinds:
            out.append(unit)
    if blank:
        log.info("%s: skipped %d blank row(s)", path, blank)
    return out
