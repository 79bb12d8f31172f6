"""Full-size check: mteb's main score vs idiomkit's own score for the same model on SemEval-2022 2B dev (cosine
Spearman, idiom rows, all languages), IdioLink test (nDCG@10, sentence queries; idiomkit may take its document
embeddings from its embedding cache, keyed by the model's weights) and AdMIRe test (Spearman, sentence queries).
Prints both numbers and writes ``benchmarks/checks/mteb_check.json``.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/checks/mteb_check.py [-m minilm] [--tasks semeval2b idiolink admire]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from idiomkit.models import load_model  # noqa: E402
from idiomkit.mteb_tasks import get_mteb_task, run_mteb  # noqa: E402
from idiomkit.results import atomic_write_text, git_commit  # noqa: E402
from idiomkit.settings import default_data_dir  # noqa: E402
from idiomkit.tasks import get_task  # noqa: E402

OUT = Path(__file__).with_name("mteb_check.json")
# task -> (idiomkit evaluate kwargs, idiomkit metric path, factor from mteb's scale to idiomkit's)
SPECS = {
    "semeval2b": ({}, ("ALL", "idiom"), 1.0),
    "idiolink": ({"query_mode": "sentence"}, ("ndcg@10",), 100.0),
    "admire": ({"split": "test", "query_mode": "sentence", "extended": False}, ("spearman",), 1.0),
}


def check(task: str, model, data_dir: Path) -> dict:
    """Run both code paths for ``task``; return both scores, their difference and timings."""
    kwargs, path, factor = SPECS[task]
    start = time.perf_counter()
    metrics = get_task(task).evaluate(model, data_dir=data_dir, show_progress_bar=False, **kwargs).metrics
    ours_s = time.perf_counter() - start
    ours = metrics
    for key in path:
        ours = ours[key]
    mteb_task = get_mteb_task(task, data_dir)
    start = time.perf_counter()
    scores = run_mteb(model, mteb_task)
    mteb_s = time.perf_counter() - start
    theirs = factor * scores["main_score"]
    return {
        "mteb_task": mteb_task.metadata.name,
        "mteb_main_score_name": mteb_task.metadata.main_score,
        "idiomkit_metric": ".".join(path),
        "idiomkit": ours,
        "mteb_scaled": theirs,
        "abs_diff": abs(theirs - ours),
        "data_revision": mteb_task.metadata.dataset["revision"],
        "idiomkit_s": round(ours_s, 1),
        "mteb_s": round(mteb_s, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-m", "--model", default="minilm")
    parser.add_argument("--tasks", nargs="+", default=list(SPECS), choices=list(SPECS))
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    import mteb

    data_dir = args.data_dir or default_data_dir()
    model = load_model(args.model)
    rows: dict[str, dict] = {}
    report = {"model": args.model, "pooling": "mean", "mteb": mteb.__version__, "commit": git_commit(), "tasks": rows}
    for task in args.tasks:
        rows[task] = r = check(task, model, data_dir)
        print(
            f"{task:10s} idiomkit {r['idiomkit_metric']} = {r['idiomkit']:.6f}   "
            f"mteb {r['mteb_task']} {r['mteb_main_score_name']} (scaled) = {r['mteb_scaled']:.6f}   "
            f"|diff| = {r['abs_diff']:.2e}   ({r['idiomkit_s']} s / {r['mteb_s']} s)"
        )
        atomic_write_text(OUT, json.dumps(report, indent=2) + "\n")  # after each task: a cut run keeps its rows
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
