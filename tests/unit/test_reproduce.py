"""`idiomkit reproduce`: experiment files, the commands they become, skip-when-unchanged, the generated report."""

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer
from helpers import ROOT, runner

from idiomkit.cli import app
from idiomkit.data.errors import DataError
from idiomkit.report import render_pages
from idiomkit.reproduce.experiments import load_experiment, load_experiments
from idiomkit.reproduce.jobs import cli_flags


def test_cli_flags_follow_typer_spelling():
    options = {
        "max_steps": 20,
        "val_sts": False,
        "keep_epochs": True,
        "evaluate": ["semeval2b", "idiolink"],
        "lora_rank": None,
    }
    assert cli_flags(options) == [
        "--max-steps",
        "20",
        "--no-val-sts",
        "--keep-epochs",
        "--evaluate",
        "semeval2b",
        "--evaluate",
        "idiolink",
    ]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('seeds = [0]\n[train]\nrecipe = "mnrl"\nmodel = "minilm"\n', "'benchmark'"),
        ('benchmark = "x"\n[train]\nrecipe = "mnrl"\n', "'train.model'"),
        ('benchmark = "x"\nseeds = ["a"]\n[method]\nscript = "idiomkit"\nsubcommand = "models"\n', "'seeds'"),
        ('benchmark = "x"\n[train]\nrecipe = "r"\n[evaluate]\ntask = "t"\nmodel = "m"\n', "exactly one run table"),
        ('benchmark = "x\n', "not valid TOML"),
        ('benchmark = "x"\n[train]\nrecipe = "r"\nmodel = "m"\n[select]\nmetric = ""\n', "'select.metric'"),
        ('benchmark = "x"\n[train]\nrecipe = "r"\nmodel = "m"\n[select]\nrule = "best"\n', "'select.rule'"),
        ('benchmark = "x"\n[evaluate]\ntask = "semeval2b"\nmodel = "m"\n[select]\nmetric = "v"\n', "'select'"),
    ],
)
def test_bad_experiment_file_names_file_and_field(tmp_path, text, field):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(DataError, match=field) as info:
        load_experiment(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value).strip()


