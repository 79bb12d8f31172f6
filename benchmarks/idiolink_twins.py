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


def main() -> None:
    from idiomkit.cli import USAGE_FLAGS, evaluate_trained
    from idiomkit.config import default_data_dir

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
        jobs = [("idiolink", {"query_mode": mode, **options}) for mode in args.modes]
        command = f"python benchmarks/idiolink_twins.py {shlex.quote(str(run))} --modes {' '.join(args.modes)}"
        command += f" {flag_of[args.usage]}" if args.usage else ""
        command += " --without-twins" if args.without_twins else ""
        evaluate_trained(run, info, ["idiolink"], args.data_dir or default_data_dir(), jobs=jobs, command=command)


if __name__ == "__main__":
    main()
