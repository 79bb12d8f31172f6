"""The ``adaptive-triplet`` recipe (He & Scarton): relabelled SubTaskB train data, MWE tokens, last-two-layer
pooling, miner + triplet loss, a group-keeping length-bucketed sampler, and an exactly resumable training loop.

A small loop of our own (rather than ``SentenceTransformerTrainer``) keeps tokenisation cached, batches bucketed
by length and the checkpoint complete: model, optimizer, scheduler, sampler position and RNG states.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from idiomkit.config import default_data_dir, seed_everything
from idiomkit.data.semeval2022 import B_FILES, load_train_pairs, semeval_root
from idiomkit.losses import AdaptiveTripletLoss
from idiomkit.models import load_model
from idiomkit.results import atomic_write_text, sha256_files
from idiomkit.tasks.semeval2b import SemEval2BEvaluator
from idiomkit.training.mwe import MweTransform, add_mwe_tokens, replace_mwes
from idiomkit.training.relabel import Group, group_pairs, relabel, split_by_mwe, validation_pairs
from idiomkit.training.sampler import grouped_length_batches

log = logging.getLogger("idiomkit.training")

CHECKPOINT = "checkpoint.pt"
PRIMARY = "val_idiom"


@dataclass
class TrainConfig:
    """Everything that defines a run (stored in checkpoints and the model card)."""

    recipe: str = "adaptive-triplet"
    model: str = "minilm"
    epochs: int = 10
    batch_size: int = 64
    lr: float = 2e-5
    warmup: float = 0.1  # fraction of all steps (< 1) or a number of steps
    weight_decay: float = 0.01
    max_grad_norm: float = 1.0
    max_seq_length: int = 128
    seed: int = 0
    mwe_tokens: bool = True
    miner_margin: float = 0.4
    margin: float = 0.3
    miner_distance: str = "cosine"
    output_dir: str = "runs/adaptive-triplet"
    eval_every: int = 0  # steps; 0 = once per epoch
    checkpoint_every: int = 50
    patience: int | None = None  # evaluations without improvement before stopping; None = never stop early
    max_steps: int | None = None
    limit_groups: int | None = None
    val_fraction: float = 0.1
    threads: int | None = 2
    data_dir: str | None = None


@dataclass
class TrainState:
    """Where training stands: resumable position and model-selection bookkeeping."""

    step: int = 0
    epoch: int = 0
    batch: int = 0  # next batch index within ``epoch``
    best: float | None = None
    best_step: int | None = None
    bad_evals: int = 0
    stopped: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class TrainData:
    """Cached, tokenised training rows and the validation evaluator."""

    input_ids: list[list[int]]
    labels: list[int]
    groups: list[int]
    evaluator: SemEval2BEvaluator | None
    data_files: list[Path]
    counts: dict[str, int]


# --- data ---------------------------------------------------------------------------------------------------


def load_groups(cfg: TrainConfig) -> tuple[list[Group], list[Group], list[Path]]:
    """(train groups, validation groups, data files) for the config (validation carved by MWE, seeded)."""
    data_dir = Path(cfg.data_dir) if cfg.data_dir else default_data_dir()
    path = semeval_root(data_dir) / B_FILES["train"]
    train, val = split_by_mwe(group_pairs(load_train_pairs(data_dir)), cfg.val_fraction, cfg.seed)
    if cfg.limit_groups:
        train, val = train[: cfg.limit_groups], val[: max(2, cfg.limit_groups // 5)]
    return train, val, [path]


def prepare_data(model, cfg: TrainConfig) -> TrainData:
    """Relabel, add MWE tokens (when on), tokenise once, and build the validation evaluator."""
    train, val, files = load_groups(cfg)
    if cfg.mwe_tokens:
        added = add_mwe_tokens(model, [m for g in train + val for m in g.mwes])
        log.info("added %d MWE tokens", len(added))
    rows = relabel(train)
    texts = [replace_mwes(r.text, r.mwes) if cfg.mwe_tokens else r.text for r in rows]
    enc = model.tokenizer(texts, truncation=False, add_special_tokens=True)["input_ids"]
    truncated = sum(len(ids) > cfg.max_seq_length for ids in enc)
    input_ids = [ids[: cfg.max_seq_length - 1] + [ids[-1]] if len(ids) > cfg.max_seq_length else ids for ids in enc]
    evaluator = None
    if val:
        pairs, gold = validation_pairs(val)
        transform = MweTransform.for_model(model) if cfg.mwe_tokens else None
        evaluator = SemEval2BEvaluator(pairs, gold, name="val", transform=transform)
    counts = {
        "train_groups": len(train),
        "train_rows": len(rows),
        "train_labels": len({r.label for r in rows}),
        "val_groups": len(val),
        "truncated_rows": truncated,
    }
    log.info("data: %s", counts)
    return TrainData(input_ids, [r.label for r in rows], [r.group for r in rows], evaluator, files, counts)


def collate(model, data: TrainData, batch: list[int]) -> tuple[dict[str, torch.Tensor], torch.Tensor]:
    """Pad cached token ids of ``batch`` into model features + labels."""
    feats = model.tokenizer.pad([{"input_ids": data.input_ids[i]} for i in batch], return_tensors="pt")
    features = {k: v.to(model.device) for k, v in feats.items()}
    return features, torch.tensor([data.labels[i] for i in batch], device=model.device)


def epoch_batches(data: TrainData, cfg: TrainConfig, epoch: int) -> list[list[int]]:
    lengths = [len(ids) for ids in data.input_ids]
    return grouped_length_batches(data.groups, lengths, cfg.batch_size, seed=cfg.seed, epoch=epoch)


# --- checkpoints --------------------------------------------------------------------------------------------


def rng_states() -> dict[str, Any]:
    return {"torch": torch.get_rng_state(), "python": random.getstate(), "numpy": np.random.get_state()}


def set_rng_states(states: dict[str, Any]) -> None:
    torch.set_rng_state(states["torch"])
    random.setstate(states["python"])
    np.random.set_state(states["numpy"])


def save_checkpoint(out: Path, model, optimizer, scheduler, state: TrainState, cfg: TrainConfig) -> Path:
    """Write model + optimizer + scheduler + position + RNG states atomically to ``out/checkpoint.pt``."""
    path = out / CHECKPOINT
    tmp = out / (CHECKPOINT + ".tmp")
    blob = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "state": asdict(state),
        "rng": rng_states(),
        "config": asdict(cfg),
    }
    torch.save(blob, tmp)
    os.replace(tmp, path)
    return path


def load_checkpoint(out: Path, model, optimizer, scheduler) -> TrainState | None:
    """Restore a checkpoint in ``out`` (if any) into the given objects; returns its state."""
    path = out / CHECKPOINT
    if not path.exists():
        return None
    blob = torch.load(path, map_location=model.device, weights_only=False)
    model.load_state_dict(blob["model"])
    optimizer.load_state_dict(blob["optimizer"])
    scheduler.load_state_dict(blob["scheduler"])
    set_rng_states(blob["rng"])
    return TrainState(**blob["state"])


def save_model_dir(model, path: Path) -> None:
    """Save a sentence-transformers directory atomically (write beside, then swap)."""
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save(str(tmp))
    shutil.rmtree(path, ignore_errors=True)
    os.replace(tmp, path)


# --- loop ---------------------------------------------------------------------------------------------------


def validate(model, data: TrainData, state: TrainState, cfg: TrainConfig, out: Path) -> None:
    """Score the validation split, keep the best model in ``out/best``, count evaluations without improvement."""
    if data.evaluator is None:
        return
    metrics = data.evaluator(model)
    score = metrics.get(PRIMARY, float("nan"))
    state.history.append({"step": state.step, "epoch": state.epoch, **metrics})
    log.info("step %d: validation %s", state.step, json.dumps(metrics))
    if state.best is None or score > state.best:
        state.best, state.best_step, state.bad_evals = score, state.step, 0
        save_model_dir(model, out / "best")
    else:
        state.bad_evals += 1
        if cfg.patience is not None and state.bad_evals >= cfg.patience:
            state.stopped = True
            log.info("early stop: %d evaluations without improvement", state.bad_evals)


def total_steps(n_batches: int, cfg: TrainConfig) -> int:
    return cfg.max_steps if cfg.max_steps else n_batches * cfg.epochs


def make_optimizer(model, cfg: TrainConfig, total: int):
    from transformers import get_linear_schedule_with_warmup

    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    warmup = int(cfg.warmup * total) if cfg.warmup < 1 else int(cfg.warmup)
    return optimizer, get_linear_schedule_with_warmup(optimizer, warmup, total)


def run_epochs(model, loss_fn, data, optimizer, scheduler, state, cfg, out, *, on_step=None, progress=None) -> None:
    """Train from ``state`` until all epochs / ``max_steps`` are done or early stopping triggers."""
    model.train()
    while state.epoch < cfg.epochs and not state.stopped:
        batches = epoch_batches(data, cfg, state.epoch)
        while state.batch < len(batches):
            if cfg.max_steps and state.step >= cfg.max_steps:
                return
            features, labels = collate(model, data, batches[state.batch])
            loss = loss_fn([features], labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
            optimizer.step()
            scheduler.step()
            state.step, state.batch = state.step + 1, state.batch + 1
            end_of_epoch = state.batch == len(batches)
            if end_of_epoch:
                state.epoch, state.batch = state.epoch + 1, 0
            if progress:
                progress(state, float(loss.detach()))
            if state.step % 10 == 0:
                log.info(
                    "step %d epoch %d loss %.4f lr %.2e",
                    state.step,
                    state.epoch,
                    float(loss),
                    scheduler.get_last_lr()[0],
                )
            if (cfg.eval_every and state.step % cfg.eval_every == 0) or (end_of_epoch and not cfg.eval_every):
                model.eval()
                validate(model, data, state, cfg, out)
                model.train()
            if state.step % cfg.checkpoint_every == 0 or end_of_epoch or state.stopped or state.step == cfg.max_steps:
                save_checkpoint(out, model, optimizer, scheduler, state, cfg)
            if on_step:
                on_step(state)
            if state.stopped or end_of_epoch:
                break


@dataclass
class TrainResult:
    """The trained model directory, validation history and counts."""

    output_dir: Path
    state: TrainState
    counts: dict[str, int]
    wall_s: float


def train(
    recipe: str = "adaptive-triplet",
    model: str = "minilm",
    *,
    epochs: int = 10,
    batch_size: int = 64,
    lr: float = 2e-5,
    warmup: float = 0.1,
    max_seq_length: int = 128,
    seed: int = 0,
    mwe_tokens: bool = True,
    output_dir: str | Path = "runs/adaptive-triplet",
    resume: bool = True,
    eval_every: int = 0,
    max_steps: int | None = None,
    limit_groups: int | None = None,
    on_step: Callable[[TrainState], None] | None = None,
    progress: Callable[[TrainState, float], None] | None = None,
    **options: Any,
) -> TrainResult:
    """Train ``model`` with ``recipe`` and save a sentence-transformers directory (+ model card) in ``output_dir``.

    Checkpoints (``output_dir/checkpoint.pt``) are written every ``checkpoint_every`` steps and at each epoch end;
    with ``resume`` a run continues exactly where the last checkpoint left off. The best model on the validation
    split (10% of train MWEs, never dev) becomes the final model. Other ``TrainConfig`` fields go in ``options``.
    """
    if recipe != "adaptive-triplet":
        raise ValueError(f"unknown recipe '{recipe}' (expected adaptive-triplet)")
    cfg = TrainConfig(
        recipe=recipe, model=model, epochs=epochs, batch_size=batch_size, lr=lr, warmup=warmup,
        max_seq_length=max_seq_length, seed=seed, mwe_tokens=mwe_tokens, output_dir=str(output_dir),
        eval_every=eval_every, max_steps=max_steps, limit_groups=limit_groups, **options,
    )  # fmt: skip
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(out / "train.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        return _train(cfg, out, resume, on_step, progress)
    finally:
        log.removeHandler(handler)
        handler.close()


def _train(cfg: TrainConfig, out: Path, resume: bool, on_step, progress) -> TrainResult:
    start = time.perf_counter()
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    seed_everything(cfg.seed)
    st = load_model(cfg.model, pooling="last2", device="cpu" if not torch.cuda.is_available() else None)
    st.max_seq_length = cfg.max_seq_length
    data = prepare_data(st, cfg)
    loss_fn = AdaptiveTripletLoss(st, cfg.miner_margin, cfg.margin, miner_distance=cfg.miner_distance)
    n_batches = len(epoch_batches(data, cfg, 0))
    optimizer, scheduler = make_optimizer(st, cfg, total_steps(n_batches, cfg))
    state = (load_checkpoint(out, st, optimizer, scheduler) if resume else None) or TrainState()
    log.info("start at step %d (epoch %d, batch %d/%d); config %s", state.step, state.epoch, state.batch,
             n_batches, json.dumps(asdict(cfg)))  # fmt: skip
    run_epochs(st, loss_fn, data, optimizer, scheduler, state, cfg, out, on_step=on_step, progress=progress)
    finish(st, data, state, cfg, out)
    wall = time.perf_counter() - start
    log.info("done at step %d in %.1f s; best %s at step %s", state.step, wall, state.best, state.best_step)
    return TrainResult(out, state, data.counts, wall)


def finish(model, data: TrainData, state: TrainState, cfg: TrainConfig, out: Path) -> None:
    """Put the final model (best on validation, else last) in ``out`` with a model card and ``training.json``."""
    best = out / "best"
    if best.is_dir():
        shutil.copytree(best, out, dirs_exist_ok=True)
    else:
        model.save(str(out))
    info = {
        "recipe": cfg.recipe,
        "config": asdict(cfg),
        "data_sha256": sha256_files(data.data_files),
        "data_files": [str(p) for p in data.data_files],
        "counts": data.counts,
        "steps": state.step,
        "best": {"metric": PRIMARY, "value": state.best, "step": state.best_step},
        "validation": state.history,
    }
    atomic_write_text(out / "training.json", json.dumps(info, indent=2) + "\n")
    card = out / "README.md"
    text = card.read_text(encoding="utf-8") if card.exists() else "# idiomkit model\n"
    atomic_write_text(card, text.split("\n## idiomkit training\n")[0].rstrip() + "\n\n" + model_card_section(info))


def model_card_section(info: dict[str, Any]) -> str:
    """The idiomkit part of the model card: recipe, data hashes and validation metrics."""
    cfg = info["config"]
    last = info["validation"][-1] if info["validation"] else {}
    lines = [
        "## idiomkit training",
        "",
        f"- Recipe: `{info['recipe']}` (He & Scarton adaptive triplet loss; miner margin {cfg['miner_margin']}, "
        f"loss margin {cfg['margin']}, miner distance {cfg['miner_distance']}, last-two-layer mean pooling, "
        f"MWE tokens {'on' if cfg['mwe_tokens'] else 'off'})",
        f"- Base model: `{cfg['model']}`; epochs {cfg['epochs']}, batch size {cfg['batch_size']}, lr {cfg['lr']}, "
        f"warmup {cfg['warmup']}, max_seq_length {cfg['max_seq_length']}, seed {cfg['seed']}; steps {info['steps']}",
        f"- Data: SemEval-2022 Task 2 SubTaskB train_data.csv, sha256 `{info['data_sha256']}`; counts {info['counts']}",
        f"- Validation (10% of train MWEs, pseudo-gold with the otherID rule; SemEval 2B dev never used): best "
        f"{info['best']['metric']} = {info['best']['value']} at step {info['best']['step']}; last {last}",
        "",
    ]
    return "\n".join(lines)
