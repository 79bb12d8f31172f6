"""Which experiment file makes a trained row: the run label of every experiment that trains a model (its ``[train]``
table's, :func:`~idiomkit.training.recipes.train_label`) or makes one from another experiment's run with a
post-training verb (:data:`~idiomkit.training.recipes.METHOD_SUFFIXES`: ``idiomkit center``), paired with the recipe
label a result carries. The results tables name, beside each trained row, the experiment that
``idiomkit reproduce --full --only <experiment>`` runs to train its model: the pairing is derived from the files,
never kept by hand. Two files that give one model the same label are both named, unless the row's recorded options
tell them apart (:func:`experiments_for`); :func:`label_collisions` lists them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from idiomkit.training.recipes import METHOD_SUFFIXES, train_label

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@dataclass(frozen=True)
class ExperimentLabel:
    """What one experiment makes: its name (file stem), the model it trains, the run label of its run, the
    ``[train]`` options that run is given (a derived run: those of the run it reads) and the validation metric its
    ``[select]`` table names (None: no rule)."""

    name: str
    model: str
    label: str
    options: Mapping[str, Any]
    select: str | None = None


def experiments_beside(result: Path) -> Path:
    """The experiments folder beside the results folder a result file lies in
    (``benchmarks/results/<task>/NAME.json`` -> ``benchmarks/experiments``)."""
    return Path(result).parent.parent.parent / "experiments"


def experiment_specs(folder: Path) -> dict[str, dict]:
    """The experiment files of ``folder`` and its sub-folders (``<benchmark>/NAME.toml``), parsed, by name (empty
    when there is no such folder)."""
    return {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(Path(folder).rglob("*.toml"))}


def made_by_experiments(folder: Path) -> tuple[ExperimentLabel, ...]:
    """Every experiment of ``folder`` that trains a model or makes one from another experiment's run, in name
    order (none without such a folder). Read once per state of the folder's files."""
    files = sorted(Path(folder).rglob("*.toml"))
    return _made(str(Path(folder).resolve()), tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files))


@lru_cache(maxsize=4)
def _made(folder: str, _files: tuple) -> tuple[ExperimentLabel, ...]:  # _files: the cache key (names, times, sizes)
    specs = experiment_specs(Path(folder))
    trained: dict[str, ExperimentLabel] = {}
    for name, spec in specs.items():
        train = spec.get("train")
        if isinstance(train, dict) and isinstance(train.get("model"), str) and "recipe" in train:
            options = {k: v for k, v in train.items() if k != "evaluate"}
            trained[name] = ExperimentLabel(name, train["model"], train_label(options), options, _select(spec))
    derived = []
    for name, spec in specs.items():
        method = spec.get("method") or {}
        read = next((v.get("experiment") for v in method.get("positional", []) if isinstance(v, dict)), None)
        suffix = METHOD_SUFFIXES.get(method.get("subcommand", ""))
        if suffix and read in trained:
            base = trained[read]
            derived.append(ExperimentLabel(name, base.model, base.label + suffix, base.options, _select(spec)))
    return tuple(sorted([*trained.values(), *derived], key=lambda made: made.name))


def _select(spec: Mapping[str, Any]) -> str | None:
    """The metric an experiment's ``[select]`` table names (None when it names none)."""
    metric = (spec.get("select") or {}).get("metric")
    return metric if isinstance(metric, str) and metric else None


def experiments_for(
    model: str, label: str, made: Sequence[ExperimentLabel], config: Mapping[str, Any] | None = None
) -> list[str]:
    """The experiments (of ``made``) that make ``model`` into run label ``label``. With ``config`` (the row's
    recorded training options, ``params.training.config``) only those whose every ``[train]`` option the run
    recorded agrees with it, when one does: two files whose runs differ only in an option the label leaves out
    (the epochs of a 2B recipe) are told apart by the row's own record."""
    found = [m for m in made if m.model == model and m.label == label]
    if config:
        agree = [m for m in found if all(config.get(k, v) == v for k, v in m.options.items())]
        found = agree or found
    return [m.name for m in found]


def label_collisions(made: Sequence[ExperimentLabel]) -> dict[tuple[str, str], list[str]]:
    """``{(model, run label): experiment names}`` where more than one experiment makes the same model under the same
    label (a row with that label names them all, unless its record tells them apart)."""
    by_label: dict[tuple[str, str], list[str]] = defaultdict(list)
    for m in made:
        by_label[(m.model, m.label)].append(m.name)
    return {key: names for key, names in sorted(by_label.items()) if len(names) > 1}


def experiment_cell(recs: Sequence[dict[str, Any]], result: Path) -> str:
    """A table cell naming the experiments that make a row (``recs``: its results; ``result``: one of their files,
    which places the experiments folder), each in backticks; empty for an untrained row or one no experiment
    makes."""
    training = recs[0].get("params", {}).get("training") if recs else None
    if not training:
        return ""
    made = made_by_experiments(experiments_beside(result))
    names = experiments_for(recs[0]["model"], recs[0]["recipe"], made, training.get("config"))
    return ", ".join(f"`{name}`" for name in names)


EXPERIMENT_NOTE = (
    "*experiment*: the experiment file (`benchmarks/experiments/<benchmark>/<experiment>.toml`) that trains the row's "
    "model under its recipe label, derived from the file's `[train]` table (`idiomkit reproduce --full --only "
    "<experiment>` trains and scores it again); two names: two files give the model that label."
)
