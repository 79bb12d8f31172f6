"""The training loop shared by all recipes: cached tokenisation, group-aware length-bucketed batches, phases of
round-robin streams, validation on a split carved from train by MWE, and exactly resumable checkpoints.

A small loop of our own (rather than ``SentenceTransformerTrainer``) keeps tokenisation cached, batches bucketed
by length and the checkpoint complete: model, optimizer, scheduler, phase/epoch/batch position and RNG states.
``benchmarks/speed/train_speed.py`` measures it against a plain ``SentenceTransformerTrainer`` run.

The pieces around the loop have a module each: :mod:`.config` (what defines a run), :mod:`.setup` (model, phases,
evaluators), :mod:`.checkpoints` (the checkpoint and saved model directories), :mod:`.run_dir` (a run directory
tied to its config, one writer at a time) and :mod:`.model_card` (the model card).
"""

from __future__ import annotations

import json
import logging
import shutil
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from transformers import get_linear_schedule_with_warmup

from idiomkit.data.meaning_triples import VERSION as CORE_TEST_VERSION
from idiomkit.idioms.reader import model_reader
from idiomkit.idioms.version import reader_record
from idiomkit.models import load_model
from idiomkit.results import atomic_write_text, read_json_object, sha256_files
from idiomkit.settings import seed_everything
from idiomkit.training.checkpoints import (
    RunDirError,
    base_length,
    restore_checkpoint,
    save_checkpoint,
    save_lora_adapter,
    save_model_dir,
    save_plain,
)
from idiomkit.training.config import TrainConfig, TrainState
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
from idiomkit.training.memory import describe_resident, trim_heap
from idiomkit.training.model_card import write_model_card
from idiomkit.training.precision import mixed_precision, warn_if_slow
from idiomkit.training.recipes import run_label
from idiomkit.training.recipes.base import PRIMARY, Phase, Setup
from idiomkit.training.run_dir import open_run, run_lock
from idiomkit.training.setup import run_config, setup

log = logging.getLogger("idiomkit.training")


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
    trim_heap()  # the encodes of thousands of texts leave free pages the training steps do not need
    score = metrics.get(primary, float("nan"))
    state.history.append({"step": state.step, "epoch": state.epochs_done, "phase": state.phase, **metrics})
    log.info("step %d: validation %s", state.step, json.dumps(metrics))
    if primary not in metrics:
        return
    if state.best is None or score > state.best:
        state.best, state.best_step, state.bad_evals = score, state.step, 0
        if save:
            save_model_dir(model, out / "best")
            save_lora_adapter(model, out / "best-adapter", cfg.model, out.name)  # a LoRA run's delta alone
    else:
        state.bad_evals += 1
        if cfg.patience is not None and state.bad_evals >= cfg.patience:
            state.stopped = True
            log.info("early stop: %d evaluations without improvement", state.bad_evals)


def make_optimizer(model, cfg: TrainConfig, total: int):
    params = [p for p in model.parameters() if p.requires_grad]
    try:  # the fused kernel: 16 ms instead of 61 ms a step for MiniLM on 2 CPU cores (benchmarks/speed/train_speed.py)
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
    window, warned = StreamLosses([stream.examples.name for stream in phase.streams]), False
    while state.epoch < phase.epochs and not state.stopped:
        n_batches = plan.steps(state.epoch)
        while state.batch < n_batches:
            if cfg.max_steps and state.step >= cfg.max_steps:
                return
            tick = time.perf_counter()
            loss, parts = train_step(run, phase, plan.step(state.epoch, state.batch), optimizer, cfg)
            window.add(parts)
            scheduler.step()
            state.train_s += time.perf_counter() - tick
            state.step, state.batch = state.step + 1, state.batch + 1
            end_of_epoch = state.batch == n_batches
            if end_of_epoch:
                state.epoch, state.batch, state.epochs_done = state.epoch + 1, 0, state.epochs_done + 1
            if progress:
                progress(state, float(loss.detach()))
            if state.step % 10 == 0:
                warned = log_progress(
                    state, phase.name, float(loss.detach()), scheduler.get_last_lr()[0], window, warned
                )
            main = run.dist.is_main
            if end_of_epoch and cfg.keep_epochs and main:
                save_model_dir(model, out / f"epoch-{state.epochs_done}")
            if validation_due(cfg, state, end_of_epoch, run_ends(run, p_index, state, cfg, end_of_epoch)):
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


