"""Subtask B scorer: hand-computed Spearman values, the otherID rule, submission files, refusals."""

import math

import numpy as np
import pytest
from scipy.stats import spearmanr

from idiomkit.data.errors import DataError
from idiomkit.data.semeval2022 import load_subtask_b
from idiomkit.tasks.semeval2b import (
    SubmissionError,
    read_2b_submission,
    score_predictions,
    score_submission,
    write_submission,
)

PRED = {"1": 0.9, "2": 0.5, "3": 0.6, "4": 0.7, "5": 0.8, "6": 0.3, "7": 0.2, "8": 0.75, "9": 0.1, "10": 0.6, "11": 0.2}


def test_hand_computed_values(tiny_data):
    gold = load_subtask_b(tiny_data, "dev").gold
    scores = score_predictions(PRED, gold)
    # EN idiom: gold [1, pred(3)=.6, 1] vs pred [.9, .5, .7] -> ranks [2.5,1,2.5] vs [3,1,2] -> 1.5/sqrt(3)
    assert scores["EN"]["idiom"] == pytest.approx(1.5 / math.sqrt(3), abs=1e-9)
    # EN all (idiom + sts rows): 8 / sqrt(9.5 * 10)
    assert scores["EN"]["all"] == pytest.approx(8 / math.sqrt(95), abs=1e-9)
    assert scores["EN"]["sts"] == pytest.approx(1.0)
    # ALL idiom: gold [1,.6,1,1,.2] vs pred [.9,.5,.7,.8,.3] -> 8 / sqrt(8 * 10)
    assert scores["ALL"]["idiom"] == pytest.approx(8 / math.sqrt(80), abs=1e-9)
    assert scores["PT"]["idiom"] == pytest.approx(1.0)
    assert set(scores) == {"ALL", "EN", "PT"}


def test_other_id_rule_uses_the_prediction(tiny_data):
    """Changing only the prediction of an otherID row changes the *gold* of the row that points to it."""
    gold = load_subtask_b(tiny_data, "dev").gold
    moved = dict(PRED, **{"3": 0.95})  # pair 3 is only ever used as otherID of pair 2
    got = score_predictions(moved, gold)["EN"]["all"]
    expected = spearmanr([1, 0.95, 1, 0.8, 0.0], [0.9, 0.5, 0.7, 0.75, 0.1]).statistic
    assert got == pytest.approx(expected)
    assert got != pytest.approx(score_predictions(PRED, gold)["EN"]["all"])


def test_submission_round_trip(tiny_data, tmp_path):
    split = load_subtask_b(tiny_data, "dev")
    path = write_submission(tmp_path / "sub.csv", split.pairs, [PRED[p.id] for p in split.pairs])
    lines = path.read_text().splitlines()
    assert lines[0] == "ID,Language,Setting,Sim"
    assert len(lines) == 1 + 2 * len(split.pairs)  # both settings, as in the official format file
    assert score_submission(path, split.gold) == score_predictions(PRED, split.gold)
    with pytest.raises(
        DataError,
        match=r"sub.csv: row 12: field 'Sim': is empty \(11 empty row\(s\) for setting "
        "fine_tune; no fine_tune row has a value",
    ):
        read_2b_submission(path, "fine_tune")  # its fine_tune rows are there, each with an empty Sim
    (tmp_path / "pre.csv").write_text("ID,Language,Setting,Sim\n1,EN,pre_train,0.5\n")
    with pytest.raises(DataError, match="pre.csv: field 'Setting': no rows for setting 'fine_tune'"):
        read_2b_submission(tmp_path / "pre.csv", "fine_tune")


def test_refuses_incomplete_predictions(tiny_data):
    gold = load_subtask_b(tiny_data, "dev").gold
    partial = {k: v for k, v in PRED.items() if k != "7"}
    with pytest.raises(SubmissionError, match=r"1 gold ID\(s\) have no prediction \(first: 7\)"):
        score_predictions(partial, gold)
    with pytest.raises(SubmissionError, match="not finite"):
        score_predictions(dict(PRED, **{"1": float("nan")}), gold)


def test_refuses_malformed_submission(tiny_data, tmp_path):
    gold = load_subtask_b(tiny_data, "dev").gold
    bad = tmp_path / "bad.csv"
    bad.write_text("ID,Language,Setting,Sim\n1,EN,pre_train,abc\n")
    with pytest.raises(DataError, match=r"bad.csv: row 1: field 'Sim': 'abc' is not a number"):
        score_submission(bad, gold)
    unknown = tmp_path / "unknown.csv"
    unknown.write_text(
        "ID,Language,Setting,Sim\n"
        + "".join(f"{k},EN,pre_train,{v}\n" for k, v in PRED.items())
        + "999,EN,pre_train,0.5\n"
    )
    with pytest.raises(DataError, match=r"unknown.csv: row 12: field 'ID': '999' is not an ID of the gold data"):
        score_submission(unknown, gold)
    wrong_header = tmp_path / "header.csv"
    wrong_header.write_text("ID,Lang,Setting,Sim\n")
    with pytest.raises(DataError, match="field 'Language': missing column"):
        score_submission(wrong_header, gold)


def test_evaluator_prefixes_the_task_scores_with_its_name(monkeypatch, tiny_data):
    """The training evaluator names its scores through sentence-transformers' ``prefix_name_to_metrics`` and
    reports the same ALL-language numbers as the task's scorer."""
    import idiomkit.tasks.semeval2b as semeval2b

    def fake_encode(model, texts, **kw):
        return np.stack([np.random.default_rng(sum(map(ord, t))).normal(size=8) for t in texts])

    monkeypatch.setattr(semeval2b, "encode_texts", fake_encode)
    split = load_subtask_b(tiny_data, "dev")
    evaluator = semeval2b.SemEval2BEvaluator(split.pairs, split.gold, name="val", primary="all")
    scores = evaluator(None)
    sims = semeval2b.pair_similarities(None, split.pairs)
    expected = score_predictions({p.id: float(s) for p, s in zip(split.pairs, sims, strict=True)}, split.gold)
    assert scores == {f"val_{k}": v for k, v in expected["ALL"].items() if math.isfinite(v)}
    assert evaluator.primary_metric == "val_all" and evaluator.primary_metric in scores
