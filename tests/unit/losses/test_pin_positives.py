"""PinPositivesLoss: the ranking loss plus the mean 1 - cos of the pairs scored 1; hand-computed, falls, refuses
bad input."""

from __future__ import annotations

import math

import pytest
import torch
from helpers.linear_model import Linear
from sentence_transformers.sentence_transformer.losses import CoSENTLoss

from idiomkit.losses import PinPositivesLoss, pin_loss


def test_pin_is_the_mean_one_minus_cos_of_the_top_pairs_only():
    first = torch.tensor([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]])
    second = torch.tensor([[1.0, 1.0], [0.0, 1.0], [-1.0, 0.0]])  # cos 1/sqrt(2), 0, -1
    labels = torch.tensor([1.0, 1.0, 0.0])
    expected = ((1 - 1 / math.sqrt(2)) + (1 - 0.0)) / 2  # the third pair is scored 0: not pinned
    assert pin_loss(first, second, labels).item() == pytest.approx(expected, rel=1e-6)
    assert pin_loss(first, second, torch.tensor([0.0, 0.5, 0.0])).item() == 0.0  # no top pair
    assert pin_loss(first, 3 * first, torch.ones(3)).item() == pytest.approx(0.0, abs=1e-6)  # direction only


def test_the_loss_is_ranking_plus_weighted_pin_and_training_lifts_the_correct_pair():
    torch.manual_seed(0)
    model = Linear(2)
    first = {"x": torch.tensor([[1.0, 0.0], [1.0, 0.0]])}
    second = {"x": torch.tensor([[0.2, 1.0], [0.0, -1.0]])}
    labels = torch.tensor([1.0, 0.0])
    cosent = CoSENTLoss(model)
    loss = PinPositivesLoss(model, cosent, weight=10.0)
    embeddings = [model(first)["sentence_embedding"], model(second)["sentence_embedding"]]
    expected = cosent.compute_loss_from_embeddings(embeddings, labels) + 10 * pin_loss(*embeddings, labels)
    assert loss([first, second], labels).item() == pytest.approx(expected.item(), rel=1e-6)
    # CoSENT is already met (the correct pair ranks first); only the pin still pulls it up
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    values = []
    for _ in range(30):
        optimizer.zero_grad()
        value = loss([first, second], labels)
        value.backward()
        optimizer.step()
        values.append(value.item())
    assert values[-1] < values[0] / 2
    with torch.no_grad():
        lifted = pin_loss(model(first)["sentence_embedding"], model(second)["sentence_embedding"], labels)
    assert lifted.item() < pin_loss(*[e.detach() for e in embeddings], labels).item()


def test_bad_input_is_refused_in_one_line():
    with pytest.raises(ValueError, match="pin weight -1 is negative"):
        PinPositivesLoss(Linear(2), CoSENTLoss(Linear(2)), weight=-1)
    with pytest.raises(ValueError, match=r"pairs \(2, 2\) and \(3, 2\) with 2 labels"):
        pin_loss(torch.zeros(2, 2), torch.zeros(3, 2), torch.ones(2))
