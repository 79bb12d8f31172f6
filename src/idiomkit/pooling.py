"""Pooling: the model's own ``mean``, ``last2`` (He et al.) and ``span`` (late chunking).

``last2`` uses sentence-transformers' own ``WeightedLayerPooling`` module with equal, frozen weights over the last
two layers, placed between the Transformer and a mean ``Pooling`` module, so a saved model reloads with plain
``SentenceTransformer(path)`` and pools the same way. ``span`` pooling needs a character span per text and is
therefore a function (:func:`encode_spans`): it encodes the whole sentence and mean-pools only the span tokens.
"""

from __future__ import annotations

import logging
import types
from collections.abc import Sequence

import numpy as np
import torch
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, WeightedLayerPooling
from torch import Tensor

from idiomkit.progress import track

log = logging.getLogger(__name__)

POOLINGS = ("mean", "last2")


def last_layers_module(num_hidden_layers: int, embedding_dimension: int, n_layers: int = 2) -> WeightedLayerPooling:
    """sentence-transformers' own ``WeightedLayerPooling`` set to an equal-weight average of the last ``n_layers``.

    Being a built-in module, a saved model reloads with plain ``SentenceTransformer(path)`` even without idiomkit.
    The layer weights are frozen so training does not turn the average into a learned mixture.
    """
    module = WeightedLayerPooling(
        embedding_dimension, num_hidden_layers=num_hidden_layers, layer_start=num_hidden_layers - n_layers + 1
    )
    module.layer_weights.requires_grad_(False)
    return module


def _stacked_last_layers_forward(self: WeightedLayerPooling, features: dict) -> dict:
    """``WeightedLayerPooling.forward`` that stacks only the layers it averages: the same arithmetic, without the
    library's copy of every layer (``torch.stack`` of all, then a slice) and, in training, without a zero-filled
    gradient for every layer it does not use."""
    layers = features.get("all_layer_embeddings")
    if layers is None:
        return features
    stacked = torch.stack(list(layers[self.layer_start :]))
    weights = self.layer_weights.view(-1, 1, 1, 1)
    features.update({"token_embeddings": (weights * stacked).sum(dim=0) / self.layer_weights.sum()})
    return features


def stack_only_pooled_layers(model: torch.nn.Module) -> int:
    """Give every ``WeightedLayerPooling`` in ``model`` :func:`_stacked_last_layers_forward` (on the instance, so
    nothing is saved differently); returns how many. Used by training, where the unused layers' copies cost time."""
    modules = [m for m in model.modules() if isinstance(m, WeightedLayerPooling)]
    for module in modules:
        module.forward = types.MethodType(_stacked_last_layers_forward, module)
    return len(modules)


def _split_modules(model: SentenceTransformer) -> tuple[list[torch.nn.Module], int, list[torch.nn.Module]]:
    """(modules before pooling, embedding dim, modules after pooling) of a pooled sentence-transformers model."""
    modules = list(model)
    for i, module in enumerate(modules):
        if isinstance(module, Pooling):
            before = [m for m in modules[:i] if not isinstance(m, WeightedLayerPooling)]
            return before, module.get_embedding_dimension(), modules[i + 1 :]
    raise ValueError("model has no Pooling module; cannot change its pooling")


def with_pooling(model: SentenceTransformer, pooling: str) -> SentenceTransformer:
    """A model that shares ``model``'s weights but pools with ``pooling`` (``mean`` or ``last2``).

    ``mean`` returns ``model`` unchanged (its own pooling). ``last2`` enables hidden states on the shared
    transformer and inserts an equal-weight :class:`WeightedLayerPooling` over the last two layers before a mean
    :class:`Pooling`.
    """
    if pooling not in POOLINGS:
        raise ValueError(f"unknown pooling '{pooling}' (expected one of {', '.join(POOLINGS)}; span is a query mode)")
    if pooling == "mean":
        return model
    before, dim, after = _split_modules(model)
    config = before[0].model.config
    config.output_hidden_states = True
    layers = last_layers_module(config.num_hidden_layers, dim, 2)
    modules = [*before, layers, Pooling(dim, pooling_mode="mean"), *after]
    return SentenceTransformer(
        modules=modules,
        device=str(model.device),
        prompts=dict(model.prompts),
        default_prompt_name=model.default_prompt_name,
    )


