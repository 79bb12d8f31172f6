"""`idiomkit reproduce --check`: re-run experiments into a temporary folder and compare with the recorded results."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.reproduce.compare import metric_diff, prediction_diff, prediction_files
from idiomkit.results import write_prediction

runner = CliRunner()


# A stand-in benchmark script: writes one result JSON (metric "score" = --value) and its predictions ("--pred").
FAKE_SCRIPT = """
import argparse, json, pathlib
p = argparse.ArgumentParser()
p.add_argument("model", nargs="?")
p.add_argument("--value", type=float)
p.add_argument("--pred", default="a\\nb\\n")
p.add_argument("--seed", type=int)
p.add_argument("--results-dir")
p.add_argument("--extra", action="store_true")
a = p.parse_args()
out = pathlib.Path(a.results_dir) / "toy"
out.mkdir(parents=True, exist_ok=True)
stem = f"m__zero-shot__seed{a.seed}"
(out / f"{stem}.predictions.tsv").write_text(a.pred.replace("\\\\n", "\\n"))
record = {"task": "toy", "model": "m", "recipe": "zero-shot", "seed": a.seed, "metrics": {"ALL": {"score": a.value}}}
(out / f"{stem}.json").write_text(json.dumps(record))
if a.extra:
    (out / f"m__zero-shot-extra__seed{a.seed}.json").write_text(json.dumps(record))
"""


def experiment(
    folder: Path, name: str, value: float, *, pred: str = "a\\nb\\n", extra: str = "", extra_args: str = ""
) -> None:
    (folder / f"{name}.toml").write_text(
        f'benchmark = "toy"\n{extra}\n[method]\nscript = "fake"\n\n[method.args]\nvalue = {value}\npred = "{pred}"\n'
        f'seed = {{ inject = "seed" }}\nresults-dir = {{ inject = "results" }}\n{extra_args}'
    )


def recorded(results: Path, value: float, pred: str = "a\nb\n", gz: bool = False) -> Path:
    out = results / "toy"
    out.mkdir(parents=True, exist_ok=True)
    write_prediction(out / ("m__zero-shot__seed0.predictions.tsv" + (".gz" if gz else "")), pred)
    record = {"task": "toy", "model": "m", "recipe": "zero-shot", "seed": 0, "metrics": {"ALL": {"score": value}}}
    path = out / "m__zero-shot__seed0.json"
    path.write_text(json.dumps(record))
    return path


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A working directory with benchmarks/fake.py, an empty experiments folder and a recorded results folder."""
    (tmp_path / "benchmarks/experiments").mkdir(parents=True)
    (tmp_path / "benchmarks/fake.py").write_text(FAKE_SCRIPT)
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("IDIOMKIT_RESULTS_DIR", str(tmp_path / "recorded"))
    return tmp_path


def check(project: Path, *extra: str):
    args = [
        "reproduce",
        "--check",
        "--experiments",
        "benchmarks/experiments",
        "--data-dir",
        "data",
        "--check-json",
        "check.json",
        *extra,
    ]
    result = runner.invoke(app, args)
    data = json.loads((project / "check.json").read_text()) if (project / "check.json").exists() else None
    return result, data


def test_identical_rerun_passes_and_leaves_the_recorded_results_alone(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5)
    path = recorded(project / "recorded", 0.5, gz=True)  # a .gz recording compares by text with a plain re-run
    before = sorted((p.name, p.read_bytes()) for p in path.parent.iterdir())
    result, data = check(project)
    assert result.exit_code == 0, result.output
    (row,) = data["rows"]
    assert (row["experiment"], row["seed"], row["result"], row["status"]) == (
        "toy-zero-shot",
        0,
        "toy/m__zero-shot__seed0.json",
        "identical",
    )
    assert row["metrics_identical"] is True and row["predictions_identical"] is True and row["max_diff"] == 0
    assert data["ok"] is True and "| toy-zero-shot | 0 |" in data["markdown"]
    assert row["commit"] and data["markdown"].splitlines()[0].endswith("| commit |")
    assert data["against"] == "recorded"  # the folder compared with, as the command line names it
    assert "identical        toy-zero-shot seed 0: toy/m__zero-shot__seed0.json (" in result.output
    assert sorted((p.name, p.read_bytes()) for p in path.parent.iterdir()) == before


