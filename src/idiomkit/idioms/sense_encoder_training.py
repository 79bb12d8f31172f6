"""Training the cross-encoder sense check (:class:`~idiomkit.idioms.sense_encoder.EncoderSenseCheck`).

The samples are the feature model's (:func:`~idiomkit.idioms.sense_training.training_samples`: 2A train zero-shot,
ITU, mt-ambiguity, EPIE formal, each through the held-out guard), split by idiom into train and validation
(:func:`~idiomkit.idioms.sense_training.idiom_fold`); ITU (53 idioms, thousands of sentences) is capped per idiom
and label so that it does not outweigh the sources with many idioms. The loss is binary cross-entropy with
source-balanced weights. The model is validated every ``eval_every`` steps; the kept checkpoint and its threshold
are those with the highest mean per-source macro-F1 on the validation idioms (the rule of
``benchmarks/sense/sense_check_encoder.py``, written before the run); then each language gets its own threshold,
the same rule on that language's validation samples alone (:func:`language_thresholds`). 2A dev is scored once, at
the end, with the chosen model: it is reported, never chosen on. Checkpoints are written at every validation; a
re-run with the same output folder resumes.

Example::

    check, report = train_encoder_sense_check("../shared/data", "runs/sense-encoder", EncoderTrainOptions())
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms.sense_encoder import EncoderSenseCheck, build_model, encode_batch, score_spans, state_dict
from idiomkit.idioms.sense_training import (
    Sample,
    by_group,
    evaluation_samples,
    idiom_fold,
    language_thresholds,
    source_balanced_threshold,
    source_weights,
    training_samples,
)
from idiomkit.results import atomic_write_text

log = logging.getLogger(__name__)


@dataclass
class EncoderTrainOptions:
    """Options of the cross-encoder sense check's training.

    Args:
        rank: LoRA rank (alpha is twice it).
        epochs: passes over the training samples.
        batch_size: samples per step.
        lr: AdamW learning rate of the adapters (the head uses twice it).
        max_length: tokens per input.
        eval_every: steps between validations (and checkpoints).
        cap_per_idiom: most samples kept per (source, idiom, label) cell of a source with few idioms (ITU).
        seed: sampling, initialisation and order.
        threads: torch threads.
        bf16: autocast the training steps to bfloat16 where the CPU has native bfloat16 (else fp32, with a
            warning); validation and the shipped model run in fp32.
    """

    rank: int = 8
    epochs: int = 2
    batch_size: int = 16
    lr: float = 4e-4
    max_length: int = 128
    eval_every: int = 200
    cap_per_idiom: int = 30
    seed: int = 0
    threads: int = 1
    bf16: bool = True


def capped(samples: Sequence[Sample], cap: int, seed: int) -> list[Sample]:
    """At most ``cap`` samples per (source, idiom, label) for sources with over 50 samples per idiom on average;
    the others are kept whole. The cut is logged."""
    per_source: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        per_source[s.source].append(s)
    out = []
    for source, items in per_source.items():
        idioms = {normalise_idiom(s.idiom) for s in items}
        if len(items) / max(1, len(idioms)) <= 50:
            out.extend(items)
            continue
        cells: dict[tuple[str, bool], list[Sample]] = defaultdict(list)
        for s in items:
            cells[normalise_idiom(s.idiom), s.figurative].append(s)
        rng = random.Random(seed)
        kept = [s for key in sorted(cells) for s in rng.sample(cells[key], min(cap, len(cells[key])))]
        log.info(
            "sense encoder: %s capped at %d per idiom and label: kept %d of %d", source, cap, len(kept), len(items)
        )
        out.extend(kept)
    return out


def _items(samples: Sequence[Sample]) -> list[tuple[str, int, int]]:
    return [(s.sentence, s.start, s.end) for s in samples]


def predict(model: Any, tokenizer: Any, samples: Sequence[Sample], max_length: int, batch: int = 64) -> list[float]:
    """P(figurative) of every sample by the model being trained (:func:`score_spans`), which returns to training."""
    model.eval()
    probs = score_spans(model, tokenizer, _items(samples), max_length, batch)
    model.train()
    return probs


def _native_bf16() -> bool:
    import torch

    probe = getattr(torch.cpu, "_is_avx512_bf16_supported", None)
    return bool(probe and probe()) or bool(getattr(torch.cpu, "_is_amx_tile_supported", lambda: False)())


def _save_checkpoint(folder: Path, model: Any, optimizer: Any, scheduler: Any, step: int, history: list, best: Any):
    import torch

    tmp = folder / "checkpoint.pt.tmp"
    torch.save(
        {
            "model": state_dict(model),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "step": step,
            "history": history,
            "best": best,
        },
        tmp,
    )
    tmp.replace(folder / "checkpoint.pt")


class _Run:
    """One training run's model, optimiser, schedule and progress (resumed from ``checkpoint.pt`` when there)."""

    def __init__(self, folder: Path, options: EncoderTrainOptions, n_train: int) -> None:
        import torch

        self.folder, self.options, self.n_train = folder, options, n_train
        self.model, self.tokenizer = build_model(options.rank, 2 * options.rank)
        named = list(self.model.named_parameters())
        head = [p for n, p in named if n.startswith("head.")]
        lora = [p for n, p in named if p.requires_grad and not n.startswith("head.")]
        self.params = lora + head
        self.optimizer = torch.optim.AdamW(
            [{"params": lora, "lr": options.lr}, {"params": head, "lr": 2 * options.lr}], weight_decay=0.01
        )
        self.steps_per_epoch = n_train // options.batch_size
        self.total = self.steps_per_epoch * options.epochs
        warmup, total = max(1, self.total // 16), self.total
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (total - s) / max(1, total - warmup))
        )
        self.step, self.history, self.best = 0, [], None
        if (folder / "checkpoint.pt").exists():
            self._resume(torch.load(folder / "checkpoint.pt", weights_only=True))

    def _resume(self, saved: dict[str, Any]) -> None:
        import torch

        own = dict(self.model.named_parameters())
        with torch.no_grad():
            for k, v in saved["model"].items():
                own[k].copy_(v.float())
        self.optimizer.load_state_dict(saved["optimizer"])
        self.scheduler.load_state_dict(saved["scheduler"])
        self.step, self.history, self.best = saved["step"], saved["history"], saved["best"]
        log.info("sense encoder: resumed at step %d of %d", self.step, self.total)

    def batch(self) -> list[int]:
        """The sample indices of the next step (a fixed permutation per epoch, so a resumed run continues it)."""
        epoch, at = divmod(self.step, self.steps_per_epoch)
        order = np.random.default_rng(self.options.seed + epoch).permutation(self.n_train)
        return order[at * self.options.batch_size : (at + 1) * self.options.batch_size].tolist()

    def validate(self, validation: Sequence[Sample]) -> None:
        """Score the validation idioms, keep the best model so far (the selection rule), write a checkpoint."""
        import torch

        probs = predict(self.model, self.tokenizer, validation, self.options.max_length)
        threshold, score = source_balanced_threshold(validation, probs)
        self.history.append({"step": self.step, "threshold": threshold, "mean_macro_f1": round(score, 4)})
        log.info("sense encoder: validation at step %d: %s", self.step, self.history[-1])
        if self.best is None or score > self.best["mean_macro_f1"]:
            self.best = dict(self.history[-1])
            torch.save(state_dict(self.model), self.folder / "best.pt")
        _save_checkpoint(self.folder, self.model, self.optimizer, self.scheduler, self.step, self.history, self.best)


