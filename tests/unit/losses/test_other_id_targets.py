"""OtherIdTargetsLoss: incorrect pairs aim at the model's own similarity of the correct and the incorrect
paraphrase (2B's otherID rule); hand-computed targets, a loss that falls, one-line errors on bad input."""

from __future__ import annotations

import math

import pytest
import torch
from helpers.linear_model import Linear
from sentence_transformers.sentence_transformer.losses import CoSENTLoss

from idiomkit.losses import OtherIdTargetsLoss, PinPositivesLoss, other_id_targets


def test_targets_keep_correct_labels_and_take_the_reference_cosine_for_the_rest():
    paraphrase = torch.tensor([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    reference = torch.tensor([[0.0, 5.0], [1.0, 0.0], [0.0, -2.0]])  # cos to paraphrase: 0, 1/sqrt(2), -1
    targets = other_id_targets(torch.tensor([1.0, 0.0, 0.0]), paraphrase, reference)
    assert targets.tolist() == pytest.approx([1.0, 1 / math.sqrt(2), -1.0], rel=1e-6)
    assert not targets.requires_grad


def trained_similarities(other_id: bool) -> list[float]:
    """cos(sentence, paraphrase) of three rows after 60 SGD steps: the correct paraphrase, an incorrect one close
    to it, and a literal misreading close to the sentence's surface (at the start, the misreading is closest)."""
    torch.manual_seed(0)
    model = Linear(3)
    sentence = {"x": torch.tensor([[1.0, 0.0, 0.0]] * 3)}
    paraphrase = {"x": torch.tensor([[0.0, 1.0, 0.0], [0.2, 1.0, 0.3], [1.0, -0.2, 0.3]])}
    correct = {"x": torch.tensor([[0.0, 1.0, 0.0]] * 3)}
    labels = torch.tensor([1.0, 0.0, 0.0])
    cosent = CoSENTLoss(model)
    loss = OtherIdTargetsLoss(model, cosent) if other_id else cosent
    columns = [sentence, paraphrase, correct] if other_id else [sentence, paraphrase]
    if other_id:
        e = [model(f)["sentence_embedding"] for f in columns]
        expected = cosent.compute_loss_from_embeddings(e[:2], other_id_targets(labels, e[1], e[2]))
        assert loss(columns, labels).item() == pytest.approx(expected.item(), rel=1e-6)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    values = []
    for _ in range(60):
        optimizer.zero_grad()
        value = loss(columns, labels)
        value.backward()
        optimizer.step()
        values.append(value.item())
    assert values[-1] < values[0] / 10
    with torch.no_grad():
        e = [model(f)["sentence_embedding"] for f in (sentence, paraphrase)]
        return torch.nn.functional.cosine_similarity(e[0], e[1], dim=-1).tolist()


def test_the_loss_is_the_inner_loss_on_the_targets_and_it_ranks_the_incorrect_pairs_by_them():
    ours, zero = trained_similarities(other_id=True), trained_similarities(other_id=False)
    assert ours[0] > ours[1] > ours[2]  # the misreading, closest at the start, ends last
    # with 0 as every incorrect pair's target, the two incorrect pairs are never ordered against each other
    assert ours[1] - ours[2] > 2 * (zero[1] - zero[2])


def test_it_wraps_a_pinned_ranking_loss():
    model = Linear(2)
    pinned = PinPositivesLoss(model, CoSENTLoss(model), weight=5.0)
    loss = OtherIdTargetsLoss(model, pinned)
    cols = [{"x": torch.tensor([[1.0, 0.0], [1.0, 0.0]])}, {"x": torch.tensor([[0.5, 1.0], [0.0, 1.0]])}]
    cols.append({"x": torch.tensor([[0.5, 1.0], [0.5, 1.0]])})
    labels = torch.tensor([1.0, 0.0])
    e = [model(f)["sentence_embedding"] for f in cols]
    expected = pinned.compute_loss_from_embeddings(e[:2], other_id_targets(labels, e[1], e[2]))
    assert loss(cols, labels).item() == pytest.approx(expected.item(), rel=1e-6)
    assert loss.get_config_dict() == {"loss": "PinPositivesLoss", "top": 1.0}


def test_bad_input_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"paraphrases \(2, 2\) and references \(3, 2\) with 2 labels"):
        other_id_targets(torch.ones(2), torch.zeros(2, 2), torch.zeros(3, 2))
    model = Linear(2)
    with pytest.raises(ValueError, match="2 text columns: expected 3"):
        OtherIdTargetsLoss(model, CoSENTLoss(model))([{"x": torch.ones(1, 2)}] * 2, torch.ones(1))


def test_only_the_incorrect_rows_correct_paraphrases_are_encoded_and_without_gradients():
    model = Linear(2)
    seen: list[tuple[int, bool]] = []
    model.register_forward_hook(lambda _module, args, _out: seen.append((len(args[0]["x"]), torch.is_grad_enabled())))
    loss = OtherIdTargetsLoss(model, CoSENTLoss(model))
    sentence = {"x": torch.tensor([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]])}
    paraphrase = {"x": torch.tensor([[0.5, 1.0], [0.0, 1.0], [1.0, 0.2]])}
    correct = {"x": torch.tensor([[float("nan")] * 2, [0.5, 1.0], [0.5, 1.0]])}  # row 0 is correct: never read
    labels = torch.tensor([1.0, 0.0, 0.0])
    value = loss([sentence, paraphrase, correct], labels)
    assert seen == [(3, True), (3, True), (2, False)]
    e = [model(f)["sentence_embedding"] for f in (sentence, paraphrase, {"x": correct["x"].nan_to_num(0.0)})]
    expected = CoSENTLoss(model).compute_loss_from_embeddings(e[:2], other_id_targets(labels, e[1], e[2]))
    assert value.item() == pytest.approx(expected.item(), rel=1e-6)
