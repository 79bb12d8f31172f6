"""Run a method end to end (``idiomkit run TASK --method M``): typed options, flags generated from them, one runner.

Each runnable method declares an options dataclass (the options its benchmark script took, same defaults) and a
run function ``run(options, context) -> list[Path]`` that writes result JSONs (skipping those that exist where
the script did). The CLI flags are generated from the dataclass: ``train_layers`` -> ``--train-layers N``, a bool
field is a bare flag, a list field takes several values (``--seeds 0 1 2``) and may repeat, a field whose metadata
says ``positional`` collects the bare arguments, ``short`` adds a one-letter alias (``-m``). The parsing lives in
:mod:`idiomkit.options` (``idiomkit evaluate`` generates its task flags the same way).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class RunContext:
    """What every run gets besides its options: where data and results live, the command line to record, and the
    API's ``evaluate`` (methods that score through a task: the 2A probe, IdioLink twins)."""

    data_dir: Path
    results_dir: Path
    command: str | None = None
    evaluate: Callable[..., Any] | None = None


@dataclass(frozen=True)
class Registered:
    """One entry of :data:`idiomkit.methods.METHODS`: the method's class and, when ``idiomkit run`` runs it end to
    end, its options dataclass and run function (None for a method that runs inside a task's evaluation, such as the
    IdioLink re-rankers)."""

    method: type
    options: type | None = None
    run: Callable[[Any, RunContext], list[Path]] | None = None

    @property
    def runnable(self) -> bool:
        return self.run is not None


__all__ = ["Registered", "RunContext"]
