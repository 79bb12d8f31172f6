"""KeepCloseLoss: zero at the frozen targets, grows as the embeddings move away, MSE or cosine; bad input refused."""

from __future__ import annotations

import pytest
import torch
from helpers.linear_model import Linear

from idiomkit.losses import KeepCloseLoss, keep_close_loss, relational_loss


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


def test_the_relational_term_ignores_a_rotation_and_measures_a_batch_drawing_together():
    targets = torch.eye(3, 4)  # three orthogonal sentences: cosines 0
    rotation, _ = torch.linalg.qr(torch.randn(4, 4))
    assert relational_loss(targets @ rotation, targets).item() == pytest.approx(0.0, abs=1e-6)
    assert keep_close_loss(targets @ rotation, targets, "cosine").item() > 0.1  # the distance term does not
    drawn = targets + torch.tensor([0.0, 0.0, 0.0, 1.0])  # each row gains a shared direction: pairwise cos 1/2
    assert relational_loss(drawn, targets).item() == pytest.approx(0.25, rel=1e-5)  # (1/2 - 0)^2 on 6 pairs


def test_the_relational_term_pulls_a_drawn_together_batch_apart():
    """From a batch drawn together, 200 steps with the relational term leave its cosines far nearer the targets'
    than the distance term alone does (hand-run: .30 -> .003 with it, -> .098 without)."""
    targets = torch.nn.functional.normalize(torch.randn(6, 8, generator=torch.Generator().manual_seed(0)), dim=-1)
    after = {}
    for relational in (0.0, 5.0):
        model = Linear(dim=8)
        with torch.no_grad():
            model.weight.copy_(torch.eye(8) + 0.5)  # every embedding gains a common component
        loss = KeepCloseLoss(model, "cosine", relational=relational)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
        first = relational_loss(model({"x": targets})["sentence_embedding"], targets).item()
        for _ in range(200):
            optimizer.zero_grad()
            loss([{"x": targets}], targets).backward()
            optimizer.step()
        after[relational] = relational_loss(model({"x": targets})["sentence_embedding"], targets).item()
    assert first > 0.1 and after[5.0] < after[0.0] / 10 < first / 10
    assert loss.get_config_dict() == {"distance": "cosine", "relational": 5.0}
    with pytest.raises(ValueError, match="relational weight -1 is negative"):
        KeepCloseLoss(model, "cosine", relational=-1)


def test_without_a_distance_only_the_relational_term_counts():
    """``none``: a batch moved as a whole (rotated) costs nothing; one drawn together costs the relational term."""
    targets = torch.eye(3, 4)
    rotation, _ = torch.linalg.qr(torch.randn(4, 4, generator=torch.Generator().manual_seed(1)))
    assert keep_close_loss(-targets, targets, "none").item() == 0.0
    model = Linear()
    loss = KeepCloseLoss(model, "none", relational=2.0)
    with torch.no_grad():
        model.weight.copy_(rotation)
    assert loss([{"x": targets}], targets).item() == pytest.approx(0.0, abs=1e-6)
    with torch.no_grad():
        model.weight.copy_(torch.eye(4) + torch.tensor([0.0, 0.0, 0.0, 1.0]))  # each row gains e4: cos 1/2
    drawn = model({"x": targets})["sentence_embedding"]
    expected = 2.0 * relational_loss(drawn, targets).item()
    assert expected > 0.1 and loss([{"x": targets}], targets).item() == pytest.approx(expected, rel=1e-5)
    with pytest.raises(ValueError, match="keep distance 'none' keeps nothing without a relational weight"):
        KeepCloseLoss(model, "none")
