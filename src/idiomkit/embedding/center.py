"""Centering: subtract a reference mean from a model's unit embeddings, then rescale them to unit length.

Fine-tuning can draw a model's space together: different sentences gain a common direction (their mean cosine
rises; ``benchmarks/analysis/drift.py`` measures it), which shrinks every margin measured on raw cosines although the
ranking of neighbours barely moves. Removing the mean embedding of a reference sample of ordinary text undoes that
common direction (Mu & Viswanath 2018, "All-but-the-Top", step one; Su et al. 2021 centre before whitening).

The centre is built from sentence-transformers' own modules, so a saved model reloads with plain
``SentenceTransformer(path)`` and centres the same way: after the model's ``Normalize``, a ``Dense`` layer with
identity weights, bias ``-mean`` and no activation, then a second ``Normalize``. Span pooling
(:func:`idiomkit.embedding.spans.forward_span_embeddings`) runs the same modules after its pooled vector.

Example::

    mean = mean_embedding(model, reference_sentences)
    add_centering(model, mean)
    model.save("out/centred")
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Dense, Normalize

from idiomkit.errors import InputError


def mean_embedding(
    model: SentenceTransformer, texts: Sequence[str], *, prompt_name: str | None = None, batch_size: int = 32
) -> np.ndarray:
    """The mean of ``texts``' unit embeddings (float32), encoded as the scorecard encodes (``prompt_name``)."""
    if not texts:
        raise InputError("centering needs at least one reference sentence")
    emb = model.encode(list(texts), normalize_embeddings=True, batch_size=batch_size, prompt_name=prompt_name)
    return np.asarray(emb, dtype=np.float32).mean(axis=0)


def centering_module(mean: np.ndarray) -> Dense:
    """``x -> x - mean`` as sentence-transformers' ``Dense`` (identity weights, bias ``-mean``, no activation)."""
    dim = int(mean.shape[-1])
    return Dense(
        dim,
        dim,
        bias=True,
        activation_function=torch.nn.Identity(),
        init_weight=torch.eye(dim),
        init_bias=-torch.as_tensor(mean, dtype=torch.float32),
    )


def is_centering(module: torch.nn.Module) -> bool:
    """Whether ``module`` is a :func:`centering_module` (a square ``Dense`` with identity weights)."""
    if not isinstance(module, Dense) or module.in_features != module.out_features:
        return False
    weight = module.linear.weight.detach()
    return bool(torch.equal(weight, torch.eye(module.in_features, dtype=weight.dtype, device=weight.device)))


def add_centering(model: SentenceTransformer, mean: np.ndarray) -> SentenceTransformer:
    """Append ``[Normalize,] centre, Normalize`` to ``model`` (the first ``Normalize`` only when the model does not
    end with one); refuses a model that is centred already or a mean of the wrong size. Returns the model."""
    modules = list(model)
    if any(is_centering(m) for m in modules):
        raise InputError("the model is centred already")
    if mean.shape != (model.get_embedding_dimension(),):
        raise InputError(f"a mean of shape {mean.shape} for a model of dimension {model.get_embedding_dimension()}")
    added = [] if isinstance(modules[-1], Normalize) else [Normalize()]
    added += [centering_module(mean).to(model.device), Normalize()]
    for module in added:
        model.append(module)
    return model
