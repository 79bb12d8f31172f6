"""The core test table: one row per plain card on the current core test, the accuracy with its interval, the usual
size in the heading; the controls table beside it, with each column's headline status."""

from __future__ import annotations

from pathlib import Path

from idiomkit.data.meaning_triples import VERSION as CORE_VERSION
from idiomkit.report.core_test import (
    controls_rows,
    core_test_rows,
    core_test_section,
    interval_cell,
    scorecard_controls_lines,
)


def group(accuracy, low, high, n=10, idioms=4, controls=None):
    out = {"n": n, "idioms": idioms, "accuracy": accuracy, "accuracy_ci95": [low, high]}
    return out | ({"controls": controls} if controls else {})


def controls(bow, rule, reversed_=0.5):
    headline = max(bow, rule) <= 0.55
    return {
        "bow": bow,
        "bow_ci95": [bow - 0.05, bow + 0.05],
        "length_overlap": rule,
        "length_overlap_ci95": [rule - 0.05, rule + 0.05],
        "reversed": reversed_,
        "reversed_ci95": [0.4, 0.6],
        "headline": headline,
    }


def card(recipe, seed, heldout_en, track="plain", n=10, trained=False):
    core = {
        "heldout": group(heldout_en, 0.5, 0.9, n=n, controls=controls(0.60, 0.50)),
        "heldout_EN": group(heldout_en, heldout_en - 0.1, heldout_en + 0.1, n=n, controls=controls(0.5, 0.52)),
        "heldout_pie": group(0.8, 0.7, 0.9, n=30, idioms=12, controls=controls(0.88, 0.67, 0.33)),
        "seen": group(0.9, 0.85, 0.95, n=20, idioms=15),
    }
    params = {"track": track, "reader_version": 5}
    params["blocks"] = {"meaning-triples": {"controls": {"length_overlap_rule": "less overlap"}}}
    if trained:
        params["training"] = {"label": recipe, "core_test_version": CORE_VERSION}
    rec = {"task": "scorecard", "model": "mpnet", "recipe": recipe, "seed": seed, "params": params}
    rec["metrics"] = {"meaning-triples": core}
    return Path(f"mpnet__{recipe}__{seed}.json"), rec


def test_each_plain_card_on_the_current_core_test_is_a_row_with_its_intervals(monkeypatch):
    from idiomkit.report import scorecard

    monkeypatch.setattr(scorecard, "READER_VERSION", 5)
    old = card("flagship-v1", 0, 0.6)
    old[1]["metrics"]["meaning-triples"] = {"heldout": group(0.5, 0.4, 0.6, n=750)}  # no diagnostic column
    before = card("flagship-v2", 3, 0.9, trained=True)
    before[1]["params"]["training"].pop("core_test_version")  # trained before the current held-out split
    results = [card("flagship-v2", 1, 0.75, trained=True), card("flagship-v2", 0, 0.7, n=12, trained=True)]
    results += [card("flagship-v2", 2, 0.8, trained=True), card("zs", 0, 0.6, track="marked"), old, before]
    rows = core_test_rows(results)
    assert rows[0] == (
        "| model | recipe | seed | held-out EN, human-written (10 triples, 4 idioms) | held-out PT, human-written "
        "| held-out, human-written (10 triples, 4 idioms) | held-out PIE (diagnostic: same construction as training) "
        "(30 triples, 12 idioms) | seen (unseen sentences) (20 triples, 15 idioms) | lookup-equal "
        "| held-out EN, control-balanced | held-out PT, control-balanced |"
    )  # no card has a PT or a lookup-equal group: no size
    assert rows[2] == (
        "| mpnet | flagship-v2 | 0 | 0.700 [0.600, 0.800] (n = 12) |  | 0.700 [0.500, 0.900] (n = 12) "
        "| 0.800 [0.700, 0.900] | 0.900 [0.850, 0.950] |  |  |  |"
    )
    assert rows[3].startswith("| mpnet | flagship-v2 | 1 | 0.750 [0.650, 0.850] |")
    assert len(rows) == 5  # the marked card, the earlier core test and the model trained before are left out
    section = core_test_section(results)
    assert section[0].startswith("### The core test scorecard by scorecard")
    assert "### The core test's shortcut controls" in section
    assert core_test_rows([old]) == [] and core_test_rows([before]) == []


def test_the_controls_table_marks_each_columns_headline_status():
    _, rec = card("zs", 0, 0.7)
    rows = controls_rows(rec["metrics"]["meaning-triples"], "less overlap")
    assert rows[0][4] == "control: length/overlap rule (less overlap)"
    by_column = {row[0]: row for row in rows[1:]}
    assert by_column["held-out EN, human-written"][-2] == "headline"
    assert by_column["held-out, human-written"][-2] == "no headline"  # the bag of words scores .60
    assert by_column["held-out PIE (diagnostic: same construction as training)"][3] == "0.880 [0.830, 0.930]"
    assert by_column["seen (unseen sentences)"][3:] == ["", "", "", "", ""]  # a card without controls: none shown
    lines = scorecard_controls_lines(rec["metrics"], rec["params"])
    assert lines[0] == "## The core test, with its shortcut controls" and "(less overlap)" in lines[2]
    assert scorecard_controls_lines({}, None) == []


def test_an_interval_cell_rounds_to_three_places():
    assert interval_cell(group(0.78571, 0.74517, 0.82708), 10) == "0.786 [0.745, 0.827]"
