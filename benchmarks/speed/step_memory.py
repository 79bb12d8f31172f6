"""Peak memory of a training step with several loss streams: one backward on the summed loss (idiomkit's step
until 2026-11-29) against :func:`idiomkit.training.trainer.train_step`, which back-propagates each stream's part
before computing the next, so only one stream's activations are held at a time.

    python benchmarks/speed/step_memory.py                                # minilm, 6 streams: table + step_memory.json
    python benchmarks/speed/step_memory.py --model mpnet --precision bf16 # the flagship's mpnet runs (not measured yet)

Each way runs in a fresh process on the same batches (``--streams`` streams of ``--rows`` (anchor, positive) rows
of ``--tokens``-token texts, MultipleNegativesRankingLoss, AdamW, one thread), so each peak (``ru_maxrss``) is its
own. The flagship recipe trains 6-7 streams of 32 texts at 64 tokens a step.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

WAYS = ("summed", "per-stream")
OUT = Path(__file__).with_name("step_memory.json")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def texts(n: int, tokens: int, seed: int) -> list[str]:
    """``n`` texts of about ``tokens`` word-piece tokens (plain English words, so about one token a word)."""
    rng = random.Random(seed)
    words = ["the", "idiom", "meant", "he", "had", "died", "but", "reader", "took", "it", "as", "a", "kicked", "bucket"]
    return [" ".join(rng.choice(words) for _ in range(tokens - 2)) for _ in range(n)]


def summed_step(run, phase, batches, optimizer, cfg):
    """The step as idiomkit took it before 2026-11-29: the streams' weighted losses summed, then one backward,
    so every stream's activations are held until it."""
    import torch

    from idiomkit.training.precision import mixed_precision
    from idiomkit.training.trainer import stream_loss

    loss = 0.0
    with mixed_precision(run.model, cfg.precision):
        for stream, batch in zip(phase.streams, batches, strict=True):
            loss = loss + stream.weight * stream_loss(run.model, stream, batch, run.dist)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(run.model.parameters(), cfg.max_grad_norm)
    optimizer.step()
    return loss


def measure(args) -> dict:
    """One way, in this process: resident memory before the first step, the peak over ``--steps`` steps."""
    import torch
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss

    from idiomkit.models import load_model
    from idiomkit.training.config import TrainConfig
    from idiomkit.training.examples import make_examples
    from idiomkit.training.memory import resident_bytes
    from idiomkit.training.recipes.base import Phase, Setup, Stream
    from idiomkit.training.trainer import make_optimizer, train_step

    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = load_model(args.model, device="cpu", max_seq_length=args.tokens)
    model.train()
    cfg = TrainConfig(precision=args.precision, max_seq_length=args.tokens)
    streams = []
    for s in range(args.streams):
        rows = list(zip(texts(args.rows, args.tokens, 2 * s), texts(args.rows, args.tokens, 2 * s + 1), strict=True))
        examples = make_examples(model, f"stream{s}", rows, [0.0] * args.rows, list(range(args.rows)), args.tokens)
        streams.append(Stream(examples, MultipleNegativesRankingLoss(model)))
    phase = Phase("p", streams, 1)
    run = Setup(model, [phase], [], [], {})
    optimizer, _ = make_optimizer(model, cfg, args.steps)
    step = summed_step if args.way == "summed" else train_step
    batches = [list(range(args.rows))] * args.streams
    before, start = resident_bytes() / 2**20, time.perf_counter()
    for _ in range(args.steps):
        step(run, phase, batches, optimizer, cfg)
    return {
        "way": args.way,
        "resident_before_mb": round(before, 1),
        "peak_mb": round(peak_mb(), 1),
        "s_per_step": round((time.perf_counter() - start) / args.steps, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--precision", default="fp32", choices=("fp32", "bf16"))
    parser.add_argument("--streams", type=int, default=6)
    parser.add_argument("--rows", type=int, default=16, help="(anchor, positive) rows a stream: 2 x rows texts")
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--way", choices=WAYS, help=argparse.SUPPRESS)  # the child process's one way
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    if args.way:
        print(json.dumps(measure(args)))
        return
    child = sys.argv[1:]
    rows = []
    for way in WAYS:
        done = subprocess.run([sys.executable, __file__, *child, "--way", way], capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"{way}: {done.stderr.strip().splitlines()[-1]}")
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    setting = {k: getattr(args, k) for k in ("model", "precision", "streams", "rows", "tokens", "steps")}
    print(
        f"one step of {args.streams} streams x {2 * args.rows} texts of {args.tokens} tokens, {args.model}, "
        f"{args.precision}, one thread"
    )
    print(f"{'way':<12} {'resident before (MB)':>21} {'peak (MB)':>10} {'peak - before':>14} {'s/step':>7}")
    for r in rows:
        grown = r["peak_mb"] - r["resident_before_mb"]
        print(
            f"{r['way']:<12} {r['resident_before_mb']:>21.0f} {r['peak_mb']:>10.0f} {grown:>14.0f} "
            f"{r['s_per_step']:>7.2f}"
        )
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    key = "|".join(str(v) for v in setting.values())
    results[key] = {"setting": setting, "rows": rows}
    args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