def _train(run: _Run, train: Sequence[Sample], validation: Sequence[Sample]) -> None:
    import torch

    options = run.options
    weights = torch.tensor(source_weights(train), dtype=torch.float32)
    labels = torch.tensor([float(s.figurative) for s in train])
    bf16 = options.bf16 and _native_bf16()
    if options.bf16 and not bf16:
        log.warning("sense encoder: this CPU has no native bfloat16 (it would run slower than fp32): training in fp32")
    run.model.train()
    started = time.perf_counter()
    while run.step < run.total:
        idx = run.batch()
        enc = encode_batch(run.tokenizer, _items([train[i] for i in idx]), options.max_length)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            logits = run.model(**enc)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits.float(), labels[idx], weight=weights[idx])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(run.params, 1.0)
        run.optimizer.step()
        run.scheduler.step()
        run.optimizer.zero_grad()
        run.step += 1
        if run.step % 25 == 0:
            elapsed = (time.perf_counter() - started) / 25
            log.info("sense encoder: step %d/%d loss %.4f (%.2f s/step)", run.step, run.total, loss.item(), elapsed)
            started = time.perf_counter()
        if run.step % options.eval_every == 0 or run.step == run.total:
            run.validate(validation)
            started = time.perf_counter()


def train_encoder_sense_check(
    data_dir: str | Path, output: str | Path, options: EncoderTrainOptions
) -> tuple[EncoderSenseCheck, dict[str, Any]]:
    """Train, validate, choose and evaluate (see the module docstring); returns the chosen model and its report."""
    import torch

    torch.set_num_threads(options.threads)
    torch.manual_seed(options.seed)
    folder = Path(output)
    folder.mkdir(parents=True, exist_ok=True)
    samples = training_samples(data_dir)
    train = capped([s for s in samples if idiom_fold(s.idiom) == "train"], options.cap_per_idiom, options.seed)
    validation = [s for s in samples if idiom_fold(s.idiom) == "validation"]
    log.info("sense encoder: %d training and %d validation samples", len(train), len(validation))
    run = _Run(folder, options, len(train))
    _train(run, train, validation)
    config = {
        "base": "me5-small-enpt",
        "rank": options.rank,
        "alpha": 2 * options.rank,
        "max_length": options.max_length,
        "threshold": run.best["threshold"],
    }
    check = EncoderSenseCheck(without_pooler(torch.load(folder / "best.pt", weights_only=True)), config)
    check.thresholds = config["thresholds"] = language_thresholds(validation, check.probabilities(_items(validation)))
    log.info("sense encoder: thresholds per language on the validation idioms: %s", check.thresholds)
    return check, _report(check, folder, options, run, train, validation, evaluation_samples(data_dir))


