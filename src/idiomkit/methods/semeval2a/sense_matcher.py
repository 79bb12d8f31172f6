"""One-shot SemEval-2022 Task 2A by sense matching: is this use of the MWE like its idiomatic or its literal shot?

In the one-shot setting every dev MWE comes with one labelled example per label it has. Where the shots carry a
single label, that label is the answer (:func:`idiomkit.tasks.semeval2a.single_label_shots`). Where they carry
both, the example takes the label of the shot whose *use* of the MWE is most like its own: the cosine of the
MWE's span embeddings (late chunking, mean of the MWE's tokens in the target sentence).

The matcher fine-tunes the top layers of a sentence-transformers encoder so that uses of the same MWE with the
same label are closer than uses with different labels: a CoSENT loss over every within-MWE pair of a batch (a batch
holds chunks of a few MWEs' examples, so each encoding enters many pairs). Training MWEs are those of
``train_zero_shot`` with both labels; a by-MWE validation split of them picks the epoch by *nearest-shot macro-F1*
on simulated one-shot episodes (one shot per label, drawn with the seed), so dev is never looked at.

Usage::

    from idiomkit.methods.semeval2a.sense_matcher import MatcherConfig, train_matcher, nearest_shot_labels
    matcher, info = train_matcher(load_model("me5-small-enpt"), train_examples, MatcherConfig(seed=0))
"""

from __future__ import annotations

import copy
import logging
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import torch
from torch import Tensor

from idiomkit.data.semeval2a import Example2A, find_mwe
from idiomkit.embedding.spans import masked_mean
from idiomkit.methods.base import Method
from idiomkit.methods.semeval2a.classifier import (
    ClassifierConfig,
    Encoded,
    SpanClassifier,
    frozen,
    frozen_parameters,
    training_info,
    warmup_linear_schedule,
)
from idiomkit.metrics.classification import macro_f1
from idiomkit.settings import seed_everything
from idiomkit.tasks.semeval2a import pick_shots, split_by_mwe

log = logging.getLogger(__name__)


@dataclass
class MatcherConfig:
    """One matcher run (defaults sized for a shared 2-core CPU)."""

    model: str = "me5-small-enpt"
    epochs: int = 3
    chunk: int = 8  # examples of one MWE per chunk
    chunks_per_batch: int = 4
    lr: float = 5e-5
    warmup: float = 0.1
    scale: float = 20.0  # CoSENT temperature
    max_seq_length: int = 128
    train_layers: int = 4
    val_fraction: float = 0.1
    episodes: int = 5  # shot draws per validation MWE
    seed: int = 0

    @property
    def recipe(self) -> str:
        return f"sense-matcher-top{self.train_layers}"


def cosent_pair_loss(cos: Tensor, same: Tensor, scale: float = 20.0) -> Tensor:
    """CoSENT over pairs: ``log(1 + sum exp(scale * (cos_neg - cos_pos)))`` for every (different, same) pair."""
    diff = scale * (cos[~same][:, None] - cos[same][None, :])
    zero = torch.zeros(1, device=cos.device, dtype=cos.dtype)
    return torch.logsumexp(torch.cat([zero, diff.flatten()]), dim=0)


def span_vectors(model: SpanClassifier, examples: Sequence[Example2A], max_length: int) -> Tensor:
    """Mean of the MWE's token embeddings in each target sentence (gradients flow when training)."""
    spans = [find_mwe(ex.target, ex.mwe) for ex in examples]
    batch = Encoded([ex.target for ex in examples], None, spans)
    feats = model.features(batch, max_length)
    inputs = {k: v for k, v in feats.items() if k in ("input_ids", "attention_mask", "token_type_ids")}
    return masked_mean(model.encoder(**inputs).last_hidden_state, feats["span_mask"])


@torch.inference_mode()
def embed(model: SpanClassifier, examples: Sequence[Example2A], max_length: int, batch_size: int = 64) -> np.ndarray:
    """Unit span vectors ``(n, d)``, longest sentences first (little padding)."""
    model.eval()
    order = list(np.argsort([-len(ex.target) for ex in examples], kind="stable"))
    out = np.zeros((len(examples), model.encoder.config.hidden_size), dtype=np.float32)
    for i in range(0, len(order), batch_size):
        idx = order[i : i + batch_size]
        v = span_vectors(model, [examples[j] for j in idx], max_length).float()
        out[idx] = torch.nn.functional.normalize(v, dim=-1).cpu().numpy()
    return out


def both_label_mwes(examples: Sequence[Example2A]) -> set[str]:
    labels: dict[str, set[int]] = {}
    for ex in examples:
        labels.setdefault(ex.mwe, set()).add(ex.label)
    return {m for m, seen in labels.items() if seen >= {0, 1}}


