"""Encode speed of a shipped idiom-aware model against its base, with and without the reader.

usage: python benchmarks/speed/shipped_speed.py [--name me5-idioms] [--repeats 3] [--limit 1000]

Times ``model.encode`` (batch 64, torch's threads as set) on the first ``--limit`` unique SemEval 2B dev sentences
for: the base alone, the base with the idiom reader (the shipped lexicon, the default sense check, replace) and
the shipped model (the adapter merged into the base's weights, the same reader). Every model reads the texts once
before the timed runs (the sense check's cache then holds their spans, so the timed runs measure the encoder and
the matcher; the first pass's time is reported apart: the sense check's cost on new text). Writes
``shipped_speed.{json,md}`` beside this script.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

OUT = Path(__file__).with_name("shipped_speed.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="me5-idioms")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--limit", type=int, default=1000)
    args = parser.parse_args()

    import torch

    from idiomkit.data.semeval2022 import load_subtask_b
    from idiomkit.idioms.senses import default_sense
    from idiomkit.models import load_model
    from idiomkit.models.shipped import SHIPPED
    from idiomkit.reader_api import add_reader
    from idiomkit.results import atomic_write_text, git_commit
    from idiomkit.settings import default_data_dir

    split = load_subtask_b(default_data_dir(), "dev")
    texts = list(dict.fromkeys([p.sentence1 for p in split.pairs] + [p.sentence2 for p in split.pairs]))[: args.limit]
    base = SHIPPED[args.name].base
    models = {
        base: load_model(base),
        f"{base} + reader": add_reader(load_model(base), mode="replace", sense="default"),
        args.name: load_model(args.name),
    }
    rows = {}
    check = default_sense()  # one object, shared by both readers: emptied before each model's first pass
    for label, model in models.items():
        getattr(check, "forget", lambda: None)()
        start = time.perf_counter()
        model.encode(texts, batch_size=64)
        first = time.perf_counter() - start
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            model.encode(texts, batch_size=64)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        rows[label] = {"first_s": round(first, 2), "median_s": round(median, 2), "sentences_s": len(texts) / median}
    reference = rows[base]["sentences_s"]
    for row in rows.values():
        row["ratio_vs_base"] = round(row["sentences_s"] / reference, 3)
        row["sentences_s"] = round(row["sentences_s"], 1)
    report = {
        "sentences": len(texts),
        "repeats": args.repeats,
        "torch_threads": torch.get_num_threads(),
        "rows": rows,
        "commit": git_commit(),
    }
    atomic_write_text(OUT, json.dumps(report, indent=1) + "\n")
    lines = [
        f"`python benchmarks/speed/shipped_speed.py --name {args.name} --repeats {args.repeats} --limit {args.limit}`",
        "",
        f"{len(texts)} unique 2B dev sentences, batch 64, torch threads {report['torch_threads']}, median of "
        f"{args.repeats} after a first pass (first pass: the sense check scores every matched span once).",
        "",
        "| model | first pass s | median s | sentences/s | ratio vs base |",
        "|---|---|---|---|---|",
        *(
            f"| {label} | {r['first_s']} | {r['median_s']} | {r['sentences_s']} | {r['ratio_vs_base']} |"
            for label, r in rows.items()
        ),
    ]
    atomic_write_text(OUT.with_suffix(".md"), "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
