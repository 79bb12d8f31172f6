"""adaptive-triplet recipe: relabelling, miner, loss, sampler, MWE tokens, training, checkpoint resume."""

import math
import random

import pytest
import torch
from helpers.training import HAND

from idiomkit.embedding.mwe import mwe_token, replace_mwes
from idiomkit.losses import AdaptiveTripletLoss
from idiomkit.tasks.semeval2b import score_predictions
from idiomkit.training.relabel import group_pairs, relabel, validation_pairs
from idiomkit.training.sampler import GroupedLengthBatchSampler, grouped_length_batches


def test_relabel_rule_on_hand_built_groups():
    rows = relabel(group_pairs(HAND))
    assert [(r.label, r.group, r.role) for r in rows] == [
        (0, 0, "mwe"),
        (0, 0, "correct"),
        (1, 0, "incorrect"),
        (2, 1, "mwe"),
        (2, 1, "correct"),
        (3, 1, "incorrect"),
        (4, 1, "incorrect"),
    ]
    assert [r.text for r in rows][:3] == [
        "Ruth's home run record.",
        "Ruth's baseball run record.",
        "Ruth's house run record.",
    ]


def test_validation_pairs_use_other_id_rule():
    pairs, gold = validation_pairs(group_pairs(HAND))
    assert [g.sim for g in gold] == [1.0, None, 1.0, None, None]
    by_id = {p.id: p for p in pairs}
    other = by_id[gold[1].other_id]
    assert (other.sentence1, other.sentence2) == ("Ruth's baseball run record.", "Ruth's house run record.")
    preds = {p.id: random.Random(i).random() for i, p in enumerate(pairs)}
    assert math.isfinite(score_predictions(preds, gold)["ALL"]["idiom"])


def unit(deg):
    return [math.cos(math.radians(deg)), math.sin(math.radians(deg))]


def test_miner_picks_hand_computed_triplets_and_loss_value():
    # rows 0,1 share a label (anchor/positive both ways); 2 and 3 are negatives
    emb = torch.tensor([[1.0, 0.0], unit(30), [0.6, 0.8], [-1.0, 0.0]])
    labels = torch.tensor([0, 0, 1, 2])
    loss = AdaptiveTripletLoss(model=None, miner_margin=0.4, margin=0.3)
    a, p, n = loss.mine(emb, labels)
    # sim(0,1)=.866; sim(0,2)=.6 -> .266 <= .4 kept; sim(1,2)=.9196 -> -.054 kept; row 3 (cos -1/-.866) easy
    assert sorted(zip(a.tolist(), p.tolist(), n.tolist(), strict=True)) == [(0, 1, 2), (1, 0, 2)]
    s01, s02, s12 = math.cos(math.radians(30)), 0.6, math.cos(math.radians(30)) * 0.6 + 0.5 * 0.8
    expected = ((s02 - s01 + 0.3) + (s12 - s01 + 0.3)) / 2  # mean over non-zero triplet losses
    assert loss.embedding_loss(emb, labels).item() == pytest.approx(expected, abs=1e-5)


def test_miner_distance_choice_changes_selection():
    # cos(a,p)=.9, cos(a,n)=.55: cosine margin .35 <= .4 (kept); euclidean .949-.447=.50 > .4 (not kept)
    emb = torch.tensor([[1.0, 0.0], unit(math.degrees(math.acos(0.9))), unit(-math.degrees(math.acos(0.55)))])
    labels = torch.tensor([0, 0, 1])
    cos_triplets = AdaptiveTripletLoss(None).mine(emb, labels)
    euc_triplets = AdaptiveTripletLoss(None, miner_distance="euclidean").mine(emb, labels)
    assert list(zip(*[t.tolist() for t in cos_triplets], strict=True)) == [(0, 1, 2)]
    assert len(euc_triplets[0]) == 0
    assert AdaptiveTripletLoss(None).embedding_loss(emb[[0, 2]], torch.tensor([0, 1])).item() == 0.0


def test_sampler_keeps_groups_whole_and_is_deterministic():
    rng = random.Random(1)
    groups = [g for g in range(200) for _ in range(rng.randint(2, 5))]
    lengths = [rng.randint(5, 120) for _ in groups]
    one = grouped_length_batches(groups, lengths, 16, seed=3, epoch=0, bucket=4)
    assert sorted(i for b in one for i in b) == list(range(len(groups)))
    for batch in one:
        assert len(batch) <= 16
        for g in {groups[i] for i in batch}:
            assert groups.count(g) == sum(groups[i] == g for i in batch)  # no group split
    assert one == grouped_length_batches(groups, lengths, 16, seed=3, epoch=0, bucket=4)
    assert one != grouped_length_batches(groups, lengths, 16, seed=3, epoch=1, bucket=4)
    sampler = GroupedLengthBatchSampler({"group": groups, "length": lengths}, 16, seed=3, bucket=4)
    sampler.set_epoch(1)
    assert list(sampler) == grouped_length_batches(groups, lengths, 16, seed=3, epoch=1, bucket=4)
    assert len(sampler) == len(list(sampler))