def mwe_batches(examples: Sequence[Example2A], cfg: MatcherConfig, rng: random.Random) -> list[list[int]]:
    """Batches of ``chunks_per_batch`` chunks, each ``chunk`` shuffled examples of one MWE (pairs stay within a
    chunk's MWE); MWEs with one label only are skipped (they have no different-label pair)."""
    keep = both_label_mwes(examples)
    by_mwe: dict[str, list[int]] = {}
    for i, ex in enumerate(examples):
        if ex.mwe in keep:
            by_mwe.setdefault(ex.mwe, []).append(i)
    chunks = []
    for mwe in sorted(by_mwe):
        idx = by_mwe[mwe][:]
        rng.shuffle(idx)
        chunks += [idx[i : i + cfg.chunk] for i in range(0, len(idx), cfg.chunk) if len(idx[i : i + cfg.chunk]) > 1]
    rng.shuffle(chunks)
    k = cfg.chunks_per_batch
    return [[i for c in chunks[j : j + k] for i in c] for j in range(0, len(chunks), k)]


def batch_loss(model: SpanClassifier, examples: Sequence[Example2A], cfg: MatcherConfig) -> Tensor:
    v = torch.nn.functional.normalize(span_vectors(model, examples, cfg.max_seq_length), dim=-1)
    i, j = torch.triu_indices(len(examples), len(examples), offset=1)
    mwe = [ex.mwe for ex in examples]
    within = torch.tensor([mwe[a] == mwe[b] for a, b in zip(i.tolist(), j.tolist(), strict=True)])
    i, j = i[within], j[within]
    labels = torch.tensor([ex.label for ex in examples])
    same = (labels[i] == labels[j]).to(v.device)
    return cosent_pair_loss((v[i] * v[j]).sum(-1), same, cfg.scale)


def nearest_shot_labels(x: np.ndarray, mwes: Sequence[str], x_shots: np.ndarray, shots: dict) -> list[int]:
    """Label of the most similar shot of each example's MWE (``shots``: ``{mwe: {label: [row of x_shots]}}``);
    shots of a single label give that label; an MWE without shots gets -1."""
    out = []
    for vec, mwe in zip(x, mwes, strict=True):
        best = {lab: float(np.max(x_shots[idx] @ vec)) for lab, idx in shots.get(mwe, {}).items()}
        out.append(max(best, key=best.get) if best else -1)
    return out


def episode_macro_f1(x: np.ndarray, examples: Sequence[Example2A], episodes: int, seed: int) -> float:
    """Simulated one-shot macro-F1: per MWE, draw one shot per label (``episodes`` times, seeded), label the rest
    by :func:`nearest_shot_labels`; gold and predictions of all draws pooled."""
    rng = random.Random(seed)
    gold, pred = [], []
    for _ in range(episodes):
        shots = pick_shots(examples, rng=rng)
        used = {i for d in shots.values() for idx in d.values() for i in idx}
        rest = [i for i in range(len(examples)) if i not in used]
        pred += nearest_shot_labels(x[rest], [examples[i].mwe for i in rest], x, shots)
        gold += [examples[i].label for i in rest]
    return macro_f1(gold, pred)


def train_matcher(st, train: Sequence[Example2A], cfg: MatcherConfig, on_epoch=None) -> tuple[SpanClassifier, dict]:
    """Fine-tune the top ``train_layers`` of ``st`` on the zero-shot rows of ``train``; keep the epoch with the best
    validation episode macro-F1 (epoch 0 = the encoder as given). Returns (matcher, info)."""
    seed_everything(cfg.seed)
    own = [ex for ex in train if ex.setting != "one_shot"]
    fit, val = split_by_mwe(own, cfg.val_fraction, cfg.seed)
    model = SpanClassifier(st, pool="span")
    with frozen(frozen_parameters(model.encoder, ClassifierConfig(train_layers=cfg.train_layers))):
        return _train(model, fit, val, cfg, on_epoch)


