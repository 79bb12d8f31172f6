"""The shot-labels baseline (no model): one-label shots give their label, mixed shots the majority label."""

from __future__ import annotations

import pytest
from helpers.semeval2a import example_2a

from idiomkit.methods.semeval2a.shot_labels import shot_label_predictions


def test_single_label_shots_decide_and_mixed_shots_take_the_majority():
    shots = [example_2a(1, "big fish", 1, setting="one_shot"), example_2a(2, "home run", 0, setting="one_shot"),
             example_2a(3, "home run", 1, setting="one_shot"), example_2a(4, "low key", 1, setting="one_shot")]
    dev = [example_2a(10, "big fish", 0), example_2a(11, "home run", 0), example_2a(12, "low key", 0)]
    assert shot_label_predictions(shots, dev) == [1, 1, 1]  # majority of all shots: 3 of 4 carry 1
    shots[3] = example_2a(4, "low key", 0, setting="one_shot")
    assert shot_label_predictions(shots, dev) == [1, 1, 0]  # a 2-2 tie: the label met first (1, in row 1)


def test_a_dev_mwe_without_shots_is_refused():
    with pytest.raises(ValueError, match="have no one-shot example, e.g. 'big fish'"):
        shot_label_predictions([example_2a(1, "home run", 1, setting="one_shot")], [example_2a(9, "big fish", 0)])
