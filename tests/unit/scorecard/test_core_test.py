"""The core test table: one row per plain card, the accuracy with its interval, the usual size in the heading."""

from __future__ import annotations

from pathlib import Path

from idiomkit.report.core_test import core_test_rows, core_test_section, interval_cell


def group(accuracy, low, high, n=10, idioms=4):
    return {"n": n, "idioms": idioms, "accuracy": accuracy, "accuracy_ci95": [low, high]}


def card(recipe, seed, heldout_en, track="plain", n=10):
    core = {
        "heldout": group(heldout_en, 0.5, 0.9, n=n),
        "heldout_EN": group(heldout_en, heldout_en - 0.1, heldout_en + 0.1, n=n),
        "seen": group(0.9, 0.85, 0.95, n=20, idioms=15),
    }
    params = {"track": track, "reader_version": 5}
    rec = {"task": "scorecard", "model": "mpnet", "recipe": recipe, "seed": seed, "params": params}
    rec["metrics"] = {"meaning-triples": core}
    return Path(f"mpnet__{recipe}__{seed}.json"), rec


def test_each_plain_card_is_a_row_with_its_intervals(monkeypatch):
    from idiomkit.report import scorecard

    monkeypatch.setattr(scorecard, "READER_VERSION", 5)
    old = card("flagship-v1", 0, 0.6)
    old[1]["metrics"]["meaning-triples"] = {"heldout": {"n": 56, "accuracy": 0.5}}  # the earlier test: no interval
    results = [card("flagship-v2", 1, 0.75), card("flagship-v2", 0, 0.7, n=12), card("flagship-v2", 2, 0.8)]
    results += [card("zs", 0, 0.6, track="marked"), old]
    rows = core_test_rows(results)
    assert rows[0] == (
        "| model | recipe | seed | held-out EN (10 triples, 4 idioms) | held-out PT | held-out (10 triples, 4 idioms) "
        "| seen (20 triples, 15 idioms) | seen, lookup-free |"  # no card has that group: no size
    )
    assert rows[2] == (
        "| mpnet | flagship-v2 | 0 | 0.700 [0.600, 0.800] (n = 12) |  | 0.700 [0.500, 0.900] (n = 12) "
        "| 0.900 [0.850, 0.950] |  |"
    )
    assert rows[3].startswith("| mpnet | flagship-v2 | 1 | 0.750 [0.650, 0.850] |")
    assert len(rows) == 5  # the marked card and the card on the earlier core test are left out
    assert core_test_section(results)[0].startswith("### The core test card by card")
    assert core_test_rows([old]) == []


def test_an_interval_cell_rounds_to_three_places():
    assert interval_cell(group(0.78571, 0.74517, 0.82708), 10) == "0.786 [0.745, 0.827]"
