"""Two CPU processes (torchrun, gloo) train like one: same loss trajectory and weights for the same global batch.

Each process encodes its shard of whole label groups and the loss sees the all-gathered global batch
(`idiomkit.training.distributed`). Dropout is switched off in the copy of the model both runs start from, so the
two runs are comparable step by step (with dropout each process draws its own masks).

usage: python benchmarks/speed/distributed_check.py [--steps 6] [--batch-size 32] [--limit-groups 60]
           [--recipe adaptive-triplet] [--json benchmarks/speed/distributed_check.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["CUDA_VISIBLE_DEVICES"] = ""  # a CPU check (gloo), also on a machine with GPUs
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def no_dropout_copy(model_name: str, path: Path) -> Path:
    """Save ``model_name`` with dropout 0 (so two runs differ only by how the batch is computed)."""
    from idiomkit.models import load_model

    model = load_model(model_name)
    config = model[0].model.config
    config.hidden_dropout_prob = config.attention_probs_dropout_prob = 0.0
    model.save(str(path))
    return path


def run_training(args, model: str, output: Path, losses_file: Path, threads: int) -> None:
    """One training run (a process of a distributed run when launched by torchrun); process 0 logs the losses."""
    from idiomkit.training import train

    losses: list[float] = []
    train(
        args.recipe,
        model,
        epochs=1,
        output_dir=output,
        resume=False,
        batch_size=args.batch_size,
        max_steps=args.steps,
        limit_groups=args.limit_groups,
        val_sts=False,
        max_seq_length=64,
        threads=threads,
        checkpoint_every=10_000,
        progress=lambda state, loss: losses.append(loss),
        data_dir=args.data_dir,
    )
    from idiomkit.training.distributed import env_rank

    if env_rank() == 0:
        losses_file.write_text(json.dumps(losses), encoding="utf-8")


def max_weight_diff(a: Path, b: Path) -> float:
    import torch

    wa = torch.load(a / "checkpoint.pt", weights_only=True)["model"]
    wb = torch.load(b / "checkpoint.pt", weights_only=True)["model"]
    return max(float((wa[k].float() - wb[k].float()).abs().max()) for k in wa)


def compare(args) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        model = no_dropout_copy(args.model, root / "model")
        run_training(args, str(model), root / "one", root / "one.json", threads=2)
        cmd = [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc_per_node",
            "2",
            __file__,
            "--worker",
            "--model",
            str(model),
            "--output",
            str(root / "two"),
            "--losses",
            str(root / "two.json"),
            "--steps",
            str(args.steps),
            "--batch-size",
            str(args.batch_size),
            "--limit-groups",
            str(args.limit_groups),
            "--recipe",
            args.recipe,
        ] + (["--data-dir", args.data_dir] if args.data_dir else [])
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"torchrun failed ({done.returncode}):\n{done.stderr[-3000:]}")
        one = json.loads((root / "one.json").read_text())
        two = json.loads((root / "two.json").read_text())
        return {
            "recipe": args.recipe,
            "model": args.model,
            "steps": args.steps,
            "batch_size": args.batch_size,
            "limit_groups": args.limit_groups,
            "processes": 2,
            "backend": "gloo",
            "loss_one_process": one,
            "loss_two_processes": two,
            "max_abs_loss_diff": max(abs(a - b) for a, b in zip(one, two, strict=True)),
            "max_abs_weight_diff": max_weight_diff(root / "one", root / "two"),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recipe", default="adaptive-triplet")
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--limit-groups", type=int, default=60)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--json", default=None, help="Also write the comparison here.")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    parser.add_argument("--losses", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        run_training(args, args.model, Path(args.output), Path(args.losses), threads=1)
        return
    result = compare(args)
    print(f"{'step':>4} {'1 process':>12} {'2 processes':>12}")
    for i, (a, b) in enumerate(zip(result["loss_one_process"], result["loss_two_processes"], strict=True), 1):
        print(f"{i:>4} {a:>12.6f} {b:>12.6f}")
    print(f"max |loss diff| {result['max_abs_loss_diff']:.2e}; max |weight diff| {result['max_abs_weight_diff']:.2e}")
    if args.json:
        result["command"] = "python benchmarks/speed/distributed_check.py " + " ".join(sys.argv[1:])
        rows = ["| step | loss, 1 process | loss, 2 processes (gloo) |", "|---|---|---|"] + [
            f"| {i} | {a:.6f} | {b:.6f} |"
            for i, (a, b) in enumerate(zip(result["loss_one_process"], result["loss_two_processes"], strict=True), 1)
        ]
        result["markdown"] = "\n".join(rows) + (
            f"\n\nmax |loss difference| {result['max_abs_loss_diff']:.1e}; max |weight difference| after "
            f"{args.steps} steps {result['max_abs_weight_diff']:.1e} ({args.recipe}, {args.model} without dropout, "
            f"global batch {args.batch_size} sentences, {args.limit_groups} training groups; `{result['command']}`)"
        )
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
