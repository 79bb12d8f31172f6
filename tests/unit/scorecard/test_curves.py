"""The training curves of the results pages: from each card's validation history, the selection metric first."""

from __future__ import annotations

import json
from pathlib import Path

from idiomkit.api import training_summary
from idiomkit.report.curves import curve_columns, training_curves_section


def card(model, recipe, seed):
    params = {"track": "plain", "training": {"label": recipe, "reads_max_seq_length": 512}}
    rec = {"task": "scorecard", "model": model, "recipe": recipe, "seed": seed, "params": params, "metrics": {}}
    return Path(f"{model}__{recipe}__{seed}.json"), rec


def test_training_curves_come_from_the_cards_validation_history():
    path, rec = card("me5", "flagship-v2", 0)
    rec["params"]["training"] |= {
        "validation": [{"step": 100, "phase": "flagship", "val_mean": 0.51234}, {"step": 200, "val_mean": 0.6}],
        "best": {"metric": "val_mean", "value": 0.6, "step": 200},
    }
    lines = training_curves_section([(path, rec)])
    assert "me5 flagship-v2, seed 0 (selected: step 200 on val_mean)" in lines
    assert "| 100 | flagship | 0.512 |" in lines and "| 200 |  | 0.600 |" in lines
    assert training_curves_section([card("me5", "flagship-v2", 0)]) == []  # no history, no section
    rec["params"]["training"]["best"] = {"metric": "val_mean", "value": 0.40934, "alpha": 0.5}  # interpolated
    lines = training_curves_section([(path, rec)])
    want = "weights at alpha 0.5 between the base and the tuned run whose curve this is; val_mean 0.409 there"
    assert f"me5 flagship-v2, seed 0 ({want})" in lines


def test_a_trained_directory_carries_its_validation_curve_into_the_result(tmp_path):
    history = [{"step": 50, "epoch": 0, "phase": "flagship", "val_mean": 0.123456789}]
    (tmp_path / "training.json").write_text(json.dumps({"recipe": "flagship-v2", "config": {}, "validation": history}))
    summary = training_summary(tmp_path)
    assert summary["validation"] == [{"step": 50, "epoch": 0, "phase": "flagship", "val_mean": 0.1235}]
    assert summary["reads_max_seq_length"] is None  # a run saved before #44: it read its training length
    info = {"recipe": "flagship-v2", "config": {"max_seq_length": 64}, "reads_max_seq_length": 512}
    (tmp_path / "training.json").write_text(json.dumps(info))
    assert training_summary(tmp_path)["reads_max_seq_length"] == 512
    assert "reader_version" not in training_summary(tmp_path)  # trained before the field: not known, not null
    (tmp_path / "training.json").write_text(json.dumps(info | {"reader_version": 3, "reader_digest": "abc"}))
    assert training_summary(tmp_path)["reader_version"] == 3 and training_summary(tmp_path)["reader_digest"] == "abc"


def test_a_curve_shows_the_selection_metric_first_then_the_summaries():
    entry = {"step": 1, "phase": "x", "val2b_all": 0.1, "valdef_id": 0.2, "val2b_idiom": 0.3, "val_mean": 0.4}
    assert curve_columns([entry], "val_mean") == ["val_mean", "val2b_all", "val2b_idiom", "valdef_id"]
    assert curve_columns([entry], None)[:2] == ["val2b_all", "val2b_idiom"]


def test_a_curve_leaves_out_a_metric_that_repeats_one_before_it_at_every_step():
    """A 2B validation without STS rows gives ``all`` = ``idiom``: shown once. Equal at one step only: both."""
    same = [{"step": s, "val_idiom": v, "val_all": v, "val_mean": 0.5} for s, v in [(1, 0.2), (2, 0.3)]]
    assert curve_columns(same, "val_mean") == ["val_mean", "val_idiom"]
    differs = [same[0], {**same[1], "val_all": 0.4}]
    assert curve_columns(differs, "val_mean") == ["val_mean", "val_idiom", "val_all"]
    near = [{**e, "val_all": e["val_all"] + 1e-5} for e in same]  # equal at the shown precision
    assert curve_columns(near, "val_mean") == ["val_mean", "val_idiom"]
