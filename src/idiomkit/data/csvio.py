"""Strict CSV / JSON-lines reading shared by the loaders: header check, decoding errors with a row number."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from idiomkit.data.errors import DataError


def _decode(path: Path, first_row: int = 0, *, lenient: bool = False) -> str:
    """The file's text; ``first_row`` is the row number of the first line (CSV: header = 0; JSON lines: 1).

    ``lenient``: undecodable bytes become lone surrogates (``surrogateescape``) so the caller can name the row
    and field that holds them (see :func:`bad_byte`)."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if lenient:
            return raw.decode("utf-8-sig", errors="surrogateescape")
        row = raw[: exc.start].count(b"\n") + first_row
        raise DataError(
            path, row, None, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    if not text.strip():
        raise DataError(path, None, None, "file is empty")
    return text


def read_csv_rows(path: str | Path, required: Sequence[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield ``(row_number, row_dict)`` for each data row of a UTF-8 CSV file.

    Raises :class:`DataError` for a missing file, wrong encoding, missing columns or ragged rows.
    """
    path = Path(path)
    if not path.is_file():
        raise DataError(path, None, None, "file not found")
    text = _decode(path, lenient=True)
    check_bytes = _BAD_BYTE.search(text) is not None
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None) or []
    if check_bytes:
        bad_byte(path, 0, dict(zip(header, header, strict=True)))
    missing = [col for col in required if col not in header]
    if missing:
        raise DataError(path, 0, missing[0], f"missing column (header has: {', '.join(header)})")
    for number, values in enumerate(reader, start=1):
        if not values:
            continue
        if len(values) < len(header):
            raise DataError(
                path, number, header[len(values)], f"missing value ({len(values)} values, {len(header)} columns)"
            )
        if len(values) > len(header):
            raise DataError(path, number, None, f"has {len(values)} values, header has {len(header)} columns")
        record = dict(zip(header, values, strict=True))
        if check_bytes:
            bad_byte(path, number, record)
        yield number, record


_BAD_BYTE = re.compile("[\udc80-\udcff]")


def bad_byte(path: Path, row: int, record: dict[str, str]) -> None:
    """Raise a DataError naming the first field of ``record`` that holds an undecodable (non-UTF-8) byte."""
    for name, value in record.items():
        if found := _BAD_BYTE.search(value):
            byte = ord(found.group()) - 0xDC00
            raise DataError(path, row, name, f"not valid UTF-8 (byte 0x{byte:02x} in {value[:40]!r})")


def read_text_lines(path: str | Path) -> list[str]:
    """The lines of a non-empty UTF-8 text file (DataError for a missing or empty file or a bad byte)."""
    path = Path(path)
    if not path.is_file():
        raise DataError(path, None, None, "file not found")
    return _decode(path, first_row=1).splitlines()


def read_jsonl_records(path: str | Path) -> Iterator[tuple[int, dict]]:
    """Yield ``(line_number, object)`` for each non-blank line of a UTF-8 JSON-lines file.

    Raises :class:`DataError` for a missing or empty file, wrong encoding, invalid/truncated JSON or a non-object line.
    """
    path = Path(path)
    for row, line in enumerate(read_text_lines(path), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(path, row, None, f"invalid or truncated JSON (column {exc.colno}: {exc.msg})") from None
        if not isinstance(record, dict):
            raise DataError(path, row, None, f"must be a JSON object, got {type(record).__name__}")
        yield row, record


def require_text(path: Path, row: int, record: dict[str, str], field: str) -> str:
    """Return a non-empty text field or raise a DataError."""
    value = record[field]
    if not value.strip():
        raise DataError(path, row, field, "is empty")
    return value


def parse_score(path: Path, row: int, field: str, value: str, *, allow_missing: tuple[str, ...] = ()) -> float | None:
    """Parse a similarity in [0, 1]; values in ``allow_missing`` (e.g. '' or 'None') give ``None``."""
    if value in allow_missing:
        return None
    try:
        score = float(value)
    except ValueError:
        raise DataError(path, row, field, f"'{value}' is not a number") from None
    if not 0.0 <= score <= 1.0:  # also rejects NaN
        raise DataError(path, row, field, f"{value} is outside [0, 1]")
    return score


def check_unique(path: Path, row: int, field: str, value: str, seen: dict[str, int]) -> None:
    """Raise a DataError if ``value`` was already seen in ``field``; remember it otherwise."""
    if value in seen:
        raise DataError(path, row, field, f"duplicate '{value}' (first at row {seen[value]})")
    seen[value] = row
