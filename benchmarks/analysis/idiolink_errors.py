"""What fills the top 10 of IdioLink queries: a diagnosis read from saved run files (no model needed).

usage: python benchmarks/analysis/idiolink_errors.py [RUN.trec ...] [--k 10] [--split test] [--data-dir DIR]

Default: every ``benchmarks/results/idiolink-test/*.run.trec[.gz]``. For each run and query usage (literal /
idiomatic), the share of the top ``k`` that are documents of the query's own PIE by usage (literal, idiomatic,
simplification, sense) or of another PIE. Relevant for a literal query: same-PIE literal; for an idiomatic one:
same-PIE idiomatic + simplification + sense. Prints a markdown table.
"""

from __future__ import annotations

import argparse
from pathlib import Path

USAGES = ("literal", "idiomatic", "simplification", "sense")


def main() -> None:
    from idiomkit.data.idiolink import load_idiolink
    from idiomkit.metrics.trec import read_trec_run
    from idiomkit.results import read_prediction
    from idiomkit.settings import default_data_dir
    from idiomkit.tasks.idiolink import top_k_composition

    root = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="*", type=Path)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--split", default="test")
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    folder = root.parent / "results" / f"idiolink-{args.split}"
    runs = args.runs or sorted([*folder.glob("*.run.trec"), *folder.glob("*.run.trec.gz")])
    split = load_idiolink(args.data_dir or default_data_dir(), args.split)
    columns = [f"same-PIE {u}" for u in USAGES] + ["other-PIE (any)"]
    print(f"| run | queries | {' | '.join(columns)} |")
    print("|---|---|" + "---|" * len(columns))
    for path in runs:
        shares = top_k_composition(split, read_trec_run(read_prediction(path)), args.k)
        for usage, share in shares.items():
            other = sum(v for key, v in share.items() if key.startswith("other-PIE"))
            cells = [share.get(c, 0.0) for c in columns[:-1]] + [other]
            name = path.name.removesuffix(".gz").removesuffix(".run.trec")
            print(f"| {name} | {usage} | " + " | ".join(f"{100 * c:.1f}" for c in cells) + " |")
    print(f"\nPercent of each query's top {args.k}, averaged over the queries of that usage ({args.split} split).")


if __name__ == "__main__":
    main()
