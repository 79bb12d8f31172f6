"""The core test's shortcut controls on tiny rows: the bag of inserted words, the length/overlap rule with its
direction fixed on the training rows, ties at one half."""

from __future__ import annotations

import numpy as np
import pytest

from idiomkit.data.meaning_triples import Triple
from idiomkit.tasks.core_controls import choice, fit_controls, inserted_words, rule_correct


def row(sentence: str, paraphrase: str, misreading: str) -> Triple:
    return Triple("x", "EN", sentence, paraphrase, misreading, "pie")


def test_inserted_words_are_the_candidates_words_the_sentence_lacks():
    assert inserted_words("He kicked the bucket.", "He died.") == {"died"}
    assert inserted_words("He kicked the bucket.", "He struck the pail!") == {"struck", "pail"}


def test_a_tie_is_right_half_the_time():
    assert choice(np.array([0.9, 0.1, 0.5]), np.array([0.1, 0.9, 0.5])).tolist() == [1.0, 0.0, 0.5]


def test_the_rule_and_its_direction_come_from_the_training_rows():
    """Training paraphrases are shorter and share more words: the rule fitted there is kept on any test row."""
    training = [row(f"a b c d{i}", f"a b c e{i}", f"a x{i} y{i} z{i} w{i}") for i in range(10)]
    controls = fit_controls(training)
    assert controls.rule == "shorter" and controls.fit["rule_accuracy_on_training_rows"]["shorter"] == 1.0
    assert controls.fit["rule_accuracy_on_training_rows"]["longer"] == 0.0
    flipped = [row("a b c", "a p q r s t", "a b c u")]  # here the paraphrase is the longer one
    assert controls.correct(flipped)["length_overlap"].tolist() == [0.0]  # the direction is not re-fitted
    assert rule_correct("longer", flipped).tolist() == [1.0]


def test_the_bag_of_words_knows_only_the_training_words():
    training = [row(f"s{i}", f"s{i} calm", f"s{i} pail") for i in range(10)]
    controls = fit_controls(training)
    seen = controls.correct([row("t", "t calm", "t pail")])["bow"]
    unseen = controls.correct([row("t", "t quiet", "t bucket")])["bow"]
    assert seen.tolist() == [1.0] and unseen.tolist() == [0.5]
    with pytest.raises(ValueError, match="training rows"):
        fit_controls([])


def test_balancing_weights_hold_every_control_at_chance():
    from idiomkit.tasks.core_controls import balancing_weights, within_ceiling

    rng = np.random.default_rng(0)
    first, second = (rng.random(300) < 0.75).astype(float), (rng.random(300) < 0.3).astype(float)
    second[:10] = 0.5  # ties stay as they are
    weights = balancing_weights([first, second])
    assert abs(weights.sum() - 1) < 1e-9 and (weights > 0).all()
    assert abs(weights @ first - 0.5) < 1e-6 and abs(weights @ second - 0.5) < 1e-6
    rows = balancing_weights([first, second], np.ones((3, 300)))
    assert rows.shape == (3, 300) and np.allclose(rows @ first, 0.5)
    assert np.isnan(balancing_weights([np.ones(5)])).all()  # a control right everywhere cannot be balanced
    assert within_ceiling(0.5) and within_ceiling(0.45) and not within_ceiling(0.26) and not within_ceiling(0.6)
