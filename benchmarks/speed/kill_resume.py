"""SIGKILL mid-epoch, resume, and compare with an uninterrupted run (same seed) on 2B dev.

    python benchmarks/speed/kill_resume.py            # ~5 min on 2 CPU cores: 200 train groups, 2 epochs

Runs ``idiomkit train`` three times as subprocesses: once uninterrupted; once killed with SIGKILL a few
seconds after its first checkpoint (mid-epoch, so the steps after that checkpoint are lost and redone); once
more with the same command, which resumes from the checkpoint. Both final models are scored on 2B dev; the
run passes when every Spearman differs by at most 0.005 (the loop restores model, optimizer, scheduler,
sampler position and RNG states, so the weights should in fact be bit-identical). Writes kill_resume.json.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IDIOMKIT = Path(sys.executable).parent / "idiomkit"


def command(out: Path, groups: int, epochs: int) -> list[str]:
    return [
        str(IDIOMKIT),
        "train",
        "--recipe",
        "adaptive-triplet",
        "--model",
        "minilm",
        "--epochs",
        str(epochs),
        "--limit-groups",
        str(groups),
        "--checkpoint-every",
        "3",
        "--no-val-sts",
        "--seed",
        "0",
        "--output",
        str(out),
    ]


def run(cmd: list[str], log: Path) -> None:
    with log.open("a") as fh:
        subprocess.run(cmd, check=True, stdout=fh, stderr=subprocess.STDOUT, env=os.environ | {"HF_HUB_OFFLINE": "1"})


def killed_run(cmd: list[str], out: Path, log: Path, delay: float) -> int:
    """Start, wait for the first checkpoint, wait ``delay`` s more, SIGKILL; returns the checkpoint's step."""
    import torch

    with log.open("a") as fh:
        proc = subprocess.Popen(
            cmd, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True, env=os.environ | {"HF_HUB_OFFLINE": "1"}
        )
        ckpt = out / "checkpoint.pt"
        while not ckpt.exists():
            if proc.poll() is not None:
                raise RuntimeError("training ended before its first checkpoint")
            time.sleep(0.5)
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return torch.load(ckpt, weights_only=True)["state"]["step"]


def dev_scores(model_dir: Path) -> dict[str, float]:
    from sentence_transformers import SentenceTransformer

    from idiomkit.api import semeval2b_dev_metrics

    model = SentenceTransformer(str(model_dir), device="cpu")
    return semeval2b_dev_metrics(model, mwe_tokens=True)["ALL"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--delay", type=float, default=8.0, help="seconds between first checkpoint and SIGKILL")
    parser.add_argument("--json", type=Path, default=Path(__file__).parent / "kill_resume.json")
    args = parser.parse_args()
    os.chdir(ROOT)
    work = Path(tempfile.mkdtemp(prefix="idiomkit-kill-"))
    log = work / "train.log"
    full, cut = work / "full", work / "cut"
    run(command(full, args.groups, args.epochs), log)
    killed_at = killed_run(command(cut, args.groups, args.epochs), cut, log, args.delay)
    run(command(cut, args.groups, args.epochs), log)  # the same command resumes
    import torch
    from safetensors.torch import load_file

    a, b = load_file(full / "model.safetensors"), load_file(cut / "model.safetensors")
    identical = a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    sa, sb = dev_scores(full), dev_scores(cut)
    diff = {k: abs(sa[k] - sb[k]) for k in sa}
    report = {
        "groups": args.groups,
        "epochs": args.epochs,
        "killed_after_checkpoint_step": killed_at,
        "uninterrupted": sa,
        "killed_and_resumed": sb,
        "abs_diff": diff,
        "weights_identical": identical,
        "pass": max(diff.values()) <= 0.005,
    }
    report["markdown"] = markdown(report)
    print(report["markdown"])
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


def markdown(report: dict) -> str:
    sa, sb = report["uninterrupted"], report["killed_and_resumed"]
    label = f"SIGKILL after checkpoint step {report['killed_after_checkpoint_step']} + resume"
    return "\n".join(
        [
            f"{report['groups']} train groups, {report['epochs']} epochs, minilm, seed 0.",
            "",
            "| run | dev idiom | dev STS | dev all |",
            "|---|---|---|---|",
            f"| uninterrupted | {sa['idiom']:.4f} | {sa['sts']:.4f} | {sa['all']:.4f} |",
            f"| {label} | {sb['idiom']:.4f} | {sb['sts']:.4f} | {sb['all']:.4f} |",
            "",
            f"max |diff| {max(report['abs_diff'].values()):.6f}; weights bit-identical: {report['weights_identical']}; "
            f"pass (≤ 0.005): {report['pass']}",
        ]
    )


if __name__ == "__main__":
    main()
