"""Experiment names and run labels are paired by derivation, never by hand: each experiment file's ``[train]`` table
gives its run label (``train_label``), each model and label is one experiment's but for the pairs listed below, and
the results pages name, beside each trained row, exactly the experiments that give its model its recipe label."""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers import ROOT

from idiomkit.data.meaning_triples import VERSION as CORE_TEST
from idiomkit.report.experiments import experiments_for, label_collisions, made_by_experiments
from idiomkit.report.scorecard import scorecard_rows
from idiomkit.report.tables import task_table
from idiomkit.results import load_results
from idiomkit.training.recipes import run_label, train_label

EXPERIMENTS = ROOT / "benchmarks" / "experiments"

# Experiment files that give one model the same run label: a row with that label names them all, unless its recorded
# options tell them apart (the epochs, which the 2B labels leave to the result's variant). A new pair is a choice:
# add it here, or give the new file an option that changes its label.
COLLISIONS = {
    # the same [train] table twice (the second file's name says what the label says: no MWE tokens)
    ("me5-small-enpt", "adaptive-triplet"): [
        "2b-adaptive-triplet-me5-small-enpt",
        "2b-adaptive-triplet-no-mwe-me5-small-enpt",
    ],
    # 2 epochs and 6 epochs with a model per epoch: told apart by the row's recorded epochs
    ("minilm", "adaptive-triplet-mwe"): ["2b-adaptive-triplet-mwe-minilm", "2b-adaptive-triplet-mwe-minilm-6ep"],
    # 2 epochs and 4 epochs: told apart by the row's recorded epochs
    ("me5-small-enpt", "cosent-sts-stsw0.3"): [
        "2b-cosent-sts-stsw0.3-me5-small-enpt",
        "2b-cosent-sts-stsw0.3-me5-small-enpt-4ep",
    ],
}


def test_a_train_table_is_labelled_as_its_run_not_as_a_record():
    """An option the table leaves out has ``idiomkit train``'s default: the held-out dedup is on, so a 2B run's
    label ends in ``-dedup``, where a ``training.json`` without the field was made before the dedup."""
    table = {"recipe": "cosent-sts", "model": "minilm", "sts_weight": 0.3, "evaluate": ["semeval2b"]}
    assert train_label(table) == "cosent-sts-stsw0.3-dedup"
    assert train_label({**table, "dedup_idioms": False}) == "cosent-sts-stsw0.3-dedup-sentences"
    assert train_label({**table, "heldout_dedup": False}) == run_label("cosent-sts", table) == "cosent-sts-stsw0.3"


def test_each_model_and_label_is_one_experiments_but_the_listed_pairs():
    made = made_by_experiments(EXPERIMENTS)
    assert len(made) >= 80
    assert label_collisions(made) == COLLISIONS


def test_two_experiments_with_one_label_are_told_apart_by_the_rows_record():
    made = made_by_experiments(EXPERIMENTS)
    both = experiments_for("minilm", "adaptive-triplet-mwe", made)
    assert both == COLLISIONS[("minilm", "adaptive-triplet-mwe")]
    assert experiments_for("minilm", "adaptive-triplet-mwe", made, {"epochs": 6}) == [both[1]]
    assert experiments_for("minilm", "adaptive-triplet-mwe", made, {"epochs": 2}) == [both[0]]
    assert experiments_for("minilm", "adaptive-triplet-mwe", made, {"epochs": 3}) == both  # none agrees: all
    assert experiments_for("mpnet", "adaptive-triplet-mwe", made) == []


REPRODUCED = re.compile(r"runs/reproduce/([\w.\-]+?)-seed\d+")


def test_a_row_a_reproduce_job_recorded_names_that_jobs_experiment():
    """The truth the derivation must meet: a result made by ``idiomkit reproduce`` records the job's output folder
    (``runs/reproduce/<experiment>-seed<N>``), so its experiment is known; the row names it (alone, unless it is one
    of the listed pairs the record cannot tell apart)."""
    made = made_by_experiments(EXPERIMENTS)
    trains = {m.name for m in made}
    checked = 0
    for _, rec in load_results(ROOT / "benchmarks" / "results"):
        training = rec.get("params", {}).get("training")
        found = training and REPRODUCED.search(str(rec["params"].get("command") or ""))
        if not found or found.group(1) not in trains:
            continue
        named = experiments_for(rec["model"], rec["recipe"], made, training.get("config"))
        assert found.group(1) in named, (rec["key"], named)
        assert len(named) == 1 or (rec["model"], rec["recipe"]) in COLLISIONS, (rec["key"], named)
        checked += 1
    assert checked >= 5


