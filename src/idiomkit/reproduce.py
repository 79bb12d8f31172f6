"""Reproduce the benchmark tables from declarative experiment files (``benchmarks/experiments/*.toml``).

One TOML file per experiment: which benchmark table it feeds, the seeds, the data it reads (paths inside the data
directory) and exactly one run table:

- ``[train]``: an ``idiomkit train`` run (recipe, model, hyper-parameters, ``evaluate`` tasks; :class:`TrainRun`);
- ``[evaluate]``: an ``idiomkit evaluate`` run (task, model, pooling, query mode, ...; :class:`EvaluateRun`);
- ``[method]``: a benchmark script ``benchmarks/<script>.py`` (or an ``idiomkit`` subcommand) with typed
  arguments (:class:`MethodRun`). Nothing is a shell command or a format string: the argv is built by code, and the
  values the job supplies (seed, results folder, output folder, another experiment's output) are inline tables
  such as ``{ inject = "seed" }`` (:class:`Injected`).

A ``[quick]`` table overrides fields for ``--quick`` (tiny slices, a few steps); only experiments with
``quick.include = true`` (the default) run in quick mode. Every field is checked by name and type when the file is
read; a bad file is one line naming the file and the field.

Every (experiment, seed) becomes one CLI command run as a subprocess, so each result file records the exact
command that made it and can be re-run on its own. A job is skipped when its stamp (``<run root>/state``) holds the
same key: sha256 of the command + the code (the installed ``idiomkit`` package, and ``pyproject.toml`` in a
checkout) + the experiment's data files. Training jobs resume from their checkpoints, so an interrupted ``--full``
run continues where it stopped.

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

and a method (``idiomkit run semeval2a --method classifier -m minilm --epochs 2 --context --seeds <seed>
--results-dir <results>``)::

    [method]
    script = "idiomkit"
    subcommand = "run"
    positional = ["semeval2a"]

    [method.args]
    method = "classifier"
    m = "minilm"                         # one letter: -m; otherwise --name, spelled as the script spells it
    epochs = 2
    context = true                       # true: the bare flag; false: left out
    seeds = { inject = "seed" }
    results-dir = { inject = "results" }
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Union

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

import idiomkit
from idiomkit.data.errors import DataError
from idiomkit.options import cli_fields
from idiomkit.results import atomic_write_text, git_commit, read_json_object, read_prediction, sha256_files
from idiomkit.training.config import TrainConfig

KINDS = ("train", "evaluate", "method")
REPO = Path(__file__).resolve().parents[2]
IDIOMKIT_ENTRY = "idiomkit"  # the one non-script entry a [method] may name: this installation's own CLI
INJECTABLE = ("seed", "results", "output", "run")
# Options that name where a command writes (idiomkit's --results-dir, --output/-o, --curve, --check-json, and the
# usual spellings of a benchmark script's): in a [method] they take the job's own places, never a literal path.
WRITE_OPTIONS = frozenset({"results-dir", "output", "o", "out", "output-dir", "curve", "check-json"})
WRITE_INJECTS = ("results", "output", "run")


JOB_SUPPLIED = ("seed", "output_dir", "data_dir")  # a train job sets these itself: its seed, folder and data root


def train_schema(config: type = TrainConfig) -> type:
    """``[train]`` (:class:`TrainRun`): the options of ``idiomkit train`` an experiment may set, derived from
    ``config``: every command-line field but :data:`JOB_SUPPLIED`, each optional (unset: the command's default)
    except ``recipe`` and ``model``, then ``evaluate`` (the tasks to evaluate the trained model on)."""
    hints = typing.get_type_hints(config)
    spec: list[tuple] = []
    for f in cli_fields(config):
        if f.name in ("recipe", "model"):
            spec.append((f.name, hints[f.name]))
        elif f.name not in JOB_SUPPLIED:
            spec.append((f.name, hints[f.name] | None, field(default=None)))
    spec.append(("evaluate", list[str] | None, field(default=None)))
    doc = "``[train]``: the options of ``idiomkit train`` an experiment may set (seed and output come from the job)."
    return dataclasses.make_dataclass("TrainRun", spec, namespace={"__doc__": doc, "__module__": __name__})


TrainRun = train_schema()


@dataclass
class EvaluateRun:
    """``[evaluate]``: the options of ``idiomkit evaluate`` an experiment may set (the seed comes from the job)."""

    task: str
    model: str
    pooling: str | None = None
    prompt_name: str | None = None
    recipe: str | None = None
    batch_size: int | None = None
    mwe_tokens: bool | None = None
    query_mode: str | None = None
    setting: str | None = None
    features: str | None = None
    usage_rerank: bool | None = None
    usage_classifier: bool | None = None
    usage_shared_classifier: bool | None = None
    usage_span_probe: bool | None = None
    twin_expansion: bool | None = None


@dataclass(frozen=True)
class Injected:
    """A value the job supplies: ``{ inject = "seed" }`` (with an optional literal ``prefix``), ``"results"`` (the
    results folder), ``"output"`` (the job's own folder, or ``file`` inside it) or ``"run"`` (the output folder of
    ``experiment`` for the same seed). Joined by code, never formatted."""

    inject: str
    prefix: str = ""
    file: str = ""
    experiment: str = ""


Scalar = str | int | float | Injected
Value = str | int | float | bool | list | Injected


@dataclass
class MethodRun:
    """``[method]``: ``benchmarks/<script>.py [subcommand] [positional...] [args...]``, or ``idiomkit <subcommand>``."""

    script: str
    subcommand: str | None = None
    positional: list[Scalar] = field(default_factory=list)
    args: dict[str, Value] = field(default_factory=dict)


RUN_TYPES: dict[str, type] = {"train": TrainRun, "evaluate": EvaluateRun, "method": MethodRun}
TOP_FIELDS = ("description", "benchmark", "seeds", "data", "quick", "check", *KINDS)


@dataclass
class CheckSpec:
    """``[check]``: how ``idiomkit reproduce --check`` compares a re-run with the recorded result. Metrics and raw
    predictions must be equal unless the experiment documents its nondeterminism, with a ``reason`` (why the run is
    not bit-reproducible; required with either tolerance):

    - ``tolerance``: max |diff| of any metric; alone, it also accepts any difference in the raw predictions (a
      trained model's predictions move with its weights);
    - ``prediction_tolerance``: the raw predictions may differ only in their decimal numbers (scores), each by at
      most this; every other character (ids, rank order, labels, rows) must be identical
      (:meth:`PredictionDiff.close`)."""

    tolerance: float = 0.0
    reason: str = ""
    prediction_tolerance: float = 0.0


@dataclass
class Experiment:
    """One experiment file: the benchmark it feeds, seeds, data paths and one run spec (train/evaluate/method).

    ``spec`` holds the run table's fields in file order (the order of the command line); ``run`` is the same
    table as its typed dataclass."""

    name: str
    benchmark: str
    kind: str
    spec: dict[str, Any]
    seeds: list[int] = field(default_factory=lambda: [0])
    data: list[str] = field(default_factory=list)
    quick: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    path: Path | None = None
    run: TrainRun | EvaluateRun | MethodRun | None = None
    check: CheckSpec = field(default_factory=CheckSpec)

    @property
    def in_quick(self) -> bool:
        return bool(self.quick.get("include", True))

    @property
    def scripts_dir(self) -> Path:
        """The folder of the benchmark scripts a ``[method]`` may name: the experiments folder's parent."""
        return (self.path or Path("benchmarks/experiments/x.toml")).parent.parent


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


# ---------------------------------------------------------------------------------------------------------- checks


def type_name(hint: Any) -> str:
    """``int | None`` → ``integer``; ``list[str] | None`` → ``list of strings`` (for error messages)."""
    names = {str: "string", int: "integer", float: "number", bool: "boolean (true/false)"}
    args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    hint = args[0]
    if typing.get_origin(hint) is list:
        return f"list of {names[typing.get_args(hint)[0]]}s"
    return names.get(hint, str(hint))


def matches(value: Any, hint: Any) -> bool:
    """Whether a TOML value has the type ``hint`` (bool is not an int; an int is a valid float)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (Union, types.UnionType) and args:
        return any(matches(value, a) for a in args)
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(matches(v, item) for v in value)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, hint)


def checked_fields(path: Path, table: str, values: dict[str, Any], schema: type, *, partial: bool = False) -> dict:
    """``values`` checked against the typed dataclass ``schema``: no unknown field, each of the right type, the
    required ones present (unless ``partial``). Errors name the file and ``table.field``."""
    hints = typing.get_type_hints(schema)
    for key, value in values.items():
        if key not in hints:
            known = ", ".join(hints)
            raise DataError(path, None, f"{table}.{key}", f"unknown field (known: {known})")
        if not matches(value, hints[key]):
            raise DataError(path, None, f"{table}.{key}", f"expected {type_name(hints[key])}, got {value!r}")
    if not partial:
        for f in dataclasses.fields(schema):
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING and f.name not in values:
                raise DataError(path, None, f"{table}.{f.name}", "missing")
    return dict(values)


def plain_relative(text: str) -> bool:
    """A relative path that stays where it is put (no absolute path, no ``..``)."""
    pure = PurePosixPath(text)
    return bool(text) and not pure.is_absolute() and not Path(text).is_absolute() and ".." not in pure.parts


def injected(path: Path, where: str, raw: dict[str, Any]) -> Injected:
    """An inline table ``{ inject = ... }`` checked into an :class:`Injected`."""
    checked_fields(path, where, raw, Injected)
    ref = Injected(**raw)
    if ref.inject not in INJECTABLE:
        raise DataError(path, None, f"{where}.inject", f"expected one of {', '.join(INJECTABLE)}, got {ref.inject!r}")
    extras = {"prefix": "seed", "file": "output", "experiment": "run"}
    for name, owner in extras.items():
        if getattr(ref, name) and ref.inject != owner:
            raise DataError(path, None, f"{where}.{name}", f'only with inject = "{owner}"')
    if ref.inject == "run" and not ref.experiment:
        raise DataError(path, None, f"{where}.experiment", 'missing (the experiment whose output inject = "run" reads)')
    if ref.file and not plain_relative(ref.file):
        raise DataError(path, None, f"{where}.file", f"expected a path inside the output folder, got {ref.file!r}")
    return ref


def method_value(path: Path, where: str, value: Any, *, flag_ok: bool) -> Value:
    """One ``[method]`` value: a string, number, boolean (options only), list of those, or an injected value."""
    if isinstance(value, dict):
        return injected(path, where, value)
    if isinstance(value, bool):
        if flag_ok:
            return value
    elif isinstance(value, (str, int, float)):
        return value
    elif isinstance(value, list) and flag_ok:
        return [method_value(path, f"{where}[{i}]", v, flag_ok=False) for i, v in enumerate(value)]
    expected = "string, number, boolean, list or { inject = ... }" if flag_ok else "string, number or { inject = ... }"
    raise DataError(path, None, where, f"expected {expected}, got {value!r}")


def check_write_options(path: Path, where: str, args: dict[str, Value]) -> None:
    """A ``[method]`` option that names where the command writes (:data:`WRITE_OPTIONS`) must be one of the job's
    own places (``{ inject = "results" }``, ``"output"`` or ``"run"``): a literal path (or a seed with a literal
    prefix) would put the job's files outside the run's folders, wherever it points."""
    for key, value in args.items():
        if key.replace("_", "-") not in WRITE_OPTIONS or isinstance(value, bool):
            continue
        for item in value if isinstance(value, list) else [value]:
            if not (isinstance(item, Injected) and item.inject in WRITE_INJECTS):
                shown = f"{{ inject = {item.inject!r} }}" if isinstance(item, Injected) else repr(item)
                raise DataError(
                    path,
                    None,
                    f"{where}.{key}",
                    f"{shown} would write outside the run's folders; use "
                    '{ inject = "results" } (or { inject = "output" } for the job\'s own folder)',
                )


def known_scripts(scripts_dir: Path) -> list[str]:
    """The allow-list of ``[method] script``: the benchmark scripts in ``scripts_dir`` and ``idiomkit`` itself."""
    return sorted({p.stem for p in scripts_dir.glob("*.py")} | {IDIOMKIT_ENTRY})


# The ``idiomkit`` verbs a ``[method]`` run may name (the CLI sits above this module, so the list is kept here and a
# test checks it against the CLI's commands).
IDIOMKIT_VERBS = (
    "embed",
    "evaluate",
    "export-onnx",
    "interpolate",
    "models",
    "mteb",
    "nearest",
    "read",
    "report",
    "reproduce",
    "run",
    "score",
    "settings",
    "train",
)


def idiomkit_subcommands() -> list[str]:
    return sorted(IDIOMKIT_VERBS)


def method_run(path: Path, table: dict[str, Any], scripts_dir: Path) -> MethodRun:
    """``[method]`` checked into a :class:`MethodRun` (script on the allow-list, typed arguments)."""
    raw = checked_fields(path, "method", {k: v for k, v in table.items() if k not in ("positional", "args")}, MethodRun)
    scripts = known_scripts(scripts_dir)
    if raw["script"] not in scripts:
        raise DataError(path, None, "method.script", f"{raw['script']!r} is not a known script ({', '.join(scripts)})")
    if raw["script"] == IDIOMKIT_ENTRY and raw.get("subcommand") not in idiomkit_subcommands():
        commands = ", ".join(idiomkit_subcommands())
        raise DataError(path, None, "method.subcommand", f"expected an idiomkit command ({commands})")
    positional = table.get("positional", [])
    if not isinstance(positional, list):
        raise DataError(path, None, "method.positional", f"expected a list, got {positional!r}")
    args = table.get("args", {})
    if not isinstance(args, dict):
        raise DataError(path, None, "method.args", f"expected a table of option = value, got {args!r}")
    run = MethodRun(
        script=raw["script"],
        subcommand=raw.get("subcommand"),
        positional=[method_value(path, f"method.positional[{i}]", v, flag_ok=False) for i, v in enumerate(positional)],
        args={k: method_value(path, f"method.args.{k}", v, flag_ok=True) for k, v in args.items()},
    )
    check_write_options(path, "method.args", run.args)
    return run


def checked_quick(path: Path, kind: str, raw: Any, scripts_dir: Path) -> dict[str, Any]:
    """``[quick]``: ``include``, ``seeds`` and overrides of the run table's fields (``args`` for a method)."""
    if not isinstance(raw, dict):
        raise DataError(path, None, "quick", f"expected a table, got {raw!r}")
    base = {k: raw[k] for k in ("include", "seeds") if k in raw}
    if "include" in base and not isinstance(base["include"], bool):
        raise DataError(path, None, "quick.include", f"expected boolean (true/false), got {base['include']!r}")
    if "seeds" in base:
        check_seeds(path, "quick.seeds", base["seeds"])
    rest = {k: v for k, v in raw.items() if k not in base}
    if kind != "method":
        return {**base, **checked_fields(path, "quick", rest, RUN_TYPES[kind], partial=True)}
    unknown = [k for k in rest if k != "args"]
    if unknown:
        raise DataError(path, None, f"quick.{unknown[0]}", "unknown field (known: include, seeds, args)")
    if "args" in rest:
        if not isinstance(rest["args"], dict):
            raise DataError(path, None, "quick.args", f"expected a table of option = value, got {rest['args']!r}")
        base["args"] = {k: method_value(path, f"quick.args.{k}", v, flag_ok=True) for k, v in rest["args"].items()}
        check_write_options(path, "quick.args", base["args"])
    return base


def checked_check(path: Path, raw: Any) -> CheckSpec:
    """``[check]``: tolerances of 0 or more, and a reason whenever one is above 0."""
    if not isinstance(raw, dict):
        raise DataError(path, None, "check", f"expected a table, got {raw!r}")
    spec = CheckSpec(**checked_fields(path, "check", raw, CheckSpec))
    for name in ("tolerance", "prediction_tolerance"):
        if getattr(spec, name) < 0:
            raise DataError(path, None, f"check.{name}", f"expected 0 or more, got {getattr(spec, name)!r}")
    if max(spec.tolerance, spec.prediction_tolerance) > 0 and not spec.reason.strip():
        raise DataError(path, None, "check.reason", "missing (say why the run is not bit-reproducible)")
    return spec


def check_seeds(path: Path, where: str, seeds: Any) -> None:
    if not (isinstance(seeds, list) and seeds and all(matches(s, int) for s in seeds)):
        raise DataError(path, None, where, f"expected a non-empty list of integers, got {seeds!r}")


def check_data(path: Path, data: Any) -> list[str]:
    """``data``: a list of relative paths inside the data directory (no absolute path, no ``..``)."""
    if not matches(data, list[str]):
        raise DataError(path, None, "data", f"expected a list of strings, got {data!r}")
    for item in data:
        if not plain_relative(item):
            raise DataError(path, None, "data", f"{item!r} is not a path inside the data directory")
    return list(data)


def load_experiment(path: Path) -> Experiment:
    """Parse and check one experiment file (errors name the file and the field)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(path, None, None, f"not valid TOML: {exc}") from None
    for key, value in raw.items():
        if key not in TOP_FIELDS:
            what = "run table (kinds: train, evaluate, method)" if isinstance(value, dict) else "field"
            raise DataError(path, None, key, f"unknown {what}")
    kinds = [k for k in KINDS if k in raw]
    if len(kinds) != 1:
        raise DataError(path, None, "train|evaluate|method", f"exactly one run table is needed, found {kinds}")
    kind = kinds[0]
    if not isinstance(raw.get("benchmark"), str):
        raise DataError(path, None, "benchmark", "missing (the results folder the experiment feeds)")
    if not isinstance(raw.get("description", ""), str):
        raise DataError(path, None, "description", f"expected string, got {raw['description']!r}")
    seeds = raw.get("seeds", [0])
    check_seeds(path, "seeds", seeds)
    if not isinstance(raw[kind], dict):
        raise DataError(path, None, kind, f"expected a table, got {raw[kind]!r}")
    exp = Experiment(
        name=path.stem,
        benchmark=raw["benchmark"],
        kind=kind,
        spec={},
        seeds=seeds,
        data=check_data(path, raw.get("data", [])),
        description=raw.get("description", ""),
        path=path,
    )
    if kind == "method":
        exp.run = method_run(path, raw[kind], exp.scripts_dir)
        exp.spec = dict(raw[kind])
    else:
        exp.spec = checked_fields(path, kind, raw[kind], RUN_TYPES[kind])
        exp.run = RUN_TYPES[kind](**exp.spec)
    exp.quick = checked_quick(path, kind, raw.get("quick", {}), exp.scripts_dir)
    exp.check = checked_check(path, raw.get("check", {}))
    if isinstance(exp.run, MethodRun):
        check_seed_reaches_command(exp, exp.run)
    return exp


def check_seed_reaches_command(exp: Experiment, run: MethodRun) -> None:
    """Several seeds need a seed in the command (``inject = "seed"`` or ``"run"``), else each runs the same one."""
    most = max(len(exp.seeds), len(exp.quick.get("seeds", [])))
    if most > 1 and not any(ref.inject in ("seed", "run") for ref in injected_values(run)):
        raise DataError(
            exp.path,
            None,
            "seeds",
            f'{most} seeds, but [method] injects no seed: each would run the same command (add {{ inject = "seed" }})',
        )


def injected_values(run: MethodRun) -> list[Injected]:
    items = [*run.positional, *run.args.values()]
    flat = [v for item in items for v in (item if isinstance(item, list) else [item])]
    return [v for v in flat if isinstance(v, Injected)]


def load_experiments(folder: str | Path) -> list[Experiment]:
    """Every experiment of ``folder``; an ``inject = "run"`` must name one of them."""
    files = sorted(Path(folder).glob("*.toml"))
    if not files:
        raise FileNotFoundError(f"{folder}: no experiment files (*.toml)")
    experiments = [load_experiment(p) for p in files]
    names = {e.name for e in experiments}
    for exp in experiments:
        if isinstance(exp.run, MethodRun):
            for ref in injected_values(exp.run):
                if ref.inject == "run" and ref.experiment not in names:
                    raise DataError(exp.path, None, "method", f"inject = 'run': no experiment {ref.experiment!r}")
    return experiments


# ------------------------------------------------------------------------------------------------------- commands


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


@dataclass
class JobPlaces:
    """What the job supplies to an :class:`Injected` value."""

    seed: int
    results: Path
    output: Path
    run_root: Path


def resolve(value: Scalar, places: JobPlaces) -> str:
    """One argv item: a literal as written (never formatted), or the injected value joined by code."""
    if not isinstance(value, Injected):
        return str(value)
    if value.inject == "seed":
        return value.prefix + str(places.seed)
    if value.inject == "results":
        return str(places.results)
    if value.inject == "output":
        return str(places.output / value.file) if value.file else str(places.output)
    return str(places.run_root / f"{value.experiment}-seed{places.seed}")


def method_flags(args: dict[str, Value], places: JobPlaces) -> list[str]:
    """``{"m": "minilm", "epochs": 2, "context": True, "tag": ["a", "b"]}`` → ``-m minilm --epochs 2 --context
    --tag a --tag b`` (keys spelled as the script spells its options; false leaves a flag out)."""
    argv: list[str] = []
    for key, value in args.items():
        flag = ("-" if len(key) == 1 else "--") + key
        if isinstance(value, bool):
            argv += [flag] if value else []
        elif isinstance(value, list):
            for item in value:
                argv += [flag, resolve(item, places)]
        else:
            argv += [flag, resolve(value, places)]
    return argv


def shown_path(path: Path) -> str:
    """``path`` relative to the working directory when it is under it (as a command line would name it)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path.resolve())


def method_argv(exp: Experiment, run: MethodRun, args: dict[str, Value], places: JobPlaces) -> list[str]:
    if run.script == IDIOMKIT_ENTRY:
        head = [idiomkit_executable()]
    else:
        head = [sys.executable, shown_path(exp.scripts_dir / f"{run.script}.py")]
    sub = [run.subcommand] if run.subcommand else []
    return [*head, *sub, *(resolve(v, places) for v in run.positional), *method_flags(args, places)]


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
        return [idiomkit_executable(), "train", *cli_flags(options), "--seed", str(seed), "--output", str(output)]
    task = spec.pop("task")
    return [idiomkit_executable(), "evaluate", task, *cli_flags(spec), "--seed", str(seed)]


# ------------------------------------------------------------------------------------------------------ the plan


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


# ------------------------------------------------------------------------------------------------------ --check


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


def check_status(worst: float, metrics_differ: bool, beyond: bool, within: bool, spec: CheckSpec) -> str:
    """``identical``, ``within tolerance`` (metrics within ``tolerance`` and the predictions identical, within
    ``prediction_tolerance``, or free to differ under a metric tolerance alone) or ``differs``."""
    if not (metrics_differ or beyond or within):
        return "identical"
    metrics_ok = not metrics_differ or (spec.tolerance > 0 and worst <= spec.tolerance)
    predictions_ok = not beyond or (spec.tolerance > 0 and spec.prediction_tolerance == 0)
    return "within tolerance" if metrics_ok and predictions_ok else "differs"


def run_check(job: CheckJob, *, recorded_dir: Path, data_dir: Path, log_dir: Path) -> list[ResultCheck]:
    """:func:`check_job`, each row stamped with the commit the job started at."""
    commit = git_commit()
    rows = check_job(job, recorded_dir=recorded_dir, data_dir=data_dir, log_dir=log_dir)
    for row in rows:
        row.commit = commit
    return rows


def check_job(job: CheckJob, *, recorded_dir: Path, data_dir: Path, log_dir: Path) -> list[ResultCheck]:
    """Re-run ``job`` into its scratch results folder and compare every result JSON it wrote with the recorded
    one; a job that needs a trained model still missing when its turn comes is one ``not checkable`` row and does
    not run."""
    exp = job.experiment
    missing = [p for p in job.missing if not p.exists()]  # an earlier job of this check may have trained it
    if missing:
        needs = ", ".join(shown_path(p) for p in missing)
        detail = f"needs {needs} (not on disk); {job.recreate}".rstrip("; ")
        return [ResultCheck(exp.name, job.seed, "", "not checkable", detail=detail)]
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
        return [
            ResultCheck(
                exp.name,
                job.seed,
                "",
                "failed",
                seconds=round(seconds, 1),
                detail=f"exit code {code}; log {shown_path(log_file)}",
            )
        ]
    written = sorted(job.results.glob("*/*.json"))
    if not written:
        return [
            ResultCheck(
                exp.name,
                job.seed,
                "",
                "no result",
                seconds=round(seconds, 1),
                detail=f"the command wrote no result JSON; log {shown_path(log_file)}",
            )
        ]
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
