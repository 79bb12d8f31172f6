"""Unpadded BERT layers: same outputs and gradients as the padded forward, nothing saved differently."""

import pytest
import torch

from idiomkit.training.speedups.unpad import enable_unpadding, token_mask


def test_token_mask_reads_boolean_and_additive_masks():
    real = torch.tensor([[True, True, True], [True, True, False]])
    boolean = real[:, None, None, :].expand(2, 1, 3, 3)
    additive = torch.zeros(2, 1, 3, 3).masked_fill(~boolean, torch.finfo(torch.float32).min)
    assert torch.equal(token_mask(boolean, 2, 3), real)
    assert torch.equal(token_mask(additive, 2, 3), real)
    assert token_mask(None, 2, 3) is None
    with pytest.raises(ValueError, match="unexpected attention mask shape"):
        token_mask(torch.ones(2, 3, dtype=torch.bool), 2, 3)


def test_enable_unpadding_leaves_other_architectures_alone():
    assert enable_unpadding(torch.nn.Sequential(torch.nn.Linear(2, 2))) == 0
