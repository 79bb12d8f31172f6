"""Reading user text files for ``idiomkit embed``."""

from __future__ import annotations

import json
from pathlib import Path

from idiomkit.data.errors import DataError


def read_texts(path: Path) -> tuple[list[str], list[tuple[int, int]] | None]:
    """Texts from a .txt (one per line) or .jsonl file (``text`` + optional ``span``); spans only if all have one."""
    if not path.is_file():
        raise DataError(path, None, None, "file not found")
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise DataError(path, None, None, f"not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    if path.suffix != ".jsonl":
        return [line for line in lines if line.strip()], None
    texts, spans = [], []
    for row, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(path, row, None, f"invalid JSON ({exc.msg})") from None
        text = rec.get("text") if isinstance(rec, dict) else None
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
