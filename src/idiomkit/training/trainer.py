"""The training loop shared by all recipes: cached tokenisation, group-aware length-bucketed batches, phases of
round-robin streams, validation on a split carved from train by MWE, and exactly resumable checkpoints.

A small loop of our own (rather than ``SentenceTransformerTrainer``) keeps tokenisation cached, batches bucketed
by length and the checkpoint complete: model, optimizer, scheduler, phase/epoch/batch position and RNG states.
``benchmarks/train_speed.py`` measures it against a plain ``SentenceTransformerTrainer`` run.

A run directory is tied to its config (``run_config.json``; another config is refused unless ``force_new``), held
by one writer at a time (``.lock``), and its checkpoint holds only tensors and plain data (``weights_only=True``).
"""

from __future__ import annotations

import copy
import errno
import fcntl
import json
import logging
import os
import random
import re
import shutil
import time
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import get_linear_schedule_with_warmup

from idiomkit.config import run_data_dir, seed_everything
from idiomkit.data.heldout import filter_heldout, heldout_index
from idiomkit.data.idiolink import load_idiolink, triplets_path
from idiomkit.data.semeval2022 import B_FILES, load_train_pairs, semeval_root
from idiomkit.data.sts import sts_files
from idiomkit.embedding.mwe import MweTransform, add_mwe_tokens
from idiomkit.embedding.pooling import stack_only_pooled_layers
from idiomkit.embedding.spans import install_span_pooling
from idiomkit.errors import is_safetensors_error
from idiomkit.models import load_model
from idiomkit.models.lora import add_lora
from idiomkit.results import atomic_write_text, sha256_files
from idiomkit.tasks.idiolink import IdioLinkEvaluator
from idiomkit.tasks.semeval2b import SemEval2BEvaluator
from idiomkit.tasks.sts import StsEvaluator
from idiomkit.training.config import TrainConfig, TrainState, check_options
from idiomkit.training.distributed import (
    DistInfo,
    average_gradients,
    env_rank,
    gather_labels,
    gathered_embeddings,
    init_from_env,
    shard_batch,
)
from idiomkit.training.examples import collate
from idiomkit.training.recipes import RECIPES, build_phases, run_label
from idiomkit.training.recipes.base import PRIMARY, Phase, Setup, sts_validation_pairs
from idiomkit.training.recipes.flagship import VALIDATION_TEXT as FLAGSHIP_VALIDATION
from idiomkit.training.recipes.flagship import card_lines as flagship_card_lines
from idiomkit.training.recipes.flagship import flagship_setup
from idiomkit.training.recipes.pairs import idiom_data, pairs_setup
from idiomkit.training.relabel import Group, group_pairs, split_by_mwe, validation_pairs
from idiomkit.training.speedups import enable_fast_dropout, enable_unpadding

log = logging.getLogger("idiomkit.training")

CHECKPOINT = "checkpoint.pt"
VALIDATION_TEXT = {
    "semeval2b": "10% of train MWEs, pseudo-gold with the otherID rule; SemEval 2B dev never used",
    "idiolink": "IdioLink val split (10 PIEs disjoint from train and test); IdioLink test never used",
    "pairs": "validation idioms (10% of idiom keys by hash); held-out idioms never used",
    "flagship": FLAGSHIP_VALIDATION,
}


# --- data ---------------------------------------------------------------------------------------------------


