"""benchmarks/checks/refile_2b_fine_tune.py: a trained model's 2B dev result moves from pre_train to fine_tune with
the same similarities and numbers; an untrained one stays; a result whose numbers would change is refused in one line.

The recorded results were all refiled (2026-11-27), so the test puts a trained one back as it was before: its
similarities on the ``pre_train`` rows and ``params.setting`` ``pre_train``."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys

from helpers import ROOT

from idiomkit.tasks.semeval2b import read_2b_submission

SCRIPT = ROOT / "benchmarks" / "checks" / "refile_2b_fine_tune.py"
RESULTS = ROOT / "benchmarks" / "results" / "semeval2b-dev"
TRAINED = "minilm__triplet__seed0"
UNTRAINED = "minilm__zero-shot__seed0"


def copy_results(tmp_path, *names):
    target = tmp_path / "semeval2b-dev"
    target.mkdir()
    for name in names:
        for suffix in (".json", ".submission.csv"):
            shutil.copy(RESULTS / (name + suffix), target / (name + suffix))
    if TRAINED in names:
        as_pre_train(target / TRAINED)
    return target


def as_pre_train(stem):
    """The refiled result ``stem`` as it was before: similarities on the pre_train rows, setting pre_train."""
    record = json.loads(stem.with_suffix(".json").read_text())
    assert record["params"]["setting"] == "fine_tune"
    record["params"]["setting"] = "pre_train"
    stem.with_suffix(".json").write_text(json.dumps(record, indent=2))
    path = stem.with_suffix(".submission.csv")
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    sims = {r["ID"]: r["Sim"] for r in rows if r["Setting"] == "fine_tune"}
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows({**r, "Sim": sims[r["ID"]] if r["Setting"] == "pre_train" else ""} for r in rows)
    path.write_text(out.getvalue())


def run(results_dir, data_dir):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, str(SCRIPT), "--results-dir", str(results_dir), "--data-dir", str(data_dir)]
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def test_a_trained_result_moves_to_fine_tune_with_the_same_numbers(tmp_path, data_dir):
    folder = copy_results(tmp_path, TRAINED, UNTRAINED)
    before = json.loads((folder / f"{TRAINED}.json").read_text())
    assert before["params"]["setting"] == "pre_train"
    out = run(tmp_path, data_dir)
    assert out.returncode == 0, out.stderr
    after = json.loads((folder / f"{TRAINED}.json").read_text())
    assert after["params"]["setting"] == "fine_tune"
    assert after["metrics"] == before["metrics"]
    assert after["key"] == before["key"]
    sims = read_2b_submission(folder / f"{TRAINED}.submission.csv", "fine_tune")
    assert sims == read_2b_submission(RESULTS / f"{TRAINED}.submission.csv", "fine_tune")
    untouched = json.loads((folder / f"{UNTRAINED}.json").read_text())
    assert untouched == json.loads((RESULTS / f"{UNTRAINED}.json").read_text())
    assert "1 moved, 0 trained results left under pre_train" in out.stderr
    assert run(tmp_path, data_dir).stderr.startswith("0 of 2 results")  # nothing left to move


def test_numbers_that_would_change_are_refused_in_one_line(tmp_path, data_dir):
    folder = copy_results(tmp_path, TRAINED)
    record = json.loads((folder / f"{TRAINED}.json").read_text())
    record["metrics"]["ALL"]["idiom"] += 0.01
    (folder / f"{TRAINED}.json").write_text(json.dumps(record))
    out = run(tmp_path, data_dir)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1].startswith("error: ")
    assert "metrics" in out.stderr and "Traceback" not in out.stderr
    assert json.loads((folder / f"{TRAINED}.json").read_text())["params"]["setting"] == "pre_train"
