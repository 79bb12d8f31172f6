"""The experiment-file schema: the typed run tables (``[train]``, ``[evaluate]``, ``[method]``, ``[check]``),
the :class:`Experiment` they make, and the field checks that name the file and ``table.field`` of a bad value.

``[evaluate]``'s table (:class:`EvaluateRun`, :data:`TASK_OPTIONS`) is derived from the registered tasks at first
use: importing them imports torch, which reading this module does not.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Union

from idiomkit.data.errors import DataError
from idiomkit.lazy import lazy_values
from idiomkit.options import cli_fields, option_flags
from idiomkit.run_options import RunOptions
from idiomkit.training.config import TrainConfig
from idiomkit.training.recipe_options import train_options

if TYPE_CHECKING:
    from idiomkit.tasks import Task

KINDS = ("train", "evaluate", "method")
IDIOMKIT_ENTRY = "idiomkit"  # the one non-script entry a [method] may name: this installation's own CLI
INJECTABLE = ("seed", "results", "output", "run")
# Options that name where a command writes (idiomkit's --results-dir, --output/-o, --curve, --check-json, and the
# usual spellings of a benchmark script's): in a [method] they take the job's own places, never a literal path.
WRITE_OPTIONS = frozenset({"results-dir", "output", "o", "out", "output-dir", "curve", "check-json"})
WRITE_INJECTS = ("results", "output", "run")


JOB_SUPPLIED = ("seed", "output_dir", "data_dir")  # a train job sets these itself: its seed, folder and data root


def train_schema(config: type = TrainConfig) -> type:
    """``[train]`` (:class:`TrainRun`): the options of ``idiomkit train`` an experiment may set, derived from
    ``config`` and the recipes' own options (:func:`~idiomkit.training.recipe_options.train_options`): every
    command-line field but :data:`JOB_SUPPLIED`, each optional (unset: the command's default) except ``recipe`` and
    ``model``, then ``evaluate`` (the tasks to evaluate the trained model on)."""
    config = train_options(config)
    hints = typing.get_type_hints(config)
    spec: list[tuple] = []
    for f in cli_fields(config):  # each with its flag's metadata: a job spells it as the command does
        if f.name in ("recipe", "model"):
            spec.append((f.name, hints[f.name], field(metadata=f.metadata)))
        elif f.name not in JOB_SUPPLIED:
            spec.append((f.name, hints[f.name] | None, field(default=None, metadata=f.metadata)))
    spec.append(("evaluate", list[str] | None, field(default=None, metadata={"flag": "--evaluate"})))
    doc = "``[train]``: the options of ``idiomkit train`` an experiment may set (seed and output come from the job)."
    return dataclasses.make_dataclass("TrainRun", spec, namespace={"__doc__": doc, "__module__": __name__})


TrainRun = train_schema()


# An [evaluate] job sets these run options itself: its seed, the data root and results folder of the run, and it
# always writes its result.
EVALUATE_JOB_SUPPLIED = ("seed", "data_dir", "results_dir", "write")


def task_options(tasks: Iterable[type[Task]]) -> tuple[tuple[str, Any], ...]:
    """The tasks' own options an experiment may set (``idiomkit evaluate TASK --help-options``), derived from each
    task's ``Options``: every long command-line flag as ``(name, type)`` in first-declared order, a ``flags`` field's
    bare flags each a bool (``--usage-classifier`` -> ``usage_classifier``). A name two tasks declare with different
    types is a TypeError (the experiment file could not say which)."""
    declared: dict[str, tuple[Any, str]] = {}
    for task in tasks:
        hints, by_name = typing.get_type_hints(task.Options), {f.name: f for f in cli_fields(task.Options)}
        for flag, name in option_flags(task.Options).items():
            if not flag.startswith("--"):
                continue  # a one-letter alias names no experiment field
            hint = bool if by_name[name].metadata.get("flags") else hints[name]
            key, owner = flag[2:].replace("-", "_"), task.metadata.name
            seen, first = declared.setdefault(key, (hint, owner))
            if seen != hint:
                raise TypeError(f"task option {key}: {first} declares {seen}, {owner} declares {hint}")
    return tuple((key, hint) for key, (hint, _) in declared.items())


def registered_task_options() -> tuple[tuple[str, Any], ...]:
    """:func:`task_options` of the registered tasks (made once, at the first use of :data:`TASK_OPTIONS`)."""
    from idiomkit.tasks import TASKS

    return task_options(TASKS.values())


def evaluate_schema(run_options: type = RunOptions, tasks: Iterable[type[Task]] | None = None) -> type:
    """``[evaluate]`` (:class:`EvaluateRun`): ``task`` and ``model``, then the run options of ``idiomkit evaluate``
    an experiment may set, derived from ``run_options``: every command-line field but
    :data:`EVALUATE_JOB_SUPPLIED`, each optional (unset: the command's default), then the options of ``tasks``
    (:func:`task_options`; default: the registered tasks' :data:`TASK_OPTIONS`)."""
    hints = typing.get_type_hints(run_options)
    spec: list[tuple] = [("task", str, field(metadata={"cli": False})), ("model", str)]  # the task: an argument
    spec += [
        (f.name, hints[f.name] | None, field(default=None, metadata=f.metadata))
        for f in cli_fields(run_options)
        if f.name not in EVALUATE_JOB_SUPPLIED
    ]
    options = __getattr__("TASK_OPTIONS") if tasks is None else task_options(tasks)
    # the task's own flags are parsed by the task (a bool: a bare flag that turns its option on)
    spec += [(name, hint | None, field(default=None, metadata={"bare": True})) for name, hint in options]
    doc = "``[evaluate]``: the options of ``idiomkit evaluate`` an experiment may set (the seed comes from the job)."
    return dataclasses.make_dataclass("EvaluateRun", spec, namespace={"__doc__": doc, "__module__": __name__})


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


def run_types() -> dict[str, type]:
    """Run kind -> its table's dataclass (made once, at the first use of :data:`RUN_TYPES`)."""
    return {"train": TrainRun, "evaluate": __getattr__("EvaluateRun"), "method": MethodRun}


# EvaluateRun, TASK_OPTIONS and RUN_TYPES (which holds EvaluateRun) are made from the registered tasks at first use
__getattr__, __dir__ = lazy_values(
    __name__, {"TASK_OPTIONS": registered_task_options, "EvaluateRun": evaluate_schema, "RUN_TYPES": run_types}
)
TOP_FIELDS = ("description", "benchmark", "seeds", "data", "quick", "check", "select", *KINDS)


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
class SelectSpec:
    """``[select]``: the rule on validation by which ``idiomkit report`` recommends a trained configuration, written
    before its runs: ``metric``, the validation metric its runs select their checkpoint on (``training.json``'s
    ``best.metric``, e.g. ``val_mean``). Among the configurations whose experiment files name the same metric, the
    one with the highest mean over seeds of its runs' best value is recommended; no test column plays a part."""

    metric: str = ""


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
    folder: Path | None = None  # the experiments folder it was loaded from (files sit in one sub-folder per benchmark)
    run: Any = None  # a TrainRun, EvaluateRun or MethodRun
    check: CheckSpec = field(default_factory=CheckSpec)
    select: SelectSpec | None = None

    @property
    def in_quick(self) -> bool:
        return bool(self.quick.get("include", True))

    @property
    def scripts_dir(self) -> Path:
        """The folder of the benchmark scripts a ``[method]`` may name: the experiments folder's parent (the folder
        given to :func:`~idiomkit.reproduce.experiments.load_experiments`, else the nearest folder above the file
        named ``experiments``, else the file's folder)."""
        return (self.folder or experiments_folder(self.path or Path("benchmarks/experiments/x.toml"))).parent


def experiments_folder(path: Path) -> Path:
    """The experiments folder of the file ``path``: the nearest folder above it named ``experiments`` (files sit in
    ``experiments/<benchmark>/``), else the file's own folder."""
    return next((p for p in path.parents if p.name == "experiments"), path.parent)


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
