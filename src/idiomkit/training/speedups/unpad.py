"""Unpadded BERT layers for training: the token-wise work skips padding tokens.

A length-bucketed batch still holds padding (7.5% of the tokens of an epoch of relabelled 2B train, batch 64), and
every linear layer, layer norm and GELU of a BERT layer computes it, to be thrown away: padding tokens are masked out
of attention keys and of pooling, so their outputs receive no gradient. :func:`enable_unpadding` switches each
``BertLayer`` of a model to :class:`UnpaddedBertLayer`, which gathers the real tokens into one ``[tokens, hidden]``
matrix, runs the query/key/value projections, attention output, feed-forward block and layer norms on it, and pads
only for the attention product itself (with the model's configured attention function, fast dropout's included).
The layer returns a padded tensor again (zeros at padding), so hooks, ``output_hidden_states`` and pooling see what
they expect.

Without dropout the result equals the padded forward up to float rounding (tested, outputs and gradients); with
dropout the masks are drawn for real tokens only, so the random stream differs (same distribution). Nothing is
saved differently: the layer class is swapped on the instance and the weights are the same modules' weights.
``benchmarks/speed/train_speed.py`` measures what it buys (configurations ``ours`` vs ``ours-padded``).

Example::

    model = SentenceTransformer("sentence-transformers/all-MiniLM-L6-v2")
    enable_unpadding(model)  # then train as usual
"""

from __future__ import annotations

import logging

import torch
from torch import nn
from transformers.models.bert.modeling_bert import ALL_ATTENTION_FUNCTIONS, BertLayer, eager_attention_forward

log = logging.getLogger(__name__)


def token_mask(attention_mask: torch.Tensor | None, batch: int, length: int) -> torch.Tensor | None:
    """``[batch, length]`` bool mask of real tokens from the 4-D mask a BERT layer receives (``None``: no padding).

    Boolean masks (SDPA-style, ``True`` = attend) and additive float masks (eager, 0 = attend) are both read from the
    first query row: in a bidirectional padding mask, the first token (``[CLS]``) attends to every real token.
    """
    if attention_mask is None:
        return None
    if attention_mask.dim() != 4 or attention_mask.shape[-1] != length:
        raise ValueError(f"unpadded layer: unexpected attention mask shape {tuple(attention_mask.shape)}")
    row = attention_mask[:, 0, 0, :]
    keep = row if row.dtype == torch.bool else row == 0
    return keep.expand(batch, length)


class UnpaddedBertLayer(BertLayer):
    """``BertLayer`` whose token-wise computations run on the real tokens only (same modules, same weights)."""

    def forward(self, hidden_states, attention_mask=None, encoder_hidden_states=None, **kwargs):
        batch, length, hidden = hidden_states.shape
        keep = token_mask(attention_mask, batch, length)
        if keep is None or bool(keep.all()) or self.is_decoder or encoder_hidden_states is not None:
            return super().forward(hidden_states, attention_mask, encoder_hidden_states, **kwargs)
        index = keep.reshape(-1).nonzero().squeeze(1)
        flat = hidden_states.reshape(batch * length, hidden)
        tokens = flat.index_select(0, index)
        attention = self.attention.self

        def padded(values: torch.Tensor) -> torch.Tensor:
            full = values.new_zeros(batch * length, values.shape[-1]).index_copy_(0, index, values)
            return full.view(batch, length, -1, attention.attention_head_size).transpose(1, 2)

        implementation = attention.config._attn_implementation
        interface = ALL_ATTENTION_FUNCTIONS.get_interface(implementation, eager_attention_forward)
        kwargs.pop("cache", None)
        context, _ = interface(
            attention,
            padded(attention.query(tokens)),
            padded(attention.key(tokens)),
            padded(attention.value(tokens)),
            attention_mask,
            dropout=attention.dropout.p if attention.training else 0.0,
            scaling=attention.scaling,
            **kwargs,
        )
        context = context.reshape(batch * length, -1).index_select(0, index)
        attended = self.attention.output(context, tokens)
        out = self.output(self.intermediate(attended), attended)
        return out.new_zeros(batch * length, hidden).index_copy_(0, index, out).view(batch, length, hidden)


def enable_unpadding(model: nn.Module) -> int:
    """Switch every plain ``BertLayer`` in ``model`` to :class:`UnpaddedBertLayer`; returns how many were switched
    (0 for other architectures, which keep their padded forward)."""
    switched = 0
    for module in model.modules():
        if type(module) is BertLayer and module.chunk_size_feed_forward == 0:
            module.__class__ = UnpaddedBertLayer
            switched += 1
    log.info("unpadding: %d BERT layers", switched)
    return switched
