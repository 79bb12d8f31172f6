"""Running experiments: each (experiment, seed) becomes one command line (:class:`Job`) with a skip key over
command, code and data; a job runs as a subprocess and, on success, writes its stamp under ``<run root>/state``.
A ``[train]`` or ``[evaluate]`` table becomes the command's flags as the command itself declares them
(:func:`idiomkit.options.command_args` over the schema, whose fields carry the flags' metadata): ``span_queries =
false`` is ``--sentence-queries``, a task's bool option a bare flag."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import idiomkit
from idiomkit.data.errors import DataError
from idiomkit.options import command_args
from idiomkit.reproduce import schema
from idiomkit.reproduce.method_runs import JobPlaces, idiomkit_executable, method_argv
from idiomkit.reproduce.schema import Experiment, MethodRun
from idiomkit.results import atomic_write_text, sha256_files
from idiomkit.run_options import RunOptions
from idiomkit.training.recipe_options import train_options

log = logging.getLogger(__name__)


@dataclass
class Job:
    """One (experiment, seed) command, with the key that decides whether it must run."""

    experiment: Experiment
    seed: int
    argv: list[str]
    key: str
    stamp: Path
    output: Path

    @property
    def command(self) -> str:
        return " ".join(shlex.quote(a) for a in self.argv)

    def done(self) -> bool:
        if not self.stamp.exists():
            return False
        return json.loads(self.stamp.read_text(encoding="utf-8")).get("key") == self.key


def job_output(exp: Experiment, seed: int, run_root: Path) -> Path:
    return run_root / f"{exp.name}-seed{seed}"


def job_argv(
    exp: Experiment, seed: int, quick: bool, run_root: Path, results_dir: Path, models_root: Path | None = None
) -> list[str]:
    """The command line of ``exp`` for ``seed`` (quick overrides applied). ``inject = "run"`` reads another
    experiment's output under ``models_root`` (default ``run_root``, where this job writes its own)."""
    overrides = {k: v for k, v in exp.quick.items() if k not in ("include", "seeds")} if quick else {}
    output = job_output(exp, seed, run_root)
    if isinstance(exp.run, MethodRun):
        places = JobPlaces(seed=seed, results=results_dir, output=output, run_root=models_root or run_root)
        return method_argv(exp, exp.run, {**exp.run.args, **overrides.get("args", {})}, places)
    spec = {**exp.spec, **overrides}
    if exp.kind == "train":
        options = {"recipe": spec.pop("recipe"), "model": spec.pop("model"), **spec}
        job = command_args(train_options(), {"seed": seed, "output_dir": str(output)})
        return [idiomkit_executable(), "train", *command_args(schema.TrainRun, options), *job]
    task = spec.pop("task")
    job = command_args(RunOptions, {"seed": seed})
    return [idiomkit_executable(), "evaluate", task, *command_args(schema.RUN_TYPES["evaluate"], spec), *job]


def sha256_tree(paths: list[Path]) -> str:
    """:func:`idiomkit.results.sha256_files` over every file under ``paths`` (directories expanded)."""
    files = [f for root in paths for f in (root.rglob("*") if root.is_dir() else [root])]
    return sha256_files(f for f in files if f.is_file() and "__pycache__" not in f.parts)


def package_dir() -> Path:
    """The installed ``idiomkit`` package (``src/idiomkit`` in a checkout, ``site-packages/idiomkit`` from a wheel)."""
    return Path(idiomkit.__file__).resolve().parent


def code_hash() -> str:
    """sha256 of the package's own files (+ ``pyproject.toml`` beside ``src/`` in a checkout)."""
    return sha256_tree([package_dir(), package_dir().parents[1] / "pyproject.toml"])


def data_paths(exp: Experiment, data_dir: Path) -> list[Path]:
    """The experiment's data paths, each inside ``data_dir`` after resolving links (else a one-line error)."""
    root = data_dir.resolve()
    paths = []
    for item in exp.data:
        target = (root / item).resolve()
        if not target.is_relative_to(root):
            raise DataError(exp.path or item, None, "data", f"{item!r} leads outside the data directory {root}")
        if not target.exists():
            raise FileNotFoundError(f"{exp.path}: field 'data': {item} not found under {data_dir}")
        paths.append(target)
    return paths


def data_hash(exp: Experiment, data_dir: Path) -> str:
    return sha256_tree(data_paths(exp, data_dir))


def selected(
    experiments: list[Experiment], *, quick: bool, only: list[str] | None, seeds: list[int] | None = None
) -> list[tuple[Experiment, list]]:
    """The experiments ``--only`` (benchmark or experiment names) and the mode select, each with its seeds (only
    those in ``seeds`` when given; an experiment left with none is not selected)."""
    chosen = []
    for exp in experiments:
        if only and exp.benchmark not in only and exp.name not in only:
            continue
        if quick and not exp.in_quick:
            continue
        own = exp.quick.get("seeds", exp.seeds) if quick else exp.seeds
        kept = [s for s in own if seeds is None or s in seeds]
        if kept:
            chosen.append((exp, kept))
    return chosen


def plan(
    experiments: list[Experiment],
    *,
    quick: bool,
    run_root: Path,
    results_dir: Path,
    data_dir: Path,
    only: list[str] | None = None,
    seeds: list[int] | None = None,
) -> list[Job]:
    """Every (experiment, seed) job of the selection, with its skip key and stamp file."""
    code = code_hash()
    jobs = []
    for exp, exp_seeds in selected(experiments, quick=quick, only=only, seeds=seeds):
        data = data_hash(exp, data_dir)
        for seed in exp_seeds:
            argv = job_argv(exp, seed, quick, run_root, results_dir)
            key = hashlib.sha256(json.dumps({"argv": argv[1:], "code": code, "data": data}).encode()).hexdigest()
            stamp = run_root / "state" / f"{exp.name}__seed{seed}.json"
            jobs.append(Job(exp, seed, argv, key, stamp, job_output(exp, seed, run_root)))
    return jobs


def set_aside(output: Path) -> None:
    """Move ``output`` to ``<output>.previous`` (replacing an older one), logged; nothing when it does not exist."""
    if not output.exists():
        return
    previous = output.with_name(output.name + ".previous")
    shutil.rmtree(previous, ignore_errors=True)
    output.rename(previous)
    log.warning("%s: code, data or command changed since it ran; its old output is in %s", output, previous)


def run_job(job: Job, *, results_dir: Path, data_dir: Path, log_dir: Path) -> int:
    """Run one job (output to ``log_dir``); on success write its stamp. Returns the exit code.

    A job whose stamp holds another key (code, data or command changed) starts afresh: its old output is moved to
    ``<output>.previous`` (one copy kept, never deleted outright: a finished training is hours of work) and the stale
    stamp removed, so that a run interrupted from here on resumes; a job without a stamp (interrupted) resumes from
    its checkpoint."""
    if job.stamp.exists() and not job.done():
        set_aside(job.output)
        job.stamp.unlink()
    env = {**os.environ, "IDIOMKIT_RESULTS_DIR": str(results_dir), "IDIOMKIT_DATA_DIR": str(data_dir)}
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / f"{job.experiment.name}__seed{job.seed}.log"
    with log_file.open("w", encoding="utf-8") as log:
        code = subprocess.run(job.argv, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    if code == 0:
        job.stamp.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(job.stamp, json.dumps({"key": job.key, "command": job.command}, indent=2) + "\n")
    return code
