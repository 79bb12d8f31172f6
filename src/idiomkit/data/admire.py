"""AdMIRe (SemEval-2025 Task 1) subtask A, text side: a sentence with a nominal compound + five image captions.

Files (``<data_dir>/admire/en/subtask_a_<split>.tsv``): train 70, dev 15, test 15 (with gold ``expected_order``),
``xe`` (extended evaluation) 100 without gold. Quirks handled here: CRLF line endings (train/dev/test), literal
two-character ``\\n`` sequences inside captions (replaced by a space), ``expected_order`` as a Python-list string
(parsed with :func:`ast.literal_eval`, which only accepts literals -- never ``eval``).

Validation (strict): compound not found in the sentence, ``expected_order`` not a permutation of the five image
names, an empty caption or image name, an unknown ``sentence_type`` -> :class:`DataError` naming file, row, field.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from idiomkit.data.csvio import check_header, collect_records, csv_value_rows, decode, record_of
from idiomkit.data.errors import DataError
from idiomkit.errors import InputError, check_choice

SPLITS = {
    "train": "subtask_a_train.tsv",
    "dev": "subtask_a_dev.tsv",
    "test": "subtask_a_test.tsv",
    "xe": "subtask_a_xe.tsv",
}
N_IMAGES = 5
SENTENCE_TYPES = ("idiomatic", "literal")
IRREGULAR_PLURALS = {
    "child": "children",
    "man": "men",
    "woman": "women",
    "foot": "feet",
    "tooth": "teeth",
    "mouse": "mice",
    "goose": "geese",
    "person": "people",
    "wife": "wives",
    "knife": "knives",
    "life": "lives",
    "leaf": "leaves",
    "wolf": "wolves",
    "calf": "calves",
    "shelf": "shelves",
}
COLUMNS = ["compound", "subset", "sentence_type", "sentence", "expected_order"] + [
    f"image{i}_{kind}" for i in range(1, N_IMAGES + 1) for kind in ("name", "caption")
]


@dataclass
class AdmireItem:
    """One ranking item: ``images``/``captions`` in file order; ``gold`` = image names best first (or None)."""

    compound: str
    subset: str
    sentence_type: str | None
    sentence: str
    span: tuple[int, int]  # character offsets of the compound (as it occurs) in ``sentence``
    images: list[str]
    captions: list[str]
    gold: list[str] | None
    row: int = 0

    @property
    def gold_ranks(self) -> list[int]:
        """Gold rank (0 = best) of each image, in file order."""
        if self.gold is None:
            raise InputError(f"item '{self.compound}' has no gold order")
        return [self.gold.index(name) for name in self.images]

    @property
    def gold_indices(self) -> list[int]:
        """File-order index of each gold image, best first."""
        return [self.images.index(name) for name in self.gold or []]

    def captions_by_gold(self) -> list[str]:
        """Captions in gold order, best first."""
        return [self.captions[self.images.index(name)] for name in self.gold or []]


@dataclass
class AdmireSplit:
    split: str
    items: list[AdmireItem]
    files: list[Path] = field(default_factory=list)


def compound_pattern(compound: str) -> re.Pattern[str]:
    """Case-insensitive pattern for ``compound`` with space/hyphen variation and a plural last word
    (``hen party`` matches ``hen parties``, ``flower child`` ``flower children``, ``wet blanket`` ``Wet blankets``)."""
    words = compound.split()
    last = words[-1]
    if last.lower() in IRREGULAR_PLURALS:
        last_re = f"(?:{re.escape(last)}|{IRREGULAR_PLURALS[last.lower()]})"
    elif last.endswith("y") and len(last) > 2:
        last_re = re.escape(last[:-1]) + "(?:y|ies)"
    else:
        last_re = re.escape(last) + "(?:s|es)?"
    body = r"[\s\-]+".join([re.escape(w) for w in words[:-1]] + [last_re])
    return re.compile(r"(?<!\w)" + body + r"(?!\w)", re.IGNORECASE)


def find_compound(sentence: str, compound: str) -> tuple[int, int] | None:
    """Character span of the first occurrence of ``compound`` in ``sentence`` (see :func:`compound_pattern`)."""
    match = compound_pattern(compound).search(sentence)
    return (match.start(), match.end()) if match else None


def clean_caption(text: str) -> str:
    """Replace literal ``\\n`` escape sequences (two characters) and real line breaks by single spaces."""
    return " ".join(text.replace("\\n", " ").split())


def parse_order(path: Path, row: int, value: str, images: list[str]) -> list[str]:
    """Parse an ``expected_order`` Python-list string and check it is a permutation of ``images``."""
    try:
        order = ast.literal_eval(value.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise DataError(path, row, "expected_order", f"not a Python list literal: {value[:60]!r}") from None
    if not isinstance(order, list) or not all(isinstance(x, str) for x in order):
        raise DataError(path, row, "expected_order", "must be a list of image file names")
    if len(order) != N_IMAGES or sorted(order) != sorted(images):
        raise DataError(path, row, "expected_order", f"{order} is not a permutation of the five images {images}")
    return order


def parse_row(path: Path, row: int, record: dict[str, str], *, require_gold: bool) -> AdmireItem:
    for name in ("compound", "sentence"):
        if not record[name].strip():
            raise DataError(path, row, name, "is empty")
    compound, sentence = record["compound"].strip(), record["sentence"].strip()
    span = find_compound(sentence, compound)
    if span is None:
        raise DataError(path, row, "sentence", f"compound '{compound}' not found in the sentence")
    images, captions = [], []
    for i in range(1, N_IMAGES + 1):
        name, caption = record[f"image{i}_name"].strip(), clean_caption(record[f"image{i}_caption"])
        if not name:
            raise DataError(path, row, f"image{i}_name", "is empty")
        if not caption:
            raise DataError(path, row, f"image{i}_caption", "missing caption")
        images.append(name)
        captions.append(caption)
    if len(set(images)) != N_IMAGES:
        raise DataError(path, row, "image1_name", f"image names are not distinct: {images}")
    sentence_type = record["sentence_type"].strip() or None
    if sentence_type is not None and sentence_type not in SENTENCE_TYPES:
        raise DataError(path, row, "sentence_type", f"unknown '{sentence_type}' (expected idiomatic or literal)")
    gold = None
    if record["expected_order"].strip():
        gold = parse_order(path, row, record["expected_order"], images)
    elif require_gold:
        raise DataError(path, row, "expected_order", "is empty (this split needs gold)")
    return AdmireItem(compound, record["subset"].strip(), sentence_type, sentence, span, images, captions, gold, row)


def read_tsv_rows(path: Path) -> list[tuple[int, dict[str, str] | DataError]]:
    """(row number, record) for each data row of a TSV with the AdMIRe header (CRLF or LF); a ragged row comes back
    as its DataError so that a lenient caller can count it and go on."""
    rows = csv_value_rows(path, decode(path), delimiter="\t")
    header = [h.strip() for h in next(rows, (0, []))[1]]
    check_header(path, header, COLUMNS)
    out: list[tuple[int, dict[str, str] | DataError]] = []
    for number, values in rows:
        if not values or not any(v.strip() for v in values):
            continue
        try:
            out.append((number, record_of(path, number, header, values)))
        except DataError as err:
            out.append((number, err))
    return out


def load_admire_file(path: str | Path, *, require_gold: bool = True, strict: bool = True) -> list[AdmireItem]:
    """Items of one AdMIRe subtask A TSV; ``strict=False`` skips bad rows (and logs how many, with the first)."""
    path = Path(path)
    return collect_records(
        path,
        read_tsv_rows(path),
        lambda row, record: parse_row(path, row, record, require_gold=require_gold),
        strict=strict,
    )


def load_admire(data_dir: str | Path, split: str, *, strict: bool = True) -> AdmireSplit:
    """Load ``train``, ``dev``, ``test`` (gold required) or ``xe`` (no gold) from ``<data_dir>/admire/en``."""
    check_choice("AdMIRe split", split, SPLITS)
    path = Path(data_dir) / "admire" / "en" / SPLITS[split]
    return AdmireSplit(split, load_admire_file(path, require_gold=split != "xe", strict=strict), [path])
