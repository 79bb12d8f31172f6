"""One-shot sense matcher: CoSENT pair loss, batches that keep pairs inside an MWE, nearest-shot labels, training."""

import math
import random

import numpy as np
import pytest
import torch
from helpers.sense_matcher import shot_example

from idiomkit.methods.semeval2a.sense_matcher import (
    MatcherConfig,
    cosent_pair_loss,
    episode_macro_f1,
    mwe_batches,
    nearest_shot_labels,
)


def test_cosent_pair_loss_hand_value():
    cos = torch.tensor([0.9, 0.2, 0.5])
    same = torch.tensor([True, False, True])
    # (different, same) pairs: (0.2, 0.9), (0.2, 0.5)
    expected = math.log(1 + math.exp(20 * (0.2 - 0.9)) + math.exp(20 * (0.2 - 0.5)))
    assert float(cosent_pair_loss(cos, same, 20.0)) == pytest.approx(expected, rel=1e-4)
    # a ranking the wrong way round costs more
    assert float(cosent_pair_loss(cos, ~same, 20.0)) > 5


def test_mwe_batches_keep_chunks_of_one_mwe_and_skip_single_label_mwes():
    examples = [shot_example(i, "a", i % 2) for i in range(10)] + [shot_example(10 + i, "b", 0) for i in range(6)]
    examples += [shot_example(20 + i, "c", i % 2) for i in range(5)]
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
    examples = [shot_example(i, f"m{i % 3}", (i // 3) % 2) for i in range(24)]
    x = np.array([[1.0, 0.0] if ex.label == 0 else [0.0, 1.0] for ex in examples])
    assert episode_macro_f1(x, examples, episodes=3, seed=0) == 1.0
    assert episode_macro_f1(np.ones_like(x), examples, episodes=3, seed=0) < 0.7  # no signal: ties


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
