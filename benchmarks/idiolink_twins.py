"""Score IdioLink test with twin expansion (near-duplicate score propagation, chosen on val) for trained run
directories, as `idiomkit train --evaluate idiolink` would, without re-running the other query modes.

usage: python benchmarks/idiolink_twins.py RUN_DIR [RUN_DIR ...] [--modes span sentence+span]
       [--usage-rerank | --usage-classifier | --usage-shared-classifier | --usage-span-probe] [--without-twins]
       [--data-dir DIR]

Each run writes benchmarks/results/idiolink-test/<model>__<recipe>__<mode>[-usage<decision>]-twins__seed<N>.json
(+ run.trec.gz; without the -twins suffix with --without-twins); the usage flags are `idiomkit evaluate idiolink`'s
(variants -usage, -usageclf, -usagesharedclf, -usagespan). `params.twin_expansion` records the chosen (k, tau,
lambda) and the whole val grid.
"""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path

from idiomkit.api import evaluate
from idiomkit.config import default_data_dir
from idiomkit.methods.idiolink.usage_rerank import DECISIONS

# `idiomkit evaluate idiolink`'s usage flags: the probe, then one flag per trained decision
USAGE_FLAGS = {"--usage-rerank": True, **{f"--usage-{decision}": decision for decision in DECISIONS}}


def evaluate_run(run: Path, info: dict, jobs: list[dict], data_dir: Path, command: str) -> None:
    """Score a trained run directory (its ``training.json`` is ``info``) on IdioLink test once per job, as
    ``idiomkit train --evaluate idiolink`` does (last-two-layer pooling, the run's recipe label and base model)."""
    config = info["config"]
    for options in jobs:
        evaluation = evaluate(
            "idiolink", str(run), pooling="last2", recipe=info["label"], seed=config["seed"],
            model_name=Path(config["model"]).name, data_dir=data_dir, show_progress_bar=False, command=command,
            **options,
        )  # fmt: skip
        print(f"idiolink: {evaluation.record.model} {evaluation.record.recipe} {options}")
        print("\n".join("  ".join(f"{cell:>11}" for cell in row) for row in evaluation.table))
        print(f"result: {evaluation.path}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--modes", nargs="+", default=["span", "sentence+span"])
    usage = parser.add_mutually_exclusive_group()
    for flag, decision in USAGE_FLAGS.items():
        usage.add_argument(
            flag, dest="usage", action="store_const", const=decision, help=f"usage re-ranker: {decision}"
        )
    parser.add_argument("--without-twins", action="store_true", help="only the usage re-ranker (variant -usage…)")
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    flag_of = {decision: flag for flag, decision in USAGE_FLAGS.items()}
    for run in args.runs:
        info = json.loads((run / "training.json").read_text(encoding="utf-8"))
        options = {"twin_expansion": not args.without_twins, **({"usage_rerank": args.usage} if args.usage else {})}
        jobs = [{"query_mode": mode, **options} for mode in args.modes]
        command = f"python benchmarks/idiolink_twins.py {shlex.quote(str(run))} --modes {' '.join(args.modes)}"
        command += f" {flag_of[args.usage]}" if args.usage else ""
        command += " --without-twins" if args.without_twins else ""
        evaluate_run(run, info, jobs, args.data_dir or default_data_dir(), command)


if __name__ == "__main__":
    main()
