"""Pooling: last2 equals the hand computation, reloads from disk; span pooling pools only the span's tokens."""

import torch

from idiomkit.embedding.spans import span_token_mask


def test_span_mask_from_offsets():
    offsets = torch.tensor([[[0, 0], [0, 2], [3, 9], [10, 13], [13, 16], [0, 0]]])
    assert span_token_mask(offsets, [(10, 16)]).tolist() == [[0, 0, 0, 1, 1, 0]]
    assert span_token_mask(offsets, [(4, 5)]).tolist() == [[0, 0, 1, 0, 0, 0]]
