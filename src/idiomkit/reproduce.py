"""Reproduce the benchmark tables from declarative experiment files (``benchmarks/experiments/*.toml``).

One TOML file per experiment: which benchmark table it feeds, the seeds, the data it reads and either an
``idiomkit train`` run (``[train]``: recipe, model, hyper-parameters, ``evaluate`` tasks), an ``idiomkit evaluate``
run (``[evaluate]``: task, model, pooling, query mode, ...) or a benchmark script (``[command]``: ``run``, with
``{seed}`` / ``{output}`` / ``{results}`` placeholders). A ``[quick]`` table overrides fields for ``--quick`` (tiny
slices, a few steps); only experiments with ``quick.include = true`` (the default) run in quick mode.

Every (experiment, seed) becomes one CLI command run as a subprocess, so each result file records the exact
command that made it and can be re-run on its own. A job is skipped when its stamp (``<run root>/state``) holds the
same key: sha256 of the command + the code (``src/idiomkit``, ``pyproject.toml``) + the experiment's data files.
Training jobs resume from their checkpoints, so an interrupted ``--full`` run continues where it stopped.

Example ``benchmarks/experiments/2b-adaptive-triplet-mwe-minilm.toml``::

    benchmark = "semeval2b-dev"
    seeds = [0, 1, 2]
    data = ["semeval2022_task2/SubTaskB", "sts"]

    [train]
    recipe = "adaptive-triplet"
    model = "minilm"
    epochs = 2
    evaluate = ["semeval2b"]

    [quick]
    seeds = [0]
    max_steps = 20
    limit_groups = 100
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from idiomkit.data.errors import DataError
from idiomkit.results import atomic_write_text, sha256_files

KINDS = ("train", "evaluate", "command")
REPO = Path(__file__).resolve().parents[2]


@dataclass
class Experiment:
    """One experiment file: the benchmark it feeds, seeds, data paths and one run spec (train/evaluate/command)."""

    name: str
    benchmark: str
    kind: str
    spec: dict[str, Any]
    seeds: list[int] = field(default_factory=lambda: [0])
    data: list[str] = field(default_factory=list)
    quick: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    path: Path | None = None

    @property
    def in_quick(self) -> bool:
        return bool(self.quick.get("include", True))


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


def load_experiment(path: Path) -> Experiment:
    """Parse and check one experiment file (errors name the file and the field)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(path, None, None, f"not valid TOML: {exc}") from None
    kinds = [k for k in KINDS if k in raw]
    if len(kinds) != 1:
        raise DataError(path, None, "train|evaluate|command", f"exactly one run table is needed, found {kinds}")
    if not isinstance(raw.get("benchmark"), str):
        raise DataError(path, None, "benchmark", "missing (the results folder the experiment feeds)")
    seeds = raw.get("seeds", [0])
    if not (isinstance(seeds, list) and seeds and all(isinstance(s, int) for s in seeds)):
        raise DataError(path, None, "seeds", f"expected a non-empty list of integers, got {seeds!r}")
    kind = kinds[0]
    spec = dict(raw[kind])
    required = {"train": ("recipe", "model"), "evaluate": ("task", "model"), "command": ("run",)}[kind]
    for key in required:
        if key not in spec:
            raise DataError(path, None, f"{kind}.{key}", "missing")
    return Experiment(
        name=path.stem, benchmark=raw["benchmark"], kind=kind, spec=spec, seeds=seeds,
        data=list(raw.get("data", [])), quick=dict(raw.get("quick", {})), description=raw.get("description", ""),
        path=path,
    )  # fmt: skip


def load_experiments(folder: str | Path) -> list[Experiment]:
    files = sorted(Path(folder).glob("*.toml"))
    if not files:
        raise FileNotFoundError(f"{folder}: no experiment files (*.toml)")
    return [load_experiment(p) for p in files]


