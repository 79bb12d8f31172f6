"""Reading user text files for ``idiomkit embed`` and ``read``, and writing what they make (embeddings, readings)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from idiomkit.data.csvio import read_jsonl_records, read_text_lines
from idiomkit.data.errors import DataError
from idiomkit.errors import FileSystemError, OptionError
from idiomkit.results import atomic_write_bytes, atomic_write_text, check_writable_dir

log = logging.getLogger(__name__)


def read_texts(path: Path, *, spans_required: bool = False) -> tuple[list[str], list[tuple[int, int]] | None]:
    """Texts from a .txt (one per line) or .jsonl file (``text`` + optional ``span``); spans only if all have one.

    ``spans_required`` (``--pooling span``): a plain text file is an option error naming it, and a .jsonl line
    without a span a :class:`DataError` naming its row."""
    if path.suffix != ".jsonl":
        if spans_required:
            raise OptionError(
                f"--pooling span needs a .jsonl --input with a 'span' for every text; {path} is plain "
                "text (one text a line, no spans)"
            )
        lines = read_text_lines(path)
        texts = [line for line in lines if line.strip()]
        if len(texts) < len(lines):
            log.warning("%s: %d blank line(s) skipped, %d text(s) read", path, len(lines) - len(texts), len(texts))
        return texts, None
    texts, spans = [], []
    for row, rec in read_jsonl_records(path):
        text = rec.get("text")
        if "text" not in rec:
            raise DataError(path, row, "text", "missing")
        if not isinstance(text, str):
            raise DataError(path, row, "text", f"expected a string, got {type(text).__name__}")
        if not text.strip():
            raise DataError(path, row, "text", "empty")
        texts.append(text)
        span = rec.get("span")
        if span is not None:
            if not (
                isinstance(span, list)
                and len(span) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in span)
                and 0 <= span[0] < span[1] <= len(text)
            ):
                raise DataError(path, row, "span", f"{span!r} is not [start, end] inside the text")
            spans.append((span[0], span[1]))
        elif spans_required:
            raise DataError(path, row, "span", "missing (--pooling span needs a [start, end] span for every text)")
    return texts, (spans if len(spans) == len(texts) else None)


def input_texts(
    verb: str, texts: list[str] | None, path: Path | None, *, spans_required: bool = False
) -> tuple[list[str], list[tuple[int, int]] | None]:
    """The texts ``verb`` (embed, read) was given, as arguments or in an ``--input`` file (:func:`read_texts`), with
    the file's spans; both (the arguments would be dropped unsaid), or neither, is an option error."""
    if path is not None and texts:
        raise OptionError("give texts or --input, not both")
    items, spans = read_texts(path, spans_required=spans_required) if path is not None else (list(texts or []), None)
    if not items:
        raise OptionError(f"nothing to {verb}: give texts or --input")
    return items, spans


@dataclass(frozen=True)
class OutputKind:
    """What a verb writes with ``--output``: its name in messages, an example file name, and how to tell a file of
    this kind (the only kind of existing file the verb may write over)."""

    name: str
    example: str
    is_one: Callable[[Path], bool]


def check_output_file(path: Path, kind: OutputKind, source: Path | None = None) -> Path:
    """Refuse, before any compute, an output path that is a directory, a link, a pipe or a device, whose directory
    cannot be written, that is the ``source`` file the texts come from (writing there would destroy it), or that
    holds a file which is not of ``kind`` (an empty file holds nothing to lose)."""
    if path.is_symlink() or (path.exists() and not path.is_file() and not path.is_dir()):
        raise FileSystemError(f"{path}: not a regular file (a link, a pipe or a device); give a file name")
    if path.is_dir():
        raise FileSystemError(f"{path}: is a directory; give a file name (e.g. {path / kind.example})")
    if source is not None and path.resolve() == source.resolve():
        raise OptionError(
            f"{path}: is the --input file; give another --output file (e.g. {path.with_name(kind.example)})"
        )
    if path.is_file() and path.stat().st_size and not kind.is_one(path):
        raise OptionError(
            f"{path}: exists and is not {kind.name}; idiomkit writes only over files of its own: give another "
            "--output, or remove it first"
        )
    check_writable_dir(path.parent, "output directory")
    return path


def is_embeddings_file(path: Path) -> bool:
    """Whether ``path`` is a .npy array file (what ``embed --output`` writes)."""
    with path.open("rb") as fh:
        return fh.read(6) == b"\x93NUMPY"


def is_readings_file(path: Path) -> bool:
    """Whether ``path``'s first line is a reading (what ``read --output`` writes: text, rewritten, found)."""
    with path.open("rb") as fh:
        first = fh.readline(1 << 20)
    try:
        record = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(record, dict) and {"text", "rewritten", "found"} <= set(record)


EMBEDDINGS = OutputKind("an embeddings file (.npy)", "embeddings.npy", is_embeddings_file)
READINGS = OutputKind("a readings file (JSON lines of idiomkit read)", "readings.jsonl", is_readings_file)


def save_embeddings(path: Path, embeddings: np.ndarray) -> Path:
    """Write ``embeddings`` in ``.npy`` format to exactly ``path`` (no suffix added), atomically."""
    buffer = io.BytesIO()
    np.save(buffer, embeddings, allow_pickle=False)
    return atomic_write_bytes(path, buffer.getvalue())


def write_jsonl(path: Path, records: Iterable[dict]) -> Path:
    """``records`` to ``path`` as JSON lines (UTF-8, not ASCII-escaped), atomically."""
    return atomic_write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
