"""Span embeddings (late chunking): encode the whole text, mean-pool only the tokens of a character span.

:func:`encode_spans` embeds for evaluation; :func:`forward_span_embeddings` is its differentiable form for losses;
:func:`install_span_pooling` makes a model's own ``Pooling`` module pool a span during training, with the same numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
import torch
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Pooling
from torch import Tensor

from idiomkit.embedding.pooling import after_pooling
from idiomkit.idioms.reader import model_inputs
from idiomkit.progress import track

log = logging.getLogger(__name__)


def span_token_mask(offsets: Tensor, spans: Sequence[tuple[int, int]]) -> Tensor:
    """1 for tokens whose character offsets overlap ``[start, end)``; special tokens (empty offsets) are 0."""
    starts = torch.tensor([s for s, _ in spans], dtype=offsets.dtype).unsqueeze(1)
    ends = torch.tensor([e for _, e in spans], dtype=offsets.dtype).unsqueeze(1)
    tok_start, tok_end = offsets[..., 0], offsets[..., 1]
    return ((tok_start < ends) & (tok_end > starts) & (tok_end > tok_start)).long()


def masked_mean(tokens: Tensor, mask: Tensor) -> Tensor:
    """Mean of ``tokens`` ``(batch, seq, dim)`` over the positions where ``mask`` ``(batch, seq)`` is non-zero."""
    mask = mask.unsqueeze(-1).to(tokens.dtype)
    return (tokens * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)


def span_features(
    model: SentenceTransformer, texts: Sequence[str], spans: Sequence[tuple[int, int]], prompt: str | None = None
):
    """Tokenise ``texts`` for ``model`` and return (features, span mask) on the model's device; spans falling
    outside the truncated input fall back to the whole sentence (counted in the log).

    The texts reach the model as ``encode`` hands them over: rewritten by its idiom reader when it has one (each
    span moved into the rewritten text, :func:`~idiomkit.idioms.reader.model_inputs`), then ``prompt`` prefixed."""
    texts, spans = model_inputs(model, texts, spans)
    if prompt:
        texts = [prompt + t for t in texts]
        spans = [(s + len(prompt), e + len(prompt)) for s, e in spans]
    enc = model.tokenizer(
        texts,
        padding=True,
        truncation=True,
        max_length=model.max_seq_length,
        return_offsets_mapping=True,
        return_tensors="pt",
    )
    offsets = enc.pop("offset_mapping")
    mask = span_token_mask(offsets, spans)
    empty = mask.sum(dim=1) == 0
    if empty.any():
        log.warning("%d span(s) have no tokens after truncation; pooling their whole sentence", int(empty.sum()))
        mask[empty] = enc["attention_mask"][empty]
    return {k: v.to(model.device) for k, v in enc.items()}, mask.to(model.device)


def forward_span_embeddings(
    model: SentenceTransformer, texts: Sequence[str], spans: Sequence[tuple[int, int]], prompt: str | None = None
) -> Tensor:
    """Differentiable span embeddings (for losses): one forward pass over the full texts, pooled over spans
    (texts and spans as :func:`span_features` makes them)."""
    features, mask = span_features(model, texts, spans, prompt)
    out = model.forward(features)
    pooled = {"sentence_embedding": masked_mean(out["token_embeddings"], mask)}
    for module in after_pooling(model):  # Normalize, and a centre (idiomkit.embedding.center) where there is one
        pooled = module(pooled)
    return pooled["sentence_embedding"]


def encode_spans(
    model: SentenceTransformer,
    texts: Sequence[str],
    spans: Sequence[tuple[int, int]],
    *,
    prompt: str | None = None,
    batch_size: int = 64,
    show_progress_bar: bool = False,
) -> np.ndarray:
    """Late chunking: encode each whole text (rewritten by the model's idiom reader, if any, then ``prompt``
    prefixed: :func:`span_features`) and mean-pool the span's tokens.

    Texts are processed longest first in batches, so padding stays small. Returns float32 ``(n, dim)``.
    """
    if len(texts) != len(spans):
        raise ValueError(f"{len(texts)} texts but {len(spans)} spans")
    order = np.argsort([-len(t) for t in texts], kind="stable")
    out = np.zeros((len(texts), model.get_embedding_dimension()), dtype=np.float32)
    was_training = model.training
    model.eval()
    try:
        with torch.inference_mode():
            batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
            for idx in track(batches, "span embeddings", enabled=show_progress_bar):
                emb = forward_span_embeddings(model, [texts[i] for i in idx], [spans[i] for i in idx], prompt)
                out[idx] = emb.float().cpu().numpy()
    finally:
        model.train(was_training)
    return out


def install_span_pooling(model: SentenceTransformer):
    """Make the model's ``Pooling`` use ``features["span_mask"]`` (when present) instead of the attention mask:
    span-aware training with the same numbers as :func:`encode_spans`. Returns the hook handle."""
    pool = next(m for m in model if isinstance(m, Pooling))

    def use_span_mask(module, args):
        features = args[0]
        if "span_mask" not in features:
            return None
        features = dict(features)
        features["attention_mask"] = features.pop("span_mask")
        return (features,)

    return pool.register_forward_pre_hook(use_span_mask)
