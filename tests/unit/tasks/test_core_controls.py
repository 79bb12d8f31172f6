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
