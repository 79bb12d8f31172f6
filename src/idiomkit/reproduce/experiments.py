"""Reading experiment files: one TOML file checked into an :class:`~idiomkit.reproduce.schema.Experiment`, and
a folder of them (every ``inject = "run"`` naming one of its experiments)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from idiomkit.data.errors import DataError
from idiomkit.reproduce import schema
from idiomkit.reproduce.method_runs import check_write_options, injected_values, method_run, method_value
from idiomkit.reproduce.schema import (
    KINDS,
    TOP_FIELDS,
    CheckSpec,
    Experiment,
    MethodRun,
    SelectSpec,
    checked_fields,
    matches,
    plain_relative,
)

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib


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
        return {**base, **checked_fields(path, "quick", rest, schema.RUN_TYPES[kind], partial=True)}
    unknown = [k for k in rest if k != "args"]
    if unknown:
        raise DataError(path, None, f"quick.{unknown[0]}", "unknown field (known: include, seeds, args)")
    if "args" in rest:
        if not isinstance(rest["args"], dict):
            raise DataError(path, None, "quick.args", f"expected a table of option = value, got {rest['args']!r}")
        base["args"] = {k: method_value(path, f"quick.args.{k}", v, flag_ok=True) for k, v in rest["args"].items()}
        check_write_options(path, "quick.args", base["args"])
    return base


def checked_select(path: Path, kind: str, raw: Any) -> SelectSpec | None:
    """``[select]`` (absent: None): a non-empty ``metric``, only on an experiment that trains or makes a model."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise DataError(path, None, "select", f"expected a table, got {raw!r}")
    spec = SelectSpec(**checked_fields(path, "select", raw, SelectSpec))
    if not spec.metric.strip():
        raise DataError(path, None, "select.metric", "missing (the validation metric the runs select on)")
    if kind == "evaluate":
        raise DataError(path, None, "select", "an [evaluate] experiment trains nothing to select")
    return spec


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


def load_experiment(path: Path, folder: Path | None = None) -> Experiment:
    """Parse and check one experiment file (errors name the file and the field); ``folder`` is the experiments
    folder it belongs to (default: the nearest folder above it named ``experiments``, else its own folder)."""
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
        folder=Path(folder) if folder is not None else None,
    )
    if kind == "method":
        exp.run = method_run(path, raw[kind], exp.scripts_dir)
        exp.spec = dict(raw[kind])
    else:
        exp.spec = checked_fields(path, kind, raw[kind], schema.RUN_TYPES[kind])
        exp.run = schema.RUN_TYPES[kind](**exp.spec)
    exp.quick = checked_quick(path, kind, raw.get("quick", {}), exp.scripts_dir)
    exp.check = checked_check(path, raw.get("check", {}))
    exp.select = checked_select(path, kind, raw.get("select"))
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


def load_experiments(folder: str | Path) -> list[Experiment]:
    """Every experiment of ``folder`` and its sub-folders (one per benchmark: ``experiments/<benchmark>/NAME.toml``);
    an experiment's name is its file stem, so two files may not share one; an ``inject = "run"`` must name one of
    them."""
    files = sorted(Path(folder).rglob("*.toml"))
    if not files:
        raise FileNotFoundError(f"{folder}: no experiment files (*.toml)")
    experiments = [load_experiment(p, Path(folder)) for p in files]
    first: dict[str, Path] = {}
    for exp in experiments:
        if exp.name in first:
            raise DataError(exp.path, None, None, f"experiment name {exp.name!r} already used by {first[exp.name]}")
        first[exp.name] = exp.path
    names = set(first)
    for exp in experiments:
        if isinstance(exp.run, MethodRun):
            for ref in injected_values(exp.run):
                if ref.inject == "run" and ref.experiment not in names:
                    raise DataError(exp.path, None, "method", f"inject = 'run': no experiment {ref.experiment!r}")
    return experiments
