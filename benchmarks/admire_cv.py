"""AdMIRe subtask A (text): 5-fold cross-validation on train+dev (folds by compound) x seeds, plus test.

For every seed: ``admire/<model>__<recipe>__cv-<query mode>__seed<N>.json`` (out-of-fold metrics over the 85
train+dev items, per-fold metrics in ``metrics.folds``, predictions beside it) and ``…__test-<query mode>__…``
(trained on all 85, scored on test; ``submission_xe.tsv`` = the extended set in the task's submission format).
Resumable: finished result files are skipped.

    python benchmarks/admire_cv.py --variant zero-shot --query-mode span
    python benchmarks/admire_cv.py --variant cnn-ranked-triplet --seeds 0 1 2 3 4
    python benchmarks/admire_cv.py --variant ranked-triplet -m runs/adaptive-triplet-mwe-minilm-6ep-seed0 \\
        --model-name minilm-2b-adaptive-triplet --seeds 0
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import time
from dataclasses import asdict, replace

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--variant", default="ranked-triplet", help="zero-shot or a key of methods.admire.query_encoder.VARIANTS"
    )
    ap.add_argument("-m", "--model", default="minilm")
    ap.add_argument("--model-name", default=None, help="name in the result file (default: registry/dir name)")
    ap.add_argument("--query-mode", default="marked+span")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--epochs", type=int, default=None, help="override the variant's epochs (recipe label gets -<E>ep)")
    ap.add_argument("--no-test", action="store_true")
    ap.add_argument("--results-dir", default=None, help="default: $IDIOMKIT_RESULTS_DIR or benchmarks/results")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    import torch

    torch.set_num_threads(args.threads)
    from pathlib import Path

    from idiomkit.config import default_data_dir, default_results_dir
    from idiomkit.data.admire import load_admire
    from idiomkit.methods.admire import query_encoder as tr
    from idiomkit.models import load_model, resolve_name
    from idiomkit.results import ResultRecord, atomic_write_text, result_path, sha256_files, write_result
    from idiomkit.tasks.admire import predictions_tsv, score_items, submission_tsv

    args.results_dir = args.results_dir or default_results_dir()
    command = "python " + " ".join(shlex.quote(a) for a in sys.argv)
    data = default_data_dir()
    splits = {s: load_admire(data, s) for s in ("train", "dev", "test", "xe")}
    pool = splits["train"].items + splits["dev"].items
    files = [f for s in splits.values() for f in s.files]
    name = args.model_name or (Path(args.model).name if Path(args.model).is_dir() else resolve_name(args.model))
    cfg = None if args.variant == "zero-shot" else tr.VARIANTS[args.variant]
    recipe = args.variant
    if cfg is not None and args.epochs:
        cfg, recipe = replace(cfg, epochs=args.epochs), f"{recipe}-{args.epochs}ep"
    base = load_model(args.model)
    cache = Path("runs/admire-cache")
    cap_pool = tr.caption_embeddings(base, pool, cache)
    cap_test = tr.caption_embeddings(base, splits["test"].items, cache)
    cap_xe = tr.caption_embeddings(base, splits["xe"].items, cache)
    seeds = [0] if cfg is None else args.seeds
    for seed in seeds:
        run_cfg = None if cfg is None else replace(cfg, seed=seed, query_mode=args.query_mode)
        params = {"query_mode": args.query_mode, "variant": None, "folds": args.folds, "fold_seed": 0,
                  "config": asdict(run_cfg) if run_cfg else None, "caption_tower": "frozen start model",
                  "command": command}  # fmt: skip
        jobs = [("cv", f"cv-{args.query_mode}")] + ([] if args.no_test else [("test", f"test-{args.query_mode}")])
        for split, variant in jobs:
            path = result_path(args.results_dir, "admire", name, recipe, seed, variant)
            if path.is_file():
                logging.info("skip %s (exists)", path)
                continue
            tr.seed_all(seed)
            start = time.perf_counter()
            if split == "cv":
                run = tr.cross_validate(base, pool, cap_pool, run_cfg, args.query_mode, args.folds)
                items, preds = pool, {}
                metrics = score_items(items, run.scores)
                metrics["folds"] = [score_items([it for it, f in zip(items, run.folds, strict=True) if f == k],
                                                run.scores[[i for i, f in enumerate(run.folds) if f == k]])
                                    for k in range(args.folds)]  # fmt: skip
                preds["predictions.tsv"] = predictions_tsv(items, run.scores, [str(f) for f in run.folds])
            else:
                run, xe = tr.train_and_test(base, pool, cap_pool, [splits["test"].items, splits["xe"].items],
                                            [cap_test, cap_xe], run_cfg, args.query_mode)  # fmt: skip
                metrics = score_items(splits["test"].items, run.scores)
                preds = {"predictions.tsv": predictions_tsv(splits["test"].items, run.scores),
                         "submission_xe.tsv": submission_tsv(splits["xe"].items, xe.scores)}  # fmt: skip
            record = ResultRecord(
                task="admire", model=name, recipe=recipe, seed=seed, metrics=metrics,
                params=params | {"split": split, "variant": variant, "train_s": round(run.train_s, 2),
                                 "trainable_params": run.trainable, "n_items": len(run.scores)},
                data_sha256=sha256_files(files), wall_s=time.perf_counter() - start,
            )  # fmt: skip
            out = write_result(record, args.results_dir, variant=variant)
            for suffix, text in preds.items():
                atomic_write_text(out.with_suffix("." + suffix), text)
            m = metrics
            logging.info("%s: top1 %.3f dcg %.3f rho %.3f tau %.3f", out, m["top1"], m["dcg"], m["spearman"],
                         m["kendall"])  # fmt: skip


if __name__ == "__main__":
    main()
