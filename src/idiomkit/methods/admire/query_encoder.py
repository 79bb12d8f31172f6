"""AdMIRe caption ranking: train a query encoder against caption embeddings, cross-validated by compound.

Setup (sized for a shared CPU): captions are embedded once by the *start* model (frozen caption tower, cached);
training updates only what embeds the query -- the whole encoder (``full``), LoRA adapters (``lora``, peft), or a
small residual head over frozen token embeddings (``cnn``/``bilstm``; token embeddings are computed once). The query
is the compound's span embedding (late chunking) in the marked sentence (``[SEP] compound [SEP]``) by default.

Losses on ``(q, captions in gold order)``: ``ranked-triplet`` (:class:`idiomkit.losses.RankedTripletLoss`),
``mnrl`` (best caption positive; the item's other captions and the batch's captions negatives, scale 20),
``cosent`` (CoSENT over the item's caption pairs with rank-derived scores (4 - rank) / 4, scale 20; pairs are only
compared within one query), ``adaptive-triplet`` (He & Scarton's miner + triplet loss; the query and its best
caption share a label, every other caption has its own).

No model selection: fixed hyper-parameters (:data:`VARIANTS`), fixed epochs; held-out folds and test are only scored.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import ClassVar

import numpy as np
import torch
from torch import Tensor, nn

from idiomkit.data.admire import AdmireItem
from idiomkit.embedding.cache import cached_array, model_fingerprint
from idiomkit.embedding.encode import encode_texts, unit_rows
from idiomkit.embedding.spans import masked_mean, span_features
from idiomkit.errors import OptionError
from idiomkit.losses.adaptive_triplet import AdaptiveTripletLoss
from idiomkit.losses.ranked_triplet import ranked_triplet_loss
from idiomkit.methods.base import Method
from idiomkit.models.lora import add_lora
from idiomkit.settings import seed_everything
from idiomkit.tasks.admire import caption_scores, marker_of, query_inputs

log = logging.getLogger(__name__)

LOSSES = ("ranked-triplet", "mnrl", "cosent", "adaptive-triplet")
MODES = ("full", "lora", "cnn", "bilstm")


@dataclass
class RankConfig:
    loss: str = "ranked-triplet"
    mode: str = "full"
    query_mode: str = "marked+span"
    epochs: int = 8
    lr: float = 2e-5
    batch_size: int = 8
    margin: float = 0.2
    scale: float = 20.0
    lora_rank: int = 8
    seed: int = 0


VARIANTS: dict[str, RankConfig] = {
    "ranked-triplet": RankConfig(),
    "mnrl": RankConfig(loss="mnrl"),
    "cosent": RankConfig(loss="cosent"),
    "adaptive-triplet": RankConfig(loss="adaptive-triplet"),
    "lora-ranked-triplet": RankConfig(mode="lora", lr=5e-4),
    "cnn-ranked-triplet": RankConfig(mode="cnn", lr=1e-3, epochs=30),
    "bilstm-ranked-triplet": RankConfig(mode="bilstm", lr=1e-3, epochs=30),
    # the loss comparison on the cheap head (5 seeds fit the shared CPU)
    "cnn-mnrl": RankConfig(loss="mnrl", mode="cnn", lr=1e-3, epochs=30),
    "cnn-cosent": RankConfig(loss="cosent", mode="cnn", lr=1e-3, epochs=30),
    "cnn-adaptive-triplet": RankConfig(loss="adaptive-triplet", mode="cnn", lr=1e-3, epochs=30),
}


# ---------------------------------------------------------------- losses on (q, C)


def mnrl_loss(q: Tensor, c: Tensor, scale: float = 20.0) -> Tensor:
    """In-batch MNRL: softmax over all ``B*K`` captions of the batch, the item's best caption is the target."""
    b, k, _ = c.shape
    logits = scale * nn.functional.normalize(q, dim=-1) @ nn.functional.normalize(c.reshape(b * k, -1), dim=-1).T
    return nn.functional.cross_entropy(logits, torch.arange(b, device=q.device) * k)