def page_rows(text: str) -> list[dict[str, str]]:
    """The rows of every table of a page with model, recipe and experiment columns, as ``{header: cell}``."""
    rows, header = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = cells
        elif {"model", "recipe", "experiment"} <= set(header) and not set(line) <= set("|-"):
            rows.append(dict(zip(header, cells, strict=False)))
    return rows


def test_the_results_pages_name_each_trained_rows_experiments():
    """Every row of the pages' tables names only experiments that give its model its recipe label, and names one
    wherever one does (the pages are the generator's output: ``test_reproduce``)."""
    made = made_by_experiments(EXPERIMENTS)
    rows = [row for page in sorted((ROOT / "docs" / "results").glob("*.md")) for row in page_rows(page.read_text())]
    assert len(rows) > 100
    named_rows = 0
    for row in rows:
        recipe = re.sub(r"([‡§]\d*)+$", "", row["recipe"])
        candidates = {m.name for m in made if (m.model, m.label) == (row["model"], recipe)}
        named = set(re.findall(r"`([^`]+)`", row["experiment"]))
        assert named <= candidates, row
        assert bool(named) == bool(candidates), row
        named_rows += bool(named)
    assert named_rows > 50


def write_result(path: Path, task: str, model: str, recipe: str, training: dict | None, **params) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    params = {**params, **({"training": training} if training else {})}
    record = {"task": task, "model": model, "recipe": recipe, "seed": 0, "metrics": {"ALL": {"idiom": 0.5}}}
    record |= {"params": params, "data_sha256": "0", "commit": "c", "created": "2026", "wall_s": 1.0}
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_the_tables_name_the_experiment_beside_a_trained_row_and_nothing_beside_an_untrained_one(tmp_path):
    bench = tmp_path / "benchmarks"
    (bench / "experiments" / "semeval2b-dev").mkdir(parents=True)
    train = '[train]\nrecipe = "cosent"\nmodel = "m"\nepochs = {}\n'
    (bench / "experiments" / "semeval2b-dev" / "two.toml").write_text(train.format(2), encoding="utf-8")
    (bench / "experiments" / "semeval2b-dev" / "four.toml").write_text(train.format(4), encoding="utf-8")
    trained = {"label": "cosent-dedup", "config": {"recipe": "cosent", "epochs": 4}, "core_test_version": CORE_TEST}
    res = bench / "results" / "semeval2b-dev"
    entries = [
        (write_result(res / "m__cosent-dedup__seed0.json", "semeval2b-dev", "m", "cosent-dedup", trained), None),
        (write_result(res / "m__zero-shot__seed0.json", "semeval2b-dev", "m", "zero-shot", None), None),
    ]
    entries = [(path, json.loads(path.read_text())) for path, _ in entries]
    lines = task_table("semeval2b-dev", entries).splitlines()
    cells = {row["recipe"]: row["experiment"] for row in page_rows("\n".join(lines))}
    assert cells == {"cosent-dedup": "`four`", "zero-shot": "", "reference": ""}  # its record's 4 epochs: not `two`

    cards = []
    for seed in (0, 1):  # two seeds: the README shows the row too
        card = bench / "results" / "scorecard" / f"m__cosent-dedup__plain__seed{seed}.json"
        rec = json.loads(write_result(card, "scorecard", "m", "cosent-dedup", trained, track="plain").read_text())
        cards.append((card, rec | {"seed": seed, "metrics": {"semeval2b": {"ALL": {"idiom": 0.5}}}}))
    pages, readme = scorecard_rows(cards, "plain"), scorecard_rows(cards, "plain", readme=True)
    assert pages[0].endswith("| experiment |") and pages[2].endswith(" | `four` |")
    assert len(readme) == 3 and "experiment" not in readme[0] and "`four`" not in readme[2]
