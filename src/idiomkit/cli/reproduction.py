"""``idiomkit reproduce``: run the experiment files behind the tables (:mod:`idiomkit.reproduce`), or re-run
them as recorded and compare (``--check``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from idiomkit.cli.common import DOCS_RESULTS, DataDir, app, console, print_table, publish_report, user_errors
from idiomkit.errors import OptionError


@app.command()
@user_errors
def reproduce(
    quick: Annotated[
        bool, typer.Option("--quick/--full", help="--quick: tiny slices (minutes); --full: the real runs (days).")
    ] = True,
    only: Annotated[
        list[str] | None, typer.Option("--only", help="Only this benchmark (e.g. semeval2b-dev) or experiment.")
    ] = None,
    seed: Annotated[
        list[int] | None, typer.Option("--seed", help="Only this seed of each selected experiment (repeatable).")
    ] = None,
    experiments: Annotated[Path, typer.Option(help="Folder of experiment files.")] = Path("benchmarks/experiments"),
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List the jobs and whether they would run.")] = False,
    data_dir: DataDir = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Re-run the selected --full jobs into a temporary folder and compare each "
            "result with the recorded one (metrics, raw predictions); exit 1 on a difference.",
        ),
    ] = False,
    check_json: Annotated[Path, typer.Option("--check-json", help="Where --check writes its table.")] = Path(
        "benchmarks/checks/reproduce_check.json"
    ),
    keep: Annotated[
        bool,
        typer.Option(
            "--keep",
            help="--check: keep the re-run results (in runs/reproduce-check/kept/) to look "
            "into a difference, instead of a temporary folder.",
        ),
    ] = False,
) -> None:
    """Run the experiments behind every table (skipping jobs whose command + code + data are unchanged), then
    regenerate the report as `idiomkit report` does: --quick → runs/reproduce-quick/report/, --full → docs/results/
    and README.md's tables. With --check: re-run them as recorded and compare (benchmarks/results is never
    written)."""
    from idiomkit.reproduce.experiments import load_experiments
    from idiomkit.settings import default_data_dir

    data = Path(data_dir or os.environ.get("IDIOMKIT_DATA_DIR") or default_data_dir()).resolve()
    if check:
        scratch = Path("runs/reproduce-check/kept") if keep else None
        reproduce_check(load_experiments(experiments), only, seed, data, check_json, dry_run, scratch)
    else:
        reproduce_run(experiments, quick=quick, only=only, seeds=seed, data=data, dry_run=dry_run)


def reproduce_run(
    experiments: Path, *, quick: bool, only: list[str] | None, seeds: list[int] | None, data: Path, dry_run: bool
) -> None:
    """``reproduce --quick`` / ``--full``: the selected jobs that are not up to date run (or, with ``dry_run``,
    are listed), the table printed and the report regenerated; exit 1 when a job failed."""
    from idiomkit.reproduce.experiments import load_experiments
    from idiomkit.reproduce.jobs import plan
    from idiomkit.settings import default_results_dir

    root = Path("runs/reproduce-quick" if quick else "runs/reproduce")
    results_dir = root / "results" if quick else default_results_dir()
    exps = load_experiments(experiments)
    jobs = plan(exps, quick=quick, run_root=root, results_dir=results_dir, data_dir=data, only=only, seeds=seeds)
    if not jobs:
        raise OptionError(f"{selection_text(only, seeds)}: no experiment in {experiments} matches")
    rows, failed = run_jobs(jobs, results_dir=results_dir, data=data, log_dir=root / "logs", dry_run=dry_run)
    print_table(rows, f"reproduce ({'quick' if quick else 'full'}): {len(jobs)} jobs")
    if dry_run:
        for job in jobs:
            console.print(job.command, highlight=False, soft_wrap=True, markup=False)
        return
    if results_dir.exists():
        publish_report(results_dir, root / "report" if quick else DOCS_RESULTS, data)
    if failed:
        console.print(f"{failed} job(s) failed: logs in {root / 'logs'}")
        raise typer.Exit(1)


def run_jobs(jobs: list, *, results_dir: Path, data: Path, log_dir: Path, dry_run: bool) -> tuple[list[list[str]], int]:
    """Run each job that is not up to date (none with ``dry_run``): the status table (header first) and how many
    jobs failed."""
    import time

    from idiomkit.reproduce.jobs import run_job

    rows = [["experiment", "seed", "benchmark", "status", "s"]]
    failed = 0
    for i, job in enumerate(jobs, 1):
        status, seconds = ("up to date", "") if job.done() else ("to run", "")
        if not dry_run and status == "to run":
            console.print(
                f"[{i}/{len(jobs)}] {job.experiment.name} seed {job.seed}: {job.command}", highlight=False, markup=False
            )  # a command's brackets are text ("a[os]b"), not rich markup
            tick = time.perf_counter()
            code = run_job(job, results_dir=results_dir, data_dir=data, log_dir=log_dir)
            status, seconds = ("ran" if code == 0 else f"FAILED ({code})"), f"{time.perf_counter() - tick:.0f}"
            failed += code != 0
        rows.append([job.experiment.name, str(job.seed), job.experiment.benchmark, status, seconds])
    return rows, failed


def selection_text(only: list[str] | None, seeds: list[int] | None) -> str:
    """The ``--only`` / ``--seed`` selection as typed, for messages."""
    return " ".join([*(f"--only {o}" for o in only or []), *(f"--seed {s}" for s in seeds or [])]) or "all"


def reproduce_check(
    experiments: list,
    only: list[str] | None,
    seeds: list[int] | None,
    data: Path,
    check_json: Path,
    dry_run: bool,
    kept: Path | None = None,
) -> None:
    """``reproduce --check``: each selected job re-run into a temporary results folder (``kept``, when given) and
    compared with benchmarks/results (the table printed and written to ``check_json``); exit 1 when a result
    differs beyond its experiment's documented tolerance, fails, or has no recorded counterpart."""
    import contextlib
    import tempfile

    from idiomkit.reproduce.check import check_jobs, run_check
    from idiomkit.reproduce.check_report import check_lines, failed_checks, write_check_json
    from idiomkit.settings import default_results_dir

    recorded = default_results_dir()
    log_dir = Path("runs/reproduce-check/logs")
    folder = contextlib.nullcontext(kept) if kept else tempfile.TemporaryDirectory(prefix="idiomkit-check-")
    with folder as scratch:
        jobs = check_jobs(
            experiments,
            only=only,
            scratch=Path(scratch),
            models_root=Path("runs/reproduce"),
            recorded_dir=recorded,
            seeds=seeds,
        )
        if not jobs:
            raise OptionError(f"{selection_text(only, seeds)}: no experiment matches")
        if dry_run:
            trained_here = {job.trains for job in jobs if job.trains}
            for job in jobs:
                later = job.missing and set(job.missing) <= trained_here
                state = "not checkable: " + job.recreate if job.missing and not later else "to check"
                console.print(
                    f"{job.experiment.name} seed {job.seed} ({state}): {job.command}", highlight=False, markup=False
                )
            return
        rows = []
        for i, job in enumerate(jobs, 1):
            console.print(
                f"[{i}/{len(jobs)}] {job.experiment.name} seed {job.seed}: {job.command}", highlight=False, markup=False
            )
            rows += run_check(job, recorded_dir=recorded, data_dir=data, log_dir=log_dir)
    console.print(f"reproduce --check: {len(jobs)} jobs against {recorded}", highlight=False)
    for line in check_lines(rows):
        console.print(line, highlight=False, soft_wrap=True)
    console.print(f"wrote {write_check_json(check_json, rows, only=only, seeds=seeds, against=recorded)}")
    failed = failed_checks(rows)
    if failed:
        console.print(
            f"{len(failed)} result(s) not reproduced: "
            + "; ".join(f"{r.experiment} seed {r.seed}: {r.status} {r.detail}".strip() for r in failed[:5]),
            highlight=False,
        )
        raise typer.Exit(1)
