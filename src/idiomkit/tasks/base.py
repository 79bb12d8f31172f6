"""Benchmark task interface: metadata + ``evaluate(model, ...) -> TaskOutput`` (MTEB-style task classes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar


@dataclass
class TaskOutput:
    """What a task evaluation produced: metrics, parameters, the data files read, raw predictions.

    ``predictions`` maps a file suffix (e.g. ``submission.csv``) to the file's text; it is written beside
    the result JSON so anyone can rescore the headline numbers.
    """

    metrics: dict[str, Any]
    params: dict[str, Any] = field(default_factory=dict)
    data_files: list[Path] = field(default_factory=list)
    predictions: dict[str, str] = field(default_factory=dict)


class Task:
    """Base class: subclasses set the metadata and implement :meth:`evaluate`."""

    name: ClassVar[str]  # CLI name, e.g. ``semeval2b``
    result_task: ClassVar[str]  # folder under benchmarks/results, e.g. ``semeval2b-dev``
    description: ClassVar[str]
    main_score: ClassVar[str]
    reference: ClassVar[str] = ""

    def evaluate(self, model, *, data_dir: str | Path, **options: Any) -> TaskOutput:  # pragma: no cover
        raise NotImplementedError

    def summary_table(self, metrics: dict[str, Any]) -> list[list[str]]:  # pragma: no cover
        """Rows (first row = header) for printing ``metrics`` as a table."""
        raise NotImplementedError
