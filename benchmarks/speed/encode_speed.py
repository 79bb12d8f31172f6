"""Sentences/s of idiomkit's encode vs plain SentenceTransformer.encode on the SemEval 2B dev sentences.

usage: python benchmarks/speed/encode_speed.py [--model minilm] [--repeats 3] [--batch-size 64]
Prints a markdown table; the target (issue #4) is a ratio >= 0.95 (idiomkit must not be slower).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

from idiomkit.data.semeval2022 import load_subtask_b  # noqa: E402
from idiomkit.embedding.encode import encode_texts  # noqa: E402
from idiomkit.models import load_model  # noqa: E402
from idiomkit.settings import default_data_dir  # noqa: E402


def timed(fn) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    split = load_subtask_b(default_data_dir(), "dev")
    texts = list(dict.fromkeys([p.sentence1 for p in split.pairs] + [p.sentence2 for p in split.pairs]))
    model = load_model(args.model)
    runners = {
        "plain SentenceTransformer.encode": lambda: model.encode(
            texts, batch_size=args.batch_size, convert_to_numpy=True, show_progress_bar=False
        ),
        "idiomkit encode_texts (progress on)": lambda: encode_texts(
            model, texts, batch_size=args.batch_size, show_progress_bar=True
        ),
    }
    timed(lambda: model.encode(texts[:64]))  # warm-up
    times: dict[str, list[float]] = {k: [] for k in runners}
    outputs = {}
    for _ in range(args.repeats):  # interleave to spread machine noise evenly
        for name, fn in runners.items():
            seconds, outputs[name] = timed(fn)
            times[name].append(seconds)
    base = statistics.median(times["plain SentenceTransformer.encode"])
    lines = [
        f"{len(texts)} unique 2B dev sentences, model {args.model}, batch {args.batch_size}, "
        f"torch threads {torch.get_num_threads()}, median of {args.repeats}",
        "",
        "| encoder | median s | sentences/s | ratio vs plain | max abs diff |",
        "|---|---|---|---|---|",
    ]
    ref = outputs["plain SentenceTransformer.encode"]
    for name, ts in times.items():
        med = statistics.median(ts)
        diff = float(np.abs(outputs[name] - ref).max())
        lines.append(f"| {name} | {med:.2f} | {len(texts) / med:.1f} | {base / med:.3f} | {diff:.1e} |")
    text = "\n".join(lines)
    print("\n" + text)
    command = f"python benchmarks/speed/encode_speed.py --model {args.model} --repeats {args.repeats}"
    Path(__file__).with_name("encode_speed.md").write_text(f"`{command}`\n\n{text}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
