"""Rich progress bars for long loops (off when not wanted, e.g. in tests)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sized
from typing import TypeVar

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

T = TypeVar("T")


def track(items: Iterable[T], description: str, *, enabled: bool = True, total: int | None = None) -> Iterator[T]:
    """Iterate over ``items`` with a rich progress bar when ``enabled``."""
    if not enabled:
        yield from items
        return
    total = total if total is not None else (len(items) if isinstance(items, Sized) else None)
    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    ]
    with Progress(*columns, transient=False) as progress:
        task = progress.add_task(description, total=total)
        for item in items:
            yield item
            progress.advance(task)
