"""One-shot sense matcher: CoSENT pair loss, batches that keep pairs inside an MWE, nearest-shot labels, training."""

import math
import random

import numpy as np
import pytest
import torch

from idiomkit.data.semeval2a import Example2A
from idiomkit.methods.semeval2a.sense_matcher import (
    MatcherConfig,
    cosent_pair_loss,
    episode_macro_f1,
    mwe_batches,
    nearest_shot_labels,
    train_matcher,
)


def _ex(i, mwe, label, target=None):
    return Example2A(str(i), "EN", mwe, "", target or f"The {mwe} here {i}.", "", label, "zero_shot")


def test_cosent_pair_loss_hand_value():
    cos = torch.tensor([0.9, 0.2, 0.5])
    same = torch.tensor([True, False, True])
    # (different, same) pairs: (0.2, 0.9), (0.2, 0.5)
    expected = math.log(1 + math.exp(20 * (0.2 - 0.9)) + math.exp(20 * (0.2 - 0.5)))
    assert float(cosent_pair_loss(cos, same, 20.0)) == pytest.approx(expected, rel=1e-4)
    # a ranking the wrong way round costs more
    assert float(cosent_pair_loss(cos, ~same, 20.0)) > 5


def test_mwe_batches_keep_chunks_of_one_mwe_and_skip_single_label_mwes():
    examples = [_ex(i, "a", i % 2) for i in range(10)] + [_ex(10 + i, "b", 0) for i in range(6)]
    examples += [_ex(20 + i, "c", i % 2) for i in range(5)]
    cfg = MatcherConfig(chunk=4, chunks_per_batch=2)
    batches = mwe_batches(examples, cfg, random.Random(0))
    seen = [i for b in batches for i in b]
    assert len(seen) == len(set(seen)) == 10 + 4  # b has one label (no pairs); c's fifth example is a chunk of one
    assert {examples[i].mwe for i in seen} == {"a", "c"}
    assert all(len(b) <= 8 for b in batches)


def test_nearest_shot_labels_hand_case():
    x_shots = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    shots = {"a": {0: [0], 1: [1]}, "b": {1: [2]}}
    x = np.array([[0.9, 0.1], [0.2, 0.9], [1.0, 0.0], [1.0, 0.0]])
    assert nearest_shot_labels(x, ["a", "a", "b", "z"], x_shots, shots) == [0, 1, 1, -1]


def test_episode_macro_f1_is_one_when_labels_cluster():
    examples = [_ex(i, f"m{i % 3}", (i // 3) % 2) for i in range(24)]
    x = np.array([[1.0, 0.0] if ex.label == 0 else [0.0, 1.0] for ex in examples])
    assert episode_macro_f1(x, examples, episodes=3, seed=0) == 1.0
    assert episode_macro_f1(np.ones_like(x), examples, episodes=3, seed=0) < 0.7  # no signal: ties


def test_tiny_matcher_run_lowers_the_loss_and_records_epochs(minilm):
    torch.manual_seed(0)
    train = [  # six MWEs, each used both ways
        _ex(i, f"m{i % 6}", (i // 6) % 2, target=("Literally a" if (i // 6) % 2 else "Figuratively, a") + f" m{i % 6}.")
        for i in range(48)
    ]
    cfg = MatcherConfig(epochs=2, chunk=8, chunks_per_batch=2, lr=1e-3, train_layers=1, val_fraction=0.34,
                        max_seq_length=16, episodes=2)  # fmt: skip
    encoder = minilm[0].auto_model
    state = {k: v.clone() for k, v in encoder.state_dict().items()}
    try:
        matcher, info = train_matcher(minilm, train, cfg)
        history = info["history"]
        assert [row["epoch"] for row in history] == [0, 1, 2]
        assert history[2]["loss"] < history[1]["loss"]  # the pair loss falls
        assert info["best"]["val_episode_macro_f1"] == max(r["val_episode_macro_f1"] for r in history)
        assert info["validation_mwes"] == 2 and info["fit_examples"] + info["validation_examples"] == 48
        top = "encoder.layer.5.output.dense.weight"
        moved = not torch.equal(matcher.encoder.state_dict()[top], state[top])
        assert moved == (info["best"]["epoch"] > 0)  # the kept weights are those of the selected epoch
        assert torch.equal(matcher.encoder.state_dict()["encoder.layer.0.output.dense.weight"],
                           state["encoder.layer.0.output.dense.weight"])  # only the top layer trains  # fmt: skip
    finally:
        minilm[0].auto_model.load_state_dict(state)  # the session fixture is shared
        minilm.eval()


def test_neighbour_smoothing_hand_values():
    from idiomkit.methods.semeval2a.sense_matcher import choose_smoothing, neighbour_smoothing

    p = np.array([0.9, 0.1, 0.2, 0.6, 0.5])
    x = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [1.0, 0.0], [0.6, 0.8]])
    mwes = ["a", "a", "a", "b", "c"]
    # use 0: nearest other use of "a" is 1 (cos .8) -> 0.5 * 0.9 + 0.5 * 0.1; all others: mean(0.1, 0.2)
    assert neighbour_smoothing(p, x, mwes, k=1, a=0.5)[0] == pytest.approx(0.5)
    assert neighbour_smoothing(p, x, mwes, k=0, a=0.0)[0] == pytest.approx(0.15)
    assert neighbour_smoothing(p, x, mwes, k=1, a=0.5)[3:] == pytest.approx([0.6, 0.5])  # alone in their MWE
    assert neighbour_smoothing(p, x, mwes, k=2, a=1.0) == pytest.approx(p)
    # validation picks the (k, a) with the best macro-F1; without smoothing two uses of "a" are wrong
    k, a, curve = choose_smoothing(p, x, mwes, [1, 1, 1, 1, 0], threshold=0.5)
    assert curve["k=3,a=1.0"] < 1.0 and curve[f"k={k},a={a}"] == max(curve.values())
