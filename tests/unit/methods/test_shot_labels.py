"""The shot-labels baseline (no model): one-label shots give their label, mixed shots the majority label."""

from __future__ import annotations

import pytest
from helpers.semeval2a import example_2a

from idiomkit.methods.semeval2a.shot_labels import shot_label_predictions


def test_single_label_shots_decide_and_mixed_shots_take_the_majority():
    shots = [
        example_2a(1, "big fish", 1, setting="one_shot"),
        example_2a(2, "home run", 0, setting="one_shot"),
        example_2a(3, "home run", 1, setting="one_shot"),
        example_2a(4, "low key", 1, setting="one_shot"),
    ]
    dev = [example_2a(10, "big fish", 0), example_2a(11, "home run", 0), example_2a(12, "low key", 0)]
    assert shot_label_predictions(shots, dev) == [1, 1, 1]  # majority of all shots: 3 of 4 carry 1
    shots[3] = example_2a(4, "low key", 0, setting="one_shot")
    assert shot_label_predictions(shots, dev) == [1, 1, 0]  # a 2-2 tie: the label met first (1, in row 1)


def test_a_dev_mwe_without_shots_is_refused():
    with pytest.raises(ValueError, match="have no one-shot example, e.g. 'big fish'"):
        shot_label_predictions([example_2a(1, "home run", 1, setting="one_shot")], [example_2a(9, "big fish", 0)])


A_DATA = "semeval2022_task2/SubTaskA/Data"
A_TRAIN_HEADER = "DataID,Language,MWE,Setting,Previous,Target,Next,Label\n"


def a_tree(root, one_shot: str):
    """A tiny 2A tree: one zero-shot and ``one_shot`` training rows, one dev example of "big fish"."""
    data = root / A_DATA
    data.mkdir(parents=True)
    (data / "train_zero_shot.csv").write_text(A_TRAIN_HEADER + "z1,EN,big fish,zero_shot,,He is a big fish.,,0\n")
    (data / "train_one_shot.csv").write_text(A_TRAIN_HEADER + one_shot)
    (data / "dev.csv").write_text("ID,Language,MWE,Previous,Target,Next\nd1,EN,big fish,,She is a big fish.,\n")
    (data / "dev_gold.csv").write_text("ID,DataID,Language,Label\nd1,x,EN,0\n")
    return root


@pytest.mark.parametrize(
    ("one_shot", "message"),
    [
        ("", "field 'DataID': no rows (the file has a header only)"),  # said "1 dev MWE(s) have no one-shot example"
        (
            "o1,EN,home run,one_shot,,A home run.,,1\n",
            "field 'MWE': shot-labels: 1 dev MWE(s) have no one-shot example, e.g. 'big fish' (dev row of ID d1)",
        ),
    ],
)
def test_a_one_shot_file_without_the_shots_is_named_in_one_line(tmp_path, one_shot, message):
    """Issue #42.4: an empty ``train_one_shot.csv`` gave a one-line error that did not name the file."""
    from helpers import runner
    from helpers.bad_inputs import assert_one_line_error

    from idiomkit.cli import app

    root = a_tree(tmp_path / "data", one_shot)
    result = runner.invoke(
        app,
        [
            "run",
            "semeval2a",
            "--method",
            "shot-labels",
            "--data-dir",
            str(root),
            "--results-dir",
            str(tmp_path / "results"),
        ],
    )
    line = assert_one_line_error(result)
    assert line == f"error: {root / A_DATA / 'train_one_shot.csv'}: {message}"
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("*.json"))
