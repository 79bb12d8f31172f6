"""Re-score saved IdioLink test run files with independent code: nothing from idiomkit, only the data files and the
relevance rule of ../shared/data/idiolink/PROVENANCE.md (literal query -> the literal documents of its PIE;
idiomatic query -> the idiomatic, simplification and sense documents of its PIE), R-Precision and nDCG@10 (binary
gains, log2 discount) written out here. Prints each file's numbers beside the ones its result JSON records.

usage: python benchmarks/analysis/idiolink_rescore.py RUN_FILE [RUN_FILE ...] [--data-dir ../shared/data]
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
from collections import defaultdict
from pathlib import Path

FIGURATIVE = {"idiomatic", "simplification", "sense"}


def relevant_sets(split_dir: Path) -> dict[str, set[str]]:
    queries = json.loads((split_dir / "queries.json").read_text(encoding="utf-8"))
    docs = json.loads((split_dir / "indexes.json").read_text(encoding="utf-8"))
    by_pie: dict[tuple[str, bool], set[str]] = defaultdict(set)
    for d in docs:
        by_pie[(d["idiom"], d["usage"] in FIGURATIVE)].add(d["id"])
    return {q["id"]: by_pie[(q["idiom"], q["usage"] in FIGURATIVE)] for q in queries}


def read_run(path: Path) -> dict[str, list[str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    rows: dict[str, list[tuple[float, int, str]]] = defaultdict(list)
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            qid, _, docid, rank, score, _ = line.split()
            rows[qid].append((-float(score), int(rank), docid))
    return {q: [d for *_, d in sorted(r)] for q, r in rows.items()}


def scores(run: dict[str, list[str]], relevant: dict[str, set[str]]) -> tuple[float, float]:
    r_prec, ndcg = [], []
    for qid, rel in relevant.items():
        ranked = run.get(qid, [])
        r_prec.append(sum(d in rel for d in ranked[: len(rel)]) / len(rel))
        dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in rel)
        ideal = sum(1 / math.log2(i + 2) for i in range(min(10, len(rel))))
        ndcg.append(dcg / ideal)
    return 100 * sum(r_prec) / len(r_prec), 100 * sum(ndcg) / len(ndcg)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--data-dir", type=Path, default=Path(__file__).resolve().parents[3] / "shared" / "data")
    args = parser.parse_args()
    relevant = relevant_sets(args.data_dir / "idiolink" / "test")
    print("| run file | R-Prec | nDCG@10 | recorded R-Prec | recorded nDCG@10 |\n|---|---|---|---|---|")
    for path in args.runs:
        r_prec, ndcg = scores(read_run(path), relevant)
        record = Path(str(path).replace(".run.trec.gz", ".json").replace(".run.trec", ".json"))
        metrics = json.loads(record.read_text(encoding="utf-8"))["metrics"] if record.exists() else {}
        print(
            f"| {path.name} | {r_prec:.2f} | {ndcg:.2f} | {metrics.get('r_precision', float('nan')):.2f} "
            f"| {metrics.get('ndcg@10', float('nan')):.2f} |"
        )


if __name__ == "__main__":
    main()
