"""The flagship's targets table: met or missed by hand, the STS guards against the base + reader, a core-test column
that fails its controls marked, the configuration chosen on validation marked; the test-side maximum labelled as
such."""

from __future__ import annotations

from pathlib import Path

from idiomkit.data.meaning_triples import VERSION as CORE_VERSION
from idiomkit.report import scorecard
from idiomkit.report.targets import best_reached_rows, target_cell, targets_rows, targets_section
from idiomkit.report.versus_base import BASE_WITH_READER


def card(recipe, seed, heldout_en, stsb, trained=True, headline=True):
    training = {"label": recipe, "reads_max_seq_length": 512, "core_test_version": CORE_VERSION}
    params = {"track": "plain", "training": training if trained else None}
    core = {"heldout_EN": {"accuracy": heldout_en, "controls": {"headline": headline}}, "heldout_pie": {}}
    metrics = {"meaning-triples": core, "sts-guard": {"stsb-en": stsb}}
    rec = {"task": "scorecard", "model": "mpnet", "recipe": recipe, "seed": seed, "params": params, "metrics": metrics}
    return Path(f"mpnet__{recipe}__{seed}.json"), rec


def test_each_target_is_met_or_missed_and_the_sts_guard_stands_on_the_base(monkeypatch):
    monkeypatch.setattr(scorecard, "READER_VERSION", 1)
    results = [
        card(BASE_WITH_READER, 0, 0.60, 0.830, trained=False),
        card("flagship-v2", 0, 0.72, 0.815),
        card("flagship-v2", 1, 0.6801, 0.825),  # mean held-out EN .70005 rounds to .700: met; STS-B .820 = .830 - .01
        card("flagship-v2-no2b", 0, 0.90, 0.90),  # one seed: no row
    ]
    rows = targets_rows(results)
    assert rows[0].split(" | ")[3] == "core held-out EN ≥ 0.700" and "STS-B test ρ ≥ base − 0.01" in rows[0]
    assert [r.split(" | ")[1] for r in rows[2:]] == [BASE_WITH_READER, "flagship-v2"]
    base, trained = ([c.strip() for c in r.strip("|").split("|")] for r in rows[2:])
    assert base[3] == "0.600 ✗" and base[-1] == "0 of 1"  # the base's own guard is not judged
    assert trained[3] == "0.700 ✓" and "0.820 ✓" in trained and trained[-1] == "2 of 2"
    assert targets_section(results)[0] == "### The flagship's targets (plain track)"
    failing = [*results[:1], *(card("flagship-v2", s, 0.72, 0.82, headline=False) for s in (0, 1))]
    trained = [c.strip() for c in targets_rows(failing)[3].strip("|").split("|")]
    assert trained[3] == "0.720 ✓ᶜ" and trained[-1] == "2 of 2"  # met, but no headline: its controls pass too


def test_a_missed_target_and_an_absent_number():
    idiolink = "IdioLink nDCG@10"
    assert target_cell(idiolink, 74.996, None) == "75.00 ✓" and target_cell(idiolink, 74.99, None) == "74.99 ✗"
    assert target_cell(idiolink, None, None) == ""
    guard = "STS-B test ρ"
    assert target_cell(guard, 0.80, 0.82) == "0.800 ✗" and target_cell(guard, 0.80, None) == "0.800"


def test_no_trained_configuration_with_enough_seeds_no_targets_table_but_the_best_reached():
    results = [card(BASE_WITH_READER, 0, 0.6, 0.8, trained=False), card("flagship-v2", 0, 0.7, 0.8)]
    assert targets_rows(results) == []
    assert targets_section(results)[0].startswith("### The best reached on each target: single runs, chosen on test")
    assert targets_section(results[:1]) == []


def test_the_best_reached_on_each_target_names_its_configuration_and_seeds(monkeypatch):
    monkeypatch.setattr(scorecard, "READER_VERSION", 1)
    results = [
        card(BASE_WITH_READER, 0, 0.95, 0.830, trained=False),  # untrained: never the best reached
        card("flagship-v2", 0, 0.72, 0.815),
        card("flagship-v2", 1, 0.68, 0.825),  # mean .700
        card("flagship-v2-no2b", 0, 0.70, 0.90),  # ties .700 on one seed: the two-seed row wins the tie
        card("pairs-triplet", 0, 0.99, 0.90),  # trained for one benchmark: not a flagship configuration
    ]
    rows = best_reached_rows(results)
    assert rows[0] == "| target | best reached | by | seeds | met |"
    assert rows[2:] == ["| core held-out EN ≥ 0.700 | 0.700 | mpnet flagship-v2 | 2 | ✓ |"]  # STS guards: no floor
    results.append(card("flagship-v2-no2b", 1, 0.60, 0.90))  # its mean falls to .650
    results.append(card("flagship-v2-nosts", 0, 0.71, 0.90))
    assert best_reached_rows(results)[2] == "| core held-out EN ≥ 0.700 | 0.710 | mpnet flagship-v2-nosts | 1 | ✓ |"
    low = [card("flagship-v2", 0, 0.6994, 0.8)]
    assert best_reached_rows(low)[2].endswith("| 0.699 | mpnet flagship-v2 | 1 | ✗ |")
    assert best_reached_rows([card(BASE_WITH_READER, 0, 0.9, 0.8, trained=False)]) == []
