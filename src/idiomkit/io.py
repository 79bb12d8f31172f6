"""Reading user text files for ``idiomkit embed``."""

from __future__ import annotations

from pathlib import Path

from idiomkit.data.csvio import read_jsonl_records, read_text_lines
from idiomkit.data.errors import DataError


def read_texts(path: Path) -> tuple[list[str], list[tuple[int, int]] | None]:
    """Texts from a .txt (one per line) or .jsonl file (``text`` + optional ``span``); spans only if all have one."""
    if path.suffix != ".jsonl":
        return [line for line in read_text_lines(path) if line.strip()], None
    texts, spans = [], []
    for row, rec in read_jsonl_records(path):
        text = rec.get("text")
        if not isinstance(text, str) or not text.strip():
            raise DataError(path, row, "text", "missing or empty")
        texts.append(text)
        span = rec.get("span")
        if span is not None:
            if not (
                isinstance(span, list)
                and len(span) == 2
                and all(isinstance(x, int) for x in span)
                and 0 <= span[0] < span[1] <= len(text)
            ):
                raise DataError(path, row, "span", f"{span!r} is not [start, end] inside the text")
            spans.append((span[0], span[1]))
    return texts, (spans if len(spans) == len(texts) else None)
