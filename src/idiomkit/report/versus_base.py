"""Each trained model beside its untrained base with the idiom reader (the bar it must clear), column by column,
with paired bootstrap marks; the same on AdMIRe's idiomatic and literal items apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from idiomkit.metrics.bootstrap import RESAMPLES
from idiomkit.report.paired import ScorecardHeadline, interval_mark, paired_interval
from idiomkit.report.scorecard import (
    ADMIRE_BY_TYPE,
    HEADLINE,
    Columns,
    column_digits,
    column_means,
    full_scorecards_with_paths,
    headline,
    number_cell,
    old_reader_mark,
    short_read_mark,
    titled_table,
)
from idiomkit.results import reader_recipe

BASE_WITH_READER = reader_recipe("zero-shot", "replace")  # the bar a trained model must clear
STS_GUARD_COLUMNS = ("STS-B test ρ", "ASSIN 2 test ρ")
STS_GUARD_TOLERANCE = 0.01  # an STS guard is kept when it stays within this of the base


def clears(column: str, trained: float, base: float) -> bool:
    """Whether ``trained`` clears ``base`` on ``column``: higher, or for an STS guard no more than
    :data:`STS_GUARD_TOLERANCE` below (in the column's own units: nDCG is a percentage); the difference is taken
    as the table prints it, so a "+0.000" is not a win."""
    difference = round(trained - base, column_digits(column))
    if column in STS_GUARD_COLUMNS:
        return difference >= -STS_GUARD_TOLERANCE
    return difference > 0


def versus_base_rows(
    results: list[tuple[Path, dict[str, Any]]], data_dir: Path | None = None, columns: Columns = HEADLINE
) -> list[str]:
    """Each trained model's plain-track scorecard (mean over seeds) beside its untrained base with the reader
    (:data:`BASE_WITH_READER`, same base model), on ``columns`` (:data:`HEADLINE`): the trained number, its
    difference from the base with ``▲``/``▼`` where the paired bootstrap interval (:mod:`idiomkit.report.paired`)
    lies wholly above/below the bar, and on how many columns it clears the base (:func:`clears`; ``§N`` on the
    recipe when either was measured with an older idiom reader). No lines when no trained scorecard has such a base."""
    cards = full_scorecards_with_paths(results, "plain")
    rows = []
    for (model, recipe), pairs in sorted(cards.items()):
        recs = [rec for _, rec in pairs]
        bases = cards.get((model, BASE_WITH_READER))
        if not bases or not recs[0]["params"].get("training"):
            continue
        base = headline(bases[0][1]["metrics"], columns)
        trained = [ScorecardHeadline(path.with_suffix(""), headline(rec["metrics"], columns)) for path, rec in pairs]
        base_card = ScorecardHeadline(bases[0][0].with_suffix(""), base)
        cells = {
            column: (
                mean,
                mean - base[column],
                clears(column, mean, base[column]),
                mark(column, trained, base_card, data_dir),
            )
            for column, mean in column_means(recs, columns).items()
            if base[column] is not None
        }
        rows.append(
            (model, recipe + short_read_mark(recs) + old_reader_mark([*recs, *(b for _, b in bases)]), len(recs), cells)
        )
    shown_columns = [column for column, _, _ in columns if any(column in cells for *_, cells in rows)]
    if not rows:
        return []
    lines = ["| model | recipe | seeds | " + " | ".join(shown_columns) + " | clears base + reader | beyond chance |"]
    lines.append("|" + "---|" * (len(shown_columns) + 5))
    for model, recipe, seeds, cells in rows:
        shown = [versus_cell(c, *cells[c]) if c in cells else "" for c in shown_columns]
        cleared = sum(cell[2] for cell in cells.values())
        marks = [cell[3] for cell in cells.values()]
        chance = f"{marks.count('▲')} ▲, {marks.count('▼')} ▼ of {len(cells) - marks.count(None)}"
        lines.append(
            f"| {model} | {recipe} | {seeds} | " + " | ".join(shown) + f" | {cleared} of {len(cells)} | {chance} |"
        )
    return lines


def versus_cell(column: str, mean: float, difference: float, cleared: bool, mark: str | None) -> str:
    """A versus-base cell: the trained number, then its difference from the base and its paired mark."""
    return f"{number_cell(column, mean)} ({difference:+.{column_digits(column)}f}{mark or ''})"


def mark(column: str, trained: list[ScorecardHeadline], base: ScorecardHeadline, data_dir: Path | None) -> str | None:
    """``▲``/``▼``/nothing for ``column`` (:func:`~idiomkit.report.paired.interval_mark`; the STS guards against
    the bar of :data:`STS_GUARD_TOLERANCE` below the base); None when there is no interval."""
    interval = paired_interval(column, trained, base, data_dir)
    if interval is None:
        return None
    return interval_mark(interval, STS_GUARD_TOLERANCE if column in STS_GUARD_COLUMNS else 0.0)


def versus_base_section(results: list[tuple[Path, dict[str, Any]]], data_dir: Path | None = None) -> list[str]:
    """The trained-versus-base table under a heading, with what each cell means."""
    return titled_table(
        "Trained models against their untrained base with the reader (plain track)",
        versus_base_rows(results, data_dir),
        f"Each cell: the trained model's number (mean over seeds) and, in brackets, its difference from the same "
        f"base model untrained with the idiom reader in front (`idiomkit evaluate all -m BASE --reader replace`). "
        f"A column is cleared when the trained number is higher; an STS test column when it is no more than "
        f"{STS_GUARD_TOLERANCE} below. ▲ / ▼: the 95 % paired bootstrap interval of the difference lies wholly "
        f"above / below that bar (both scorecards' predictions resampled together over the same items, "
        f"{RESAMPLES} resamples of whole idioms, compounds or query expressions where the benchmark has them: "
        f"`idiomkit.report.paired`); no mark: the interval straddles it, so the difference may be chance. "
        f"*Beyond chance* counts the marks over the columns that have an interval.",
    )


def admire_by_type_section(results: list[tuple[Path, dict[str, Any]]], data_dir: Path | None = None) -> list[str]:
    """The trained-versus-base table again on AdMIRe's pool split by sentence type (:data:`ADMIRE_BY_TYPE`)."""
    return titled_table(
        "AdMIRe by sentence type: trained models against their base with the reader (plain track)",
        versus_base_rows(results, data_dir, ADMIRE_BY_TYPE),
        "The AdMIRe pool columns of the table above, split by how the item's sentence uses its compound: "
        "*idiomatic* items (46) rank first the image of the figurative meaning, *literal* items (39) the image of "
        "the literal one, so the idiomatic columns are the ones that test idioms. Cells, marks and counts as above "
        "(resamples of whole compounds).",
    )
