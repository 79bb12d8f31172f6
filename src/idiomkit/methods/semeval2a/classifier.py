"""Fine-tuned SemEval-2022 Task 2A classifier: a sentence-transformers encoder + a linear head.

Input: the target sentence (optionally with the previous/next sentences) and, ``[SEP]``-style, the MWE as the
second segment (``input="sep"``) — the task baseline's and YNU-HPCC's input. The MWE is also *marked* by pooling:
the head sees ``[mean of all tokens ; mean of the MWE's tokens]`` (late-chunking span, ``pool="span+mean"``) or
only one of them. Epoch and decision threshold are chosen on a split of train carved by MWE (dev is held out);
in the one-shot setting the validation MWEs give one example per label to training, as the one-shot data do.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

import numpy as np
import torch
from torch import Tensor, nn

from idiomkit.data.semeval2a import Example2A, find_mwe
from idiomkit.embedding.spans import masked_mean, span_token_mask
from idiomkit.errors import OptionError, check_choice
from idiomkit.idioms.reader import encoder_module, model_inputs
from idiomkit.methods.base import Method
from idiomkit.metrics.classification import macro_f1
from idiomkit.settings import seed_everything
from idiomkit.tasks.semeval2a import split_by_mwe

log = logging.getLogger(__name__)

INPUTS = ("sep", "none")
POOLS = ("span+mean", "span", "mean", "cls")
EXTRA = "extra"  # Example2A.setting of training examples from another corpus (training only)
THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(2, 19))


@dataclass
class ClassifierConfig:
    """One fine-tuning run (defaults sized for a shared 2-core CPU)."""

    model: str = "minilm"
    setting: str = "zero_shot"
    input: str = "sep"
    context: bool = False
    pool: str = "span+mean"
    epochs: int = 2
    batch_size: int = 32
    lr: float = 5e-5
    head_lr: float = 1e-3
    warmup: float = 0.1
    max_seq_length: int = 128
    val_fraction: float = 0.1
    one_shot_repeat: int = 1
    tune_threshold: bool = True
    freeze_embeddings: bool = True
    train_layers: int | None = None
    extra_train: str | None = None  # "epie": the labelled EPIE formal sentences join training (never validation)
    seed: int = 0

    def __post_init__(self):
        if self.input not in INPUTS:
            raise OptionError(f"unknown input '{self.input}' (expected {' or '.join(INPUTS)})")
        check_choice("pool", self.pool, POOLS)
        if self.extra_train not in (None, "epie"):
            raise OptionError(f"unknown extra training data '{self.extra_train}' (expected epie)")

    @property
    def recipe(self) -> str:
        """Result label, e.g. ``classifier-sep-span+mean`` / ``classifier-sep-ctx-span+mean-top4[-epie]``."""
        parts = ["classifier", self.input] + (["ctx"] if self.context else []) + [self.pool]
        parts += [f"top{self.train_layers}"] if self.train_layers else []
        parts += [self.extra_train] if self.extra_train else []
        return "-".join(parts)


@dataclass
class Encoded:
    """Texts and MWE spans as the model reads them."""

    first: list[str]
    second: list[str] | None
    spans: list[tuple[int, int]]
    labels: list[int] = field(default_factory=list)


def build_inputs(examples: Sequence[Example2A], cfg: ClassifierConfig) -> Encoded:
    """First segment = (previous +) target (+ next) with the MWE's span in it; second segment = the MWE."""
    first, spans = [], []
    for ex in examples:
        start, end = find_mwe(ex.target, ex.mwe)
        if cfg.context and ex.previous.strip():
            prefix = ex.previous.strip() + " "
            text = prefix + ex.target + (" " + ex.next.strip() if ex.next.strip() else "")
            start, end = start + len(prefix), end + len(prefix)
        elif cfg.context:
            text = ex.target + (" " + ex.next.strip() if ex.next.strip() else "")
        else:
            text = ex.target
        first.append(text)
        spans.append((start, end))
    second = [ex.mwe for ex in examples] if cfg.input == "sep" else None
    labels = [ex.label if ex.label is not None else -1 for ex in examples]
    return Encoded(first, second, spans, labels)


