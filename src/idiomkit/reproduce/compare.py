"""How a re-run result differs from the recorded one: flattened metrics compared number by number, prediction
files compared line by line (:class:`PredictionDiff`), and the status a difference earns under a ``[check]``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from idiomkit.reproduce.schema import CheckSpec
from idiomkit.results import read_prediction


def flat_metrics(metrics: Any, prefix: str = "") -> dict[str, Any]:
    """``{"ALL": {"idiom": 0.1}}`` → ``{"ALL.idiom": 0.1}`` (lists indexed the same way)."""
    if isinstance(metrics, dict):
        items = metrics.items()
    elif isinstance(metrics, list):
        items = enumerate(metrics)
    else:
        return {prefix: metrics}
    flat: dict[str, Any] = {}
    for key, value in items:
        flat.update(flat_metrics(value, f"{prefix}.{key}" if prefix else str(key)))
    return flat


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def metric_diff(new: dict[str, Any], old: dict[str, Any]) -> tuple[float, list[str]]:
    """The largest |new - old| over the numeric metrics both have, and the metrics that are not equal (missing on
    one side, or a non-number that differs: these count as an infinite difference)."""
    a, b = flat_metrics(new), flat_metrics(old)
    worst, unequal = 0.0, []
    for name in sorted(a.keys() | b.keys()):
        x, y = a.get(name), b.get(name)
        if is_number(x) and is_number(y):
            diff = abs(float(x) - float(y))
            if diff != diff:  # NaN on one side only
                diff = 0.0 if (x != x and y != y) else float("inf")
        else:
            diff = 0.0 if (name in a and name in b and x == y) else float("inf")
        if diff > 0:
            unequal.append(name)
        worst = max(worst, diff)
    return worst, unequal


def prediction_files(result_json: Path) -> dict[str, Path]:
    """The prediction files beside a result JSON, by suffix without ``.gz`` (``submission.csv`` for both
    ``<stem>.submission.csv`` and ``<stem>.submission.csv.gz``)."""
    prefix = result_json.stem + "."
    files = {}
    for path in sorted(result_json.parent.glob(f"{glob_escape(prefix)}*")):
        if path != result_json and path.name.startswith(prefix) and path.is_file():
            files[path.name[len(prefix) :].removesuffix(".gz")] = path
    return files


def glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def predictions_differ(new_json: Path, old_json: Path, tolerance: float = 0.0) -> tuple[list[str], list[str]]:
    """The prediction suffixes that are not the same text on both sides (missing on one side included), split into
    those beyond ``tolerance`` and those within it (:meth:`PredictionDiff.close`; none when ``tolerance`` is 0).
    Each entry is the suffix and, when both sides exist, how they differ (:meth:`PredictionDiff.describe`)."""
    new, old = prediction_files(new_json), prediction_files(old_json)
    beyond, within = [], []
    for suffix in sorted(new.keys() | old.keys()):
        if suffix not in new or suffix not in old:
            beyond.append(f"{suffix} (only {'re-run' if suffix in new else 'recorded'})")
            continue
        a, b = read_prediction(new[suffix]), read_prediction(old[suffix])
        if a != b:
            diff = prediction_diff(a, b)
            (within if tolerance > 0 and diff.close(tolerance) else beyond).append(f"{suffix} ({diff.describe()})")
    return beyond, within


DECIMAL = re.compile(r"(-?\d+\.\d+(?:[eE][-+]?\d+)?)")


@dataclass(frozen=True)
class PredictionDiff:
    """How two prediction texts differ: their line counts and, when those are equal, how many lines differ only in
    their decimal numbers (``0.607700``; and by how much at most) and how many in anything else (the text between
    the numbers: ids, rank order, integers, labels)."""

    new_lines: int
    old_lines: int
    numbers_only: int = 0
    other: int = 0
    largest: float = 0.0
    first: int | None = None  # the first differing line (1-based)

    def close(self, tolerance: float) -> bool:
        """Same lines but for decimal numbers, each at most ``tolerance`` apart."""
        return self.new_lines == self.old_lines and self.other == 0 and self.largest <= tolerance * (1 + 1e-9)

    def describe(self) -> str:
        if self.new_lines != self.old_lines:
            return f"{self.new_lines} lines vs {self.old_lines} recorded"
        return (
            f"{self.numbers_only + self.other} of {self.old_lines} lines differ, first at line {self.first}: "
            f"{self.numbers_only} only in their numbers (at most {self.largest:.3g} apart), {self.other} in ids, "
            "order or labels"
        )


def prediction_diff(new: str, old: str) -> PredictionDiff:
    """Compare two prediction texts line by line (:class:`PredictionDiff`)."""
    new_lines, old_lines = new.splitlines(), old.splitlines()
    if len(new_lines) != len(old_lines):
        return PredictionDiff(len(new_lines), len(old_lines))
    numbers_only, other, largest, first = 0, 0, 0.0, None
    for i, (a, b) in enumerate(zip(new_lines, old_lines, strict=True), 1):
        if a == b:
            continue
        first = first or i
        x, y = DECIMAL.split(a), DECIMAL.split(b)
        if len(x) == len(y) and x[0::2] == y[0::2]:
            numbers_only += 1
            largest = max([largest, *(abs(float(u) - float(v)) for u, v in zip(x[1::2], y[1::2], strict=True))])
        else:
            other += 1
    return PredictionDiff(len(new_lines), len(old_lines), numbers_only, other, largest, first)


def check_status(worst: float, metrics_differ: bool, beyond: bool, within: bool, spec: CheckSpec) -> str:
    """``identical``, ``within tolerance`` (metrics within ``tolerance`` and the predictions identical, within
    ``prediction_tolerance``, or free to differ under a metric tolerance alone) or ``differs``."""
    if not (metrics_differ or beyond or within):
        return "identical"
    metrics_ok = not metrics_differ or (spec.tolerance > 0 and worst <= spec.tolerance)
    predictions_ok = not beyond or (spec.tolerance > 0 and spec.prediction_tolerance == 0)
    return "within tolerance" if metrics_ok and predictions_ok else "differs"