def cli_flags(options: dict[str, Any]) -> list[str]:
    """``{"max_steps": 20, "val_sts": False, "evaluate": ["a", "b"]}`` → ``--max-steps 20 --no-val-sts --evaluate a
    --evaluate b`` (the spelling of idiomkit's typer options)."""
    argv: list[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None:
            continue
        if isinstance(value, bool):
            argv.append(flag if value else "--no-" + key.replace("_", "-"))
        elif isinstance(value, list):
            for item in value:
                argv += [flag, str(item)]
        else:
            argv += [flag, str(value)]
    return argv


def idiomkit_executable() -> str:
    """The ``idiomkit`` script beside the running interpreter (the same installation)."""
    script = Path(sys.executable).with_name("idiomkit")
    return str(script) if script.exists() else "idiomkit"


def job_output(exp: Experiment, seed: int, run_root: Path) -> Path:
    return run_root / f"{exp.name}-seed{seed}"


def job_argv(exp: Experiment, seed: int, quick: bool, run_root: Path, results_dir: Path) -> list[str]:
    """The command line of ``exp`` for ``seed`` (quick overrides applied)."""
    spec = dict(exp.spec)
    if quick:
        spec.update({k: v for k, v in exp.quick.items() if k not in ("include", "seeds")})
    output = job_output(exp, seed, run_root)
    if exp.kind == "command":
        text = spec["run"].format(seed=seed, output=output, results=results_dir)
        argv = shlex.split(text)
        head = {"python": sys.executable, "idiomkit": idiomkit_executable()}.get(argv[0], argv[0])
        return [head, *argv[1:]]
    if exp.kind == "train":
        options = {"recipe": spec.pop("recipe"), "model": spec.pop("model"), **spec}
        return [idiomkit_executable(), "train", *cli_flags(options), "--seed", str(seed), "--output", str(output)]
    task = spec.pop("task")
    return [idiomkit_executable(), "evaluate", task, *cli_flags(spec), "--seed", str(seed)]


def sha256_tree(paths: list[Path]) -> str:
    """:func:`idiomkit.results.sha256_files` over every file under ``paths`` (directories expanded)."""
    files = [f for root in paths for f in (root.rglob("*") if root.is_dir() else [root])]
    return sha256_files(f for f in files if f.is_file() and "__pycache__" not in f.parts)


def code_hash() -> str:
    return sha256_tree([REPO / "src" / "idiomkit", REPO / "pyproject.toml"])


def data_hash(exp: Experiment, data_dir: Path) -> str:
    missing = [d for d in exp.data if not (data_dir / d).exists()]
    if missing:
        raise FileNotFoundError(f"{exp.path}: field 'data': {missing[0]} not found under {data_dir}")
    return sha256_tree([data_dir / d for d in exp.data])


def plan(
    experiments: list[Experiment], *, quick: bool, run_root: Path, results_dir: Path, data_dir: Path,
    only: list[str] | None = None,
) -> list[Job]:  # fmt: skip
    """Every (experiment, seed) job of the selection, with its skip key and stamp file."""
    code = code_hash()
    jobs = []
    for exp in experiments:
        if only and exp.benchmark not in only and exp.name not in only:
            continue
        if quick and not exp.in_quick:
            continue
        seeds = exp.quick.get("seeds", exp.seeds) if quick else exp.seeds
        data = data_hash(exp, data_dir)
        for seed in seeds:
            argv = job_argv(exp, seed, quick, run_root, results_dir)
            key = hashlib.sha256(json.dumps({"argv": argv[1:], "code": code, "data": data}).encode()).hexdigest()
            stamp = run_root / "state" / f"{exp.name}__seed{seed}.json"
            jobs.append(Job(exp, seed, argv, key, stamp, job_output(exp, seed, run_root)))
    return jobs


def run_job(job: Job, *, results_dir: Path, data_dir: Path, log_dir: Path) -> int:
    """Run one job (output to ``log_dir``); on success write its stamp. Returns the exit code.

    A job whose stamp holds another key (code, data or command changed) starts afresh; a job without a stamp
    (interrupted) resumes from its checkpoint."""
    if job.stamp.exists() and not job.done():
        shutil.rmtree(job.output, ignore_errors=True)
    env = {**os.environ, "IDIOMKIT_RESULTS_DIR": str(results_dir), "IDIOMKIT_DATA_DIR": str(data_dir)}
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / f"{job.experiment.name}__seed{job.seed}.log"
    with log_file.open("w", encoding="utf-8") as log:
        code = subprocess.run(job.argv, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    if code == 0:
        job.stamp.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(job.stamp, json.dumps({"key": job.key, "command": job.command}, indent=2) + "\n")
    return code
