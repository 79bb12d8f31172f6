"""`idiomkit reproduce`: experiment files, the commands they become, skip-when-unchanged, the generated report."""

import sys
import typing
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer
from helpers import ROOT, runner

from idiomkit.cli import app
from idiomkit.data.errors import DataError
from idiomkit.options import command_args
from idiomkit.report import render_pages
from idiomkit.reproduce.experiments import load_experiment, load_experiments
from idiomkit.reproduce.schema import TrainRun


def test_a_train_table_is_spelled_as_idiomkit_train_declares_its_flags():
    options = {
        "max_steps": 20,
        "val_sts": False,
        "keep_epochs": True,
        "span_queries": False,
        "evaluate": ["semeval2b", "idiolink"],
        "lora_rank": None,
    }
    assert command_args(TrainRun, options) == [
        "--max-steps",
        "20",
        "--no-val-sts",
        "--keep-epochs",
        "--sentence-queries",  # its own negative: there is no --no-span-queries
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


def parsed_job(argv: list[str]):
    """The click context of an ``idiomkit`` job's command line, parsed by the real command (a bad flag or value is
    a click.UsageError), and the words left for the task's or the method's own options."""
    command = typer.main.get_command(app).commands[argv[1]]
    return command.make_context(argv[1], argv[2:])


def check_parsed_job(exp, spec: dict, ctx) -> None:
    """What the command parsed is what the experiment asked for: each option's value (train, evaluate), the
    recipe's own options accepted by the recipe, the task's and the method's own options by their parsers."""
    from idiomkit.cli.training import TRAIN_RUN_OPTIONS
    from idiomkit.methods import get_runnable
    from idiomkit.options import parse_options
    from idiomkit.tasks import get_task, parse_task_options
    from idiomkit.training.recipes import train_config
    from idiomkit.training.setup import check_options

    command = ctx.command.name
    if exp.kind == "train":
        asked = {("evaluate_on" if k == "evaluate" else k): v for k, v in spec.items() if v is not None}
        assert {k: ctx.params[k] for k in asked} == asked, exp.name
        config = {k: v for k, v in ctx.params.items() if k not in TRAIN_RUN_OPTIONS}
        config["data_dir"] = str(config["data_dir"]) if config["data_dir"] else None
        check_options(train_config(**{**config, "output_dir": str(config["output_dir"])}))  # the recipe takes them
    elif command == "evaluate" and ctx.params["task"] != "all":
        task = get_task(ctx.params["task"])
        options = parse_task_options(task, ctx.args, lexical=ctx.params["model"] in task.lexical_models)
        if exp.kind == "evaluate":
            run = {k: v for k, v in spec.items() if k in ctx.params and k != "task"}
            assert {k: ctx.params[k] for k in run} == run, exp.name
            for key, value in spec.items():  # the task's own: a bool is a bare flag (given when true)
                if key not in ctx.params and key != "task":
                    flag = "--" + key.replace("_", "-")
                    assert (flag in ctx.args) is value if isinstance(value, bool) else getattr(options, key) == value
    elif command == "run":
        name = f"{ctx.params['task']}/{ctx.params['method']}"
        parse_options(get_runnable(name).options, ctx.args, name)
    else:
        assert ctx.args == [], exp.name  # center, interpolate: every word is the command's own


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
    """Each experiment's job (full and quick) parses with the real CLI: ``idiomkit train`` (every option, true
    and false booleans, as the command spells them; the recipe takes each of its options), ``idiomkit evaluate``
    (the run options and the task's own), ``idiomkit run`` (the method's options), ``center``, ``interpolate``."""
    from idiomkit.reproduce.jobs import job_argv

    experiments = load_experiments(ROOT / "benchmarks/experiments")
    assert {e.benchmark for e in experiments} >= {"semeval2b-dev", "idiolink-test"}
    assert any(e.in_quick for e in experiments)
    commands = []
    for exp in experiments:
        for quick in (False, True):
            argv = job_argv(exp, 0, quick, Path("runs/x"), Path("results"))
            if Path(argv[0]).name != "idiomkit":
                continue
            spec = {
                **exp.spec,
                **({k: v for k, v in exp.quick.items() if k not in ("include", "seeds")} if quick else {}),
            }
            check_parsed_job(exp, spec, parsed_job(argv))
            commands.append(argv[1])
    assert commands.count("train") >= 160 and commands.count("evaluate") >= 70 and commands.count("run") >= 60
    assert {"center", "interpolate"} <= set(commands)


def boolean_experiments() -> list[tuple[str, str, bool]]:
    """(table, field, value) for every boolean option an experiment's ``[train]`` or ``[evaluate]`` table may set,
    true and false."""
    from idiomkit.reproduce.schema import RUN_TYPES

    found = []
    for kind in ("train", "evaluate"):
        for name, hint in typing.get_type_hints(RUN_TYPES[kind]).items():
            if bool in typing.get_args(hint):
                found += [(kind, name, True), (kind, name, False)]
    return found


@pytest.mark.parametrize(("kind", "name", "value"), boolean_experiments())
def test_a_boolean_option_true_or_false_reaches_the_command_as_that_value(tmp_path, kind, name, value):
    """``span_queries = false`` must become ``--sentence-queries``, not ``--no-span-queries`` (which train does not
    know); a task's bool option is a bare flag (given for true, left out for false: its option stays off), parsed by
    the task that declares it."""
    from idiomkit.options import option_flags
    from idiomkit.reproduce.jobs import job_argv
    from idiomkit.tasks import TASKS, parse_task_options

    flag = "--" + name.replace("_", "-")
    owner = next((t for t in TASKS.values() if flag in option_flags(t.Options)), TASKS["idiolink"])
    head = 'recipe = "idiolink-infonce"' if kind == "train" else f'task = "{owner.metadata.name}"'
    path = tmp_path / "toy.toml"
    path.write_text(f'benchmark = "x"\n[{kind}]\n{head}\nmodel = "minilm"\n{name} = {str(value).lower()}\n')
    ctx = parsed_job(job_argv(load_experiment(path), 0, False, tmp_path, tmp_path))
    if name in ctx.params:
        assert ctx.params[name] is value
    else:
        assert (flag in ctx.args) is value
        parse_task_options(owner(), ctx.args)


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
    from idiomkit.settings import default_data_dir

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
