"""Wall time of one full IdioLink test evaluation (7,500 documents + 1,500 queries, metrics included).

usage: python benchmarks/speed/idiolink_speed.py [--model minilm] [--modes sentence span] [--batch-size 128]

Per query mode: ``cold`` = nothing cached (every document and query encoded), ``warm`` = document embeddings
cached on disk by an earlier run with the same model (what every run after the first one costs). Model loading is
timed once, apart. Prints a markdown table; the target (issue #6) is <= 60 s. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--modes", nargs="+", default=["sentence", "span"])
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    from idiomkit.embedding.cache import MEMORY_CACHE
    from idiomkit.models import load_model
    from idiomkit.settings import default_data_dir
    from idiomkit.tasks.idiolink import IdioLinkTask

    start = time.perf_counter()
    model = load_model(args.model)
    load_s = time.perf_counter() - start
    task, rows = IdioLinkTask(), []
    for mode in args.modes:
        with tempfile.TemporaryDirectory() as cache:  # empty: the first run encodes and caches the documents
            for state in ("cold", "warm"):
                MEMORY_CACHE.clear()  # as in a new process: documents come from the .npy (warm) or not
                start = time.perf_counter()
                out = task.evaluate(
                    model,
                    data_dir=default_data_dir(),
                    query_mode=mode,
                    cache_dir=cache,
                    batch_size=args.batch_size,
                    show_progress_bar=False,
                )
                wall = time.perf_counter() - start
                rows.append((mode, state, wall, out.metrics["ndcg@10"], out.metrics["r_precision"]))
    print(f"model {args.model} (loaded in {load_s:.1f} s), torch threads {args.threads}, batch {args.batch_size}\n")
    print("| query mode | documents | wall s | ≤ 60 s | nDCG@10 | R-Prec |\n|---|---|---|---|---|---|")
    for mode, state, wall, ndcg, rprec in rows:
        print(f"| {mode} | {state} | {wall:.1f} | {'yes' if wall <= 60 else 'no'} | {ndcg:.2f} | {rprec:.2f} |")


if __name__ == "__main__":
    main()
