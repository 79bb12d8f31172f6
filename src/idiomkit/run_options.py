"""How a model is run through the benchmarks: :class:`RunOptions`, the one declaration of the run options that
``idiomkit evaluate TASK`` and ``idiomkit evaluate all`` share (pooling, prompt, recipe, seed, folders, ...).

The flags of both commands (:func:`idiomkit.options.typer_parameters`) and the keywords :func:`idiomkit.api.evaluate`
and :func:`idiomkit.scorecard.evaluate_all` take and check (:func:`split_run_options`, :func:`check_run_options`)
come from its fields. Field metadata: the keys of :mod:`idiomkit.options` (``help``, ``choices``, ``range``,
``path``, ``cli``); ``choices`` and ``range`` are checked by :func:`check_run_options` (not at parse time) so that a
bad value is the API's one-line error on the command line too. Nothing here imports torch: the command
line reads this module to build its flags.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from idiomkit.embedding import POOLINGS
from idiomkit.errors import OptionError
from idiomkit.options import Range, check_field_choices, check_ranges


@dataclass(frozen=True)
class RunOptions:
    """The run options of :func:`~idiomkit.api.evaluate` and :func:`~idiomkit.scorecard.evaluate_all`: give one
    instance as ``run=``, or its fields as keyword values (``evaluate("semeval2b", "minilm", batch_size=8)``)."""

    pooling: str = field(default="mean", metadata={"choices": POOLINGS, "help": " | ".join(POOLINGS)})
    prompt_name: str | None = field(
        default="auto", metadata={"help": "Model prompt name, 'auto' (query for e5) or 'none'."}
    )
    recipe: str = field(default="zero-shot", metadata={"help": "Recipe label for the result file."})
    seed: int | None = field(
        default=None,
        metadata={"help": "Random seed, also the result file's (default: a trained model's own seed, else 0)."},
    )
    batch_size: int = field(default=64, metadata={"range": Range(1), "help": "Encoding batch size."})
    data_dir: str | Path | None = field(
        default=None, metadata={"path": True, "help": "Benchmark data root (default ../shared/data)."}
    )
    results_dir: str | Path | None = field(
        default=None, metadata={"path": True, "help": "Where result JSONs go (default benchmarks/results)."}
    )
    write: bool = field(
        default=True, metadata={"help": "Write the result JSON and raw predictions (--no-write: print only)."}
    )
    model_name: str | None = field(
        default=None, metadata={"cli": False, "help": "The model's name in the result file (default: its own)."}
    )


def split_run_options(run: RunOptions | None, values: dict[str, Any], owner: str) -> tuple[RunOptions, dict[str, Any]]:
    """``run``, or the :class:`RunOptions` built from the keyword ``values`` that name its fields; and the other
    values (the task's or the scorecard's own options). ``run`` and run keywords together are an OptionError."""
    names = {f.name for f in fields(RunOptions)}
    given = {name: value for name, value in values.items() if name in names}
    if run is not None and (given or not isinstance(run, RunOptions)):
        raise OptionError(f"{owner}: give one RunOptions as run= or its fields as keyword values, not both")
    rest = {name: value for name, value in values.items() if name not in names}
    return run if run is not None else RunOptions(**given), rest


def check_run_options(run: RunOptions, owner: str) -> None:
    """Refuse, before any model loads, a value its field's metadata does not allow (a batch size below 1, an
    unknown pooling), with a one-line OptionError (a bad choice names ``owner``, e.g. ``evaluate idiolink``)."""
    check_ranges(run)
    for f in fields(run):
        check_field_choices(owner, f, getattr(run, f.name))


def with_seed_of(run: RunOptions, training: dict[str, Any] | None) -> RunOptions:
    """``run`` with its seed settled: the one given, else the seed a model made by ``idiomkit train`` was trained
    with (its ``training.json``), else 0. So seed N of a recipe is scored, and its result named, as seed N."""
    if run.seed is not None:
        return run
    seed = ((training or {}).get("config") or {}).get("seed")
    return replace(run, seed=int(seed) if seed is not None else 0)
