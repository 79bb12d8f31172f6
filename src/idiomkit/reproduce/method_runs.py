"""``[method]`` runs: injected values (``{ inject = ... }``), the checks that keep a command's writes inside the
job's own folders, the allow-list of scripts and ``idiomkit`` verbs, and the argv a method run becomes."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from idiomkit.data.errors import DataError
from idiomkit.reproduce.schema import (
    IDIOMKIT_ENTRY,
    INJECTABLE,
    WRITE_INJECTS,
    WRITE_OPTIONS,
    Experiment,
    Injected,
    MethodRun,
    Scalar,
    Value,
    checked_fields,
    plain_relative,
)


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
    """The allow-list of ``[method] script``: the benchmark scripts under ``scripts_dir``, each named by its path there
    without ``.py`` (``analysis/drift``), and ``idiomkit`` itself."""
    scripts = {p.relative_to(scripts_dir).with_suffix("").as_posix() for p in scripts_dir.rglob("*.py")}
    return sorted(scripts | {IDIOMKIT_ENTRY})


# The ``idiomkit`` verbs a ``[method]`` run may name (the CLI sits above this module, so the list is kept here and a
# test checks it against the CLI's commands).
IDIOMKIT_VERBS = (
    "center",
    "compare",
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


def injected_values(run: MethodRun) -> list[Injected]:
    items = [*run.positional, *run.args.values()]
    flat = [v for item in items for v in (item if isinstance(item, list) else [item])]
    return [v for v in flat if isinstance(v, Injected)]


def idiomkit_executable() -> str:
    """The ``idiomkit`` script beside the running interpreter (the same installation)."""
    script = Path(sys.executable).with_name("idiomkit")
    return str(script) if script.exists() else "idiomkit"


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
