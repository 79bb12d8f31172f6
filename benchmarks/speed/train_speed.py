"""Training speed: idiomkit's loop vs a plain SentenceTransformerTrainer loop (same model, loss, batch size).

    python benchmarks/speed/train_speed.py --steps 20  # steps/s + sentences/s, with each optimisation's share
    python benchmarks/speed/train_speed.py --steps 20 --epochs 1   # also train a full epoch both ways and score 2B dev
    python benchmarks/speed/train_speed.py --steps 20 --epochs 1 --full ours,ours-torch-dropout,ours-nodropout --profile
                                     # + where a step's time goes (matmuls vs the machine's sgemm peak, dropout)
    python benchmarks/speed/train_speed.py --only '' --equal-quality   # speed-up at equal quality, judged on the
                                     # train-carved validation split: our training time until its validation idiom
                                     # first reaches what the plain loop's model scores after one epoch

Both sides: all-MiniLM-L6-v2 with last-two-layer pooling and MWE tokens, the adaptive triplet loss (miner 0.4,
margin 0.3), batch 64, lr 2e-5, AdamW with linear warm-up, seed 0, the relabelled 2B train rows (train-carved
validation MWEs removed). The plain loop is ``SentenceTransformerTrainer`` fed the rows in data order (the paper
does not shuffle, so groups stay together), tokenising every batch in the collator at the model's default
max_seq_length (256). The first step of each configuration is not timed (warm-up).

Configurations (ablations of idiomkit's loop, each a step away from the next):
  plain-st        SentenceTransformerTrainer, in-order batches, max_seq_length 256 (the fair baseline)
  plain-st-shuffled  the same with the library's default shuffled batches (splits label groups, so it trains a
                  different objective; shown because it is what a default run costs)
  ours-in-order   our loop (cached tokenisation), in-order batches, max_seq_length 256
  ours-len256     + group-aware length-bucketed batches
  ours-torch-dropout  + max_seq_length 128 (the default: 65 of 9,108 training texts, 0.7%, are longer) + fused AdamW
  ours-padded     + fast dropout (the default on CPU: the same Bernoulli masks drawn 4 per 64-bit random word, and
                  softmax attention with that mask instead of SDPA's dropout path; training/speedups/fast_dropout.py)
  ours            + unpadding (the default on CPU: BERT layers run their linear layers, layer norms and GELU on the
                  real tokens only and pad just for the attention product; training/speedups/unpad.py)
  ours-same-batches  (full epoch only) ours with the plain loop's in-order batches: the same in-batch triplets,
                  so the same objective and, up to dropout's random stream, the same quality
  ours-nodropout  ours with ``dropout=0`` (``idiomkit train --dropout 0``): no dropout masks to sample (a change
                  of the training objective, so its full-epoch quality is measured too)

  ours-bf16       ours with ``precision="bf16"`` (``idiomkit train --precision bf16``): the encoder's forward under
                  bfloat16 autocast (training/precision.py); fast on a CPU with AVX-512 BF16 or AMX, far slower
                  without (an earlier machine of this project); a change of the computation, so a recipe of its own

Measured and not adopted: torch.compile (dynamic shapes) gave no speed-up after a ~55 s compile. Optimizer step
alone: 61 ms default AdamW, 53 ms foreach, 16 ms fused (of ~1.1-1.4 s).
  ours-1thread    ours with torch.set_num_threads(1) instead of 2, for reference
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import torch  # noqa: E402
from sentence_transformers.base.sampler import DefaultBatchSampler  # noqa: E402

BATCH = 64


class InOrderBatchSampler(DefaultBatchSampler):
    """Consecutive rows in data order (what ``DataLoader(shuffle=False)`` gives the paper's loop)."""

    def __iter__(self):
        n = len(self.sampler)
        for i in range(0, n, self.batch_size):
            yield list(range(i, min(i + self.batch_size, n)))

    def __len__(self) -> int:
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


def relabelled_texts(model, seed: int = 0):
    from idiomkit.embedding.mwe import add_mwe_tokens, replace_mwes
    from idiomkit.training.config import TrainConfig
    from idiomkit.training.relabel import relabel
    from idiomkit.training.setup import load_groups

    train, val, _ = load_groups(TrainConfig(seed=seed))
    add_mwe_tokens(model, [m for g in train + val for m in g.mwes])
    rows = relabel(train)
    return [replace_mwes(r.text, r.mwes) for r in rows], [r.label for r in rows]


def plain_st(steps: int | None, epochs: int, out: Path, shuffled: bool = False) -> dict:
    """SentenceTransformerTrainer run; per-step wall times from a callback."""
    from datasets import Dataset
    from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments
    from transformers import TrainerCallback

    from idiomkit.losses import AdaptiveTripletLoss
    from idiomkit.models import load_model
    from idiomkit.settings import seed_everything

    torch.set_num_threads(2)
    seed_everything(0)
    model = load_model("minilm", pooling="last2", device="cpu")
    model.max_seq_length = 256
    texts, labels = relabelled_texts(model)
    times: list[float] = []

    class Timer(TrainerCallback):
        def on_step_begin(self, args, state, control, **kw):
            self.t = time.perf_counter()

        def on_step_end(self, args, state, control, **kw):
            times.append(time.perf_counter() - self.t)

    args = SentenceTransformerTrainingArguments(
        output_dir=str(out / "plain-tmp"),
        per_device_train_batch_size=BATCH,
        num_train_epochs=epochs,
        max_steps=steps or -1,
        learning_rate=2e-5,
        warmup_ratio=0.1,
        weight_decay=0.01,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        seed=0,
        dataloader_num_workers=0,
        logging_steps=50,
    )
    if not shuffled:
        args.batch_sampler = partial(InOrderBatchSampler)
    dataset = Dataset.from_dict({"text": texts, "label": labels})
    trainer = SentenceTransformerTrainer(
        model=model, args=args, train_dataset=dataset, loss=AdaptiveTripletLoss(model), callbacks=[Timer()]
    )
    trainer.train()
    if epochs and not steps:
        model.save(str(out / "plain-model"))
    return {"step_s": times[1:], "sentences": BATCH, "all_step_s": times}


def ours(steps: int | None, epochs: int, out: Path, name: str, **options) -> dict:
    from idiomkit.training import train

    times: list[float] = []
    last = [0.0]

    def on_step(state):
        times.append(state.train_s - last[0])
        last[0] = state.train_s

    run = out / name
    shutil.rmtree(run, ignore_errors=True)
    result = train(
        "adaptive-triplet",
        "minilm",
        epochs=epochs or 1,
        output_dir=run,
        resume=False,
        max_steps=steps,
        checkpoint_every=10_000,
        val_sts=False,
        on_step=on_step,
        **options,
    )
    return {"step_s": times[1:], "sentences": BATCH, "all_step_s": times, "history": result.state.history}


OURS = {  # our loop's configurations (options of ``idiomkit.training.train``), in the order the table shows them
    "ours-in-order": {"batching": "in-order", "max_seq_length": 256, "unpad": False},
    "ours-len256": {"max_seq_length": 256, "unpad": False},
    "ours-torch-dropout": {"fast_dropout": False, "unpad": False},
    "ours-padded": {"unpad": False},
    "ours": {},
    "ours-1thread": {"threads": 1},
    "ours-nodropout": {"dropout": 0.0},
    "ours-bf16": {"precision": "bf16"},
    "ours-same-batches": {"batching": "in-order"},
}
FULL_ONLY = ("ours-same-batches",)  # trained for full epochs only, not timed over --steps
FULL = ("ours", "ours-same-batches", "ours-padded", "ours-torch-dropout", "ours-nodropout")  # --full choices


def sgemm_peak_gflops(n: int = 2048, reps: int = 5, trials: int = 5) -> float:
    """The machine's fp32 matmul throughput at the current thread count: best of ``trials`` timings (a shared
    virtual machine has noisy neighbours; the best timing is the closest to what the cores can do)."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    for _ in range(3):
        a @ b
    best = 0.0
    for _ in range(trials):
        start = time.perf_counter()
        for _ in range(reps):
            a @ b
        best = max(best, 2 * n**3 * reps / (time.perf_counter() - start) / 1e9)
    return best


def profile_steps(steps: int = 5, **options) -> dict:
    """Where our loop's step time goes: torch.profiler self-CPU time by operator family, FLOPs of the matmuls."""
    from torch.profiler import ProfilerActivity, profile

    from idiomkit.training.config import TrainConfig
    from idiomkit.training.setup import setup
    from idiomkit.training.trainer import BatchPlan, make_optimizer, train_step

    torch.set_num_threads(2)
    peak = sgemm_peak_gflops()  # before the model is loaded
    cfg = TrainConfig(recipe="adaptive-triplet", epochs=1, val_sts=False, **options)
    run = setup(cfg)
    model, plan = run.model, BatchPlan(run.phases[0], cfg, 0)
    optimizer, _ = make_optimizer(model, cfg, 100)
    model.train()

    def step(batch_index: int) -> None:
        train_step(run, run.phases[0], plan.step(0, batch_index), optimizer, cfg)

    n = plan.steps(0)
    spread = [1 + i * (n - 1) // steps for i in range(steps)]  # batches spread over the epoch (lengths vary)
    step(0)
    with profile(activities=[ProfilerActivity.CPU], with_flops=True) as prof:
        for i in spread:
            step(i)
    events = prof.key_averages()
    total = sum(e.self_cpu_time_total for e in events) / 1e6
    families = {
        "matmul": ("aten::mm", "aten::addmm", "aten::bmm"),
        "dropout masks": ("aten::bernoulli_", "aten::random_"),  # torch's dropout, fast dropout's random words
    }
    seconds = {k: sum(e.self_cpu_time_total for e in events if e.key in v) / 1e6 for k, v in families.items()}
    flops = sum(e.flops for e in events if e.key in families["matmul"])
    return {
        "steps": steps,
        "step_s": total / steps,
        "share": {k: v / total for k, v in seconds.items()},
        "matmul_gflops": flops / seconds["matmul"] / 1e9 if seconds["matmul"] else None,
        "gflop_per_step": flops / steps / 1e9,
        "sgemm_peak_gflops": peak,
    }


def validation_idiom(model_dir: Path) -> float:
    """Idiom Spearman of a saved model on the train-carved validation split (seed 0), the metric our loop selects on."""
    from sentence_transformers import SentenceTransformer

    from idiomkit.training.config import TrainConfig
    from idiomkit.training.setup import load_groups, validation_evaluator

    model = SentenceTransformer(str(model_dir), device="cpu")
    _, val, _ = load_groups(TrainConfig(seed=0))
    return validation_evaluator(val, model, mwe_tokens=True)(model)["val_idiom"]


def equal_quality(out: Path, eval_every: int = 10) -> dict:
    """Plain loop for one epoch, then ours validated every ``eval_every`` steps: training-step seconds each needs to
    reach the plain model's validation idiom (validation time itself excluded on both sides)."""
    plain = plain_st(None, 1, out)
    plain_s = sum(plain["all_step_s"])
    target = validation_idiom(out / "plain-model")
    ours_run = ours(None, 1, out, "equal", eval_every=eval_every)
    cumulative = [0.0, *itertools.accumulate(ours_run["all_step_s"])]  # training-step seconds before step i
    curve = [(h["step"], cumulative[h["step"]], h["val_idiom"]) for h in ours_run["history"]]
    reached = next(((step, sec) for step, sec, v in curve if v >= target), None)
    return {
        "eval_every": eval_every,
        "plain": {"steps": len(plain["all_step_s"]), "train_s": plain_s, "val_idiom": target},
        "ours_curve": [{"step": a, "train_s": b, "val_idiom": c} for a, b, c in curve],
        "ours_reached": None if reached is None else {"step": reached[0], "train_s": reached[1]},
        "speedup": None if reached is None else plain_s / reached[1],
    }


def summarise(name: str, res: dict) -> dict:
    s = statistics.fmean(res["step_s"])
    return {
        "config": name,
        "s_per_step": s,
        "steps_per_s": 1 / s,
        "sentences_per_s": res["sentences"] / s,
        "timed_steps": len(res["step_s"]),
    }


def dev_idiom(model_dir: Path) -> float:
    from sentence_transformers import SentenceTransformer

    from idiomkit.api import semeval2b_dev_metrics

    model = SentenceTransformer(str(model_dir), device="cpu")
    return semeval2b_dev_metrics(model, mwe_tokens=True)["ALL"]["idiom"]


def markdown(report: dict) -> str:
    """The speed table (+ the full-epoch comparison when present) as markdown."""
    rows = report["configs"]
    base = next((r["s_per_step"] for r in rows if r["config"] == "plain-st"), None)
    lines = [
        f"Mean over {report['steps']} timed steps per configuration (first step not timed).",
        "",
        "| configuration | s/step | steps/s | sentences/s | speed-up vs plain-st |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        up = f"{base / r['s_per_step']:.2f}×" if base else "–"
        lines.append(
            f"| {r['config']} | {r['s_per_step']:.2f} | {r['steps_per_s']:.3f} | {r['sentences_per_s']:.1f} | {up} |"
        )
    if "quality" in report:
        q = report["quality"]
        p = q["plain_st"]
        lines += [
            "",
            f"{q['epochs']} full epoch(s) each (wall time includes model loading, tokenisation and, for "
            "ours, validation; 2B dev idiom ρ of the final model):",
            "",
            "| run | wall s | s/step | 2B dev idiom | Δ idiom vs plain-st | speed-up (wall) | speed-up (step) |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, r in [("plain-st", p)] + [(k, v) for k, v in q.items() if k not in ("epochs", "plain_st")]:
            lines.append(
                f"| {name} | {r['wall_s']:.0f} | {r['s_per_step']:.2f} | {r['dev_idiom']:.4f} | "
                f"{r['dev_idiom'] - p['dev_idiom']:+.4f} | {p['wall_s'] / r['wall_s']:.2f}× | "
                f"{p['s_per_step'] / r['s_per_step']:.2f}× |"
            )
    if "equal_quality" in report:
        e = report["equal_quality"]
        p = e["plain"]
        lines += [
            "",
            "Speed-up at equal quality (judged on the train-carved validation split, never on dev): the "
            f"plain loop's model after one epoch ({p['steps']} steps, {p['train_s']:.0f} s of training steps) "
            f"scores validation idiom {p['val_idiom']:.4f}; ours, validated every {e['eval_every']} steps:",
            "",
            "| ours step | training-step s | validation idiom | reached plain's? |",
            "|---|---|---|---|",
        ]
        for c in e["ours_curve"]:
            lines.append(
                f"| {c['step']} | {c['train_s']:.0f} | {c['val_idiom']:.4f} | "
                f"{'yes' if c['val_idiom'] >= p['val_idiom'] else 'no'} |"
            )
        if e["speedup"] is None:
            lines += ["", "Ours did not reach the plain loop's validation idiom within one epoch."]
        else:
            first = e["ours_reached"]
            lines += [
                "",
                f"First reached at step {first['step']} after {first['train_s']:.0f} s "
                f"of training steps: **{e['speedup']:.2f}× faster at equal (validation) quality**.",
            ]
    for name, f in report.get("profile", {}).items():
        ceiling = max(f["sgemm_peak_gflops"], f["matmul_gflops"])
        lines += [
            "",
            f"Where a step of `{name}` goes (torch.profiler, {f['steps']} steps spread over the epoch, "
            f"{f['step_s']:.2f} s/step self-CPU under the profiler, which adds its own overhead): "
            f"matmuls {f['share']['matmul']:.0%} ({f['gflop_per_step']:.0f} GFLOP a step at "
            f"{f['matmul_gflops']:.0f} GFLOPS; this machine's fp32 sgemm peak at 2 threads is "
            f"{f['sgemm_peak_gflops']:.0f} GFLOPS), dropout mask sampling {f['share']['dropout masks']:.0%}, "
            f"everything else {1 - sum(f['share'].values()):.0%}. With the matmuls at the sgemm peak, a step "
            f"cannot take less than {f['gflop_per_step'] / ceiling:.2f} s.",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="timed steps per configuration")
    parser.add_argument("--epochs", type=int, default=0, help="also train this many full epochs both ways")
    parser.add_argument("--json", type=Path, default=Path(__file__).parent / "train_speed.json")
    parser.add_argument(
        "--only",
        default=None,
        help="comma-separated configurations to time ('' = none: keep the last timings, e.g. with --profile alone)",
    )
    parser.add_argument(
        "--full",
        default="ours",
        help="with --epochs: our configurations trained in full "
        f"beside plain-st (comma-separated, of {', '.join(FULL)})",
    )
    parser.add_argument("--profile", action="store_true", help="also profile 3 steps of ours")
    parser.add_argument("--equal-quality", action="store_true", help="also time both loops to equal validation idiom")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="idiomkit-speed-"))
    configs = {
        "plain-st": lambda: plain_st(args.steps, 1, out),
        "plain-st-shuffled": lambda: plain_st(args.steps, 1, out, shuffled=True),
        **{
            name: partial(ours, args.steps, 1, out, name, **options)
            for name, options in OURS.items()
            if name not in FULL_ONLY
        },
    }
    wanted = list(configs) if args.only is None else [c for c in args.only.split(",") if c]
    previous = json.loads(args.json.read_text(encoding="utf-8")) if args.json.exists() else {}
    rows = []
    for name in wanted:
        rows.append(summarise(name, configs[name]()))
        print(json.dumps(rows[-1]), flush=True)
    report = {"steps": args.steps, "configs": rows, "cpu_count": os.cpu_count()}
    if not wanted:
        report.update(steps=previous["steps"], configs=previous["configs"])
    if args.epochs:
        start = time.perf_counter()
        plain_steps = plain_st(None, args.epochs, out)["step_s"]
        quality = {
            "epochs": args.epochs,
            "plain_st": {
                "wall_s": time.perf_counter() - start,
                "s_per_step": statistics.fmean(plain_steps),
                "dev_idiom": dev_idiom(out / "plain-model"),
            },
        }
        for name in args.full.split(","):
            start = time.perf_counter()
            steps = ours(None, args.epochs, out, f"full-{name}", **OURS[name])["step_s"]
            quality[name] = {
                "wall_s": time.perf_counter() - start,
                "s_per_step": statistics.fmean(steps),
                "dev_idiom": dev_idiom(out / f"full-{name}"),
            }
        report["quality"] = quality
    elif "quality" in previous:
        report["quality"] = previous["quality"]  # a timing-only run keeps the last full-epoch comparison
    if args.equal_quality:
        report["equal_quality"] = equal_quality(out)
    elif "equal_quality" in previous:
        report["equal_quality"] = previous["equal_quality"]
    if args.profile:
        report["profile"] = {name: profile_steps(**OURS[name]) for name in FULL}
    elif "profile" in previous:
        report["profile"] = previous["profile"]
    report["markdown"] = markdown(report)
    print(report["markdown"])
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
