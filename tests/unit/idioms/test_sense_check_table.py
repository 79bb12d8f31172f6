"""benchmarks/sense/sense_check_table.py: the project's 2A classifier rows are read from their result files, one row
per configuration with every seed, and the per-language thresholds cut each language's samples at its own value."""

from __future__ import annotations

import json

import numpy as np
from helpers import benchmark_script

from idiomkit.idioms.sense_training import Sample


def _result(folder, name, en, pt, all_):
    metrics = {"EN": {"macro_f1": en}, "PT": {"macro_f1": pt}, "ALL": {"macro_f1": all_}}
    (folder / f"{name}.json").write_text(json.dumps({"metrics": metrics}))


def test_classifier_rows_group_seeds_by_configuration(tmp_path):
    table = benchmark_script("sense/sense_check_table")
    _result(tmp_path, "minilm__classifier-a__zero_shot-2ep__seed0", 0.7, 0.6, 0.68)
    _result(tmp_path, "minilm__classifier-a__zero_shot-2ep__seed1", 0.8, 0.5, 0.72)
    _result(tmp_path, "minilm__classifier-a__one_shot-2ep__seed0", 0.9, 0.9, 0.9)  # one-shot: not a baseline here
    _result(tmp_path, "minilm__zero-shot__zero_shot-probe-span__seed0", 0.9, 0.9, 0.9)  # a probe, no classifier
    rows = table.classifier_rows(tmp_path)
    assert rows == {"minilm classifier-a zero_shot-2ep": {"EN": [0.7, 0.8], "PT": [0.6, 0.5], "ALL": [0.68, 0.72]}}
    assert table._mean_std(rows["minilm classifier-a zero_shot-2ep"]["ALL"]) == "0.700 ± 0.028"


def test_a_threshold_per_language_cuts_each_language_at_its_own_value():
    table = benchmark_script("sense/sense_check_table")
    samples = [
        Sample("x", 0, 1, "x", code, fig, "s")
        for code, fig in [("EN", True), ("EN", False), ("PT", True), ("PT", False)]
    ]
    probs = [0.3, 0.2, 0.4, 0.6]
    got = table.by_language(samples, probs, {"EN": 0.25, "PT": 0.5}.get)
    assert got["EN"]["idiomatic_read"] == 1.0 and got["EN"]["literal_rewritten"] == 0.0
    assert got["PT"]["idiomatic_read"] == 0.0 and got["PT"]["literal_rewritten"] == 1.0
    assert table.by_language(samples, np.asarray(probs), 0.1)["PT"]["idiomatic_read"] == 1.0
