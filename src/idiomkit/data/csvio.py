"""Strict CSV / JSON-lines reading shared by the loaders: header check, decoding errors with a row number."""

from __future__ import annotations

import csv
import io
import itertools
import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from idiomkit.data.errors import DataError

log = logging.getLogger(__name__)
R = TypeVar("R")


def decode(path: Path, first_row: int = 0, *, lenient: bool = False) -> str:
    """The file's text; ``first_row`` is the row number of the first line (CSV: header = 0; JSON lines: 1).

    ``lenient``: undecodable bytes become lone surrogates (``surrogateescape``) so the caller can name the row
    and field that holds them (see :func:`bad_byte`)."""
    raw = read_bytes(path)
    check_not_utf16_or_binary(path, raw)
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


_WIDE_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


def read_bytes(path: Path) -> bytes:
    """The file's bytes; a missing file, a directory or an unreadable file is a one-line DataError."""
    if not path.is_file():
        raise DataError(path, None, None, "file not found" if not path.exists() else "not a regular file")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise DataError(path, None, None, f"cannot read ({exc.strerror or exc})") from None


def check_not_utf16_or_binary(path: Path, raw: bytes) -> None:
    """Refuse UTF-16/UTF-32 text (byte-order mark or NUL bytes) and binary files with one clear line."""
    for bom, name in _WIDE_BOMS.items():
        if raw.startswith(bom):
            raise DataError(path, None, None, f"not valid UTF-8: encoded as {name} (byte-order mark)")
    if (nul := raw.find(b"\x00", 0, 4096)) >= 0:
        kind = "UTF-16 text without a byte-order mark" if raw[:2].count(b"\x00") == 1 else "a binary file"
        raise DataError(path, None, None, f"not valid UTF-8 text: looks like {kind} (NUL byte at offset {nul})")