def test_mwe_replacement():
    assert mwe_token("home run") == "IDhomerunID"
    assert replace_mwes("Two Home  runs today.", ["home run"]) == "Two IDhomerunIDs today."
    assert replace_mwes("a home run", ["home run"], known={"idbigfishid"}) == "a home run"
    assert replace_mwes("no idiom here", ["None"]) == "no idiom here"


class CarriesModules:
    """A model whose modules are ``modules`` (saving and its base length are replaced in the test)."""

    def __init__(self, *modules):
        self._modules = {str(i): module for i, module in enumerate(modules)}


def test_a_run_records_the_idiom_reader_it_trained_with(monkeypatch, tmp_path):
    """``training.json`` records the version (and digest) of the idiom reader the saved model carries (the
    flagship recipes train with it and keep it), null for a model without one; a card's ``params.training`` (the
    run's summary) carries them."""
    import json

    import idiomkit.training.trainer as trainer
    from idiomkit.api import training_summary
    from idiomkit.idioms import Lexicon
    from idiomkit.idioms.reader import IdiomReader
    from idiomkit.idioms.version import READER_VERSION, reader_digest
    from idiomkit.training.config import TrainConfig, TrainState
    from idiomkit.training.recipes.base import Setup

    monkeypatch.setattr(trainer, "save_plain", lambda model, out: None)
    monkeypatch.setattr(trainer, "base_length", lambda model: 512)
    reader = IdiomReader(Lexicon.from_pairs([("kick the bucket", "to die")]))
    for recipe, modules in (("flagship-v2", (reader, object())), ("adaptive-triplet", (object(),))):
        out = tmp_path / recipe
        out.mkdir()
        run = Setup(CarriesModules(*modules), [], [], [], {})
        trainer.finish(run, TrainState(), TrainConfig(recipe=recipe, output_dir=str(out)), out)
    info = json.loads((tmp_path / "flagship-v2" / "training.json").read_text())
    assert (info["reader_version"], info["reader_digest"]) == (READER_VERSION, reader_digest())
    assert training_summary(tmp_path / "flagship-v2")["reader_version"] == READER_VERSION
    plain = training_summary(tmp_path / "adaptive-triplet")
    assert plain["reader_version"] is None and "reader_digest" not in plain


def test_stream_losses_log_each_streams_mean_since_the_last_line():
    from idiomkit.training.trainer import StreamLosses

    window = StreamLosses(["2b", "keep"])
    assert window.pop() == {} and StreamLosses.describe({}) == "-"
    window.add([2.0, 0.01])
    window.add([4.0, 0.03])
    assert window.steps == 2
    means = window.pop()
    assert StreamLosses.describe(means) == "2b 3, keep 0.02" and window.steps == 0
    assert StreamLosses.faint(means) == []  # 0.02 of 3.02: above the 0.1 % share
    window.add([8.0, 0.0004])
    assert StreamLosses.faint(window.pop()) == ["keep"]  # 0.0004 of 8: the keep term at MSE weight 1
    assert StreamLosses.faint({"2b": 0.0}) == [] and StreamLosses.faint({"2b": 0.0, "keep": 0.0}) == []
    assert StreamLosses.faint({"2b": 8.0, "sts": 0.0}) == []  # weight 0 (--sts-weight 0): off, not too weak
    window.add([torch.tensor(1.5), torch.tensor(0.25)])  # a step's parts stay tensors until the log line
    window.add([torch.tensor(2.5), torch.tensor(0.75)])
    assert window.pop() == {"2b": 2.0, "keep": 0.5}


