"""``idiomkit compare``: two scorecards side by side, each column's difference with its paired bootstrap
interval (:mod:`idiomkit.report.paired`).

Example::

    rows = compare_rows(Path("mine__plain__seed0.json"), Path("mpnet__zero-shot-reader-replace__plain__seed0.json"))
"""

from __future__ import annotations

import logging
from pathlib import Path

from idiomkit.errors import InputError
from idiomkit.report.paired import ScorecardHeadline, interval_mark, paired_interval
from idiomkit.report.scorecard import ADMIRE_BY_TYPE, HEADLINE, SCORECARD_TASK, column_digits, headline
from idiomkit.results import read_result

log = logging.getLogger(__name__)

# the headline columns, the raw held-out core accuracy (beside its control-balanced one), AdMIRe by sentence type
COMPARED = [*HEADLINE, ("core acc (held-out)", "meaning-triples", ("heldout", "accuracy")), *ADMIRE_BY_TYPE]


def read_scorecard(path: Path) -> ScorecardHeadline:
    """A scorecard result file as a :class:`ScorecardHeadline`; anything else is a one-line error naming the file."""
    rec = read_result(path, "scorecard")
    if rec.get("task") != SCORECARD_TASK or not isinstance(rec.get("metrics"), dict):
        raise InputError(f"{path}: not a scorecard (task {rec.get('task')!r}); give an `evaluate all` result")
    return ScorecardHeadline(
        path.with_suffix(""), headline(rec["metrics"], COMPARED), bool((rec.get("params") or {}).get("quick"))
    )


def compare_rows(first: Path, second: Path, data_dir: Path | None = None) -> list[list[str]]:
    """``idiomkit compare``: each column of :data:`COMPARED` both scorecards have, their numbers, the difference
    (first - second), its 95 % paired bootstrap interval ("none" when the files do not allow one: the log says why)
    and ▲ / ▼ when the whole interval lies above / below 0."""
    a, b = read_scorecard(first), read_scorecard(second)
    if a.quick != b.quick:
        quick, full = (first, second) if a.quick else (second, first)
        raise InputError(
            f"{quick} is a --quick scorecard (fixed small slices), {full} a full one: compare like with like"
        )
    rows = [["column", "A", "B", "A - B", "95 % interval", ""]]
    one_sided = []
    for column, _, _ in COMPARED:
        present = [card.headline.get(column) is not None for card in (a, b)]
        if not all(present):
            one_sided += [column] if any(present) else []
            continue
        digits = column_digits(column)
        interval = paired_interval(column, [a], b, data_dir)
        span = "none" if interval is None else f"[{interval[0]:+.{digits}f}, {interval[1]:+.{digits}f}]"
        difference = a.headline[column] - b.headline[column]  # type: ignore[operator]
        numbers = [f"{card.headline[column]:.{digits}f}" for card in (a, b)]
        rows.append([column, *numbers, f"{difference:+.{digits}f}", span, interval_mark(interval)])
    if one_sided:
        log.warning("%d column(s) left out, in one scorecard only: %s", len(one_sided), ", ".join(one_sided))
    return rows
