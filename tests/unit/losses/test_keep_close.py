"""KeepCloseLoss: zero at the frozen targets, grows as the embeddings move away, MSE or cosine; bad input refused."""

from __future__ import annotations

import pytest
import torch
from helpers.linear_model import Linear

from idiomkit.losses import KeepCloseLoss, keep_close_loss


def test_distances_are_zero_at_the_targets_and_grow_away_from_them():
    x = torch.randn(5, 4)
    for distance in ("mse", "cosine"):
        assert keep_close_loss(x, x.clone(), distance).item() == pytest.approx(0.0, abs=1e-6)
        near = keep_close_loss(x + 0.1 * torch.randn(5, 4), x, distance).item()
        far = keep_close_loss(-x, x, distance).item()
        assert 0 < near < far
    assert keep_close_loss(2 * x, x, "cosine").item() == pytest.approx(0.0, abs=1e-6)  # direction only
    assert keep_close_loss(2 * x, x, "mse").item() == pytest.approx((x**2).mean().item(), rel=1e-5)


def test_every_column_is_compared_with_the_row_target_and_gradients_pull_back():
    model = Linear()
    targets = torch.randn(3, 4)
    en, pt = {"x": targets.clone()}, {"x": targets + 1.0}
    loss = KeepCloseLoss(model, "mse")
    value = loss([en, pt], targets)
    assert value.item() == pytest.approx(0.5, rel=1e-5)  # column 1 is off by 1 everywhere, column 0 exact
    value.backward()
    assert model.weight.grad is not None and model.weight.grad.abs().sum() > 0


def test_bad_input_is_refused_in_one_line():
    with pytest.raises(ValueError, match="unknown distance 'l1'"):
        KeepCloseLoss(Linear(), "l1")
    with pytest.raises(ValueError, match=r"embeddings \(2, 4\) and targets \(2, 3\) differ"):
        keep_close_loss(torch.zeros(2, 4), torch.zeros(2, 3))
