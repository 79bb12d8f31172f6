"""Encode throughput with and without the idiom reader (issue #37): minilm on 2,000 STS-B sentences.

usage: python benchmarks/speed/reader_speed.py [--model minilm] [--n 2000] [--repeats 3] [--batch-size 64]
       [--mode replace] [--sense none|default]

Times ``model.encode`` of the plain model and of the same model with :func:`idiomkit.add_reader` (interleaved
repeats, median), plus the reader's rewriting alone, and prints a markdown table with the overhead in % (end to
end, and the rewriting's share of the plain encode time, which machine noise does not blur) and how many
sentences the reader changed. Writes ``benchmarks/speed/reader_speed.json``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402

from idiomkit.data.sts import load_sts  # noqa: E402
from idiomkit.models import load_model  # noqa: E402
from idiomkit.reader_api import add_reader  # noqa: E402
from idiomkit.settings import default_data_dir  # noqa: E402


def sentences(n: int) -> list[str]:
    """The first ``n`` distinct English STS-B train sentences."""
    pairs = [p for p in load_sts(default_data_dir(), "train", ("stsb-en",))]
    return list(dict.fromkeys(s for p in pairs for s in (p.sentence_1, p.sentence_2)))[:n]


def seconds(fn) -> tuple[float, float]:
    """Wall-clock and CPU seconds of ``fn()`` (CPU time is less blurred by other processes on a shared machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--mode", default="replace")
    parser.add_argument("--sense", default="none", help="none | default")
    args = parser.parse_args()
    texts = sentences(args.n)
    plain = load_model(args.model)
    reader_model = add_reader(copy.deepcopy(plain), mode=args.mode, sense=args.sense)
    reader = reader_model[0]
    kwargs = {"batch_size": args.batch_size, "show_progress_bar": False}
    runners = {
        "plain encode": lambda: plain.encode(texts, **kwargs),
        "encode with reader": lambda: reader_model.encode(texts, **kwargs),
        "reader rewriting alone": lambda: reader.rewrite_inputs(texts),
    }
    plain.encode(texts[:64]), reader_model.encode(texts[:64])  # warm-up
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runners}
    for _ in range(args.repeats):
        for name, fn in runners.items():
            times[name].append(seconds(fn))
    medians = {name: statistics.median(t[0] for t in ts) for name, ts in times.items()}
    cpu = {name: statistics.median(t[1] for t in ts) for name, ts in times.items()}
    overhead = 100 * (medians["encode with reader"] / medians["plain encode"] - 1)
    cpu_overhead = 100 * (cpu["encode with reader"] / cpu["plain encode"] - 1)
    rewrite_share = 100 * cpu["reader rewriting alone"] / cpu["plain encode"]  # the noise-free part
    changed = sum(a != b for a, b in zip(texts, reader.rewrite_inputs(texts), strict=True))
    device = str(plain.device)
    lines = [
        f"{len(texts)} STS-B train sentences, model {args.model}, batch {args.batch_size}, device {device}, "
        f"torch threads {torch.get_num_threads()}, reader mode {args.mode}, sense {args.sense}, "
        f"median of {args.repeats}; the reader changed {changed} sentences",
        "",
        "| run | median wall s | median CPU s | sentences/s (wall) |",
        "|---|---|---|---|",
    ]
    lines += [f"| {name} | {m:.3f} | {cpu[name]:.3f} | {len(texts) / m:.0f} |" for name, m in medians.items()]
    lines.append(
        f"\nencode overhead of the reader: {overhead:+.1f}% wall, {cpu_overhead:+.1f}% CPU time; "
        f"its rewriting alone is {rewrite_share:.2f}% of the plain encode CPU time"
    )
    print("\n".join(lines))
    out = {
        "sentences": len(texts),
        "model": args.model,
        "device": device,
        "mode": args.mode,
        "sense": args.sense,
        "batch_size": args.batch_size,
        "threads": torch.get_num_threads(),
        "changed": changed,
        "median_seconds": medians,
        "median_cpu_seconds": cpu,
        "overhead_percent": round(overhead, 2),
        "cpu_overhead_percent": round(cpu_overhead, 2),
        "rewrite_percent_of_encode": round(rewrite_share, 3),
    }
    Path(__file__).with_name("reader_speed.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