def run_ends(run: Setup, p_index: int, state: TrainState, cfg: TrainConfig, end_of_epoch: bool) -> bool:
    """Whether the step just taken is the run's last: ``max_steps`` reached, or the last phase's last epoch done."""
    last_epoch = end_of_epoch and p_index == len(run.phases) - 1 and state.epoch >= run.phases[p_index].epochs
    return bool(cfg.max_steps and state.step >= cfg.max_steps) or last_epoch


def validation_due(cfg: TrainConfig, state: TrainState, end_of_epoch: bool, ends: bool) -> bool:
    """Validate every ``eval_every`` steps (else at each epoch end) and, with ``eval_every``, where the run ends: the
    last steps are a selection candidate too. This happens before the step's checkpoint, so the checkpoint holds the
    final validation and a run resumed after its end does not validate again."""
    if not cfg.eval_every:
        return end_of_epoch
    return state.step % cfg.eval_every == 0 or (ends and not state.stopped)


FAINT_SHARE = 1e-3  # a stream whose weighted loss is below this share of the step's loss moves nothing
FAINT_AFTER = 50  # steps before the check: a keep term starts at 0, the model not having moved yet


class StreamLosses:
    """Each stream's weighted loss, summed over the steps since the last :meth:`pop`: the log shows what each
    stream adds to the step's loss, and :meth:`faint` names a stream whose part is too small to move anything."""

    def __init__(self, names: list[str]) -> None:
        self.names, self.sums, self.steps = names, [0.0] * len(names), 0

    def add(self, parts: list[torch.Tensor] | list[float]) -> None:
        """Add one step's parts; tensors stay on their device until :meth:`pop` (no host sync a step)."""
        self.sums = [total + part for total, part in zip(self.sums, parts, strict=True)]
        self.steps += 1

    def pop(self) -> dict[str, float]:
        """Each stream's mean since the last call (empty before any step), then a fresh window."""
        steps, sums = self.steps, self.sums
        means = {name: float(total) / steps for name, total in zip(self.names, sums, strict=True)} if steps else {}
        self.sums, self.steps = [0.0] * len(self.names), 0
        return means

    @staticmethod
    def describe(means: dict[str, float]) -> str:
        return ", ".join(f"{name} {mean:.3g}" for name, mean in means.items()) or "-"

    @staticmethod
    def faint(means: dict[str, float]) -> list[str]:
        """The streams whose mean is below :data:`FAINT_SHARE` of the step's loss (none with one stream). A stream at
        exactly 0 is not faint: it is switched off (weight 0) or its loss is met (a margin loss), and a larger weight
        would change nothing."""
        total = sum(means.values())
        return [name for name, mean in means.items() if len(means) > 1 and 0 < mean < FAINT_SHARE * total]


def log_progress(state: TrainState, phase: str, loss: float, lr: float, window: StreamLosses, warned: bool) -> bool:
    """A tenth step's log line (loss, learning rate, each stream's weighted mean since the last line, the run's
    resident memory after a heap trim) and, once, a warning naming the streams too faint to move the model. Returns
    whether that warning has been given."""
    steps, means = window.steps, window.pop()
    trim_heap()  # the resident memory logged is what the run holds, not the heap's free pages
    log.info(
        "step %d phase %s epoch %d loss %.4f lr %.2e; per stream, weighted, mean of the last %d steps: %s; %s",
        state.step,
        phase,
        state.epoch,
        loss,
        lr,
        steps,
        StreamLosses.describe(means),
        describe_resident(),
    )
    if state.step >= FAINT_AFTER and not warned and (faint := StreamLosses.faint(means)):
        log.warning(
            "%s: under %g of the step's loss, too small to move the model; raise its weight",
            ", ".join(faint),
            FAINT_SHARE,
        )
        return True
    return warned