def test_changed_metric_is_reported_and_exits_1(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.75)
    recorded(project / "recorded", 0.5)
    result, data = check(project)
    assert result.exit_code == 1
    (row,) = data["rows"]
    assert row["status"] == "differs" and row["metrics_identical"] is False and row["predictions_identical"] is True
    assert row["max_diff"] == pytest.approx(0.25) and "ALL.score" in row["detail"]
    assert "1 result(s) not reproduced" in result.output and data["ok"] is False


def test_changed_predictions_are_reported(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5, pred="a\\nc\\n")
    recorded(project / "recorded", 0.5)
    result, data = check(project)
    assert result.exit_code == 1
    (row,) = data["rows"]
    assert row["metrics_identical"] is True and row["predictions_identical"] is False
    assert row["detail"] == (
        "predictions differ: predictions.tsv (1 of 2 lines differ, first at line 2: 0 only in "
        "their numbers (at most 0 apart), 1 in ids, order or labels)"
    )


def test_missing_recorded_result_is_reported(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5)
    (project / "recorded").mkdir()
    result, data = check(project)
    assert result.exit_code == 1
    (row,) = data["rows"]
    assert row["status"] == "no recorded result" and row["metrics_identical"] is None
    assert "toy/m__zero-shot__seed0.json does not exist" in row["detail"]


def test_documented_tolerance_accepts_a_small_difference(project):
    extra = '[check]\ntolerance = 0.001\nreason = "threaded BLAS sums in another order"\n'
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5004, extra=extra)
    recorded(project / "recorded", 0.5)
    result, data = check(project)
    assert result.exit_code == 0, result.output
    (row,) = data["rows"]
    assert row["status"] == "within tolerance" and row["tolerance_reason"] == "threaded BLAS sums in another order"


def test_tolerance_without_a_reason_is_a_one_line_error(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5, extra="[check]\ntolerance = 0.01\n")
    result, data = check(project)
    assert result.exit_code == 2 and data is None
    assert "toy-zero-shot.toml" in result.output and "'check.reason'" in result.output
    assert "Traceback" not in result.output


def test_job_needing_a_missing_trained_model_is_listed_not_run(project):
    folder = project / "benchmarks/experiments"
    folder.joinpath("toy-probe.toml").write_text(
        'benchmark = "toy"\n[method]\nscript = "fake"\npositional = ["runs/reproduce/toy-train-seed0"]\n'
        '[method.args]\nvalue = 0.5\nseed = { inject = "seed" }\nresults-dir = { inject = "results" }\n'
    )
    recorded(project / "recorded", 0.5)
    result, data = check(project)
    assert result.exit_code == 0, result.output
    (row,) = data["rows"]
    assert row["status"] == "not checkable" and "runs/reproduce/toy-train-seed0 (not on disk)" in row["detail"]
    assert not (project / "runs/reproduce-check/logs/toy-probe__seed0.log").exists()


def test_metric_diff_counts_a_missing_metric_as_infinite():
    assert metric_diff({"a": {"x": 1.0}}, {"a": {"x": 1.0}}) == (0.0, [])
    worst, unequal = metric_diff({"a": {"x": 1.0}}, {"a": {"x": 1.0, "y": 2.0}})
    assert worst == float("inf") and unequal == ["a.y"]


def test_prediction_files_pair_gz_and_plain(tmp_path):
    (tmp_path / "m__r__seed1.json").write_text("{}")
    (tmp_path / "m__r__seed1.submission.csv.gz").write_bytes(b"")
    (tmp_path / "m__r__seed10.submission.csv").write_text("")  # another seed's file is not this result's
    assert list(prediction_files(tmp_path / "m__r__seed1.json")) == ["submission.csv"]


PREDICTION_RULE = '[check]\nprediction_tolerance = 1e-6\nreason = "float32 sums differ in the last printed digit"\n'


