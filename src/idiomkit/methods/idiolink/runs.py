"""IdioLink test with twin expansion for trained run directories: ``idiomkit run idiolink --method twins RUN_DIR``.

Scores each run directory as ``idiomkit train --evaluate idiolink`` would (last-two-layer pooling, the run's recipe
label and base model), once per query mode, with near-duplicate score propagation chosen on val (and optionally a
usage re-ranker first). Each writes ``idiolink-test/<model>__<recipe>__<mode>[-usage<decision>]-twins__seed<N>.json``
(+ run.trec.gz; no ``-twins`` suffix with ``--without-twins``); ``params.twin_expansion`` records the chosen (k, tau,
lambda) and the whole val grid.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from idiomkit.errors import OptionError
from idiomkit.methods.runner import RunContext
from idiomkit.results import read_json_object

log = logging.getLogger(__name__)


@dataclass
class TwinsOptions:
    """The run directories and query modes to score; at most one usage re-ranker."""

    runs: list[str] = field(default_factory=list, metadata={"positional": True, "help": "trained run directories"})
    modes: list[str] = field(default_factory=lambda: ["span", "sentence+span"])
    usage_rerank: bool = field(default=False, metadata={"help": "usage re-ranker: the probe"})
    usage_classifier: bool = field(default=False, metadata={"help": "usage re-ranker: classifier"})
    usage_shared_classifier: bool = field(default=False, metadata={"help": "usage re-ranker: shared-classifier"})
    usage_span_probe: bool = field(default=False, metadata={"help": "usage re-ranker: span-probe"})
    without_twins: bool = field(default=False, metadata={"help": "only the usage re-ranker (variant -usage...)"})


USAGE = {
    "usage_rerank": True,
    "usage_classifier": "classifier",
    "usage_shared_classifier": "shared-classifier",
    "usage_span_probe": "span-probe",
}


def usage_choice(options: TwinsOptions) -> bool | str | None:
    chosen = [value for name, value in USAGE.items() if getattr(options, name)]
    if len(chosen) > 1:
        flags = ", ".join("--" + name.replace("_", "-") for name in USAGE)
        raise OptionError(f"idiolink/twins: give at most one of {flags}")
    return chosen[0] if chosen else None


def run_twins(options: TwinsOptions, context: RunContext) -> list[Path]:
    """Each run directory x query mode through the API's ``evaluate``; returns the result files."""
    if not options.runs:
        raise OptionError("idiolink/twins: name at least one trained run directory (RUN_DIR ...)")
    if context.evaluate is None:
        raise OptionError("idiolink/twins: needs the API's evaluate (run it through idiomkit.api.run_method)")
    usage = usage_choice(options)
    extra = {"twin_expansion": not options.without_twins, **({"usage_rerank": usage} if usage else {})}
    paths = []
    for run in map(Path, options.runs):
        info = read_json_object(run / "training.json", "training summary")
        config = info["config"]
        for mode in options.modes:
            evaluation: Any = context.evaluate(
                "idiolink",
                str(run),
                pooling="last2",
                recipe=info["label"],
                seed=config["seed"],
                model_name=Path(config["model"]).name,
                data_dir=context.data_dir,
                results_dir=context.results_dir,
                show_progress_bar=False,
                command=context.command,
                query_mode=mode,
                **extra,
            )
            record = evaluation.record
            table = "\n".join("  ".join(f"{cell:>11}" for cell in row) for row in evaluation.table)
            settings = json.dumps({"query_mode": mode, **extra})
            log.info(
                "idiolink: %s %s %s\n%s\nresult: %s", record.model, record.recipe, settings, table, evaluation.path
            )
            paths.append(evaluation.path)
    return paths