class SpanClassifier(nn.Module):
    """Transformer (from a SentenceTransformer) + dropout + linear head over the pooled features."""

    def __init__(self, st, pool: str = "span+mean", num_labels: int = 2):
        super().__init__()
        self.encoder = encoder_module(st).auto_model
        self.tokenizer = st.tokenizer
        self.read = functools.partial(model_inputs, st)  # the texts as st's idiom reader (if any) rewrites them
        self.pool = pool
        dim = self.encoder.config.hidden_size
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(dim * (2 if pool == "span+mean" else 1), num_labels)
        self.head.to(self.encoder.device)

    def features(self, batch: Encoded, max_length: int) -> dict[str, Tensor]:
        first, spans = self.read(batch.first, batch.spans)
        args = (first, self.read(batch.second)[0]) if batch.second is not None else (first,)
        enc = self.tokenizer(
            *args,
            padding=True,
            truncation="only_first" if batch.second is not None else True,
            max_length=max_length,
            return_offsets_mapping=True,
            return_tensors="pt",
        )
        offsets = enc.pop("offset_mapping")
        first_seq = torch.tensor([[s == 0 for s in enc.sequence_ids(i)] for i in range(len(first))], dtype=torch.long)
        span = span_token_mask(offsets, spans) * first_seq
        empty = span.sum(dim=1) == 0
        span[empty] = enc["attention_mask"][empty]  # span truncated away: pool the whole input
        features = dict(enc)
        features["span_mask"] = span
        return {k: v.to(self.head.weight.device) for k, v in features.items()}

    def forward(self, features: dict[str, Tensor]) -> Tensor:
        inputs = {k: v for k, v in features.items() if k in ("input_ids", "attention_mask", "token_type_ids")}
        tokens = self.encoder(**inputs).last_hidden_state
        parts = []
        if "span" in self.pool:
            parts.append(masked_mean(tokens, features["span_mask"]))
        if "mean" in self.pool:
            parts.append(masked_mean(tokens, features["attention_mask"]))
        if self.pool == "cls":
            parts.append(tokens[:, 0])
        return self.head(self.dropout(torch.cat(parts, dim=-1)))


