"""The flagship's targets, met or not, for every trained configuration a user can act on.

Each target is a floor on a plain-track number (mean over seeds), or for an STS test guard a floor at
:data:`~idiomkit.report.versus_base.STS_GUARD_TOLERANCE` below the same base model untrained with the reader. A row is a
trained configuration with the seeds a recommendation needs (:func:`~idiomkit.report.scorecard.enough_seeds`) and a
base + reader scorecard beside it; the base + reader rows stand above them for reference. The configurations chosen on
validation (:func:`~idiomkit.report.scorecard.recommended`, the rule their experiment files name) carry
:data:`CHOSEN`; no row is chosen on these test numbers. The best-reached table beside it is a maximum over single
runs on test, labelled so.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from idiomkit.report.scorecard import (
    CONTROL_MARK,
    CORE_BLOCK,
    HEADLINE,
    Columns,
    column_digits,
    column_means,
    control_failed,
    enough_seeds,
    full_scorecards,
    number_cell,
    old_reader_mark,
    recommended,
    stale_core,
    titled_table,
)
from idiomkit.report.versus_base import BASE_WITH_READER, STS_GUARD_COLUMNS, STS_GUARD_TOLERANCE, clears

MET, MISSED = "✓", "✗"
CHOSEN = "◆"  # the configuration the validation rule recommends
FLAGSHIP = "flagship-v2"  # the recipe labels the targets are set for (the single-benchmark models train in-domain)

# the core test's held-out slice by language (the headline has it for both languages together)
CORE_BY_LANGUAGE: Columns = [
    (f"core held-out {language}", "meaning-triples", (f"heldout_{language}", "accuracy")) for language in ("EN", "PT")
]
# each target's floor, in table order; None: an STS test guard, whose bar is the base + reader's number (:func:`clears`)
FLOORS: dict[str, float | None] = {
    "core held-out EN": 0.70,
    "core held-out PT": 0.70,
    "core acc (seen)": 0.90,
    "Xiao I/D margin": 0.35,
    "Xiao MRR": 0.60,
    "2B idiom ρ": 0.35,
    "2B all ρ": 0.72,
    "IdioLink nDCG@10": 75.0,
    "2A F1 (probe)": 0.72,
    "AdMIRe ρ (pool)": 0.45,
    **dict.fromkeys(STS_GUARD_COLUMNS),
}
_KNOWN = {column: (column, block, path) for column, block, path in [*CORE_BY_LANGUAGE, *HEADLINE]}
TARGET_COLUMNS: Columns = [_KNOWN[column] for column in FLOORS]


def heading(column: str) -> str:
    """A target column's heading: its name and its bar."""
    floor = FLOORS[column]
    return f"{column} ≥ " + (f"base − {STS_GUARD_TOLERANCE:g}" if floor is None else number_cell(column, floor))


def meets_floor(column: str, value: float) -> bool:
    """Whether ``value`` meets ``column``'s fixed floor as the table prints it (rounded to the column's digits)."""
    return round(value, column_digits(column)) >= FLOORS[column]


def target_cell(column: str, value: float | None, base: float | None) -> str:
    """The number and whether it meets ``column``'s target (an STS guard: :func:`clears` against ``base``, the base
    + reader's number); empty when the scorecard lacks it, the number alone for a guard without a base."""
    if value is None:
        return ""
    floor = FLOORS[column]
    if floor is None and base is None:
        return number_cell(column, value)
    met = clears(column, value, base) if floor is None else meets_floor(column, value)
    return f"{number_cell(column, value)} {MET if met else MISSED}"


def controls_mark(recs: list[dict[str, Any]], column: str) -> str:
    """:data:`~idiomkit.report.scorecard.CONTROL_MARK` when a core-test target column fails its shortcut controls
    on one of ``recs`` (a number no headline stands on)."""
    block, path = _KNOWN[column][1:]
    failed = block == CORE_BLOCK and any(control_failed(r["metrics"], block, path) and not stale_core(r) for r in recs)
    return CONTROL_MARK if failed else ""