def _train(model: SpanClassifier, fit, val, cfg: MatcherConfig, on_epoch) -> tuple[SpanClassifier, dict[str, Any]]:
    params = [p for p in model.encoder.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.01)
    rng = random.Random(cfg.seed)
    steps_per_epoch = len(mwe_batches(fit, cfg, random.Random(cfg.seed)))
    scheduler = warmup_linear_schedule(optimizer, steps_per_epoch * cfg.epochs, cfg.warmup)

    def validate(epoch: int, loss: float | None) -> dict[str, Any]:
        f1 = episode_macro_f1(embed(model, val, cfg.max_seq_length), val, cfg.episodes, cfg.seed)
        elapsed = round(time.perf_counter() - start, 1)
        return {"epoch": epoch, "loss": loss, "val_episode_macro_f1": f1, "elapsed_s": elapsed}

    start = time.perf_counter()
    best = validate(0, None)
    best_state, history = copy.deepcopy(model.state_dict()), [best]
    log.info("epoch 0: %s", best)
    for epoch in range(1, cfg.epochs + 1):
        model.train()
        losses = []
        for batch in mwe_batches(fit, cfg, rng):
            loss = batch_loss(model, [fit[i] for i in batch], cfg)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            losses.append(float(loss.detach()))
            if len(losses) % 20 == 0:
                log.info("epoch %d step %d/%d: loss %.4f", epoch, len(losses), steps_per_epoch, np.mean(losses[-20:]))
        row = validate(epoch, float(np.mean(losses)) if losses else math.nan)
        history.append(row)
        log.info("epoch %d: %s", epoch, row)
        if on_epoch:
            on_epoch(row)
        if row["val_episode_macro_f1"] > best["val_episode_macro_f1"]:
            best, best_state = row, copy.deepcopy(model.state_dict())
    model.load_state_dict(best_state)
    info = training_info(cfg, fit, val, history, best, start)
    info["fit_mwes_with_both_labels"] = len(both_label_mwes(fit))
    return model, info


NEIGHBOURS = (3, 5, 10, 0)  # 0 = every other use of the MWE
SELF_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)  # 1 = no smoothing


def neighbour_smoothing(p: np.ndarray, x: np.ndarray, mwes: Sequence[str], k: int, a: float) -> np.ndarray:
    """Transductive smoothing of per-use probabilities: ``a * p_i + (1 - a) * mean(p_j)`` over the ``k`` uses ``j`` of
    the same MWE (in the same set) whose unit vectors ``x`` are most similar to ``x_i`` (``k = 0``: all of them); a
    use whose MWE has no other use keeps ``p_i``."""
    mwes, p = np.asarray(mwes), np.asarray(p, dtype=float)
    out = p.copy()
    for i in range(len(p)):
        same = np.flatnonzero(mwes == mwes[i])
        same = same[same != i]
        if len(same):
            nearest = same[np.argsort(-(x[same] @ x[i]), kind="stable")[: k or None]]
            out[i] = a * p[i] + (1 - a) * float(np.mean(p[nearest]))
    return out


def choose_smoothing(
    p: np.ndarray, x: np.ndarray, mwes: Sequence[str], labels: Sequence[int], threshold: float
) -> tuple[int, float, dict[str, float]]:
    """(k, a, {"k=…,a=…": validation macro-F1}) maximising macro-F1 of ``smoothed >= threshold`` on a validation
    set (ties: the least smoothing, then the fewest neighbours)."""
    curve, best = {}, None
    for a in sorted(SELF_WEIGHTS, reverse=True):
        for k in NEIGHBOURS:
            q = neighbour_smoothing(p, x, mwes, k, a)
            f1 = macro_f1(list(labels), [int(v >= threshold) for v in q])
            curve[f"k={k},a={a}"] = f1
            if best is None or f1 > best[0]:
                best = (f1, k, a)
    return best[1], best[2], curve


@dataclass
class SenseMatcher(Method):
    """The one-shot sense matcher (:func:`train_matcher`): an example takes the label of its MWE's nearest shot."""

    name: ClassVar[str] = "semeval2a/sense-matcher"
    description: ClassVar[str] = "fine-tuned span encoder; label of the nearest one-shot example of the MWE"

    config: MatcherConfig = field(default_factory=MatcherConfig)
    model: SpanClassifier | None = None
    info: dict[str, Any] = field(default_factory=dict)

    def fit(self, st, train: Sequence[Example2A], on_epoch=None) -> SenseMatcher:
        self.model, self.info = train_matcher(st, train, self.config, on_epoch)
        return self

    def predict(self, examples: Sequence[Example2A], shot_examples: Sequence[Example2A], shots: dict) -> list[int]:
        """Labels of ``examples`` by :func:`nearest_shot_labels` (``shots``: ``{mwe: {label: [row of
        shot_examples]}}``, e.g. :func:`idiomkit.tasks.semeval2a.one_shot_table`)."""
        x = embed(self.model, examples, self.config.max_seq_length)
        x_shots = embed(self.model, shot_examples, self.config.max_seq_length)
        return nearest_shot_labels(x, [ex.mwe for ex in examples], x_shots, shots)