def bucketed_order(lengths: Sequence[int], batch_size: int, rng: random.Random) -> list[int]:
    """Batches of similar length (little padding) in random order: sort by length with random tie-breaks."""
    keys = [(n // 8, rng.random(), i) for i, n in enumerate(lengths)]
    order = [i for *_, i in sorted(keys)]
    batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
    rng.shuffle(batches)
    return [i for batch in batches for i in batch]


def _batches(data: Encoded, order: Sequence[int], size: int):
    for i in range(0, len(order), size):
        idx = order[i : i + size]
        yield (
            Encoded(
                [data.first[j] for j in idx],
                [data.second[j] for j in idx] if data.second is not None else None,
                [data.spans[j] for j in idx],
                [data.labels[j] for j in idx],
            ),
            idx,
        )


@torch.inference_mode()
def predict_proba(model: SpanClassifier, data: Encoded, max_length: int, batch_size: int = 64) -> np.ndarray:
    """P(label = 1, non-idiomatic) for each input; longest inputs first to keep padding small."""
    model.eval()
    order = list(np.argsort([-len(t) for t in data.first], kind="stable"))
    out = np.zeros(len(data.first), dtype=np.float64)
    for batch, idx in _batches(data, order, batch_size):
        logits = model(model.features(batch, max_length))
        out[idx] = torch.softmax(logits.float(), dim=-1)[:, 1].cpu().numpy()
    return out


def best_threshold(labels: Sequence[int], proba: np.ndarray, tune: bool = True) -> tuple[float, float]:
    """(threshold, macro-F1) maximising macro-F1 of ``proba >= threshold`` (0.5 only, when not tuning)."""
    grid = THRESHOLDS if tune else (0.5,)
    scored = [(macro_f1(list(labels), [int(p >= t) for p in proba]), -abs(t - 0.5), t) for t in grid]
    f1, _, t = max(scored)
    return t, f1


def carve_validation(
    train: Sequence[Example2A], cfg: ClassifierConfig, group: Callable[[Example2A], str] | None = None
) -> tuple[list[Example2A], list[Example2A]]:
    """By-MWE validation split of train (``group``: the MWE key of an example, default ``ex.mwe``); one-shot: each
    validation MWE lends one example per label to training. Examples of ``setting == "extra"`` (other corpora)
    only ever go to training, so the validation split is the task's own."""
    own = [ex for ex in train if ex.setting not in ("one_shot", EXTRA)]
    fit, val = split_by_mwe(own, cfg.val_fraction, cfg.seed, group)
    fit += [ex for ex in train if ex.setting == EXTRA]
    fit += [ex for ex in train if ex.setting == "one_shot"] * cfg.one_shot_repeat
    if cfg.setting == "one_shot":
        shots: dict[tuple[str, int], Example2A] = {}
        for ex in val:
            shots.setdefault((ex.mwe, ex.label), ex)
        fit += list(shots.values()) * cfg.one_shot_repeat
        val = [ex for ex in val if ex not in shots.values()]
    return fit, val


def train_classifier(
    st,
    train: Sequence[Example2A],
    cfg: ClassifierConfig,
    on_epoch=None,
    group: Callable[[Example2A], str] | None = None,
) -> tuple[SpanClassifier, dict[str, Any]]:
    """Fine-tune; keep the epoch (and threshold) with the best validation macro-F1 (validation carved from ``train``
    by MWE, see :func:`carve_validation`). Returns (model, info)."""
    seed_everything(cfg.seed)
    fit, val = carve_validation(train, cfg, group)
    model = SpanClassifier(st, cfg.pool)
    with frozen(frozen_parameters(model.encoder, cfg)):
        return _train(model, fit, val, cfg, on_epoch)


def warmup_linear_schedule(optimizer, total: int, warmup: float) -> torch.optim.lr_scheduler.LambdaLR:
    """Learning rate rising linearly over the first ``warmup`` fraction of ``total`` steps, then falling to 0."""
    warm = max(1, int(warmup * total))
    return torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm)))
    )


@contextlib.contextmanager
def frozen(params: Sequence[nn.Parameter]):
    """``params`` do not train inside the block; their ``requires_grad`` flags are restored after it."""
    flags = [p.requires_grad for p in params]
    for p in params:
        p.requires_grad_(False)
    try:
        yield
    finally:
        for p, flag in zip(params, flags, strict=True):
            p.requires_grad_(flag)


def frozen_parameters(encoder, cfg: ClassifierConfig) -> list[nn.Parameter]:
    """Parameters not trained: the vocabulary matrix (its optimiser step dominates on CPU) and, with
    ``train_layers=k``, the embeddings and every layer below the top k (no backward pass through them)."""
    frozen = [encoder.get_input_embeddings().weight] if cfg.freeze_embeddings else []
    if cfg.train_layers:
        layers = encoder.encoder.layer
        below = list(encoder.embeddings.parameters())
        for layer in layers[: max(0, len(layers) - cfg.train_layers)]:
            below += list(layer.parameters())
        frozen += [p for p in below if all(p is not f for f in frozen)]
    return frozen


