"""Which IdioLink query mode to use, decided on the **val** split (test stays held out).

usage: python benchmarks/analysis/idiolink_query_modes.py MODEL [MODEL ...] [--modes sentence span sentence+span]
       [--pooling mean] [--pad-with-train] [--output benchmarks/analysis/idiolink/query_modes.json]

``--pad-with-train`` searches the val queries over the val *and* train documents (32 PIEs, 3,200 documents instead
of 10 / 1,000), a more test-like index (test: 75 / 7,500).

MODEL: registry name or a model directory (a directory made by ``idiomkit train`` is evaluated with ``last2``
pooling, as ``idiomkit train --evaluate`` does). Prints a markdown table of val R-Precision / nDCG@10 (overall,
literal, idiomatic) per model and mode, and appends the rows to the JSON file (one entry per model and mode,
replaced when re-run).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def main() -> None:
    from idiomkit.api import auto_prompt_name
    from idiomkit.data.idiolink import IdioLinkSplit, load_idiolink
    from idiomkit.metrics.retrieval import r_precision_and_ndcg10
    from idiomkit.models import load_model
    from idiomkit.settings import default_data_dir
    from idiomkit.tasks.idiolink import dense_scores, make_run

    parser = argparse.ArgumentParser()
    parser.add_argument("models", nargs="+")
    parser.add_argument("--modes", nargs="+", default=["sentence", "span", "sentence+span"])
    parser.add_argument("--pooling", default="mean", help="for registry models (trained directories keep theirs)")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--pad-with-train", action="store_true", help="search val queries over val + train documents")
    parser.add_argument("--output", type=Path, default=ROOT / "idiolink" / "query_modes.json")
    args = parser.parse_args()
    data_dir = args.data_dir or default_data_dir()
    val = load_idiolink(data_dir, "val")
    split_name = "val"
    if args.pad_with_train:
        train_docs = load_idiolink(data_dir, "train").documents
        val = IdioLinkSplit("val+train-index", val.documents + train_docs, val.queries)
        split_name = "val queries, val+train index"
    usage_of = {q.id: q.usage for q in val.queries}
    rows = json.loads(args.output.read_text(encoding="utf-8")) if args.output.is_file() else []
    print("| model | mode | R-Prec | nDCG@10 | literal R-Prec / nDCG | idiomatic R-Prec / nDCG |")
    print("|---|---|---|---|---|---|")
    for name in args.models:
        is_dir = Path(name).is_dir()
        model = load_model(name, pooling="last2" if is_dir else args.pooling)  # as `idiomkit train` evaluates
        label = Path(name).name if is_dir else name
        for mode in args.modes:
            scores = dense_scores(model, val, mode, prompt_name=auto_prompt_name(model, "auto"), use_cache=False)
            m = r_precision_and_ndcg10(val.qrels(), make_run(val.queries, val.documents, scores), usage_of)
            lit, idi = m["literal"], m["idiomatic"]
            print(
                f"| {label} | {mode} | {m['r_precision']:.2f} | {m['ndcg@10']:.2f} | "
                f"{lit['r_precision']:.2f} / {lit['ndcg@10']:.2f} | {idi['r_precision']:.2f} / {idi['ndcg@10']:.2f} |",
                flush=True,
            )
            rows = [r for r in rows if (r["model"], r["mode"], r["split"]) != (label, mode, split_name)]
            command = "python benchmarks/analysis/idiolink_query_modes.py " + " ".join(args.models)
            command += " --pad-with-train" if args.pad_with_train else ""
            rows.append({"model": label, "mode": mode, "split": split_name, "metrics": m, "command": command})
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
