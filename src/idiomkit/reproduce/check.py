"""``idiomkit reproduce --check``: the selected ``--full`` jobs re-run as recorded into a scratch folder, each
result compared with the recorded result of the same key (:class:`ResultCheck` rows)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from idiomkit.reproduce.compare import check_status, is_number, metric_diff, predictions_differ
from idiomkit.reproduce.jobs import job_argv, job_output, selected
from idiomkit.reproduce.method_runs import shown_path
from idiomkit.reproduce.schema import Experiment, TrainRun
from idiomkit.results import git_commit, read_json_object


@dataclass
class CheckJob:
    """One (experiment, seed) re-run of ``--check``: its command, the scratch folder its results go to, and the
    trained-model folders it reads that are not on disk (then it cannot run)."""

    experiment: Experiment
    seed: int
    argv: list[str]
    results: Path
    missing: list[Path] = field(default_factory=list)
    recreate: str = ""  # how the missing models would be made, and the recorded CPU time
    trains: Path | None = None  # the model folder a training job makes (resolved)

    @property
    def command(self) -> str:
        return " ".join(shlex.quote(a) for a in self.argv)


@dataclass
class ResultCheck:
    """One row of the check: a re-run result against the recorded one of the same key (same relative path)."""

    experiment: str
    seed: int
    result: str
    status: str  # identical | within tolerance | differs | no recorded result | extra result | no result | failed
    #              | not checkable
    metrics_identical: bool | None = None
    predictions_identical: bool | None = None
    max_diff: float | None = None
    seconds: float = 0.0
    tolerance: float = 0.0
    tolerance_reason: str = ""
    detail: str = ""
    prediction_tolerance: float = 0.0
    commit: str = ""  # the code the row was checked with (rows of earlier partial checks keep theirs)

    @property
    def ok(self) -> bool:
        return self.status in ("identical", "within tolerance")


def check_jobs(
    experiments: list[Experiment],
    *,
    only: list[str] | None,
    scratch: Path,
    models_root: Path,
    recorded_dir: Path,
    seeds: list[int] | None = None,
) -> list[CheckJob]:
    """The ``--full`` jobs of the selection as recorded, each writing its results under ``scratch``. A training
    job writes its model where ``reproduce --full`` would, ``<models_root>/<experiment>-seed<N>`` (the experiments
    that read that model are then checkable in the same or a later check); trained models other experiments made
    are read from there."""
    jobs = []
    for exp, exp_seeds in selected(experiments, quick=False, only=only, seeds=seeds):
        trains = isinstance(exp.run, TrainRun)
        run_root = models_root if trains else scratch / "runs"
        for seed in exp_seeds:
            results = scratch / "results" / f"{exp.name}-seed{seed}"
            argv = job_argv(exp, seed, False, run_root, results, models_root=models_root)
            made = job_output(exp, seed, run_root).resolve() if trains else None
            missing = [p for p in missing_models(argv, models_root) if p != made]
            recreate = "; ".join(recreate_hint(p, experiments, recorded_dir) for p in missing)
            jobs.append(CheckJob(exp, seed, argv, results, missing, recreate, made))
    return sorted(jobs, key=lambda job: job.trains is None)  # models before the jobs that read them


def recreate_hint(model_dir: Path, experiments: list[Experiment], recorded_dir: Path) -> str:
    """How ``<models_root>/<experiment>-seed<N>`` is made (its experiment's command) and the training time the
    recorded results of that recipe, model, seed and epochs report (``params.training.train_s``)."""
    name, _, seed = model_dir.name.rpartition("-seed")
    maker = next((e for e in experiments if e.name == name), None)
    if maker is None or not seed.isdigit():
        return f"{shown_path(model_dir)}: no experiment makes it"
    argv = job_argv(maker, int(seed), False, Path(shown_path(model_dir.parent)), recorded_dir)
    hint = f"made by `{' '.join(shlex.quote(a) for a in argv[1:])}`"
    seconds = recorded_train_seconds(maker, int(seed), recorded_dir)
    return hint + (f" (recorded training ≈ {seconds / 60:.0f} CPU min)" if seconds else "")


def recorded_train_seconds(maker: Experiment, seed: int, recorded_dir: Path) -> float:
    """The largest ``params.training.train_s`` among recorded results trained like ``maker`` (same model, seed,
    epochs, and a recipe named after its recipe); 0 when none."""
    if not isinstance(maker.run, TrainRun):
        return 0.0
    best = 0.0
    for path in sorted(recorded_dir.glob("*/*.json")):
        record = read_json_object(path)
        training = (record.get("params") or {}).get("training") or {}
        config = training.get("config") or {}
        same = (
            config.get("model") == maker.run.model
            and record.get("seed") == seed
            and str(record.get("recipe", "")).startswith(maker.run.recipe)
            and maker.run.epochs in (None, config.get("epochs"))
        )
        if same and is_number(training.get("train_s")):
            best = max(best, float(training["train_s"]))
    return best


def missing_models(argv: list[str], models_root: Path) -> list[Path]:
    """The paths of ``argv`` under ``models_root`` (trained model folders) that do not exist."""
    root = models_root.resolve()
    paths = [Path(a).resolve() for a in argv[1:] if "/" in a and not a.startswith("-")]
    return [p for p in paths if p.is_relative_to(root) and not p.exists()]


def compare_result(new_json: Path, job: CheckJob, recorded_dir: Path, seconds: float) -> ResultCheck:
    """One re-run result against the recorded result at the same path relative to the results folder."""
    relative = new_json.relative_to(job.results)
    old_json = recorded_dir / relative
    spec = job.experiment.check
    row = ResultCheck(
        job.experiment.name,
        job.seed,
        str(relative),
        "",
        seconds=round(seconds, 1),
        tolerance=spec.tolerance,
        tolerance_reason=spec.reason,
        prediction_tolerance=spec.prediction_tolerance,
    )
    if not old_json.exists():
        row.status, row.detail = "no recorded result", f"{old_json} does not exist"
        return row
    new, old = read_json_object(new_json), read_json_object(old_json)
    worst, unequal = metric_diff(new.get("metrics", {}), old.get("metrics", {}))
    beyond, within = predictions_differ(new_json, old_json, spec.prediction_tolerance)
    row.max_diff, row.metrics_identical = worst, not unequal
    row.predictions_identical = not beyond and not within
    notes = [f"metrics differ: {', '.join(unequal[:5])}" + (" ..." if len(unequal) > 5 else "")] if unequal else []
    notes += [f"predictions differ: {', '.join(beyond)}"] if beyond else []
    notes += [f"predictions within {spec.prediction_tolerance:g}: {', '.join(within)}"] if within else []
    row.detail = "; ".join(notes)
    row.status = check_status(worst, bool(unequal), bool(beyond), bool(within), spec)
    return row


def run_check(job: CheckJob, *, recorded_dir: Path, data_dir: Path, log_dir: Path) -> list[ResultCheck]:
    """:func:`check_job`, each row stamped with the commit the job started at."""
    commit = git_commit()
    rows = check_job(job, recorded_dir=recorded_dir, data_dir=data_dir, log_dir=log_dir)
    for row in rows:
        row.commit = commit
    return rows


def job_row(job: CheckJob, status: str, detail: str, seconds: float = 0.0) -> list[ResultCheck]:
    """The one row of a job with no result to compare (``not checkable``, ``failed``, ``no result``)."""
    return [ResultCheck(job.experiment.name, job.seed, "", status, seconds=round(seconds, 1), detail=detail)]


def check_job(job: CheckJob, *, recorded_dir: Path, data_dir: Path, log_dir: Path) -> list[ResultCheck]:
    """Re-run ``job`` into its scratch results folder and compare every result JSON it wrote with the recorded
    one; a job that needs a trained model still missing when its turn comes is one ``not checkable`` row and does
    not run."""
    exp = job.experiment
    missing = [p for p in job.missing if not p.exists()]  # an earlier job of this check may have trained it
    if missing:
        needs = ", ".join(shown_path(p) for p in missing)
        detail = f"needs {needs} (not on disk); {job.recreate}".rstrip("; ")
        return job_row(job, "not checkable", detail)
    shutil.rmtree(job.results, ignore_errors=True)  # a kept folder holds only this run's results
    job.results.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "IDIOMKIT_RESULTS_DIR": str(job.results), "IDIOMKIT_DATA_DIR": str(data_dir)}
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / f"{exp.name}__seed{job.seed}.log"
    tick = time.perf_counter()
    with log_file.open("w", encoding="utf-8") as log:
        code = subprocess.run(job.argv, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    seconds = time.perf_counter() - tick
    if code != 0:
        return job_row(job, "failed", f"exit code {code}; log {shown_path(log_file)}", seconds)
    written = sorted(job.results.glob("*/*.json"))
    if not written:
        return job_row(job, "no result", f"the command wrote no result JSON; log {shown_path(log_file)}", seconds)
    return mark_extra_results([compare_result(path, job, recorded_dir, seconds) for path in written])


def mark_extra_results(rows: list[ResultCheck]) -> list[ResultCheck]:
    """A job whose command now writes more results than were recorded (e.g. a training that evaluates on more
    query modes than when it was recorded): the results without a recorded counterpart become ``extra result``
    (listed, not a failure) as long as at least one result of the job was compared; otherwise they stay
    ``no recorded result`` (then the job reproduced nothing that was recorded)."""
    if any(r.status != "no recorded result" for r in rows):
        for r in rows:
            if r.status == "no recorded result":
                r.status = "extra result"
    return rows