def _train(model: SpanClassifier, fit, val, cfg: ClassifierConfig, on_epoch) -> tuple[SpanClassifier, dict[str, Any]]:
    fit_data, val_data = build_inputs(fit, cfg), build_inputs(val, cfg)
    enc_params = [p for p in model.encoder.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(
        [{"params": enc_params, "lr": cfg.lr}, {"params": model.head.parameters(), "lr": cfg.head_lr}],
        weight_decay=0.01,
    )
    steps_per_epoch = math.ceil(len(fit) / cfg.batch_size)
    scheduler = warmup_linear_schedule(optimizer, steps_per_epoch * cfg.epochs, cfg.warmup)
    loss_fn = nn.CrossEntropyLoss()
    rng = random.Random(cfg.seed)
    history, best, best_state = [], None, None
    start = time.perf_counter()
    for epoch in range(1, cfg.epochs + 1):
        model.train()
        order = bucketed_order([len(t) for t in fit_data.first], cfg.batch_size, rng)
        losses = []
        for batch, _ in _batches(fit_data, order, cfg.batch_size):
            logits = model(model.features(batch, cfg.max_seq_length))
            loss = loss_fn(logits, torch.tensor(batch.labels, device=logits.device))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            losses.append(float(loss.detach()))
            if len(losses) % 20 == 0:
                log.info(
                    "epoch %d step %d: loss %.4f, %.1f s",
                    epoch,
                    len(losses),
                    np.mean(losses[-20:]),
                    time.perf_counter() - start,
                )
        proba = predict_proba(model, val_data, cfg.max_seq_length)
        threshold, f1 = best_threshold(val_data.labels, proba, cfg.tune_threshold)
        row = {"epoch": epoch, "loss": float(np.mean(losses)), "val_macro_f1": f1, "threshold": threshold}
        row["elapsed_s"] = round(time.perf_counter() - start, 1)
        history.append(row)
        log.info("epoch %d: %s", epoch, row)
        if on_epoch:
            on_epoch(row)
        if best is None or f1 > best["val_macro_f1"]:
            best, best_state = row, copy.deepcopy(model.state_dict())
    model.load_state_dict(best_state)
    return model, training_info(cfg, fit, val, history, best, start)


def training_info(cfg, fit, val, history: list[dict], best: dict, start: float) -> dict[str, Any]:
    """What a fine-tuning run records: config, split sizes, per-epoch validation, the kept epoch, seconds."""
    return {
        "config": asdict(cfg),
        "fit_examples": len(fit),
        "validation_examples": len(val),
        "validation_mwes": len({ex.mwe for ex in val}),
        "history": history,
        "best": best,
        "train_s": round(time.perf_counter() - start, 1),
    }


def classify(model: SpanClassifier, examples: Sequence[Example2A], cfg: ClassifierConfig, threshold: float):
    """Labels (0 idiomatic / 1 literal) for ``examples`` at ``threshold`` on P(literal)."""
    proba = predict_proba(model, build_inputs(examples, cfg), cfg.max_seq_length)
    return [int(p >= threshold) for p in proba], proba


@dataclass
class FineTunedClassifier(Method):
    """The 2A span classifier (:func:`train_classifier`); labels at the threshold kept on validation."""

    name: ClassVar[str] = "semeval2a/classifier"
    description: ClassVar[str] = "fine-tuned span classifier (epoch and threshold chosen on a by-MWE validation split)"

    config: ClassifierConfig = field(default_factory=ClassifierConfig)
    model: SpanClassifier | None = None
    info: dict[str, Any] = field(default_factory=dict)

    def fit(
        self, st, train: Sequence[Example2A], group: Callable[[Example2A], str] | None = None, on_epoch=None
    ) -> FineTunedClassifier:
        self.model, self.info = train_classifier(st, train, self.config, on_epoch, group)
        return self

    def predict(self, examples: Sequence[Example2A], threshold: float | None = None) -> list[int]:
        """Labels (0 idiomatic / 1 literal) at ``threshold`` (default: the one kept on validation)."""
        threshold = self.info["best"]["threshold"] if threshold is None else threshold
        labels, _ = classify(self.model, examples, self.config, threshold)
        return labels