def test_sts_validation_pairs_join_as_sts_rows_and_all_ranks_both_together():
    """The joint ``all`` of 2B dev: STS pairs ranked with the idiom pairs. A model whose correct idiom pairs sit
    under the STS pairs keeps its idiom ρ and loses on ``all`` (hand-computed)."""
    from idiomkit.data.sts import StsPair

    groups = group_pairs(HAND)
    sts = [StsPair("a", "b", 0.2, "stsb-en", "EN"), StsPair("c", "d", 0.6, "stsb-en", "EN")]
    pairs, gold = validation_pairs(groups, sts)
    plain_pairs, plain_gold = validation_pairs(groups)
    assert pairs[: len(plain_pairs)] == plain_pairs and gold[: len(plain_gold)] == plain_gold
    added = gold[len(plain_gold) :]
    assert [(g.sim, g.is_sts, g.language) for g in added] == [(0.2, True, "EN"), (0.6, True, "EN")]
    assert [(p.sentence1, p.sentence2, p.mwes) for p in pairs[len(plain_pairs) :]] == [("a", "b", ()), ("c", "d", ())]
    # idiom rows: two correct (gold 1) and three incorrect whose gold is the alternative pair's prediction
    preds = {p.id: 0.5 for p in pairs}
    correct = [g.id for g in plain_gold if g.sim == 1.0]
    incorrect = [g for g in plain_gold if g.sim is None]
    for k, g in enumerate(incorrect):
        preds[g.id], preds[g.other_id] = 0.1 * k, 0.1 * k + 0.05
    high = {**preds, **dict.fromkeys(correct, 0.9), "valsts.0": 0.18, "valsts.1": 0.7}
    low = {**high, **dict.fromkeys(correct, 0.4)}  # the correct pairs fall between the two STS pairs
    assert score_predictions(high, gold)["ALL"]["idiom"] == score_predictions(low, gold)["ALL"]["idiom"]
    assert score_predictions(high, gold)["ALL"]["sts"] == pytest.approx(1.0)
    # gold .05 .15 .2(STS) .25 .6(STS) 1 1 against predictions 0 .1 .18 .2 .7 .9 .9: the same order. With the
    # correct pairs at .4, under the STS pair at .7: ranks 1 2 3 4 5 6.5 6.5 against 1 2 3 4 7 5.5 5.5,
    # Pearson of the ranks 24.5 / 27.5
    assert score_predictions(high, gold)["ALL"]["all"] == pytest.approx(1.0)
    assert score_predictions(low, gold)["ALL"]["all"] == pytest.approx(24.5 / 27.5)


def test_a_step_back_propagates_each_stream_before_the_next_and_gets_the_sums_gradient(monkeypatch):
    """Each stream's part is back-propagated before the next stream is computed (one stream's activations held at
    a time), and the gradient the optimizer sees equals the gradient of the weighted sum of the streams' losses."""
    import idiomkit.training.trainer as trainer
    from idiomkit.training.config import TrainConfig
    from idiomkit.training.recipes.base import Phase, Setup, Stream

    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    inputs = {"a": torch.randn(4, 3), "b": torch.randn(5, 3)}
    grad_when_computed = []

    def loss_of(model, stream, batch, dist):
        grad_when_computed.append(None if model.weight.grad is None else model.weight.grad.clone())
        return model(inputs[stream.examples]).pow(2).mean()

    monkeypatch.setattr(trainer, "stream_loss", loss_of)
    phase = Phase("p", [Stream("a", None, 1.0), Stream("b", None, 3.0)], 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)  # lr 0: the weights stay, the gradients can be compared
    loss, parts = trainer.train_step(
        Setup(model, [phase], [], [], {}), phase, [[0], [0]], optimizer, TrainConfig(max_grad_norm=1e6)
    )
    step_grad = model.weight.grad.clone()

    model.zero_grad()
    first = model(inputs["a"]).pow(2).mean()
    total = first + 3.0 * model(inputs["b"]).pow(2).mean()
    (first_grad,) = torch.autograd.grad(first, model.weight, retain_graph=True)
    total.backward()
    assert grad_when_computed[0] is None and torch.allclose(grad_when_computed[1], first_grad)
    assert torch.allclose(step_grad, model.weight.grad, atol=1e-6)
    assert float(loss) == pytest.approx(float(total)) and float(parts[1]) == pytest.approx(float(total - first))


def test_the_progress_line_warns_once_of_a_stream_too_faint_to_move_the_model(caplog):
    """From step 50 a stream under a thousandth of the step's loss is named once; the line shows the loss, each
    stream's mean and the resident memory."""
    import logging

    from idiomkit.training.config import TrainState
    from idiomkit.training.trainer import StreamLosses, log_progress

    window = StreamLosses(["pairs", "keep"])
    window.add([4.0, 0.002])
    with caplog.at_level(logging.INFO, logger="idiomkit.training"):
        assert log_progress(TrainState(step=40), "p", 4.002, 3e-5, window, False) is False  # too early to judge
        window.add([4.0, 0.002])
        assert log_progress(TrainState(step=50), "p", 4.002, 3e-5, window, False) is True
        window.add([4.0, 0.002])
        assert log_progress(TrainState(step=60), "p", 4.002, 3e-5, window, True) is True
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["keep: under 0.001 of the step's loss, too small to move the model; raise its weight"]
    line = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO][0]
    assert line.startswith("step 40 phase p epoch 0 loss 4.0020 lr 3.00e-05;") and "pairs 4, keep 0.002" in line
