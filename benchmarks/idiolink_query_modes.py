"""Which IdioLink query mode to use, decided on the **val** split (test stays held out).

usage: python benchmarks/idiolink_query_modes.py MODEL [MODEL ...] [--modes sentence span sentence+span]
       [--pooling mean] [--output benchmarks/idiolink/query_modes.json]

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
    from idiomkit.config import default_data_dir
    from idiomkit.models import load_model
    from idiomkit.tasks.idiolink import IdioLinkTest

    parser = argparse.ArgumentParser()
    parser.add_argument("models", nargs="+")
    parser.add_argument("--modes", nargs="+", default=["sentence", "span", "sentence+span"])
    parser.add_argument("--pooling", default="mean", help="for registry models (trained directories keep theirs)")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--output", type=Path, default=ROOT / "idiolink" / "query_modes.json")
    args = parser.parse_args()
    data_dir = args.data_dir or default_data_dir()
    rows = json.loads(args.output.read_text(encoding="utf-8")) if args.output.is_file() else []
    print("| model | mode | R-Prec | nDCG@10 | literal R-Prec / nDCG | idiomatic R-Prec / nDCG |")
    print("|---|---|---|---|---|---|")
    for name in args.models:
        is_dir = Path(name).is_dir()
        model = load_model(name, pooling="last2" if is_dir else args.pooling)  # as `idiomkit train` evaluates
        label = Path(name).name if is_dir else name
        for mode in args.modes:
            m = IdioLinkTest().evaluate(
                model, data_dir=data_dir, split="val", query_mode=mode, prompt_name=auto_prompt_name(model, "auto"),
                show_progress_bar=False, use_cache=False,
            ).metrics  # fmt: skip
            lit, idi = m["literal"], m["idiomatic"]
            print(
                f"| {label} | {mode} | {m['r_precision']:.2f} | {m['ndcg@10']:.2f} | "
                f"{lit['r_precision']:.2f} / {lit['ndcg@10']:.2f} | {idi['r_precision']:.2f} / {idi['ndcg@10']:.2f} |",
                flush=True,
            )
            rows = [r for r in rows if (r["model"], r["mode"]) != (label, mode)]
            command = "python benchmarks/idiolink_query_modes.py " + " ".join(args.models)
            rows.append({"model": label, "mode": mode, "split": "val", "metrics": m, "command": command})
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
