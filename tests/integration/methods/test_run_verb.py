"""``idiomkit run TASK --method M``: flags generated from the method's options dataclass, one-line refusals, and real
runs on tiny slices whose result files are named and filled as the old benchmark scripts named and filled them.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/methods/test_run_verb.py.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from helpers import runner
from helpers.run_verb import one_error_line

from idiomkit.cli import app

A = "semeval2022_task2/SubTaskA/Data"


def test_a_setting_the_method_cannot_run_is_one_line(tmp_path):
    argv = ["run", "semeval2a", "--method", "sense-matcher", "--setting", "zero_shot", "--results-dir", str(tmp_path)]
    line = one_error_line(runner.invoke(app, argv))
    assert line.endswith("sense-matcher: one_shot only (zero-shot dev MWEs have no shots)")
    argv = ["run", "semeval2a", "--method", "classifier", "--setting", "one_shot", "--smooth", "--results-dir", "."]
    assert one_error_line(runner.invoke(app, argv)).endswith("--smooth: zero_shot setting without --extra-train only")


def tiny_2a(data_dir: Path, out: Path, per_language: int = 2, dev_rows: int = 10, train_rows: int = 80) -> Path:
    """A few MWEs per language of the real 2A files (dev with gold; zero-shot train)."""
    import csv

    def rows(name):
        with open(data_dir / A / name, newline="", encoding="utf-8") as f:
            table = list(csv.reader(f))
        return table[0], table[1:]

    def write(name, head, body):
        (out / A).mkdir(parents=True, exist_ok=True)
        with open(out / A / name, "w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows([head, *body])

    head, dev = rows("dev.csv")
    gold_head, gold = rows("dev_gold.csv")
    keep = [i for lang in ("EN", "PT") for i in [j for j, r in enumerate(dev) if r[1] == lang][:dev_rows]]
    write("dev.csv", head, [dev[i] for i in keep])
    write("dev_gold.csv", gold_head, [gold[i] for i in keep])
    zero_head, zero = rows("train_zero_shot.csv")
    mwes = {lang: list(dict.fromkeys(r[2] for r in zero if r[1] == lang))[: per_language * 3] for lang in ("EN", "PT")}
    write("train_zero_shot.csv", zero_head, [r for r in zero if r[2] in mwes[r[1]]][:train_rows])
    one_head, one = rows("train_one_shot.csv")
    write("train_one_shot.csv", one_head, one[:4])
    return out


def test_classifier_run_writes_the_result_the_script_wrote(data_dir, tmp_path, monkeypatch, caplog):
    """Golden: ``benchmarks/semeval2a.py classifier -m minilm --setting zero_shot --epochs 1 --train-layers 1`` wrote
    ``semeval2a-dev/minilm__classifier-sep-span-mean-top1__zero_shot-1ep__seed0.json`` with these params keys."""
    data = tiny_2a(data_dir, tmp_path / "data")
    argv = [
        "run",
        "semeval2a",
        "--method",
        "classifier",
        "-m",
        "minilm",
        "--setting",
        "zero_shot",
        "--epochs",
        "1",
        "--train-layers",
        "1",
        "--seeds",
        "0",
        "--threads",
        "1",
        "--data-dir",
        str(data),
        "--results-dir",
        str(tmp_path / "res"),
    ]
    monkeypatch.setattr(sys, "argv", ["/x/bin/idiomkit", *argv])
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    path = tmp_path / "res/semeval2a-dev/minilm__classifier-sep-span-mean-top1__zero_shot-1ep__seed0.json"
    record = json.loads(path.read_text())
    assert (record["task"], record["model"], record["recipe"], record["seed"]) == (
        "semeval2a-dev",
        "minilm",
        "classifier-sep-span+mean-top1",
        0,
    )
    assert list(record["params"]) == [
        "split",
        "setting",
        "classifier",
        "threshold",
        "selected_epoch",
        "training",
        "threads",
        "command",
    ]
    assert record["params"]["classifier"] == "fine-tuned encoder + linear head"
    assert record["params"]["command"] == "idiomkit " + " ".join(argv)
    assert path.with_suffix(".submission.csv").is_file() and set(record["metrics"]) == {"ALL", "EN", "PT"}
    with caplog.at_level(logging.INFO, logger="idiomkit.methods"):
        again = runner.invoke(app, argv)  # resumable: the existing result is skipped (and logged)
    assert again.exit_code == 0 and "0 result file(s)" in again.output
    assert f"skip (exists): {path}" in caplog.text


def test_admire_zero_shot_run_writes_the_results_the_script_wrote(data_dir, tmp_path, monkeypatch):
    """Golden: ``benchmarks/admire_cv.py --variant zero-shot --query-mode span --folds 3`` wrote
    ``admire/minilm__zero-shot__{cv,test}-span__seed0.json`` (+ predictions, + submission_xe for test)."""
    out = tmp_path / "data/admire/en"
    out.mkdir(parents=True)
    for split, n in [("train", 8), ("dev", 4), ("test", 3), ("xe", 3)]:
        lines = (data_dir / f"admire/en/subtask_a_{split}.tsv").read_text(encoding="utf-8").splitlines(keepends=True)
        (out / f"subtask_a_{split}.tsv").write_text("".join(lines[: n + 1]), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the caption cache goes to runs/admire-cache here
    argv = [
        "run",
        "admire",
        "--method",
        "query-encoder",
        "--variant",
        "zero-shot",
        "--query-mode",
        "span",
        "--folds",
        "3",
        "--data-dir",
        str(tmp_path / "data"),
        "--results-dir",
        str(tmp_path / "res"),
    ]
    monkeypatch.setattr(sys, "argv", ["idiomkit", *argv])
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    res = tmp_path / "res/admire"
    assert sorted(p.name for p in res.iterdir()) == [
        "minilm__zero-shot__cv-span__seed0.json",
        "minilm__zero-shot__cv-span__seed0.predictions.tsv",
        "minilm__zero-shot__test-span__seed0.json",
        "minilm__zero-shot__test-span__seed0.predictions.tsv",
        "minilm__zero-shot__test-span__seed0.submission_xe.tsv",
    ]
    cv = json.loads((res / "minilm__zero-shot__cv-span__seed0.json").read_text())
    assert list(cv["params"]) == [
        "query_mode",
        "variant",
        "folds",
        "fold_seed",
        "config",
        "caption_tower",
        "command",
        "split",
        "train_s",
        "trainable_params",
        "n_items",
    ]
    assert cv["params"]["variant"] == "cv-span" and cv["params"]["n_items"] == 12 and len(cv["metrics"]["folds"]) == 3
    assert cv["params"]["command"] == "idiomkit " + " ".join(argv)