def load_groups(cfg: TrainConfig) -> tuple[list[Group], list[Group], list[Path]]:
    """(train groups, validation groups, data files) for the config (validation carved by MWE, seeded)."""
    data_dir = run_data_dir(cfg.data_dir)
    path = semeval_root(data_dir) / B_FILES["train"]
    groups = group_pairs(load_train_pairs(data_dir))
    if cfg.heldout_dedup:
        groups = filter_heldout(
            "2B train", groups, lambda g: (g.sentence, *g.correct, *(i for i, _ in g.incorrect)),
            (lambda g: g.mwes) if cfg.dedup_idioms else None, index=heldout_index(data_dir),
        ).kept
    train, val = split_by_mwe(groups, cfg.val_fraction, cfg.seed)
    if cfg.limit_groups:
        train, val = train[: cfg.limit_groups], val[: max(2, cfg.limit_groups // 5)]
    return train, val, [path]


def validation_evaluator(val: list[Group], model, mwe_tokens: bool) -> SemEval2BEvaluator:
    """The 2B evaluator on the train-carved validation groups (metrics ``val_*``; MWE tokens as ``model`` has them)."""
    pairs, gold = validation_pairs(val)
    transform = MweTransform.for_model(model) if mwe_tokens else None
    return SemEval2BEvaluator(pairs, gold, name="val", transform=transform)


def setup(cfg: TrainConfig) -> Setup:
    """Load the model, add MWE tokens (2B recipes, when on), build the recipe's phases (tokenised once) and the
    validation evaluators (train-carved 2B validation, or IdioLink val); ``cfg.dropout``, ``cfg.fast_dropout``
    and ``cfg.unpad`` (CPU only: on GPUs torch's own dropout kernels are fast, and unpadding's index look-ups would
    synchronise with the host; not measured there) apply to every recipe."""
    # idiom/definition pairs (Xiao et al.) have their own data, pooling and evaluator
    source = RECIPES[cfg.recipe].source
    if source == "flagship":
        run = flagship_setup(cfg, load_groups)
    else:
        run = pairs_setup(cfg) if source == "pairs" else sentence_setup(cfg)
    if cfg.dropout is not None:
        set_dropout(run.model, cfg.dropout)
    if cfg.fast_dropout and cfg.dropout != 0 and run.model.device.type == "cpu":
        enable_fast_dropout(run.model)
    if cfg.unpad and run.model.device.type == "cpu":
        enable_unpadding(run.model)
    stack_only_pooled_layers(run.model)
    return run


def sentence_setup(cfg: TrainConfig) -> Setup:
    """:func:`setup` for the SemEval 2B and IdioLink recipes."""
    model = load_model(cfg.model, pooling=cfg.pooling, device="cpu" if not torch.cuda.is_available() else None)
    model.max_seq_length = cfg.max_seq_length
    source = RECIPES[cfg.recipe].source
    data_dir = run_data_dir(cfg.data_dir)
    new_ids: list[int] = []
    evaluators: list[Any] = []
    counts: dict[str, int] = {}
    primary = PRIMARY
    if source == "idiolink":
        cfg.mwe_tokens = False  # IdioLink sentences carry no MWE columns (also set by run_config)
        phases = build_phases(cfg.recipe, model, None, cfg)
        files = [triplets_path(data_dir, "train", "span")]
        if not cfg.limit_groups or cfg.limit_groups >= 50:
            evaluators.append(IdioLinkEvaluator(data_dir, split="val", query_mode=cfg.query_mode))
            files += list(load_idiolink(data_dir, "val").files)
            primary = "val_ndcg@10"
    else:
        train, val, files = load_groups(cfg)
        if cfg.mwe_tokens:
            added = add_mwe_tokens(model, [m for g in train + val for m in g.mwes])
            new_ids = model.tokenizer.convert_tokens_to_ids(added)
            log.info("added %d MWE tokens", len(added))
        phases = build_phases(cfg.recipe, model, train, cfg)
        if val:
            evaluators.append(validation_evaluator(val, model, cfg.mwe_tokens))
        counts.update(train_groups=len(train), val_groups=len(val))
    if cfg.val_sts:
        evaluators.append(StsEvaluator(sts_validation_pairs(cfg), name="val"))
        files += list(sts_files(data_dir, "train" if cfg.heldout_dedup else "dev").values())
    if any(s.examples.name == "sts" for p in phases for s in p.streams):
        files += list(sts_files(data_dir, "train").values())
    if any(s.examples.name == "idiom-meaning" for p in phases for s in p.streams):
        files += list(idiom_data(str(data_dir)).files)
    if any(s.examples.span_masks is not None for p in phases for s in p.streams):
        install_span_pooling(model)
    if cfg.lora_rank:
        add_lora(model, cfg.lora_rank, new_ids)
    for p in phases:
        for s in p.streams:
            counts[f"{p.name}/{s.examples.name}_rows"] = len(s.examples)
            counts[f"{p.name}/{s.examples.name}_truncated"] = s.examples.truncated
    log.info("data: %s", counts)
    return Setup(model, phases, evaluators, files, counts, primary)


def set_dropout(model, p: float) -> int:
    """Set every dropout layer of ``model`` to probability ``p`` for this run (the saved config keeps the model's
    own values, so later fine-tuning of the saved model is unaffected); returns the number of layers changed."""
    if not 0 <= p < 1:
        raise ValueError(f"dropout must be in [0, 1), got {p}")
    layers = [m for m in model.modules() if isinstance(m, torch.nn.Dropout)]
    for layer in layers:
        layer.p = p
    log.info("dropout %.2f in %d layers", p, len(layers))
    return len(layers)


def plain_copy(model):
    """The model itself, or for a LoRA run a copy with the adapters merged into the weights."""
    inner = model[0].model
    if not hasattr(inner, "merge_and_unload"):
        return model
    merged = copy.deepcopy(model)
    merged[0].model = merged[0].model.merge_and_unload()
    return merged


# --- checkpoints --------------------------------------------------------------------------------------------


class RunDirError(ValueError):
    """A one-line refusal about a run directory: another config, a second writer, an unsafe or broken checkpoint."""


CHECKPOINT_FORMAT = 2  # 2: only tensors and plain containers (loads with ``torch.load(weights_only=True)``)


def rng_states() -> dict[str, Any]:
    """Every generator a training step draws from (CUDA's too: dropout masks on a GPU come from it), as tensors and
    plain containers so that a checkpoint loads with ``weights_only=True``."""
    kind, keys, pos, has_gauss, gauss = np.random.get_state(legacy=True)
    states = {
        "torch": torch.get_rng_state(),
        "python": list(random.getstate()),
        "numpy": {"kind": str(kind), "keys": torch.from_numpy(np.asarray(keys, dtype=np.int64)), "pos": int(pos),
                  "has_gauss": int(has_gauss), "gauss": float(gauss)},
    }  # fmt: skip
    if torch.cuda.is_available():
        states["cuda"] = torch.cuda.get_rng_state_all()
    return states


def set_rng_states(states: dict[str, Any]) -> None:
    """Restore :func:`rng_states` (a checkpoint read with ``map_location`` may have moved them to the GPU)."""
    torch.set_rng_state(states["torch"].cpu())
    if "cuda" in states and torch.cuda.is_available() and len(states["cuda"]) == torch.cuda.device_count():
        torch.cuda.set_rng_state_all([s.cpu() for s in states["cuda"]])
    version, internal, gauss_next = states["python"]
    random.setstate((version, tuple(internal), gauss_next))
    n = states["numpy"]
    keys = n["keys"].cpu().numpy().astype(np.uint32)
    np.random.set_state((n["kind"], keys, n["pos"], n["has_gauss"], n["gauss"]))


def save_checkpoint(out: Path, model, optimizer, scheduler, state: TrainState, cfg: TrainConfig) -> Path:
    """Write model + optimizer + scheduler + position + RNG states atomically to ``out/checkpoint.pt``."""
    path = out / CHECKPOINT
    tmp = out / (CHECKPOINT + ".tmp")
    blob = {
        "format": CHECKPOINT_FORMAT,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "state": asdict(state),
        "rng": rng_states(),
        "config": asdict(cfg),
    }
    try:  # write beside, flush to disk, then rename: a kill at any point leaves the previous checkpoint intact
        with open(tmp, "wb") as fh:
            torch.save(blob, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def load_checkpoint(out: Path) -> dict[str, Any] | None:
    """The checkpoint blob in ``out`` (on the CPU), or None. It is unpickled with ``weights_only=True``: tensors and
    plain containers only, so a crafted file cannot run code; anything else is a one-line :class:`RunDirError`."""
    path = out / CHECKPOINT
    if not path.exists():
        return None
    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - pickle, zip and EOF errors all mean the same thing here
        raise RunDirError(
            f"{path}: refused to load: not a plain idiomkit checkpoint (tensors and plain data only; written by an "
            f"older idiomkit, damaged or crafted): {load_failure(exc)}; use --force-new to start over"
        ) from None
    if not isinstance(blob, dict) or blob.get("format") != CHECKPOINT_FORMAT:
        raise RunDirError(f"{path}: not an idiomkit checkpoint of format {CHECKPOINT_FORMAT}; use --force-new")
    return blob


UNSAFE_ADVICE = ("weights_only", "safe_globals", "can still be loaded", "trust")


def load_failure(exc: BaseException) -> str:
    """What ``torch.load(weights_only=True)`` refused, in a few words, without PyTorch's advice to load the file
    unsafely (``weights_only=False``, allow-listing globals): idiomkit never suggests running a checkpoint's code."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))  # torch bolds part of its advice with terminal escapes
    if "WeightsUnpickler error:" in text:  # the unpickler's own reason, e.g. "Unsupported global: GLOBAL getattr"
        text = text.split("WeightsUnpickler error:", 1)[1]
    first = (re.split(r"\.\s|\n", text.strip(), maxsplit=1) or [""])[0].strip().rstrip(".")
    return first if first and not any(word in first for word in UNSAFE_ADVICE) else type(exc).__name__


def restore_checkpoint(blob: dict[str, Any], model) -> None:
    """Put a :func:`load_checkpoint` blob's weights into ``model`` and its RNG states into the generators."""
    model.load_state_dict(blob["model"])
    set_rng_states(blob["rng"])


def read_checkpoint(out: Path, model) -> dict[str, Any] | None:
    """The checkpoint blob in ``out`` (if any), with the model weights and RNG states restored."""
    blob = load_checkpoint(out)
    if blob is not None:
        restore_checkpoint(blob, model)
    return blob


# --- the run directory --------------------------------------------------------------------------------------

RUN_CONFIG = "run_config.json"
LOCK = ".lock"
# config fields that may change when a run resumes: where things are (the data's hashes are in training.json), how
# often a checkpoint is written, CPU threads, and whether epoch models are kept. Every other field shapes the run.
RESUME_SAFE = frozenset({"output_dir", "data_dir", "checkpoint_every", "threads", "keep_epochs"})
RUN_ARTIFACTS = ("best", "best.tmp", CHECKPOINT, CHECKPOINT + ".tmp", "training.json", RUN_CONFIG)


def stored_config(out: Path, blob: dict[str, Any] | None) -> tuple[dict[str, Any], Path] | None:
    """The config ``out`` was trained with and the file that says so: ``run_config.json`` (written at the start of
    every run), else a finished run's ``training.json``, else the checkpoint's; None for a fresh directory."""
    for name in (RUN_CONFIG, "training.json"):
        path = out / name
        if path.exists():
            try:
                config = json.loads(path.read_text(encoding="utf-8")).get("config")
            except (UnicodeDecodeError, json.JSONDecodeError, AttributeError) as exc:
                raise RunDirError(f"{path}: not a run config ({exc}); use --force-new to start over") from None
            if not isinstance(config, dict):
                raise RunDirError(f"{path}: has no 'config' object; use --force-new to start over")
            return config, path
    if blob is not None and isinstance(blob.get("config"), dict):
        return blob["config"], out / CHECKPOINT
    return None


def config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The fields (outside :data:`RESUME_SAFE`, present in both) whose values differ, in config order."""
    return [k for k in new if k in old and k not in RESUME_SAFE and old[k] != new[k]]


def has_progress(out: Path) -> bool:
    """Whether ``out`` holds a run to continue or a finished one (a checkpoint or ``training.json``); a run that
    stopped before its first checkpoint left nothing another config could mix with."""
    return (out / CHECKPOINT).exists() or (out / "training.json").exists()


def check_same_config(out: Path, cfg: TrainConfig, blob: dict[str, Any] | None) -> None:
    """Refuse to continue a run in ``out`` that was trained with another config (one line naming the fields)."""
    found = stored_config(out, blob) if has_progress(out) else None
    if found is None:
        return
    old, _ = found
    new = asdict(cfg)
    diffs = config_differences(old, new)
    if diffs:
        was = ", ".join(f"{k}={old[k]}" for k in diffs)
        now = ", ".join(f"{k}={new[k]}" for k in diffs)
        raise RunDirError(f"{out}: was trained with {was}; now {now}; use --force-new to start over")


def run_artifacts(out: Path) -> list[Path]:
    """What a run leaves in ``out`` that belongs to that run: best/, epoch-*/, checkpoints, training.json and the
    run config (the saved model files are overwritten by the next run's final model)."""
    found = [out / name for name in RUN_ARTIFACTS if (out / name).exists()]
    return found + sorted(p for p in out.glob("epoch-*") if p.is_dir())


def clear_run(out: Path) -> int:
    """Remove :func:`run_artifacts` from ``out``; returns how many were removed (logged)."""
    artifacts = run_artifacts(out)
    for path in artifacts:
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    if artifacts:
        log.info("--force-new: removed %d old run file(s)/dir(s): %s", len(artifacts), [p.name for p in artifacts])
    return len(artifacts)


def write_run_config(out: Path, cfg: TrainConfig) -> Path:
    """Tie ``out`` to ``cfg``: ``run_config.json`` written before the first step."""
    return atomic_write_text(out / RUN_CONFIG, json.dumps({"config": asdict(cfg)}, indent=2) + "\n")


@contextmanager
def run_lock(out: Path):
    """Hold ``out/.lock`` (``flock``, non-blocking) for the run: a second writer is refused with one line."""
    path = out / LOCK
    try:
        fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the whole run
    except OSError as exc:
        raise RunDirError(f"{out}: cannot write the run directory ({exc.strerror or exc})") from None
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirError(
                f"{out}: another training run is writing here (lock {path} is held); wait for it or use another "
                "--output"
            ) from None
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        yield path
    finally:
        fh.close()  # closing releases the lock


def save_model_dir(model, path: Path) -> None:
    """Save a sentence-transformers directory atomically (write beside, then swap); LoRA adapters merged."""
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        plain_copy(model).save(str(tmp))
    except BaseException as exc:  # a half-written copy is never left behind (the previous ``path`` stays)
        shutil.rmtree(tmp, ignore_errors=True)
        if is_safetensors_error(exc):  # safetensors reports a failed write (disk full...) as its own error
            raise write_failure(exc, path) from exc
        raise
    shutil.rmtree(path, ignore_errors=True)
    os.replace(tmp, path)


def write_failure(exc: BaseException, path: Path) -> OSError:
    """The OSError behind safetensors' "Error while serializing: IoError(Os { code: 28, ... })", naming ``path``
    (so a full disk reads as "no space left on device", not as corrupt weights)."""
    found = re.search(r"\bcode: (\d+)", str(exc))
    code = int(found.group(1)) if found else errno.EIO
    return OSError(code, os.strerror(code) if found else f"cannot write the model weights ({exc})", str(path))


# --- loop ---------------------------------------------------------------------------------------------------


def validate(
    model, evaluators, state: TrainState, cfg: TrainConfig, out: Path, primary: str = PRIMARY, save: bool = True
) -> None:
    """Run the evaluators, keep the best model (by ``primary``) in ``out/best``, count evaluations without gain.

    Every process of a distributed run validates (same weights, same decisions); only the main one saves."""
    if not evaluators:
        return
    metrics: dict[str, float] = {}
    for evaluator in evaluators:
        metrics.update(evaluator(model))
    score = metrics.get(primary, float("nan"))
    state.history.append({"step": state.step, "epoch": state.epochs_done, "phase": state.phase, **metrics})
    log.info("step %d: validation %s", state.step, json.dumps(metrics))
    if primary not in metrics:
        return
    if state.best is None or score > state.best:
        state.best, state.best_step, state.bad_evals = score, state.step, 0
        if save:
            save_model_dir(model, out / "best")
    else:
        state.bad_evals += 1
        if cfg.patience is not None and state.bad_evals >= cfg.patience:
            state.stopped = True
            log.info("early stop: %d evaluations without improvement", state.bad_evals)


def make_optimizer(model, cfg: TrainConfig, total: int):
    params = [p for p in model.parameters() if p.requires_grad]
    try:  # the fused kernel: 16 ms instead of 61 ms a step for MiniLM on 2 CPU cores (benchmarks/train_speed.py)
        optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay, fused=True)
    except (RuntimeError, TypeError):
        optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    warmup = int(cfg.warmup * total) if cfg.warmup < 1 else int(cfg.warmup)
    return optimizer, get_linear_schedule_with_warmup(optimizer, warmup, total)


class BatchPlan:
    """Each stream's batches per epoch (deterministic from seed, phase, stream and epoch), computed once.

    Packing whole groups makes the number of batches vary a little from epoch to epoch, so every count is
    looked up per epoch (and per cycle for the streams that cycle beside the first one)."""

    def __init__(self, phase: Phase, cfg: TrainConfig, p_index: int):
        self.phase, self.cfg, self.p_index = phase, cfg, p_index
        self._cache: dict[tuple[int, int], list[list[int]]] = {}
        self._counts: dict[tuple[int, int], int] = {}

    def stream_epoch(self, k: int, epoch: int) -> list[list[int]]:
        if (k, epoch) not in self._cache:
            if len(self._cache) > 8:
                self._cache.clear()
            seed = self.cfg.seed + 7919 * self.p_index + 104729 * k
            examples = self.phase.streams[k].examples
            in_order = self.cfg.batching == "in-order"
            self._cache[k, epoch] = examples.batches(self.cfg.batch_size, seed=seed, epoch=epoch, in_order=in_order)
            self._counts[k, epoch] = len(self._cache[k, epoch])
        return self._cache[k, epoch]

    def count(self, k: int, epoch: int) -> int:
        if (k, epoch) not in self._counts:
            self.stream_epoch(k, epoch)
        return self._counts[k, epoch]

    def steps(self, epoch: int) -> int:
        """Steps in ``epoch`` of the phase (= batches of the first stream)."""
        return self.count(0, epoch)

    def total_steps(self, epochs: int) -> int:
        return sum(self.steps(e) for e in range(epochs))

    def step(self, epoch: int, batch: int) -> list[list[int]]:
        """The batch of every stream for step ``batch`` of ``epoch``: the first stream in order, others cycling."""
        out = [self.stream_epoch(0, epoch)[batch]]
        if len(self.phase.streams) > 1:
            g = sum(self.steps(e) for e in range(epoch)) + batch  # step index within the phase
            for k in range(1, len(self.phase.streams)):
                cycle, rest = 0, g
                while rest >= self.count(k, cycle):
                    rest -= self.count(k, cycle)
                    cycle += 1
                out.append(self.stream_epoch(k, cycle)[rest])
        return out


def run_phase(run: Setup, p_index: int, state: TrainState, cfg: TrainConfig, out: Path, blob, on_step, progress):
    """Train one phase from ``state`` (restoring optimizer/scheduler from ``blob`` when resuming into it)."""
    model, phase = run.model, run.phases[p_index]
    plan = BatchPlan(phase, cfg, p_index)
    total = cfg.max_steps if cfg.max_steps else plan.total_steps(phase.epochs)
    optimizer, scheduler = make_optimizer(model, cfg, total)
    if blob is not None:
        optimizer.load_state_dict(blob["optimizer"])
        scheduler.load_state_dict(blob["scheduler"])
    model.train()
    while state.epoch < phase.epochs and not state.stopped:
        n_batches = plan.steps(state.epoch)
        while state.batch < n_batches:
            if cfg.max_steps and state.step >= cfg.max_steps:
                return
            tick = time.perf_counter()
            loss = train_step(run, phase, plan.step(state.epoch, state.batch), optimizer, cfg.max_grad_norm)
            scheduler.step()
            state.train_s += time.perf_counter() - tick
            state.step, state.batch = state.step + 1, state.batch + 1
            end_of_epoch = state.batch == n_batches
            if end_of_epoch:
                state.epoch, state.batch, state.epochs_done = state.epoch + 1, 0, state.epochs_done + 1
            if progress:
                progress(state, float(loss.detach()))
            if state.step % 10 == 0:
                log.info("step %d phase %s epoch %d loss %.4f lr %.2e", state.step, phase.name, state.epoch,
                         float(loss.detach()), scheduler.get_last_lr()[0])  # fmt: skip
            main = run.dist.is_main
            if end_of_epoch and cfg.keep_epochs and main:
                save_model_dir(model, out / f"epoch-{state.epochs_done}")
            if (cfg.eval_every and state.step % cfg.eval_every == 0) or (end_of_epoch and not cfg.eval_every):
                model.eval()
                validate(model, run.evaluators, state, cfg, out, run.primary, save=main)
                model.train()
            checkpoint_due = state.step % cfg.checkpoint_every == 0 or end_of_epoch or state.stopped
            if main and (checkpoint_due or state.step == cfg.max_steps):
                save_checkpoint(out, model, optimizer, scheduler, state, cfg)
            if on_step:
                on_step(state)
            if state.stopped or end_of_epoch:
                break


def train_step(run: Setup, phase: Phase, batches: list[list[int]], optimizer, max_grad_norm: float) -> torch.Tensor:
    """One optimizer step: the weighted sum of each stream's loss on its batch, backward, gradients averaged over
    processes (distributed runs), clipping, update. Returns the summed loss."""
    loss = 0.0
    for stream, batch in zip(phase.streams, batches, strict=True):
        loss = loss + stream.weight * stream_loss(run.model, stream, batch, run.dist)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    if run.dist.enabled:
        average_gradients(run.model.parameters())
    torch.nn.utils.clip_grad_norm_(run.model.parameters(), max_grad_norm)
    optimizer.step()
    return loss


def stream_loss(model, stream, batch: list[int], dist_info: DistInfo):
    """The stream's loss on ``batch``; in a distributed run each process encodes its shard of whole groups and the
    loss sees every process's embeddings and labels (the full global batch)."""
    groups = stream.examples.groups
    if not dist_info.enabled or len({groups[i] for i in batch}) < dist_info.world_size:
        # a batch with fewer groups than processes (rare: one large group) is computed whole by every process;
        # averaging identical gradients leaves them unchanged
        features, labels = collate(model, stream.examples, batch)
        return stream.loss(features, labels)
    shard = shard_batch(batch, groups, dist_info.world_size)[dist_info.rank]
    features, labels = collate(model, stream.examples, shard)
    with gathered_embeddings(model):
        return stream.loss(features, gather_labels(labels))


@dataclass
class TrainResult:
    """The trained model directory, validation history and counts."""

    output_dir: Path
    state: TrainState
    counts: dict[str, int]
    wall_s: float


def run_config(recipe: str, model: str, epochs: int, output_dir: str | Path, options: dict[str, Any]) -> TrainConfig:
    """The checked :class:`TrainConfig` of a run, as it will be recorded (IdioLink recipes have no MWE tokens)."""
    unknown = sorted(set(options) - {f for f in TrainConfig.__dataclass_fields__})
    if unknown:
        raise ValueError(f"unknown training option(s): {', '.join(unknown)}")
    cfg = TrainConfig(recipe=recipe, model=model, epochs=epochs, output_dir=str(output_dir), **options)
    check_options(cfg)
    if RECIPES[cfg.recipe].source == "idiolink":
        cfg.mwe_tokens = False  # IdioLink sentences carry no MWE columns
    return cfg


def open_run(out: Path, cfg: TrainConfig, force_new: bool, main: bool) -> dict[str, Any] | None:
    """Check ``out`` against ``cfg`` and tie it to ``cfg``; returns the checkpoint to resume from (or None).

    ``force_new`` clears the old run first. Only the main process of a distributed run checks and writes."""
    if not main:
        return None if force_new else load_checkpoint(out)
    if force_new:
        clear_run(out)
        blob = None
    else:
        blob = load_checkpoint(out)
        check_same_config(out, cfg, blob)
    write_run_config(out, cfg)
    return blob


def train(
    recipe: str = "adaptive-triplet",
    model: str = "minilm",
    *,
    epochs: int = 10,
    output_dir: str | Path = "runs/adaptive-triplet",
    force_new: bool = False,
    resume: bool | None = None,
    on_step: Callable[[TrainState], None] | None = None,
    progress: Callable[[TrainState, float], None] | None = None,
    **options: Any,
) -> TrainResult:
    """Train ``model`` with ``recipe`` (see :data:`idiomkit.training.recipes.RECIPES`) and save a
    sentence-transformers directory (+ model card, ``training.json``) in ``output_dir``.

    ``output_dir`` is tied to its config (``run_config.json``, written before the first step). Re-running with the
    same config continues exactly where the last checkpoint (every ``checkpoint_every`` steps and at each epoch end)
    left off; another config is refused with a :class:`RunDirError` naming the fields that differ (those in
    :data:`RESUME_SAFE` may change); ``force_new`` starts over, removing the old run's best/, epoch-*/,
    checkpoints and training.json (``resume=False``, the older spelling, means the same). A second process
    training into ``output_dir`` at the same time is refused (``output_dir/.lock``). The best model on the
    validation split (10% of train MWEs, never dev) becomes the final model. Other :class:`TrainConfig` fields go
    in ``options``; each is range-checked first (:func:`check_options`).
    """
    cfg = run_config(recipe, model, epochs, output_dir, options)
    force_new = force_new or resume is False
    out = Path(output_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunDirError(f"{out}: cannot create the run directory ({exc.strerror or exc})") from None
    rank = env_rank()
    with run_lock(out) if rank == 0 else nullcontext():
        handler = logging.FileHandler(out / ("train.log" if rank == 0 else f"train.rank{rank}.log"), encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        try:
            blob = open_run(out, cfg, force_new, main=rank == 0)
            return _train(cfg, out, blob, on_step, progress)
        finally:
            log.removeHandler(handler)
            handler.close()


def _train(cfg: TrainConfig, out: Path, blob: dict[str, Any] | None, on_step, progress) -> TrainResult:
    start = time.perf_counter()
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    seed_everything(cfg.seed)
    dist_info = init_from_env()
    run = setup(cfg)
    run.dist = dist_info
    if blob is not None:
        restore_checkpoint(blob, run.model)
    state = TrainState(**blob["state"]) if blob else TrainState()
    if run.dist.is_main and state.best_step is None and (out / "best").exists():
        shutil.rmtree(out / "best")  # saved after the last checkpoint of an interrupted start: not this run's yet
        log.info("removed best/ from before the last checkpoint (no validation recorded there)")
    log.info("start at step %d (phase %d, epoch %d, batch %d); config %s", state.step, state.phase, state.epoch,
             state.batch, json.dumps(asdict(cfg)))  # fmt: skip
    while state.phase < len(run.phases) and not state.stopped:
        run_phase(run, state.phase, state, cfg, out, blob, on_step, progress)
        blob = None
        if cfg.max_steps and state.step >= cfg.max_steps:
            break
        if state.epoch >= run.phases[state.phase].epochs:
            state.phase, state.epoch, state.batch = state.phase + 1, 0, 0
    if run.dist.is_main:
        finish(run, state, cfg, out)
    wall = time.perf_counter() - start
    log.info("done at step %d in %.1f s; best %s at step %s", state.step, wall, state.best, state.best_step)
    return TrainResult(out, state, run.counts, wall)


def finish(run: Setup, state: TrainState, cfg: TrainConfig, out: Path) -> None:
    """Put the final model (best on validation, else last) in ``out`` with a model card and ``training.json``."""
    best = out / "best"
    if best.is_dir():
        shutil.copytree(best, out, dirs_exist_ok=True)
    else:
        plain_copy(run.model).save(str(out))
    info = {
        "recipe": cfg.recipe,
        "label": run_label(
            cfg.recipe, cfg.mwe_tokens, cfg.lora_rank, cfg.span_queries, cfg.dropout, cfg.sts_weight, cfg.epochs,
            cfg.heldout_dedup, cfg.dedup_idioms,
        ),
        "config": asdict(cfg),
        "data_sha256": sha256_files(run.data_files),
        "data_files": [str(p) for p in run.data_files],
        "counts": run.counts,
        "steps": state.step,
        "epochs_done": state.epochs_done,
        "train_s": round(state.train_s, 1),
        "best": {"metric": run.primary, "value": state.best, "step": state.best_step},
        "validation": state.history,
    }
    atomic_write_text(out / "training.json", json.dumps(info, indent=2) + "\n")
    write_model_card(out, info)


def write_model_card(out: Path, info: dict[str, Any]) -> Path:
    """Replace the idiomkit section of ``out/README.md`` (the library's card is kept above it)."""
    card = out / "README.md"
    text = card.read_text(encoding="utf-8") if card.exists() else "# idiomkit model\n"
    return atomic_write_text(
        card, text.split("\n## idiomkit training\n")[0].rstrip() + "\n\n" + model_card_section(info)
    )


INTENDED_USE = (
    "research on idiom-aware sentence similarity and retrieval (SemEval-2022 Task 2B-style STS, IdioLink-style "
    "search) in the languages of its training data; not evaluated outside these benchmarks' domains and "
    "languages, and not meant for decisions about people"
)


def model_card_section(info: dict[str, Any]) -> str:
    """The idiomkit part of the model card: recipe, data hashes, validation metrics and intended use."""
    cfg = info["config"]
    last = info["validation"][-1] if info["validation"] else {}
    mix = info.get("interpolation")
    lines = [
        "## idiomkit training",
        "",
        f"- Recipe: `{info['label']}` (see `idiomkit.training.recipes`; miner margin {cfg['miner_margin']}, "
        f"loss margin {cfg['margin']}, miner distance {cfg['miner_distance']} for the adaptive triplet loss; "
        f"pooling {cfg['pooling']}; MWE tokens {'on' if cfg['mwe_tokens'] else 'off'}; "
        f"LoRA rank {cfg['lora_rank'] or 'none (full fine-tuning)'})",
        f"- Base model: `{cfg['model']}`; epochs {cfg['epochs']}, batch size {cfg['batch_size']} sentences, "
        f"lr {cfg['lr']}, warmup {cfg['warmup']}, max_seq_length {cfg['max_seq_length']}, seed {cfg['seed']}; "
        f"steps {info['steps']}",
        f"- Data sha256: {info['data_sha256']}; counts {info['counts']}",
        f"- Validation ({VALIDATION_TEXT[RECIPES[info['recipe']].source]}): best "
        f"{info['best']['metric']} = {info['best']['value']} at step {info['best'].get('step')}; last {last}",
        *([f"- Interpolation: alpha {mix['alpha']} from `{mix['from']}` ({mix['rule']})"] if mix else []),
        f"- Intended use: {INTENDED_USE}.",
        "",
        *(flagship_card_lines() if RECIPES[info["recipe"]].source == "flagship" else []),
    ]
    return "\n".join(lines)