def rank_cosent_loss(q: Tensor, c: Tensor, scale: float = 20.0) -> Tensor:
    """CoSENT on rank-derived scores: ``log(1 + sum exp(scale * (cos_j - cos_i)))`` over within-item pairs i above j."""
    sims = nn.functional.cosine_similarity(q.unsqueeze(1), c, dim=-1)  # (B, K), gold order
    i, j = torch.triu_indices(c.shape[1], c.shape[1], offset=1, device=q.device)
    diffs = (scale * (sims[:, j] - sims[:, i])).flatten()
    return torch.logsumexp(torch.cat([diffs.new_zeros(1), diffs]), dim=0)


def adaptive_triplet_loss(q: Tensor, c: Tensor) -> Tensor:
    """He & Scarton's miner + triplet loss over [queries; captions]; a query shares its label with its best caption."""

    b, k, _ = c.shape
    labels = torch.arange(b + b * k)  # queries 0..b-1, then caption r of item n at row b + n * k + r
    labels[b + torch.arange(b) * k] = torch.arange(b)  # the best caption shares its query's label
    emb = torch.cat([q, c.reshape(b * k, -1)])
    return AdaptiveTripletLoss(None).embedding_loss(emb, labels.to(q.device))


def rank_loss(cfg: RankConfig, q: Tensor, c: Tensor) -> Tensor:
    if cfg.loss == "ranked-triplet":
        return ranked_triplet_loss(q, c, cfg.margin)
    if cfg.loss == "mnrl":
        return mnrl_loss(q, c, cfg.scale)
    if cfg.loss == "cosent":
        return rank_cosent_loss(q, c, cfg.scale)
    if cfg.loss == "adaptive-triplet":
        return adaptive_triplet_loss(q, c)
    raise OptionError(f"unknown loss '{cfg.loss}' (expected one of {', '.join(LOSSES)})")


# ---------------------------------------------------------------- heads over token embeddings


class TokenCNN(nn.Module):
    """Residual 1-D CNN over token embeddings (kernel 3 -> ReLU -> kernel 1, zero-initialised output: starts as the
    identity, i.e. at the zero-shot model)."""

    def __init__(self, dim: int, hidden: int = 256, kernel: int = 3):
        super().__init__()
        self.conv = nn.Conv1d(dim, hidden, kernel, padding=kernel // 2)
        self.out = nn.Conv1d(hidden, dim, 1)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, tokens: Tensor, attention: Tensor) -> Tensor:
        x = (tokens * attention.unsqueeze(-1)).transpose(1, 2)
        return tokens + self.out(torch.relu(self.conv(x))).transpose(1, 2)


class TokenBiLSTM(nn.Module):
    """Residual BiLSTM over token embeddings with a zero-initialised projection back to the embedding size."""

    def __init__(self, dim: int, hidden: int = 128):
        super().__init__()
        self.lstm = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, dim)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, tokens: Tensor, attention: Tensor) -> Tensor:
        return tokens + self.out(self.lstm(tokens * attention.unsqueeze(-1))[0])


# ---------------------------------------------------------------- query encoder


class QueryEncoder(nn.Module):
    """Differentiable query embeddings for AdMIRe items (span or sentence pooling, optional head)."""

    def __init__(self, model, cfg: RankConfig):
        super().__init__()
        self.model, self.cfg = model, cfg
        dim = model.get_embedding_dimension()
        self.head = {"cnn": TokenCNN, "bilstm": TokenBiLSTM}.get(cfg.mode, lambda d: None)(dim)
        if self.head is not None:
            self.head.to(model.device)
        self.frozen = cfg.mode in ("cnn", "bilstm")
        self._cache: dict[tuple[str, str], tuple[Tensor, Tensor, Tensor]] = {}

    def _run(self, items: Sequence[AdmireItem]) -> tuple[Tensor, Tensor, Tensor]:
        texts, spans = query_inputs(items, self.cfg.query_mode, marker_of(self.model))
        features, mask = span_features(self.model, texts, spans or [(0, len(t)) for t in texts])
        if spans is None:
            mask = features["attention_mask"]
        return self.model.forward(features)["token_embeddings"], features["attention_mask"], mask

    def tokens(self, items: Sequence[AdmireItem]) -> tuple[Tensor, Tensor, Tensor]:
        """(token embeddings, attention mask, pooling mask); head modes compute each item once (frozen encoder)."""
        if not self.frozen:
            return self._run(items)
        missing = [it for it in items if (it.compound, it.sentence) not in self._cache]
        if missing:
            self.model.eval()
            with torch.no_grad():
                tok, att, mask = self._run(missing)
            for n, it in enumerate(missing):
                length = int(att[n].sum())
                self._cache[(it.compound, it.sentence)] = (tok[n, :length], att[n, :length], mask[n, :length])
        rows = [self._cache[(it.compound, it.sentence)] for it in items]
        pad = nn.utils.rnn.pad_sequence
        return tuple(pad([r[k] for r in rows], batch_first=True) for k in range(3))

    def forward(self, items: Sequence[AdmireItem]) -> Tensor:
        tokens, attention, mask = self.tokens(items)
        if self.head is not None:
            tokens = self.head(tokens, attention)
        return nn.functional.normalize(masked_mean(tokens, mask), dim=-1)


