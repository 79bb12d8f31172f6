"""The leave-one-out table of the results index: which rows pair up, differences and marks by hand."""

from __future__ import annotations

from pathlib import Path

from idiomkit.report import scorecard
from idiomkit.report.leave_one_out import leave_one_out_rows, leave_one_out_section, left_out, references


def card(recipe, seed, idiom, stsb, model="me5", track="plain"):
    training = {"label": recipe, "reads_max_seq_length": 512}
    metrics = {"semeval2b": {"ALL": {"idiom": idiom}}, "sts-guard": {"stsb-en": stsb}}
    params = {"track": track, "training": training}
    rec = {"task": "scorecard", "model": model, "recipe": recipe, "seed": seed, "params": params, "metrics": metrics}
    return Path(f"{model}__{recipe}__{seed}.json"), rec


def cells(line):
    return [c.strip() for c in line.strip("|").split("|")]


def test_left_out_names_the_part_and_the_recipe_it_was_left_out_of():
    assert left_out("flagship-v2-no2b-pool-mean") == ("flagship-v2-pool-mean", "2b stream")
    assert left_out("flagship-v2-noextra-pool-mean") == ("flagship-v2-pool-mean", "meaning + misreading streams")
    assert left_out("flagship-v2-keep0-pool-mean") == ("flagship-v2-pool-mean", "the keep term")
    assert left_out("flagship-nosts") == ("flagship", "sts stream")
    assert left_out("flagship-v2-keep0.5-pool-mean") is None  # another weight, not the term left out
    assert left_out("flagship-noreader") is None and left_out("flagship-v2-pool-mean") is None


def test_each_leave_one_out_row_sits_under_its_recipe_with_its_difference(monkeypatch):
    monkeypatch.setattr(scorecard, "READER_VERSION", 1)
    results = [
        card("flagship-v2", 0, 0.30, 0.80),
        card("flagship-v2", 1, 0.34, 0.80),  # idiom mean .32, sd .0283; STS-B sd 0
        card("flagship-v2-no2b", 0, 0.25, 0.80),  # -.07: beyond 2 sd -> marked
        card("flagship-v2-keep0", 0, 0.33, 0.81),  # +.01: within; STS-B +.01 with sd 0 -> marked
        card("flagship-v2-no2b", 0, 0.1, 0.1, track="marked"),  # another track: not counted
        card("flagship-v2-nosts", 0, 0.5, 0.5, model="minilm"),  # no recipe cards beside it: no row
    ]
    rows = leave_one_out_rows(results)
    assert len(rows) == 5  # header, rule, the recipe, two leave-one-out rows
    assert cells(rows[0])[:6] == ["model", "recipe", "left out", "seeds", "2B idiom ρ", "STS-B test ρ"]
    assert cells(rows[2]) == ["me5", "flagship-v2", "nothing", "2", "0.320 ± 0.028", "0.800 ± 0.000"]
    assert cells(rows[3]) == ["me5", "flagship-v2-keep0", "the keep term", "1", "0.330 (+0.010)", "0.810 (+0.010)*"]
    assert cells(rows[4]) == ["me5", "flagship-v2-no2b", "2b stream", "1", "0.250 (-0.070)*", "0.800 (+0.000)"]


def test_a_one_seed_recipe_marks_nothing_and_no_pair_means_no_section():
    rows = leave_one_out_rows([card("flagship-v2", 0, 0.30, 0.80), card("flagship-v2-no2b", 0, 0.10, 0.80)])
    assert cells(rows[3])[4] == "0.100 (-0.200)"  # no seed spread to compare with
    assert leave_one_out_section([card("flagship-v2-no2b", 0, 0.1, 0.8)]) == []


def test_a_keep0_run_is_the_keep_rows_of_every_recipe_that_differs_only_in_its_keep_term(monkeypatch):
    monkeypatch.setattr(scorecard, "READER_VERSION", 1)
    labels = [
        "flagship-v2-pool-mean",
        "flagship-v2-keep10-keep-cosine-pool-mean",
        "flagship-v2-keep-cosine-pool-mean",
        "flagship-v2-keep10-keep-cosine-pin10-pool-mean",  # differs in more than the keep term
        "flagship-v2-keep0-pool-mean",
    ]
    assert references("flagship-v2-keep0-pool-mean", labels) == [
        ("flagship-v2-pool-mean", "the keep term"),
        ("flagship-v2-keep10-keep-cosine-pool-mean", "the keep term"),
        ("flagship-v2-keep-cosine-pool-mean", "the keep term"),
    ]
    assert references("flagship-v2-no2b-keep10-keep-cosine-pool-mean", labels) == [
        ("flagship-v2-keep10-keep-cosine-pool-mean", "2b stream")
    ]
    assert references("flagship-v2-no2b-pool-mean", ["flagship-v2-keep0-pool-mean"]) == []
    rows = leave_one_out_rows(
        [
            card("flagship-v2-keep10-keep-cosine", 0, 0.30, 0.85, model="mpnet"),
            card("flagship-v2-keep0", 0, 0.20, 0.80, model="mpnet"),
            card("flagship-v2-keep0", 0, 0.50, 0.50),  # another model: not paired
        ]
    )
    assert [cells(r)[:3] for r in rows[2:]] == [
        ["mpnet", "flagship-v2-keep10-keep-cosine", "nothing"],
        ["mpnet", "flagship-v2-keep0", "the keep term"],
    ]
