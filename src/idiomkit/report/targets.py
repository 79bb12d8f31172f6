"""The flagship's targets (issue #44, point 3), met or not, for every trained configuration a user can act on.

Each target is a floor on a plain-track number (mean over seeds), or for an STS test guard a floor at
:data:`~idiomkit.report.scorecard.STS_GUARD_TOLERANCE` below the same base model untrained with the reader. A row is a
trained configuration with the seeds a recommendation needs (:func:`~idiomkit.report.scorecard.enough_seeds`) and a
base + reader card beside it; the base + reader rows stand above them for reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from idiomkit.report.scorecard import (
    BASE_WITH_READER,
    STS_GUARD_TOLERANCE,
    Columns,
    column_digits,
    column_means,
    enough_seeds,
    full_cards,
    number_cell,
    old_reader_mark,
    titled_table,
)

MET, MISSED = "✓", "✗"


@dataclass(frozen=True)
class Target:
    """A plain-track number's floor: ``floor``, or with ``guard`` the base + reader's number minus the tolerance."""

    column: str
    block: str
    path: tuple[str, ...]
    floor: float | None = None
    guard: bool = False

    @property
    def heading(self) -> str:
        bar = f"≥ base − {STS_GUARD_TOLERANCE:g}" if self.guard else f"≥ {number_cell(self.column, self.floor or 0.0)}"
        return f"{self.column} {bar}"


TARGETS: tuple[Target, ...] = (
    Target("core held-out EN", "meaning-triples", ("heldout_EN", "accuracy"), 0.70),
    Target("core held-out PT", "meaning-triples", ("heldout_PT", "accuracy"), 0.70),
    Target("core seen", "meaning-triples", ("seen", "accuracy"), 0.90),
    Target("Xiao I/D margin", "xiao", ("id_margin",), 0.35),
    Target("Xiao MRR", "xiao", ("mrr",), 0.60),
    Target("2B idiom ρ", "semeval2b", ("ALL", "idiom"), 0.35),
    Target("2B all ρ", "semeval2b", ("ALL", "all"), 0.72),
    Target("IdioLink nDCG@10", "idiolink", ("sentence", "ndcg@10"), 75.0),
    Target("2A F1 (probe)", "semeval2a", ("ALL", "macro_f1"), 0.72),
    Target("AdMIRe ρ (pool)", "admire", ("pool", "spearman"), 0.45),
    Target("STS-B test ρ", "sts-guard", ("stsb-en",), guard=True),
    Target("ASSIN 2 test ρ", "sts-guard", ("assin2",), guard=True),
)
TARGET_COLUMNS: Columns = [(t.column, t.block, t.path) for t in TARGETS]


def target_cell(target: Target, value: float | None, base: float | None) -> str:
    """The number and whether it meets ``target`` (``base``: the base + reader's number, for a guard); empty when
    the card lacks it, the number alone for a guard without a base."""
    if value is None:
        return ""
    floor = base - STS_GUARD_TOLERANCE if target.guard and base is not None else target.floor
    shown = number_cell(target.column, value)
    if floor is None:
        return shown
    return f"{shown} {MET if round(value, column_digits(target.column)) >= floor else MISSED}"


def targets_rows(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The table (header first): each base model's base + reader row, then its trained configurations with enough
    seeds, each target's number (mean over seeds) marked met or missed, and how many it meets; no lines when no
    such trained configuration exists."""
    cards = full_cards(results, "plain")
    lines: list[str] = []
    with_base: set[str] = set()  # the base models whose base + reader row is in
    for (model, recipe), recs in sorted(cards.items()):
        bases = cards.get((model, BASE_WITH_READER))
        if not bases or not recs[0]["params"].get("training") or not enough_seeds(recs):
            continue
        base = column_means(bases, TARGET_COLUMNS)
        if model not in with_base:
            with_base.add(model)
            cells = [target_cell(t, base.get(t.column), None) for t in TARGETS]
            lines.append(_row(model, BASE_WITH_READER + old_reader_mark(bases), len(bases), cells))
        means = column_means(recs, TARGET_COLUMNS)
        cells = [target_cell(t, means.get(t.column), base.get(t.column)) for t in TARGETS]
        lines.append(_row(model, recipe + old_reader_mark([*recs, *bases]), len(recs), cells))
    if not lines:
        return []
    head = "| model | recipe | seeds | " + " | ".join(t.heading for t in TARGETS) + " | met |"
    return [head, "|" + "---|" * (len(TARGETS) + 4), *lines]


def _row(model: str, recipe: str, seeds: int, cells: Sequence[str]) -> str:
    met = sum(cell.endswith(MET) for cell in cells)
    judged = sum(cell.endswith((MET, MISSED)) for cell in cells)
    return f"| {model} | {recipe} | {seeds} | " + " | ".join(cells) + f" | {met} of {judged} |"


def targets_section(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The targets table under a heading, with what each cell means."""
    return titled_table(
        "The flagship's targets (issue #44; plain track)",
        targets_rows(results),
        f"Each cell: the number (mean over seeds) and {MET} when it meets the target in the column's heading, "
        f"{MISSED} when not. The STS test guards' bar is the same base model untrained with the reader, less "
        f"{STS_GUARD_TOLERANCE:g}; the base + reader rows (first for each base model) are the reference, their "
        "guards unjudged. Rows: the trained configurations with the seeds a recommendation needs.",
    )
