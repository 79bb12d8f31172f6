"""One error type for every loader: a one-line message naming file, row and field."""

from __future__ import annotations

from pathlib import Path

from idiomkit.errors import IdiomkitError


class DataError(IdiomkitError, ValueError):
    """Malformed input data.

    ``str(err)`` is a single line ``<file>: row <n>: field '<name>': <problem>`` so the CLI can print it
    as-is and exit non-zero. ``row`` is 1-based over data rows (the header is row 0); ``None`` means the
    problem concerns the whole file.
    """

    def __init__(self, path: str | Path, row: int | None, field: str | None, problem: str):
        self.path, self.row, self.field, self.problem = str(path), row, field, problem
        parts = [self.path]
        if row is not None:
            parts.append(f"row {row}")
        if field is not None:
            parts.append(f"field '{field}'")
        super().__init__(": ".join(parts + [" ".join(problem.split())]))
