"""Xiao et al. grid on held-out idioms: zero-shot, then {loss} x {id, sp, idsp} trainings, each evaluated on
``xiao-pairs`` (result JSON + pairs.csv/ranks.csv beside it); ``transfer`` adds 2B dev and IdioLink test.

Resumable: a job whose result file exists is skipped; a killed training resumes from its checkpoint.

    python benchmarks/xiao_pairs.py list
    python benchmarks/xiao_pairs.py run zero-shot pairs-triplet-id pairs-mnrl-id ...   # in this order
    python benchmarks/xiao_pairs.py run pairs-triplet-id@1                             # seed 1
    python benchmarks/xiao_pairs.py run pairs-mnrl-id@0/4                              # seed 0, 4 epochs
    python benchmarks/xiao_pairs.py transfer pairs-mnrl-id                              # 2B dev + IdioLink test
    python benchmarks/xiao_pairs.py transfer-2b pairs-mnrl-id                           # 2B dev only

Budget (shared 2-core CPU): 1 epoch, batch 48 sentences (24 pairs / 16 triplets), lr 5e-5, max_seq_length 64,
3 sentences per train idiom for S/P; one thread per process (``IDIOMKIT_THREADS=2`` when a job has the machine to
itself: a 1-thread job beside a 2-thread training oversubscribes 2 cores and slows the training ~8x). The paper
trained 10 epochs at batch 16.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

LOSSES = ("contrastive", "triplet", "cosine", "mnrl", "adaptive-triplet")
SETS = ("id", "sp", "idsp")
THREADS = int(os.environ.get("IDIOMKIT_THREADS", "1"))
# fast_dropout off: the recorded table was trained with torch's dropout sampler, and this keeps re-runs exact
TRAIN = {"epochs": 1, "batch_size": 48, "lr": 5e-5, "max_seq_length": 64, "val_sts": False, "threads": THREADS,
         "fast_dropout": False}  # fmt: skip
RUNS = Path("runs/xiao")


def jobs() -> list[str]:
    return ["zero-shot"] + [f"pairs-{loss}-{s}" for s in SETS for loss in LOSSES]


def parse(job: str) -> tuple[str, int, int]:
    """``recipe[@seed[/epochs]]`` -> (recipe, seed, epochs)."""
    name, _, rest = job.partition("@")
    seed, _, epochs = rest.partition("/")
    if name not in jobs():
        raise SystemExit(f"unknown job '{name}' (see `python benchmarks/xiao_pairs.py list`)")
    return name, int(seed or 0), int(epochs or TRAIN["epochs"])


def model_dir(recipe: str, seed: int, epochs: int = TRAIN["epochs"]) -> Path:
    tag = "" if epochs == TRAIN["epochs"] else f"__{epochs}ep"
    return RUNS / f"{recipe}{tag}__seed{seed}"


def command(action: str, job: str) -> str:
    return f"python benchmarks/xiao_pairs.py {action} {shlex.quote(job)}"


def run(job: str) -> None:
    import torch

    from idiomkit.api import evaluate
    from idiomkit.config import default_results_dir
    from idiomkit.results import result_path
    from idiomkit.training import train

    torch.set_num_threads(THREADS)
    recipe, seed, epochs = parse(job)
    if recipe == "zero-shot":
        target = result_path(default_results_dir(), "xiao-pairs", "minilm", "zero-shot", seed)
        if not target.exists():
            evaluate("xiao-pairs", "minilm", seed=seed, show_progress_bar=False, command=command("run", job))
        print(f"{job}: {target}", flush=True)
        return
    out = model_dir(recipe, seed, epochs)
    variant = f"{epochs}ep"
    target = result_path(default_results_dir(), "xiao-pairs", "minilm", recipe, seed, variant)
    if target.exists():
        print(f"{job}: done ({target})", flush=True)
        return
    if not (out / "training.json").exists():
        train(recipe, "minilm", output_dir=out, seed=seed, **{**TRAIN, "epochs": epochs})
    res = evaluate("xiao-pairs", str(out), seed=seed, show_progress_bar=False, command=command("run", job))
    print(f"{job}: {res.path} {res.record.metrics}", flush=True)


def transfer(job: str, idiolink: bool = True) -> None:
    """2B dev (plain text, no MWE tokens) and IdioLink test (sentence and span queries) for a trained model."""
    import torch

    from idiomkit.api import evaluate

    torch.set_num_threads(THREADS)
    recipe, seed, epochs = parse(job)
    model = "minilm" if recipe == "zero-shot" else str(model_dir(recipe, seed, epochs))
    tasks = [("semeval2b", {})]
    tasks += [("idiolink", {"query_mode": "sentence"}), ("idiolink", {"query_mode": "span"})] if idiolink else []
    cmd = command("transfer" if idiolink else "transfer-2b", job)
    for task, options in tasks:
        res = evaluate(task, model, seed=seed, show_progress_bar=False, command=cmd, **options)
        print(f"{job} {task} {options}: {res.path}", flush=True)


def main(argv: list[str]) -> None:
    if not argv or argv[0] == "list":
        print("\n".join(jobs()))
        return
    action = {"run": run, "transfer": transfer, "transfer-2b": lambda j: transfer(j, idiolink=False)}.get(argv[0])
    if action is None:
        raise SystemExit("usage: xiao_pairs.py list | run JOB... | transfer JOB... | transfer-2b JOB...")
    for job in argv[1:]:
        action(job)


if __name__ == "__main__":
    main(sys.argv[1:])
