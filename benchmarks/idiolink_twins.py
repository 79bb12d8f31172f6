"""Score IdioLink test with twin expansion (near-duplicate score propagation, chosen on val) for trained run
directories, as `idiomkit train --evaluate idiolink` would, without re-running the other query modes.

usage: python benchmarks/idiolink_twins.py RUN_DIR [RUN_DIR ...] [--modes span sentence+span]
       [--usage-rerank | --usage-classifier | --usage-span-probe] [--without-twins] [--data-dir DIR]

Each run writes benchmarks/results/idiolink-test/<model>__<recipe>__<mode>[-usage|-usageclf|-usagespan]-twins__seed<N>
.json (+ run.trec.gz; without the -twins suffix with --without-twins);
`params.twin_expansion` records the chosen (k, tau, lambda) and the whole val grid.
"""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path


def main() -> None:
    from idiomkit.cli import evaluate_trained
    from idiomkit.config import default_data_dir

    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--modes", nargs="+", default=["span", "sentence+span"])
    parser.add_argument("--usage-rerank", action="store_true", help="usage re-ranker first (variant -usage-twins)")
    parser.add_argument(
        "--usage-classifier", action="store_true", help="classifier usage re-ranker first (variant -usageclf-twins)"
    )
    parser.add_argument(
        "--usage-span-probe",
        action="store_true",
        help="usage decision from the model's own span embeddings (-usagespan)",
    )
    parser.add_argument("--without-twins", action="store_true", help="only the usage re-ranker (variant -usage[clf])")
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    if args.usage_rerank + args.usage_classifier + args.usage_span_probe > 1:
        parser.error("give one of --usage-rerank, --usage-classifier, --usage-span-probe")
    for run in args.runs:
        info = json.loads((run / "training.json").read_text(encoding="utf-8"))
        usage = "classifier" if args.usage_classifier else "span-probe" if args.usage_span_probe else args.usage_rerank
        options = {"twin_expansion": not args.without_twins, **({"usage_rerank": usage} if usage else {})}
        jobs = [("idiolink", {"query_mode": mode, **options}) for mode in args.modes]
        command = f"python benchmarks/idiolink_twins.py {shlex.quote(str(run))} --modes {' '.join(args.modes)}"
        flag = {"classifier": " --usage-classifier", "span-probe": " --usage-span-probe", True: " --usage-rerank"}
        command += flag.get(usage, "")
        command += " --without-twins" if args.without_twins else ""
        evaluate_trained(run, info, ["idiolink"], args.data_dir or default_data_dir(), jobs=jobs, command=command)


if __name__ == "__main__":
    main()
