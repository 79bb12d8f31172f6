"""STS pre-training / mixing data: STS Benchmark (English) and ASSIN 2 (Brazilian Portuguese).

Scores are normalised to [0, 1]: STS-B ``score / 5`` (scale 0–5), ASSIN 2 ``(score - 1) / 4`` (scale 1–5).
Layout under ``data_dir/sts``: ``stsb_multi_mt/stsb-en-{train,dev,test}.csv`` (no header: sentence1, sentence2,
score) and ``assin2/assin2-{train-only,dev,test}.xml`` (``<pair similarity=...><t/><h/></pair>``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import bad_byte, csv_value_rows, decode
from idiomkit.data.errors import DataError
from idiomkit.errors import OptionError, check_choice

STS_SOURCES = ("stsb-en", "assin2")
SPLITS = ("train", "dev", "test")
STSB_COLUMNS = ("sentence1", "sentence2", "similarity")  # the STS-B CSV has no header


@dataclass(frozen=True)
class StsPair:
    """A sentence pair with a similarity in [0, 1]."""

    sentence_1: str
    sentence_2: str
    score: float
    source: str  # "stsb-en" or "assin2"
    language: str  # "EN" or "PT"


def sts_files(data_dir: Path, split: str) -> dict[str, Path]:
    """The file of each source for ``split`` (train, dev or test)."""
    check_choice("STS split", split, SPLITS)
    root = Path(data_dir) / "sts"
    assin = "train-only" if split == "train" else split
    return {
        "stsb-en": root / "stsb_multi_mt" / f"stsb-en-{split}.csv",
        "assin2": root / "assin2" / f"assin2-{assin}.xml",
    }


def _score(path: Path, row: int, value: str, low: float, high: float) -> float:
    try:
        raw = float(value)
    except ValueError:
        raise DataError(path, row, "similarity", f"'{value}' is not a number") from None
    if not low <= raw <= high:  # also rejects NaN
        raise DataError(path, row, "similarity", f"{value} is outside [{low:g}, {high:g}]")
    return (raw - low) / (high - low)


def _text(path: Path, row: int, field: str, value: str | None) -> str:
    if value is None or not value.strip():
        raise DataError(path, row, field, "is empty")
    return value.strip()


def load_stsb(path: Path) -> list[StsPair]:
    """STS-B CSV without header: sentence1, sentence2, score (0–5)."""
    if not path.is_file():
        raise DataError(path, None, None, "file not found")
    out = []
    text = decode(path, first_row=1, lenient=True)
    for row, values in csv_value_rows(path, text, first_row=1, columns=STSB_COLUMNS):
        if not values:
            continue
        if len(values) < 3:
            raise DataError(path, row, STSB_COLUMNS[len(values)], f"missing value (row has {len(values)} of 3 columns)")
        if len(values) > 3:
            raise DataError(path, row, None, f"has {len(values)} values, expected 3 ({', '.join(STSB_COLUMNS)})")
        bad_byte(path, row, dict(zip(STSB_COLUMNS, values, strict=True)))
        s1, s2 = _text(path, row, "sentence1", values[0]), _text(path, row, "sentence2", values[1])
        out.append(StsPair(s1, s2, _score(path, row, values[2], 0.0, 5.0), "stsb-en", "EN"))
    return out


def load_assin2(path: Path) -> list[StsPair]:
    """ASSIN 2 XML: ``<pair id similarity="1–5"><t>…</t><h>…</h></pair>``; rows are numbered by pair order."""
    if not path.is_file():
        raise DataError(path, None, None, "file not found")
    text = decode(path)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        lines = text.splitlines()
        before = "\n".join(lines[: line - 1]) + "\n" + (lines[line - 1][:column] if line <= len(lines) else "")
        pair = before.count("<pair") or None  # the <pair> being parsed (rows are numbered by pair order)
        reason = str(exc).split(":")[0]
        raise DataError(path, pair, None, f"not well-formed XML at line {line}, column {column} ({reason})") from None
    out = []
    for row, pair in enumerate(root.iter("pair"), start=1):
        t, h = _text(path, row, "t", pair.findtext("t")), _text(path, row, "h", pair.findtext("h"))
        out.append(StsPair(t, h, _score(path, row, pair.get("similarity", ""), 1.0, 5.0), "assin2", "PT"))
    if not out:
        raise DataError(path, None, "pair", "no <pair> elements")
    return out


def load_sts(data_dir: Path, split: str = "train", sources: tuple[str, ...] = STS_SOURCES) -> list[StsPair]:
    """STS-B (EN) and ASSIN 2 (PT) pairs of ``split``, scores in [0, 1]."""
    files = sts_files(data_dir, split)
    loaders = {"stsb-en": load_stsb, "assin2": load_assin2}
    unknown = [s for s in sources if s not in loaders]
    if unknown:
        raise OptionError(f"unknown STS source '{unknown[0]}' (expected {', '.join(STS_SOURCES)})")
    return [p for s in sources for p in loaders[s](files[s])]
