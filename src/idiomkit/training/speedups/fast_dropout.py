"""Cheaper dropout for CPU training: the same Bernoulli(1 - p) masks, drawn 4 at a time from 64-bit random words.

On this CPU, sampling dropout masks costs about a tenth of a training step (``torch.bernoulli`` draws one random
number per element; with dropout on, SDPA attention also falls back to a slower path). :func:`enable_fast_dropout`
swaps the transformer's ``nn.Dropout`` layers for :class:`FastDropout` and its attention for
``idiomkit_fast_dropout`` (SDPA when no dropout applies, else softmax attention with a fast mask). Each element
keeps with probability ``1 - round(p * 65536) / 65536`` (``p`` = 0.1 drops with probability 0.100006), scaled by
``1 / (1 - p)`` like ``nn.Dropout``; the draws come from torch's default generator, so seeding and checkpoint
resume stay exact. Nothing is saved differently: the attention setting is not serialised and ``FastDropout`` has no
weights. ``benchmarks/speed/train_speed.py`` measures what it buys (configurations ``ours`` vs ``ours-torch-dropout``).

Example::

    model = SentenceTransformer("sentence-transformers/all-MiniLM-L6-v2")
    enable_fast_dropout(model)  # then train as usual
"""

from __future__ import annotations

import logging
import math

import torch
from torch import nn
from transformers import AttentionInterface
from transformers.integrations.sdpa_attention import sdpa_attention_forward
from transformers.masking_utils import AttentionMaskInterface, sdpa_mask

log = logging.getLogger(__name__)

ATTENTION_NAME = "idiomkit_fast_dropout"
_WORDS = 4  # 16-bit draws per 64-bit random word


def dropout_scale_mask(shape: torch.Size, p: float, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """A ``{0, 1/(1-p)}`` mask of ``shape``: each element 0 with probability ``round(p * 65536) / 65536``."""
    n = math.prod(shape)
    words = torch.randint(-(2**63), 2**63 - 1, ((n + _WORDS - 1) // _WORDS,), dtype=torch.int64, device=device)
    draws = words.view(torch.int16)[:n].view(shape)  # uniform on [-32768, 32767]
    keep = draws >= round(p * 65536) - 32768
    return keep.to(dtype).mul_(1.0 / (1.0 - p))


class FastDropout(nn.Dropout):
    """``nn.Dropout`` with masks from :func:`dropout_scale_mask` (drop-in: same ``p``, same train/eval behaviour)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.training or self.p == 0:
            return x
        return x * dropout_scale_mask(x.shape, self.p, x.dtype, x.device)


def fast_dropout_attention(module, query, key, value, attention_mask, scaling=None, dropout=0.0, **kwargs):
    """Attention function for transformers' ``AttentionInterface``: SDPA without dropout (inference, ``p`` = 0);
    with dropout, softmax attention whose probabilities get a :func:`dropout_scale_mask`."""
    if dropout == 0.0 or getattr(module, "is_causal", False):
        return sdpa_attention_forward(
            module, query, key, value, attention_mask, scaling=scaling, dropout=dropout, **kwargs
        )
    scaling = query.size(-1) ** -0.5 if scaling is None else scaling
    weights = torch.matmul(query, key.transpose(2, 3)) * scaling
    if attention_mask is not None:
        if attention_mask.dtype == torch.bool:  # SDPA masks: True = attend
            weights.masked_fill_(~attention_mask, torch.finfo(weights.dtype).min)  # a fresh product: in place
        else:
            weights = weights + attention_mask
    weights = torch.softmax(weights, dim=-1)
    weights = weights * dropout_scale_mask(weights.shape, dropout, weights.dtype, weights.device)
    return torch.matmul(weights, value).transpose(1, 2).contiguous(), None


def _register() -> None:
    AttentionInterface.register(ATTENTION_NAME, fast_dropout_attention)
    AttentionMaskInterface.register(ATTENTION_NAME, sdpa_mask)  # the masks SDPA gets


def enable_fast_dropout(model: nn.Module) -> int:
    """Swap every ``nn.Dropout`` in ``model`` for :class:`FastDropout` (same ``p``) and switch transformers
    modules that use SDPA attention to :func:`fast_dropout_attention`; returns the number of dropout layers swapped."""
    _register()
    swapped = 0
    for parent in model.modules():
        for name, child in parent.named_children():
            if type(child) is nn.Dropout:
                setattr(parent, name, FastDropout(child.p, inplace=child.inplace))
                swapped += 1
    attention = 0
    for module in model.modules():
        config = getattr(module, "config", None)
        if hasattr(module, "set_attn_implementation") and getattr(config, "_attn_implementation", None) == "sdpa":
            config._attn_implementation = ATTENTION_NAME
            attention += 1
    log.info("fast dropout: %d dropout layers, %d attention configs", swapped, attention)
    return swapped