def without_pooler(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` less the pooler's adapters (a base built with its pooler trained them; its output is unused)."""
    return {k: v for k, v in state.items() if ".pooler." not in k}


def _report(
    check: EncoderSenseCheck,
    folder: Path,
    options: EncoderTrainOptions,
    run: _Run,
    train: Sequence[Sample],
    validation: Sequence[Sample],
    dev: Sequence[Sample],
) -> dict[str, Any]:
    """The numbers of the chosen model (validation by source, 2A dev by language), the 2A dev predictions written
    beside them; the summary goes into the model's file too."""
    val_probs = check.probabilities(_items(validation))
    dev_probs = check.probabilities(_items(dev))
    report = {
        "options": asdict(options),
        "selected": run.best,
        "history": run.history,
        "samples": {"train": len(train), "validation": len(validation), "2A dev": len(dev)},
        "validation": by_group(validation, val_probs, check.threshold_for, lambda s: s.source),
        "evaluation": {"2A dev": by_group(dev, dev_probs, check.threshold_for, lambda s: s.language)},
    }
    check.config["summary"] = {k: report[k] for k in ("options", "selected", "samples", "validation", "evaluation")}
    rows = [
        {
            "sentence": s.sentence,
            "start": s.start,
            "end": s.end,
            "idiom": s.idiom,
            "language": s.language,
            "figurative": s.figurative,
            "probability": round(p, 5),
        }
        for s, p in zip(dev, dev_probs, strict=True)
    ]
    atomic_write_text(folder / "dev_predictions.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    atomic_write_text(folder / "report.json", json.dumps(report, indent=1) + "\n")
    return report