def test_prediction_tolerance_accepts_last_digit_score_changes(project):
    pred = "q d1 0.607701\\nq d2 0.5\\n"
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5, pred=pred, extra=PREDICTION_RULE)
    recorded(project / "recorded", 0.5, pred="q d1 0.607700\nq d2 0.5\n")
    result, data = check(project)
    assert result.exit_code == 0, result.output
    (row,) = data["rows"]
    assert row["status"] == "within tolerance" and row["predictions_identical"] is False
    assert row["prediction_tolerance"] == 1e-6 and row["detail"] == (
        "predictions within 1e-06: predictions.tsv (1 of 2 lines differ, first at line 1: 1 only in their numbers "
        "(at most 1e-06 apart), 0 in ids, order or labels)"
    )


@pytest.mark.parametrize(
    "pred",
    ["q d2 0.607700\\nq d1 0.5\\n", "q d1 0.607702\\nq d2 0.5\\n", "q d1 0.607700\\n"],
    ids=["rank order", "score beyond", "row missing"],
)
def test_prediction_tolerance_refuses_other_changes(project, pred):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5, pred=pred, extra=PREDICTION_RULE)
    recorded(project / "recorded", 0.5, pred="q d1 0.607700\nq d2 0.5\n")
    result, data = check(project)
    assert result.exit_code == 1
    (row,) = data["rows"]
    assert row["status"] == "differs" and row["detail"].startswith("predictions differ: predictions.tsv (")


def test_prediction_tolerance_does_not_excuse_a_changed_metric(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5001, extra=PREDICTION_RULE)
    recorded(project / "recorded", 0.5)
    result, data = check(project)
    assert result.exit_code == 1 and data["rows"][0]["status"] == "differs"


def test_prediction_diff_says_where_and_how_predictions_differ():
    old = "q d1 0.607700\nq d2 0.5\nq d3 0.1\n"
    assert prediction_diff("q d1 0.607700\n", old).describe() == "1 lines vs 3 recorded"
    assert prediction_diff("q d1 0.607702\nq d3 0.5\nq d3 0.1\n", old).describe() == (
        "2 of 3 lines differ, first at line 1: 1 only in their numbers (at most 2e-06 apart), 1 in ids, order or labels"
    )


def test_predictions_close_compares_decimals_only():
    assert prediction_diff("a,1.000001,x 3\n", "a,1.000000,x 3\n").close(1e-6)
    assert prediction_diff("s -0.010796\n", "s -0.010797\n").close(1e-6)
    assert not prediction_diff("a,1.000001,x 3\n", "a,1.000001,x 4\n").close(1e-6)  # an integer (rank) differs
    assert not prediction_diff("a,1.1\n", "a,1.2\n").close(1e-6)
    assert not prediction_diff("a 1.0\n", "a 1.0\nb 2.0\n").close(1e-6)


def test_partial_recheck_keeps_the_earlier_rows_of_other_experiments(project):
    folder = project / "benchmarks/experiments"
    experiment(folder, "toy-a", 0.5)
    experiment(folder, "toy-b", 0.5)
    recorded(project / "recorded", 0.5)
    check(project)
    experiment(folder, "toy-b", 0.75)
    result, data = check(project, "--only", "toy-b")
    assert result.exit_code == 1
    assert [(r["experiment"], r["status"]) for r in data["rows"]] == [("toy-a", "identical"), ("toy-b", "differs")]
    assert data["command"] == "idiomkit reproduce --check" and data["counts"] == {"identical": 1, "differs": 1}


def test_seed_option_checks_that_seed_only_and_keeps_the_other_seeds_rows(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5, extra="seeds = [0, 1]")
    recorded(project / "recorded", 0.5)
    result, data = check(project, "--seed", "0")
    assert result.exit_code == 0, result.output
    assert [(r["experiment"], r["seed"], r["status"]) for r in data["rows"]] == [("toy-zero-shot", 0, "identical")]
    result, data = check(project, "--seed", "1")  # nothing recorded for seed 1; seed 0's row stays in the table
    assert result.exit_code == 1
    assert [(r["seed"], r["status"]) for r in data["rows"]] == [(0, "identical"), (1, "no recorded result")]
    result, _ = check(project, "--seed", "7")
    assert result.exit_code == 2 and "--seed 7: no experiment matches" in result.output