def pooling_of(model: SentenceTransformer) -> str:
    """Name the pooling a model uses: ``lastN`` for an equal-weight average of the last N layers, else its mode."""
    for module in model:
        if isinstance(module, WeightedLayerPooling):
            weights = module.layer_weights.detach()
            if bool((weights == weights[0]).all()):
                return f"last{module.num_hidden_layers + 1 - module.layer_start}"
            return "weighted-layers"
        if isinstance(module, Pooling):
            mode = module.pooling_mode
            return mode if isinstance(mode, str) else "+".join(mode)
    return "unknown"


def span_token_mask(offsets: Tensor, spans: Sequence[tuple[int, int]]) -> Tensor:
    """1 for tokens whose character offsets overlap ``[start, end)``; special tokens (empty offsets) are 0."""
    starts = torch.tensor([s for s, _ in spans], dtype=offsets.dtype).unsqueeze(1)
    ends = torch.tensor([e for _, e in spans], dtype=offsets.dtype).unsqueeze(1)
    tok_start, tok_end = offsets[..., 0], offsets[..., 1]
    return ((tok_start < ends) & (tok_end > starts) & (tok_end > tok_start)).long()


def _masked_mean(tokens: Tensor, mask: Tensor) -> Tensor:
    mask = mask.unsqueeze(-1).to(tokens.dtype)
    return (tokens * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)


def span_features(model: SentenceTransformer, texts: Sequence[str], spans: Sequence[tuple[int, int]]):
    """Tokenise ``texts`` for ``model`` and return (features, span mask) on the model's device; spans falling
    outside the truncated input fall back to the whole sentence (counted in the log)."""
    enc = model.tokenizer(
        list(texts),
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
    model: SentenceTransformer, texts: Sequence[str], spans: Sequence[tuple[int, int]]
) -> Tensor:
    """Differentiable span embeddings (for losses): one forward pass over the full texts, pooled over spans."""
    features, mask = span_features(model, texts, spans)
    out = model.forward(features)
    emb = _masked_mean(out["token_embeddings"], mask)
    if any(isinstance(m, Normalize) for m in model):
        emb = torch.nn.functional.normalize(emb, dim=-1)
    return emb


def encode_spans(
    model: SentenceTransformer,
    texts: Sequence[str],
    spans: Sequence[tuple[int, int]],
    *,
    prompt: str | None = None,
    batch_size: int = 64,
    show_progress_bar: bool = False,
) -> np.ndarray:
    """Late chunking: encode each whole text (with ``prompt`` prefixed) and mean-pool the span's tokens.

    Texts are processed longest first in batches, so padding stays small. Returns float32 ``(n, dim)``.
    """
    if len(texts) != len(spans):
        raise ValueError(f"{len(texts)} texts but {len(spans)} spans")
    prefix = prompt or ""
    full = [prefix + t for t in texts]
    shifted = [(s + len(prefix), e + len(prefix)) for s, e in spans]
    order = np.argsort([-len(t) for t in full], kind="stable")
    out = np.zeros((len(texts), model.get_embedding_dimension()), dtype=np.float32)
    was_training = model.training
    model.eval()
    try:
        with torch.inference_mode():
            batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
            for idx in track(batches, "span embeddings", enabled=show_progress_bar):
                emb = forward_span_embeddings(model, [full[i] for i in idx], [shifted[i] for i in idx])
                out[idx] = emb.float().cpu().numpy()
    finally:
        model.train(was_training)
    return out


def install_span_pooling(model: SentenceTransformer):
    """Make the model's ``Pooling`` use ``features["span_mask"]`` (when present) instead of the attention mask:
    span-aware training with the same numbers as :func:`encode_spans`. Returns the hook handle."""
    from sentence_transformers.sentence_transformer.modules import Pooling

    pool = next(m for m in model if isinstance(m, Pooling))

    def use_span_mask(module, args):
        features = args[0]
        if "span_mask" not in features:
            return None
        features = dict(features)
        features["attention_mask"] = features.pop("span_mask")
        return (features,)

    return pool.register_forward_pre_hook(use_span_mask)
