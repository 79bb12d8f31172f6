"""Pooling modules: the model's own ``mean``, ``last2`` (He et al.) and ``span`` (late chunking).

``last2`` uses sentence-transformers' own ``WeightedLayerPooling`` module with equal, frozen weights over the last
two layers, placed between the Transformer and a mean ``Pooling`` module, so a saved model reloads with plain
``SentenceTransformer(path)`` and pools the same way. ``span`` pooling needs a character span per text and is
therefore a function (:func:`idiomkit.embedding.spans.encode_spans`).
"""

from __future__ import annotations

import logging
import types

import torch
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Pooling, WeightedLayerPooling

from idiomkit.embedding import POOLINGS  # declared without torch (the command line offers them); used here
from idiomkit.errors import InputError, OptionError
from idiomkit.idioms.reader import encoder_module

log = logging.getLogger(__name__)


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


def _pooling_at(model: SentenceTransformer) -> int | None:
    """The index of ``model``'s ``Pooling`` module; None without one."""
    return next((i for i, m in enumerate(model) if isinstance(m, Pooling)), None)


def after_pooling(model: SentenceTransformer) -> list[torch.nn.Module]:
    """The modules after ``model``'s ``Pooling`` (none without one): what a pooled vector goes through before it is
    the embedding (``Normalize``; a centre, :mod:`idiomkit.embedding.center`, where there is one)."""
    at = _pooling_at(model)
    return [] if at is None else list(model)[at + 1 :]


def _split_modules(model: SentenceTransformer) -> tuple[list[torch.nn.Module], int, list[torch.nn.Module]]:
    """(modules before pooling, embedding dim, modules after pooling) of a pooled sentence-transformers model."""
    at = _pooling_at(model)
    if at is None:
        raise InputError("model has no Pooling module; cannot change its pooling")
    modules = list(model)
    before = [m for m in modules[:at] if not isinstance(m, WeightedLayerPooling)]
    return before, modules[at].get_embedding_dimension(), after_pooling(model)


def with_pooling(model: SentenceTransformer, pooling: str) -> SentenceTransformer:
    """A model that shares ``model``'s weights but pools with ``pooling`` (``mean`` or ``last2``).

    ``mean`` returns ``model`` unchanged (its own pooling). ``last2`` enables hidden states on the shared
    transformer and inserts an equal-weight :class:`WeightedLayerPooling` over the last two layers before a mean
    :class:`Pooling`.
    """
    if pooling not in POOLINGS:
        raise OptionError(f"unknown pooling '{pooling}' (expected one of {', '.join(POOLINGS)}; span is a query mode)")
    if pooling == "mean":
        return model
    before, dim, after = _split_modules(model)
    config = encoder_module(model).model.config
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