def targets_rows(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The table (header first): each base model's base + reader row, then its trained configurations with enough
    seeds, each target's number (mean over seeds) marked met or missed, and how many it meets; the configurations
    chosen on validation marked :data:`CHOSEN`; no lines when no such trained configuration exists."""
    cards = full_scorecards(results, "plain")
    chosen = {recommended(results, portuguese=False), recommended(results, portuguese=True)}
    lines: list[str] = []
    with_base: set[str] = set()  # the base models whose base + reader row is in
    for (model, recipe), recs in sorted(cards.items()):
        bases = cards.get((model, BASE_WITH_READER))
        if not bases or not recs[0]["params"].get("training") or not enough_seeds(recs):
            continue
        base = column_means(bases, TARGET_COLUMNS)
        if model not in with_base:
            with_base.add(model)
            cells = [target_cell(c, base.get(c), None) + controls_mark(bases, c) for c in FLOORS]
            lines.append(_row(model, BASE_WITH_READER + old_reader_mark(bases), len(bases), cells))
        means = column_means(recs, TARGET_COLUMNS)
        cells = [target_cell(c, means.get(c), base.get(c)) + controls_mark(recs, c) for c in FLOORS]
        mark = f" {CHOSEN}" if (model, recipe) in chosen else ""
        lines.append(_row(model, recipe + old_reader_mark([*recs, *bases]) + mark, len(recs), cells))
    if not lines:
        return []
    head = "| model | recipe | seeds | " + " | ".join(map(heading, FLOORS)) + " | met |"
    return [head, "|" + "---|" * (len(FLOORS) + 4), *lines]


def _row(model: str, recipe: str, seeds: int, cells: Sequence[str]) -> str:
    met = sum(cell.rstrip(CONTROL_MARK).endswith(MET) for cell in cells)
    judged = sum(cell.rstrip(CONTROL_MARK).endswith((MET, MISSED)) for cell in cells)
    return f"| {model} | {recipe} | {seeds} | " + " | ".join(cells) + f" | {met} of {judged} |"


def best_reached_rows(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The table (header first): for each target with a fixed floor, the best mean over seeds that any trained
    flagship v2 configuration (:data:`FLAGSHIP`) reaches, which one (with its seeds: a one-seed row is a single
    run, not a recommendation) and whether it meets the floor; no lines without such a scorecard. Ties go to the
    configuration with more seeds."""
    trained = [
        (model, recipe + old_reader_mark(recs), len(recs), column_means(recs, TARGET_COLUMNS))
        for (model, recipe), recs in sorted(full_scorecards(results, "plain").items())
        if recs[0]["params"].get("training") and recipe.startswith(FLAGSHIP)
    ]
    lines = []
    for column, floor in FLOORS.items():
        reached = [(means[column], seeds, model, recipe) for model, recipe, seeds, means in trained if column in means]
        if floor is None or not reached:
            continue
        value, seeds, model, recipe = max(reached, key=lambda r: (round(r[0], column_digits(column)), r[1]))
        met = MET if meets_floor(column, value) else MISSED
        cells = [heading(column), number_cell(column, value), f"{model} {recipe}", str(seeds), met]
        lines.append("| " + " | ".join(cells) + " |")
    if not lines:
        return []
    return ["| target | best reached | by | seeds | met |", "|---|---|---|---|---|", *lines]


def targets_section(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The targets table under a heading, with what each cell means; then the best any trained configuration
    reaches on each target."""
    return [*_targets_table(results), *_best_reached_table(results)]


def _best_reached_table(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    return titled_table(
        "The best reached on each target: single runs, chosen on test (plain track; any flagship v2 configuration, "
        "any number of seeds)",
        best_reached_rows(results),
        "Each row: the highest mean over seeds that a trained flagship v2 configuration reaches on the target, "
        "that configuration and its seeds (models trained for one benchmark alone are left out). Each row is chosen "
        "on the test number it shows, target by target, over many configurations: a maximum over runs, biased "
        "upwards, never a result to quote or a configuration to take (the recommendation is chosen on validation, "
        f"{CHOSEN} in the table above). Rows with one seed are single runs (often leave-one-out rows).",
    )


def _targets_table(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    return titled_table(
        "The flagship's targets (plain track)",
        targets_rows(results),
        f"Each cell: the number (mean over seeds) and {MET} when it meets the target in the column's heading, "
        f"{MISSED} when not ({CONTROL_MARK}: a core-test column whose shortcut controls score above .55, so no "
        "headline). The STS test guards' bar is the same base model untrained with the reader, less "
        f"{STS_GUARD_TOLERANCE:g}; the base + reader rows (first for each base model) are the reference, their "
        "guards unjudged. Rows: the trained configurations with the seeds a recommendation needs; "
        f"{CHOSEN}: the configuration chosen on validation (English; English + Portuguese).",
    )