def train_step(
    run: Setup, phase: Phase, batches: list[list[int]], optimizer, cfg: TrainConfig
) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """One optimizer step on the weighted sum of each stream's loss on its batch (the model's forward in
    ``cfg.precision``, :func:`~idiomkit.training.precision.mixed_precision`): each stream's part is back-propagated
    as soon as it is computed, so only one stream's activations are held at a time (the gradients add up to the
    sum's), then gradients averaged over processes (distributed runs), clipped to ``cfg.max_grad_norm``, update.
    Returns the summed loss and each stream's weighted part (detached)."""
    parts = []
    optimizer.zero_grad(set_to_none=True)
    with mixed_precision(run.model, cfg.precision):
        for stream, batch in zip(phase.streams, batches, strict=True):
            part = stream.weight * stream_loss(run.model, stream, batch, run.dist)
            if part.requires_grad:
                part.backward()
            parts.append(part.detach())
    loss = torch.stack(parts).sum()
    if run.dist.enabled:
        average_gradients(run.model.parameters())
    torch.nn.utils.clip_grad_norm_(run.model.parameters(), cfg.max_grad_norm)
    optimizer.step()
    return loss, parts


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
    validation split (10% of train MWEs, never dev) becomes the final model; ``max_seq_length`` truncates the
    training texts only (a speed setting): every saved model reads up to its base model's maximum length. Other
    :class:`TrainConfig` fields go in ``options``; each is range-checked first (:func:`check_options`).
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
    warn_if_slow(cfg.precision, run.model.device.type)
    if blob is not None:
        restore_checkpoint(blob, run.model)
    state = TrainState(**blob["state"]) if blob else TrainState()
    if run.dist.is_main and state.best_step is None and (out / "best").exists():
        shutil.rmtree(out / "best")  # saved after the last checkpoint of an interrupted start: not this run's yet
        log.info("removed best/ from before the last checkpoint (no validation recorded there)")
    log.info(
        "start at step %d (phase %d, epoch %d, batch %d); config %s",
        state.step,
        state.phase,
        state.epoch,
        state.batch,
        json.dumps(cfg.record()),
    )
    if cfg.eval_at_start and state.step == 0 and not state.history:
        run.model.eval()
        validate(run.model, run.evaluators, state, cfg, out, run.primary, save=run.dist.is_main)  # the base: step 0
        run.model.train()
    while state.phase < len(run.phases) and not state.stopped:
        run_phase(run, state.phase, state, cfg, out, blob, on_step, progress)
        blob = None
        if cfg.max_steps and state.step >= cfg.max_steps:
            break
        if state.epoch >= run.phases[state.phase].epochs:
            state.phase, state.epoch, state.batch = state.phase + 1, 0, 0
    if cfg.eval_every and not state.stopped and (not state.history or state.history[-1]["step"] != state.step):
        run.model.eval()  # a checkpoint written before its run validated where it ended (older idiomkit)
        validate(run.model, run.evaluators, state, cfg, out, run.primary, save=run.dist.is_main)
    if run.dist.is_main:
        finish(run, state, cfg, out)
    wall = time.perf_counter() - start
    log.info("done at step %d in %.1f s; best %s at step %s", state.step, wall, state.best, state.best_step)
    return TrainResult(out, state, run.counts, wall)


def finish(run: Setup, state: TrainState, cfg: TrainConfig, out: Path) -> None:
    """Put the final model (best on validation, else last) in ``out`` with a model card and ``training.json``
    (with the version of the idiom reader the model trained with and keeps: :func:`reader_record`, null without;
    and the core test's version, whose held-out split its streams were filtered by)."""
    best = out / "best"
    if best.is_dir():
        shutil.copytree(best, out, dirs_exist_ok=True)
    else:
        save_plain(run.model, out)
    info = {
        "recipe": cfg.recipe,
        "label": run_label(cfg.recipe, cfg),
        "config": cfg.record(),
        "reads_max_seq_length": base_length(run.model),
        **reader_record(model_reader(run.model)),
        "core_test_version": CORE_TEST_VERSION,  # the held-out split its training streams were filtered by
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


def resave_at_base_length(out: Path) -> int:
    """Re-save the model of a run directory saved at its training length (an older run) so that it reads up to its
    base model's maximum length, as runs save now; the run's other files (checkpoint, ``best/``) stay, and
    ``training.json`` and the model card gain ``reads_max_seq_length``. Returns that length."""
    info = read_json_object(out / "training.json", "training.json")
    reads = load_model(info["config"]["model"]).max_seq_length
    tmp = out.with_name(out.name + ".resave")
    shutil.rmtree(tmp, ignore_errors=True)
    save_plain(load_model(str(out)), tmp, reads)
    shutil.copytree(tmp, out, dirs_exist_ok=True)
    shutil.rmtree(tmp)
    info["reads_max_seq_length"] = reads
    atomic_write_text(out / "training.json", json.dumps(info, indent=2) + "\n")
    write_model_card(out, info)
    log.info("%s: saved reading up to %d tokens (trained at %s)", out, reads, info["config"].get("max_seq_length"))
    return reads
