"""The ``--check`` rows for people and the report: a terminal listing, a markdown table, and the JSON file that
keeps the rows of earlier partial checks."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from idiomkit.reproduce.check import ResultCheck, mark_extra_results
from idiomkit.reproduce.method_runs import shown_path
from idiomkit.results import atomic_write_text, git_commit, read_json_object


def check_table(rows: list[ResultCheck]) -> list[list[str]]:
    """The check as table rows (header first): experiment, seed, result, status, metrics and predictions
    identical?, max |diff|, seconds."""

    def yes_no(value: bool | None) -> str:
        return "" if value is None else ("yes" if value else "no")

    table = [
        ["experiment", "seed", "result", "status", "metrics identical", "predictions identical", "max |diff|", "s"]
    ]
    for r in rows:
        diff = "" if r.max_diff is None else f"{r.max_diff:.3g}"
        table.append(
            [
                r.experiment,
                str(r.seed),
                r.result,
                r.status,
                yes_no(r.metrics_identical),
                yes_no(r.predictions_identical),
                diff,
                f"{r.seconds:.0f}",
            ]
        )
    return table


def check_lines(rows: list[ResultCheck]) -> list[str]:
    """The check for a terminal, readable at 80 columns: a line per row (status, experiment, seed, result file,
    largest metric difference, seconds) and its detail indented below it."""
    lines = []
    for r in rows:
        diff = "" if r.max_diff in (None, 0) else f", max |diff| {r.max_diff:.3g}"
        lines.append(f"{r.status:<16} {r.experiment} seed {r.seed}: {r.result or '-'} ({r.seconds:.0f} s{diff})")
        lines += [f"    {r.detail}"] if r.detail else []
    return lines


def short_commit(commit: str) -> str:
    """``1a22c591ee6d…+dirty`` → ``1a22c59+dirty``."""
    return commit[:7] + ("+dirty" if commit.endswith("+dirty") else "")


def check_markdown(rows: list[ResultCheck]) -> str:
    """The check table as markdown (a detail column added where any row has one)."""
    table = check_table(rows)
    with_detail = any(r.detail for r in rows)
    with_commit = any(r.commit for r in rows)
    lines = []
    for i, cells in enumerate(table):
        extra = (["detail"] if i == 0 else [rows[i - 1].detail]) if with_detail else []
        extra += (["commit"] if i == 0 else [short_commit(rows[i - 1].commit)]) if with_commit else []
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in [*cells, *extra]) + " |")
        if i == 0:
            lines.append("|" + "---|" * (len(cells) + len(extra)))
    return "\n".join(lines)


def json_row(row: ResultCheck) -> dict[str, Any]:
    """A row as JSON (an infinite difference, from a metric missing on one side, is the string ``"inf"``)."""
    data = dataclasses.asdict(row)
    if data["max_diff"] == float("inf"):
        data["max_diff"] = "inf"
    return data


def rows_by_job(rows: list[ResultCheck]) -> dict[tuple[str, int], list[ResultCheck]]:
    """The rows grouped by the (experiment, seed) job that wrote them, in order."""
    jobs: dict[tuple[str, int], list[ResultCheck]] = {}
    for r in rows:
        jobs.setdefault((r.experiment, r.seed), []).append(r)
    return jobs


def failed_checks(rows: list[ResultCheck]) -> list[ResultCheck]:
    """The rows that fail the check: anything but identical, within tolerance, or not checkable and extra results
    (listed only)."""
    return [r for r in rows if not r.ok and r.status not in ("not checkable", "extra result")]


def earlier_rows(path: Path, rows: list[ResultCheck]) -> tuple[list[ResultCheck], list[str] | None]:
    """The rows of ``path`` (an earlier check) for the (experiment, seed) jobs this check did not re-run, labelled
    by today's :func:`mark_extra_results` rule (a file may predate it), and its ``--only`` selection (None: it
    checked everything); no rows and ``[]`` when the file does not exist."""
    if not path.is_file():
        return [], []
    data = read_json_object(path)
    rerun = {(r.experiment, r.seed) for r in rows}
    names = {f.name for f in dataclasses.fields(ResultCheck)}
    kept = [
        ResultCheck(**{k: v for k, v in r.items() if k in names})
        for r in data.get("rows", [])
        if (r.get("experiment"), r.get("seed")) not in rerun
    ]
    for row in kept:
        row.max_diff = float("inf") if row.max_diff == "inf" else row.max_diff
    for job_rows in rows_by_job(kept).values():
        mark_extra_results(job_rows)
    command = str(data.get("command", "")).split(" --only ")[1:]
    return kept, [c.strip() for c in command] or None


def write_check_json(
    path: Path,
    rows: list[ResultCheck],
    *,
    only: list[str] | None,
    seeds: list[int] | None = None,
    against: Path | None = None,
) -> Path:
    """The check's rows, a summary and the markdown table (the report renders it) as one JSON file. With ``only``
    or ``seeds``, the rows an earlier check in ``path`` recorded for the other (experiment, seed) jobs are kept (a
    partial re-check adds to the table instead of replacing it)."""
    if only or seeds:
        kept, earlier_only = earlier_rows(path, rows)
        rows = sorted([*kept, *rows], key=lambda r: (r.experiment, r.seed, r.result))
        only = None if earlier_only is None or not only else list(dict.fromkeys([*earlier_only, *only]))
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.status] = counts.get(r.status, 0) + 1
    data = {
        "command": "idiomkit reproduce --check" + "".join(f" --only {o}" for o in only or []),
        "against": shown_path(against) if against else "benchmarks/results",
        "commit": git_commit(),
        "ok": not failed_checks(rows),
        "counts": counts,
        "rows": [json_row(r) for r in rows],
        "markdown": check_markdown(rows),
    }
    return atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n")