def trainable_parameters(encoder: QueryEncoder) -> list[nn.Parameter]:
    if encoder.head is not None:
        for p in encoder.model.parameters():
            p.requires_grad_(False)
        return list(encoder.head.parameters())
    return [p for p in encoder.model.parameters() if p.requires_grad]


# ---------------------------------------------------------------- caption bank


def caption_embeddings(model, items: Sequence[AdmireItem], cache_dir: str | Path | None = None) -> np.ndarray:
    """Unit-normalised caption embeddings ``(n, 5, d)`` (file order) by ``model``, cached as ``.npy`` in
    ``cache_dir`` (none: not cached)."""
    captions = [c for it in items for c in it.captions]

    def encode() -> np.ndarray:
        prompt = "passage" if model.prompts.get("passage") else None
        emb = unit_rows(encode_texts(model, captions, prompt_name=prompt, batch_size=16))
        return emb.reshape(len(items), 5, -1)

    digest = hashlib.sha256(model_fingerprint(model).encode())
    digest.update("\n".join(captions).encode())
    directory = Path(cache_dir) if cache_dir else None
    return cached_array(digest.hexdigest()[:24], encode, directory=directory, memory=False)


# ---------------------------------------------------------------- training / scoring


def train_encoder(base_model, items: Sequence[AdmireItem], captions: np.ndarray, cfg: RankConfig) -> QueryEncoder:
    """Fine-tune a copy of ``base_model`` on ``items`` (``captions``: their ``(n, 5, d)`` file-order embeddings)."""
    seed_everything(cfg.seed)
    model = copy.deepcopy(base_model)
    if cfg.mode == "lora":
        add_lora(model, cfg.lora_rank)
    encoder = QueryEncoder(model, cfg)
    params = trainable_parameters(encoder)
    gold = torch.tensor(np.stack([captions[n][it.gold_indices] for n, it in enumerate(items)]), device=model.device)
    opt = torch.optim.AdamW(params, lr=cfg.lr)
    batches_per_epoch = -(-len(items) // cfg.batch_size)
    total = cfg.epochs * batches_per_epoch
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: max(0.0, 1.0 - s / total))
    rng = np.random.default_rng(cfg.seed)
    encoder.train()
    for epoch in range(cfg.epochs):
        order = rng.permutation(len(items))
        losses = []
        for b in range(batches_per_epoch):
            idx = order[b * cfg.batch_size : (b + 1) * cfg.batch_size]
            q = encoder([items[i] for i in idx])
            loss = rank_loss(cfg, q, gold[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(float(loss.detach()))
        log.info("epoch %d loss %.4f", epoch + 1, float(np.mean(losses)))
    encoder.eval()
    return encoder


def encoder_scores(encoder: QueryEncoder, items: Sequence[AdmireItem], captions: np.ndarray) -> np.ndarray:
    """Cosine(query, caption) ``(n, 5)`` in file order."""
    with torch.no_grad():
        q = torch.cat([encoder(items[i : i + 16]) for i in range(0, len(items), 16)]).cpu().numpy()
    return np.einsum("nd,nkd->nk", q, captions)


def zero_shot_scores(model, items: Sequence[AdmireItem], query_mode: str) -> np.ndarray:
    return caption_scores(model, items, query_mode)


def compound_folds(items: Sequence[AdmireItem], k: int = 5, seed: int = 0) -> list[int]:
    """Fold id per item; items sharing a compound share a fold (compounds shuffled with ``seed``, dealt round-robin)."""
    compounds = sorted({it.compound.lower() for it in items})
    random.Random(seed).shuffle(compounds)
    fold_of = {c: i % k for i, c in enumerate(compounds)}
    return [fold_of[it.compound.lower()] for it in items]


def config_dict(cfg: RankConfig) -> dict:
    return asdict(cfg)


def with_seed(cfg: RankConfig, seed: int) -> RankConfig:
    return replace(cfg, seed=seed)


# ---------------------------------------------------------------- cross-validation and test runs


@dataclass
class RankRun:
    """Scores of one run (cv: out-of-fold over train+dev; test: trained on all of train+dev)."""

    scores: np.ndarray
    folds: list[int] | None
    train_s: float
    trainable: int


def count_trainable(encoder: QueryEncoder | None) -> int:
    if encoder is None:
        return 0
    params = encoder.head.parameters() if encoder.head is not None else encoder.model.parameters()
    return int(sum(p.numel() for p in params if p.requires_grad))


def fit(
    base_model, train: Sequence[AdmireItem], c_train: np.ndarray, cfg: RankConfig | None, query_mode: str
) -> QueryEncoder:
    """A trained query encoder (``cfg`` None: the zero-shot model with ``query_mode`` pooling)."""
    if cfg is None:
        return QueryEncoder(base_model, RankConfig(mode="none", query_mode=query_mode))
    return train_encoder(base_model, train, c_train, replace(cfg, query_mode=query_mode))


def cross_validate(
    base_model,
    items: Sequence[AdmireItem],
    captions: np.ndarray,
    cfg: RankConfig | None,
    query_mode: str,
    k: int = 5,
    fold_seed: int = 0,
) -> RankRun:
    """Out-of-fold scores over ``items`` with folds by compound."""

    folds = compound_folds(items, k, fold_seed)
    scores = np.zeros((len(items), 5), dtype=np.float32)
    start, trainable = time.perf_counter(), 0
    for f in range(k):
        tr = [i for i, x in enumerate(folds) if x != f]
        te = [i for i, x in enumerate(folds) if x == f]
        encoder = fit(base_model, [items[i] for i in tr], captions[tr], cfg, query_mode)
        scores[te] = encoder_scores(encoder, [items[i] for i in te], captions[te])
        trainable = count_trainable(encoder) if cfg else 0
        log.info("fold %d done", f)
    return RankRun(scores, folds, time.perf_counter() - start, trainable)


def train_and_test(
    base_model,
    train: Sequence[AdmireItem],
    c_train: np.ndarray,
    evaluate: list[Sequence[AdmireItem]],
    c_eval: list[np.ndarray],
    cfg: RankConfig | None,
    query_mode: str,
) -> list[RankRun]:
    """Train once on ``train`` and score each evaluation set (e.g. test and the extended set)."""

    start = time.perf_counter()
    encoder = fit(base_model, train, c_train, cfg, query_mode)
    train_s = time.perf_counter() - start
    return [
        RankRun(encoder_scores(encoder, ev, c), None, train_s, count_trainable(encoder) if cfg else 0)
        for ev, c in zip(evaluate, c_eval, strict=True)
    ]


@dataclass
class TrainedQueryEncoder(Method):
    """A query encoder fine-tuned against frozen caption embeddings (:func:`train_encoder`); scores are cosines."""

    name: ClassVar[str] = "admire/query-encoder"
    description: ClassVar[str] = "query encoder trained against frozen caption embeddings (full, LoRA, CNN, BiLSTM)"

    config: RankConfig = field(default_factory=lambda: RankConfig())
    encoder: QueryEncoder | None = None

    def fit(self, base_model, items: Sequence[AdmireItem], captions: np.ndarray) -> TrainedQueryEncoder:
        self.encoder = train_encoder(base_model, items, captions, self.config)
        return self

    def predict(self, items: Sequence[AdmireItem], captions: np.ndarray) -> np.ndarray:
        """Cosine(query, caption) ``(n, 5)`` in file order."""
        return encoder_scores(self.encoder, items, captions)