TRAIN_TOML = 'benchmark = "toy"\n[train]\nrecipe = "adaptive-triplet"\nmodel = "minilm"\nepochs = 1\n'
PROBE_TOML = (
    'benchmark = "toy"\n[method]\nscript = "fake"\npositional = ["runs/reproduce/toy-train-seed0"]\n'
    '[method.args]\nvalue = 0.5\nseed = { inject = "seed" }\nresults-dir = { inject = "results" }\n'
)


def test_check_trains_into_the_models_folder_first_and_its_users_run_once_it_exists(project):
    from idiomkit.reproduce.check import check_jobs, run_check
    from idiomkit.reproduce.experiments import load_experiments

    folder = project / "benchmarks/experiments"
    folder.joinpath("toy-probe.toml").write_text(PROBE_TOML)  # sorts before toy-train
    folder.joinpath("toy-train.toml").write_text(TRAIN_TOML)
    recorded(project / "recorded", 0.5)
    models = project / "runs/reproduce"
    jobs = check_jobs(
        load_experiments(folder),
        only=None,
        scratch=project / "scratch",
        models_root=models,
        recorded_dir=project / "recorded",
    )
    assert [job.experiment.name for job in jobs] == ["toy-train", "toy-probe"]
    assert jobs[0].trains == (models / "toy-train-seed0").resolve() and jobs[1].trains is None
    train, probe = jobs
    assert train.argv[train.argv.index("--output") + 1] == str(models / "toy-train-seed0") and train.missing == []
    assert probe.missing == [(models / "toy-train-seed0").resolve()] and "made by `train" in probe.recreate
    (models / "toy-train-seed0").mkdir(parents=True)  # what the training job leaves behind
    (row,) = run_check(probe, recorded_dir=project / "recorded", data_dir=project / "data", log_dir=project / "logs")
    assert row.status == "identical"


def test_keep_leaves_the_rerun_results_to_look_into(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5, pred="a\\nc\\n")
    recorded(project / "recorded", 0.5)
    result, data = check(project, "--keep")
    assert result.exit_code == 1 and data["rows"][0]["status"] == "differs"
    kept = project / "runs/reproduce-check/kept/results/toy-zero-shot-seed0/toy"
    assert (kept / "m__zero-shot__seed0.predictions.tsv").read_text() == "a\nc\n"
    (kept / "stale.json").write_text("{}")  # a second run starts from an empty folder
    check(project, "--keep")
    assert not (kept / "stale.json").exists()


def test_a_result_the_recording_never_had_is_listed_not_failed_when_the_rest_compares(project):
    experiment(project / "benchmarks/experiments", "toy-zero-shot", 0.5, extra_args="extra = true\n")
    recorded(project / "recorded", 0.5)
    result, data = check(project)
    assert result.exit_code == 0, result.output
    assert [(r["result"], r["status"]) for r in data["rows"]] == [
        ("toy/m__zero-shot-extra__seed0.json", "extra result"),
        ("toy/m__zero-shot__seed0.json", "identical"),
    ]
    (project / "recorded/toy/m__zero-shot__seed0.json").unlink()  # nothing of the job was recorded: a failure
    result, data = check(project)
    assert result.exit_code == 1 and {r["status"] for r in data["rows"]} == {"no recorded result"}


def test_rows_kept_from_an_older_check_are_relabelled_by_the_extra_result_rule(project):
    """A check written before ``extra result`` existed called a job's unrecorded extra ``no recorded result``; a
    partial re-check of another experiment keeps that job's rows and labels them as the rule says now."""
    folder = project / "benchmarks/experiments"
    experiment(folder, "toy-zero-shot", 0.5, extra_args="extra = true\n")
    experiment(folder, "toy-other", 0.5)
    recorded(project / "recorded", 0.5)
    check(project, "--only", "toy-zero-shot")
    old = json.loads((project / "check.json").read_text())
    for row in old["rows"]:
        row["status"] = row["status"].replace("extra result", "no recorded result")
    (project / "check.json").write_text(json.dumps(old))
    result, data = check(project, "--only", "toy-other")
    assert result.exit_code == 0, result.output
    assert [(r["experiment"], r["status"]) for r in data["rows"]] == [
        ("toy-other", "identical"),
        ("toy-zero-shot", "extra result"),
        ("toy-zero-shot", "identical"),
    ]