def test_the_validation_rule_is_read_from_the_experiment_file(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(
        'benchmark = "scorecard"\n[train]\nrecipe = "flagship-v2"\nmodel = "m"\n[select]\nmetric = "val_mean"\n'
    )
    assert load_experiment(path).select.metric == "val_mean"
    path.write_text('benchmark = "scorecard"\n[train]\nrecipe = "flagship-v2"\nmodel = "m"\n')
    assert load_experiment(path).select is None
    flagships = [e for e in load_experiments(ROOT / "benchmarks/experiments") if e.name.startswith("flagship-v2")]
    trained = [e for e in flagships if e.kind == "train"]
    assert trained and all(e.select and e.select.metric == "val_mean" for e in trained)


def test_every_experiment_is_a_valid_idiomkit_command():
    """Each train/evaluate experiment's flags parse with the real CLI (no unknown option, no bad value)."""
    group = typer.main.get_command(app)
    experiments = load_experiments(ROOT / "benchmarks/experiments")
    assert {e.benchmark for e in experiments} >= {"semeval2b-dev", "idiolink-test"}
    assert any(e.in_quick for e in experiments)
    from idiomkit.reproduce.jobs import job_argv

    for exp in experiments:
        for quick in (False, True):
            argv = job_argv(exp, 0, quick, Path("runs/x"), Path("results"))
            if Path(argv[0]).name != "idiomkit":
                continue
            command = group.commands[argv[1]]
            command.make_context(argv[1], argv[2:])  # raises click.UsageError on a bad flag


def test_reproduce_runs_then_skips_until_the_command_changes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    experiments = tmp_path / "benchmarks" / "experiments"
    experiments.mkdir(parents=True)
    (tmp_path / "benchmarks" / "hit.py").write_text(
        "import sys, pathlib\np = pathlib.Path('hits.txt')\n"
        "p.write_text((p.read_text() if p.exists() else '') + sys.argv[1])\n"
    )
    exp = experiments / "toy.toml"
    exp.write_text('benchmark = "toy"\nseeds = [1, 2]\n[method]\nscript = "hit"\npositional = [{ inject = "seed" }]\n')
    args = ["reproduce", "--quick", "--experiments", str(experiments), "--data-dir", str(tmp_path)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert (tmp_path / "hits.txt").read_text() == "12"
    second = runner.invoke(app, args)
    assert second.exit_code == 0 and "up to date" in second.output
    assert (tmp_path / "hits.txt").read_text() == "12"  # nothing re-ran
    exp.write_text(exp.read_text().replace('{ inject = "seed" }', '{ inject = "seed", prefix = "1" }'))
    third = runner.invoke(app, args)
    assert third.exit_code == 0
    assert (tmp_path / "hits.txt").read_text() == "121112"


def test_reproduce_writes_the_report_with_the_gold_of_its_data_directory(tmp_path, monkeypatch):
    """reproduce's report is `idiomkit report`'s: the pages are rendered with the data directory (without it the 2B,
    2A and IdioLink columns lost their paired marks), into the quick report folder, and no README is touched."""
    import idiomkit.report

    monkeypatch.chdir(tmp_path)
    (tmp_path / "hit.py").write_text("")
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "toy.toml").write_text('benchmark = "toy"\n[method]\nscript = "hit"\n')
    (tmp_path / "runs/reproduce-quick/results").mkdir(parents=True)
    (tmp_path / "README.md").write_text("untouched")
    calls = []
    monkeypatch.setattr(idiomkit.report, "write_report", lambda *args, **kwargs: calls.append((args, kwargs)) or "x")
    data = tmp_path / "data"
    data.mkdir()
    args = ["reproduce", "--quick", "--experiments", "e", "--data-dir", str(data)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert calls == [((Path("runs/reproduce-quick/results"), Path("runs/reproduce-quick/report")), {"data_dir": data})]
    assert (tmp_path / "README.md").read_text() == "untouched"


def test_a_changed_job_sets_its_old_output_aside_and_drops_the_stale_stamp(tmp_path):
    """A job whose key changed starts afresh without deleting its old output (hours of training): it goes to
    ``<output>.previous``, and the stale stamp goes, so that a run interrupted after that resumes."""
    from idiomkit.reproduce.jobs import Job, run_job

    output, stamp = tmp_path / "runs" / "toy-seed0", tmp_path / "state" / "toy__seed0.json"
    output.mkdir(parents=True)
    (output / "checkpoint.pt").write_text("old weights")
    stamp.parent.mkdir()
    stamp.write_text('{"key": "old"}')
    toy = SimpleNamespace(name="toy")  # run_job reads the experiment's name only (its log file)
    job = Job(toy, 0, [sys.executable, str(tmp_path / "fail.py")], "new", stamp, output)
    (tmp_path / "fail.py").write_text("raise SystemExit(3)\n")
    assert run_job(job, results_dir=tmp_path, data_dir=tmp_path, log_dir=tmp_path / "logs") == 3
    assert (tmp_path / "runs" / "toy-seed0.previous" / "checkpoint.pt").read_text() == "old weights"
    assert not output.exists() and not stamp.exists()  # interrupted (failed) here: the next run resumes


def test_failing_job_exits_non_zero_and_keeps_no_stamp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e").mkdir()
    (tmp_path / "fail.py").write_text("raise SystemExit(3)\n")
    (tmp_path / "e" / "fail.toml").write_text('benchmark = "toy"\n[method]\nscript = "fail"\n')
    result = runner.invoke(app, ["reproduce", "--quick", "--experiments", str(tmp_path / "e"), "--data-dir", "."])
    assert result.exit_code == 1 and "FAILED (3)" in result.output
    assert not list((tmp_path / "runs/reproduce-quick/state").glob("*.json"))


def test_commands_are_printed_as_written_not_as_rich_markup(tmp_path, monkeypatch):
    """``a[os]b[bold]c`` printed through rich markup showed as ``abc``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hit.py").write_text("")  # a [method] script sits beside the experiments folder
    (tmp_path / "e").mkdir()
    toml = 'benchmark = "toy"\n[method]\nscript = "hit"\npositional = ["a[os]b[bold]c"]\n'
    (tmp_path / "e" / "toy.toml").write_text(toml)
    result = runner.invoke(app, ["reproduce", "--quick", "--dry-run", "--experiments", "e", "--data-dir", "."])
    assert result.exit_code == 0 and "hit.py 'a[os]b[bold]c'" in result.output, result.output


def test_results_pages_are_regenerated_byte_identically_from_the_result_files():
    """docs/results/*.md are exactly what `idiomkit report` renders from benchmarks/results (nothing by hand; the
    data directory gives the paired intervals their gold, as the command's default does)."""
    from idiomkit.config import default_data_dir

    pages = render_pages(ROOT / "benchmarks/results", data_dir=default_data_dir())
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs/results").glob("*.md")}
    assert set(pages) == set(on_disk) and "index.md" in pages
    for name, text in pages.items():
        assert text == on_disk[name], name


def _result(path: Path, task: str, model: str, recipe: str, metrics: dict, **params) -> None:
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "task": task,
        "model": model,
        "recipe": recipe,
        "seed": 0,
        "metrics": metrics,
        "params": params,
        "data_sha256": "0",
        "commit": "c",
        "created": "2026-01-01T00:00:00+00:00",
        "wall_s": 1.0,
    }
    path.write_text(json.dumps(record))


def test_cross_benchmark_matrix_joins_a_configuration_across_benchmarks(tmp_path):
    res = tmp_path / "results"
    _result(res / "semeval2b-dev/m__r__seed0.json", "semeval2b-dev", "m", "r", {"ALL": {"idiom": 0.5, "sts": 0.7}})
    _result(res / "semeval2b-dev/m__r__seed1.json", "semeval2b-dev", "m", "r", {"ALL": {"idiom": 0.7, "sts": 0.7}})
    _result(
        res / "idiolink-test/m__r__span__seed0.json", "idiolink-test", "m", "r", {"ndcg@10": 61.5}, query_mode="span"
    )
    _result(
        res / "idiolink-test/m__r__sentence__seed0.json",
        "idiolink-test",
        "m",
        "r",
        {"ndcg@10": 40.0},
        query_mode="sentence",
    )
    _result(res / "semeval2b-dev/m__lonely__seed0.json", "semeval2b-dev", "m", "lonely", {"ALL": {"idiom": 0.1}})
    text = render_pages(res)["index.md"]
    matrix = text.split("## Cross-benchmark matrix")[1].split("\n## ")[0]
    assert "| m | r |  | 0.600 ± 0.141 | 0.700 ± 0.000 | 40.00 | 61.50 |" in matrix
    assert "lonely" not in matrix  # one benchmark only: its own table has it


def test_a_multi_seed_row_shows_one_command_with_its_seeds_or_each_command():
    from idiomkit.report import seeds_commands

    def rec(seed, command):
        return {"seed": seed, "params": {"command": command}}

    cmd = "idiomkit train --recipe cosent --seed {s} --output runs/cosent-minilm-2ep-seed{s} --epochs 2"
    recs = [rec(s, cmd.format(s=s)) for s in (2, 0, 1)]
    assert seeds_commands(recs) == [cmd.format(s="{0,1,2}")]
    assert seeds_commands(recs[:1]) == [cmd.format(s=2)]
    assert seeds_commands([*recs[:2], rec(1, None)]) == []  # a seed without its command: claim none
    script = "python benchmarks/semeval2a.py classifier -m minilm"
    two = [rec(0, script), rec(2, script + " --seeds 1 2"), rec(1, script + " --seeds 1 2")]
    assert seeds_commands(two) == [script, script + " --seeds 1 2"]  # each distinct command, in seed order


def test_2b_grid_shows_each_recipe_and_model_at_two_epochs():
    from pathlib import Path

    from idiomkit.report import semeval2b_grid

    def entry(model, recipe, seed, idiom, epochs=2, variant=""):
        name = "__".join([model, recipe] + ([variant] if variant else []) + [f"seed{seed}"])
        training = {"config": {"epochs": epochs}} if epochs else None
        rec = {
            "model": model,
            "recipe": recipe,
            "seed": seed,
            "params": {"training": training},
            "metrics": {"ALL": {"idiom": idiom, "sts": 0.8}},
        }
        return Path(f"semeval2b-dev/{name}.json"), rec

    lines = semeval2b_grid(
        [
            entry("minilm", "cosent", 0, 0.3),
            entry("minilm", "cosent", 1, 0.5),
            entry("minilm", "triplet", 0, 0.9, epochs=6, variant="6ep"),
            entry("minilm", "mnrl", 0, 0.2, epochs=None),  # older result: no training summary
            entry("me5-small-enpt", "cosent", 0, 0.6),
        ]
    )
    short = entry("minilm", "ynu", 0, 0.2)
    short[1]["params"]["training"]["epochs_done"] = 0  # a 60-step demo run of a 2-epoch config
    assert semeval2b_grid([short]) == []
    rows = {line.split(" | ")[0].strip("| "): line for line in lines if line.startswith("| ")}
    assert rows["cosent"] == "| cosent | 0.400 / 0.800 (2) | 0.600 / 0.800 (1) |"
    assert rows["triplet"] == "| triplet | - | - |"  # 6 epochs: not this grid's budget
    assert rows["mnrl"] == "| mnrl | 0.200 / 0.800 (1) | - |"


def test_2b_rows_side_by_side_under_each_training_rule():
    from pathlib import Path

    from idiomkit.report.semeval2b import rules_section
    from idiomkit.report.tables import training_rule

    def entry(recipe, seed, idiom, trained=True, track="marked"):
        rec = {
            "model": "me5",
            "recipe": recipe,
            "seed": seed,
            "key": {
                "model": "me5",
                "recipe": recipe,
                "variant": "4ep" if track == "marked" else "4ep-plain",
                "track": track,
                "seed": seed,
                "task": "semeval2b-dev",
            },
            "params": {"training": {"label": recipe} if trained else None},
            "metrics": {"ALL": {"idiom": idiom, "sts": 0.8, "all": 0.5}},
        }
        return Path(f"semeval2b-dev/me5__{recipe}__4ep__seed{seed}.json"), rec

    assert [
        training_rule(x)
        for x in (
            None,
            "cosent-sts-dedup-sentences",
            "cosent-sts-dedup",
            "flagship-no2b",
            "idiolink-infonce",
            "cosent-sts",
        )
    ] == ["untrained", "task", "scorecard", "scorecard", "own splits", "recorded"]
    lines = rules_section(
        [
            entry("cosent", 0, 0.6),
            entry("cosent", 1, 0.8),
            entry("cosent-dedup", 0, 0.3),
            entry("cosent-dedup-sentences", 0, 0.5),
            entry("cosent-dedup-sentences", 0, 0.2, track="plain"),
            entry("lonely", 0, 0.1),
            entry("zero", 0, 0.1, trained=False),
        ]
    )
    rows = [line.split(" | ") for line in lines if line.startswith("| me5")]
    assert [(r[1], r[2], r[3].split(":")[0], r[4], r[5], r[6]) for r in rows] == [
        ("cosent", "4ep", "recorded", "marked", "2", "0.700 ± 0.141"),
        ("cosent", "4ep", "task rules", "marked", "1", "0.500"),
        ("cosent", "4ep", "task rules", "plain", "1", "0.200"),  # same model without its MWE tokens: one block
        ("cosent", "4ep", "scorecard rule", "marked", "1", "0.300"),
    ]
    assert rules_section([entry("lonely", 0, 0.1)]) == []  # one rule only: nothing to compare