def read_csv_rows(path: str | Path, required: Sequence[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield ``(row_number, row_dict)`` for each data row of a UTF-8 CSV file.

    Raises :class:`DataError` for a missing file, wrong encoding, missing columns or ragged rows.
    """
    for number, record in csv_records(path, required):
        if isinstance(record, DataError):
            raise record
        yield number, record


def csv_records(path: str | Path, required: Sequence[str]) -> Iterator[tuple[int, dict[str, str] | DataError]]:
    """Like :func:`read_csv_rows`, but a bad row (ragged, undecodable byte) comes back as its DataError instead of
    being raised, so a lenient caller can count it and go on; file-level problems (missing file, encoding, header,
    unreadable CSV) still raise."""
    path = Path(path)
    text = decode(path, lenient=True)
    check_bytes = _BAD_BYTE.search(text) is not None
    rows = csv_value_rows(path, text)
    header = next(rows, (0, []))[1]
    if check_bytes:
        bad_byte(path, 0, dict(zip(header, header, strict=True)))
    check_header(path, header, required)
    for number, values in rows:
        if not values:
            continue
        try:
            record = record_of(path, number, header, values)
            if check_bytes:
                bad_byte(path, number, record)
        except DataError as err:
            yield number, err
            continue
        yield number, record


def check_header(path: Path, header: list[str], required: Sequence[str]) -> None:
    """Every required column present, no column name twice (a repeated name would hide one of the values)."""
    missing = [col for col in required if col not in header]
    if missing:
        raise DataError(path, 0, missing[0], f"missing column (header has: {', '.join(header)})")
    repeated = [col for i, col in enumerate(header) if col in header[:i]]
    if repeated:
        raise DataError(path, 0, repeated[0], "column appears twice in the header")


def record_of(path: Path, number: int, header: list[str], values: list[str]) -> dict[str, str]:
    """``{column: value}`` of a data row; a row with fewer or more values than columns is a DataError."""
    if len(values) < len(header):
        raise DataError(
            path, number, header[len(values)], f"missing value ({len(values)} values, {len(header)} columns)"
        )
    if len(values) > len(header):
        raise DataError(path, number, None, f"has {len(values)} values, header has {len(header)} columns")
    return dict(zip(header, values, strict=True))


def csv_value_rows(
    path: Path, text: str, first_row: int = 0, columns: Sequence[str] = (), **fmt: str
) -> Iterator[tuple[int, list[str]]]:
    """``(row number, values)`` of each CSV record of ``text``, the first numbered ``first_row`` (0 = a header).

    A record the csv module cannot read (e.g. a field over its size limit) is a one-line DataError naming the row
    and, from ``columns`` or the header, the field."""
    reader = csv.reader(io.StringIO(text, newline=""), **fmt)
    names = list(columns)
    number = first_row - 1
    while True:
        try:
            values = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise csv_error(path, text, first_row, number + 1, names, str(exc), fmt) from None
        number += 1
        if number == 0 and not names:
            names = values
        yield number, values


def csv_error(
    path: Path, text: str, first_row: int, row: int, names: list[str], problem: str, fmt: dict[str, str]
) -> DataError:
    """The DataError for a csv.Error at ``row``; for an oversized field, the field is found by re-reading the row
    with the limit lifted."""
    if "field larger than field limit" not in problem:
        return DataError(path, row, None, f"unreadable CSV record ({problem})")
    limit = csv.field_size_limit()
    try:
        csv.field_size_limit(2**31 - 1)
        records = csv.reader(io.StringIO(text, newline=""), **fmt)
        values = next(itertools.islice(records, row - first_row, None), [])
    finally:
        csv.field_size_limit(limit)
    index = next((i for i, v in enumerate(values) if len(v) > limit), None)
    if index is None:
        return DataError(path, row, None, f"a value is longer than the CSV field limit ({limit} characters)")
    field = names[index] if index < len(names) else f"column {index + 1}"
    return DataError(
        path, row, field, f"{len(values[index])} characters, longer than the CSV field limit ({limit} characters)"
    )


_BAD_BYTE = re.compile("[\udc80-\udcff]")


def bad_byte(path: Path, row: int, record: dict[str, str]) -> None:
    """Raise a DataError naming the first field of ``record`` that holds an undecodable (non-UTF-8) byte."""
    for name, value in record.items():
        if found := _BAD_BYTE.search(value):
            byte = ord(found.group()) - 0xDC00
            raise DataError(path, row, name, f"not valid UTF-8 (byte 0x{byte:02x} in {value[:40]!r})")


def read_text_lines(path: str | Path) -> list[str]:
    """The lines of a non-empty UTF-8 text file (DataError for a missing or empty file or a bad byte).

    Lines end at LF or CRLF only: U+2028, form feeds and the like stay inside their line (``str.splitlines`` would
    split a valid JSON line or shift an aligned corpus file there)."""
    lines = decode(Path(path), first_row=1).split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


JSON_TOO_DEEP = "JSON nested too deeply to read (arrays or objects inside each other past Python's recursion limit)"


def read_filled_tsv(path: str | Path, columns: Sequence[str]) -> list[list[str]]:
    """The rows of a small hand-made TSV file whose header is ``columns`` and whose every cell is filled; a wrong
    header, another number of cells or an empty cell is a DataError naming the row (and the field)."""
    path = Path(path)
    lines = read_text_lines(path)
    if not lines or lines[0].split("\t") != list(columns):
        raise DataError(path, 0, None, f"expected the header {' <TAB> '.join(columns)}")
    rows = []
    for number, line in enumerate(lines[1:], start=1):
        values = line.split("\t")
        if len(values) != len(columns):
            raise DataError(path, number, None, f"{len(values)} tab-separated values, expected {len(columns)}")
        for name, value in zip(columns, values, strict=True):
            if not value.strip():
                raise DataError(path, number, name, "empty")
        rows.append(values)
    return rows


def read_json(path: str | Path, *, encoding: str = "utf-8-sig") -> object:
    """The value of a JSON file (``utf-8-sig``: a BOM is accepted); a bad byte or broken JSON is a one-line DataError
    naming the file."""
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding=encoding))
    except UnicodeDecodeError as exc:
        raise DataError(path, None, None, f"not valid UTF-8 (byte offset {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise DataError(
            path, None, None, f"invalid or truncated JSON (line {exc.lineno} column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise DataError(path, None, None, JSON_TOO_DEEP) from None


def read_format_record(path: Path, fmt: str, readable: str, kind: str) -> dict:
    """The JSON object in ``path`` whose ``format`` field is ``fmt`` (a saved model part: a sense encoder, an
    adapter). A file that cannot be read (missing, not UTF-8, not JSON, nested too deeply) is the one-line DataError
    ``not a readable <readable> (<error>)``; another value or format is ``not <kind> (expected format '<fmt>')``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise DataError(path, None, None, f"not a readable {readable} ({type(exc).__name__})") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise DataError(path, None, "format", f"not {kind} (expected format '{fmt}')")
    return data


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
        except RecursionError:
            raise DataError(path, row, None, JSON_TOO_DEEP) from None
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


def collect_records(
    path: Path,
    rows: Iterable[tuple[int, dict[str, str] | DataError]],
    parse: Callable[[int, dict[str, str]], R],
    *,
    strict: bool,
    id_field: str | None = None,
) -> list[R]:
    """Parse every row; re-raise the first DataError (strict) or skip bad rows and log how many, with the first.

    ``id_field`` (when given) must be unique over the rows kept. Only a row that parsed claims its ID, so in
    lenient mode a bad row never takes a valid row with the same ID (before or after it) down with it; a second
    valid row with an ID already kept is skipped and counted like any other bad row."""
    out: list[R] = []
    skipped: list[str] = []
    seen: dict[str, int] = {}
    for number, record in rows:
        try:
            if isinstance(record, DataError):
                raise record
            parsed = parse(number, record)
            if id_field is not None:
                check_unique(path, number, id_field, record[id_field], seen)
            out.append(parsed)
        except DataError as err:
            if strict:
                raise
            skipped.append(str(err))
    if skipped:
        log.warning("%s: skipped %d bad row(s); first: %s", path, len(skipped), skipped[0])
    return out


def write_resource_tsv(path: str | Path, columns: Sequence[str], rows: Iterable[Sequence[object]]) -> Path:
    """Write a stored TSV resource (``make core-test-lists``): the ``columns`` header, then ``rows``; LF line ends."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
    return path


def read_resource_tsv(path: str | Path, columns: tuple[str, ...]) -> Iterator[tuple[int, list[str]]]:
    """``(row, cells)`` of a stored TSV resource written by :func:`write_resource_tsv` (row 1 = the first after the
    header); a missing file, a header other than ``columns`` or a row with another number of cells is a DataError."""
    path = Path(path)
    if not path.is_file():
        raise DataError(path, None, None, "file not found (make core-test-lists writes it)")
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t")
        header = next(reader, None)
        if header is None or tuple(header) != columns:
            raise DataError(path, 0, None, f"header {header} is not {', '.join(columns)}")
        for row, cells in enumerate(reader, start=1):
            if len(cells) != len(columns):
                raise DataError(path, row, None, f"{len(cells)} cells, expected {len(columns)}")
            yield row, cells
