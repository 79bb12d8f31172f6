"""``idiomkit run TASK --method M``: flags generated from the method's options dataclass, one-line refusals, and real
runs on tiny slices whose result files are named and filled as the old benchmark scripts named and filled them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import runner
from helpers.run_verb import one_error_line

from idiomkit.cli import app
from idiomkit.errors import OptionError
from idiomkit.methods import METHODS, get_runnable, runnable_names
from idiomkit.methods.idiolink.runs import TwinsOptions, run_twins
from idiomkit.methods.runner import RunContext
from idiomkit.options import describe_options, option_args, option_flags, parse_options


def test_unknown_method_is_one_line_listing_the_runnable_methods():
    line = one_error_line(runner.invoke(app, ["run", "semeval2a", "--method", "nope"]))
    assert "unknown method 'semeval2a/nope'" in line and "semeval2a/classifier" in line and "idiolink/twins" in line


def test_unknown_option_is_one_line_naming_it_and_the_methods_options(tmp_path):
    argv = ["run", "semeval2a", "--method", "classifier", "--train-layer", "4", "--results-dir", str(tmp_path)]
    line = one_error_line(runner.invoke(app, argv))
    assert "semeval2a/classifier: no option '--train-layer'" in line and "--train-layers" in line
    assert list(tmp_path.iterdir()) == []  # refused before anything ran


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--epochs", "two"], "option '--epochs': expected int, got 'two'"),
        (["--setting", "few_shot"], "option '--setting': 'few_shot' is not one of zero_shot, one_shot"),
        (["--train-layers"], "option '--train-layers' needs a value"),
    ],
)
def test_bad_option_values_are_one_line(argv, message):
    line = one_error_line(runner.invoke(app, ["run", "semeval2a", "--method", "classifier", *argv]))
    assert message in line


def test_an_option_of_another_method_is_refused():
    line = one_error_line(runner.invoke(app, ["run", "semeval2a", "--method", "sense-matcher", "--smooth"]))
    assert "semeval2a/sense-matcher: no option '--smooth'" in line


def test_help_options_lists_every_field_of_the_dataclass():
    result = runner.invoke(app, ["run", "admire", "--method", "structured", "--help-options"])
    assert result.exit_code == 0
    for flag in ("-m, --model", "--l2", "--stack", "--type-classifier", "--signals", "--threads"):
        assert flag in result.output
    assert "--c " not in result.output  # the feature ranker's option, not this one's


def test_one_registry_holds_every_method_and_says_which_idiomkit_run_runs():
    """``METHODS`` is the one registry: each entry's class is registered under its own name, and exactly the
    runnable entries carry options and a run function."""
    for name, entry in METHODS.items():
        assert entry.method.name == name
        assert (entry.options is None) == (entry.run is None) == (not entry.runnable)
    runnable = {
        "semeval2a/classifier",
        "semeval2a/sense-matcher",
        "semeval2a/probe",
        "semeval2a/shot-labels",
        "admire/query-encoder",
        "admire/features",
        "admire/structured",
        "idiolink/twins",
    }
    assert runnable == set(runnable_names())
    with pytest.raises(OptionError, match="unknown method 'idiolink/bm25' for idiomkit run"):
        get_runnable("idiolink/bm25")  # registered, but it runs inside idiomkit evaluate idiolink


@dataclass
class Toy:
    model: list[str] = field(default_factory=lambda: ["minilm"], metadata={"positional": True, "short": "m"})
    seeds: list[int] = field(default_factory=lambda: [0])
    train_layers: int | None = None
    lr: float = 5e-5
    smooth: bool = False


@dataclass
class ToyPlus(Toy):
    warmup_ratio: float = 0.1


def test_flags_are_generated_from_the_dataclass_fields():
    assert "--warmup-ratio" not in option_flags(Toy)
    assert option_flags(ToyPlus)["--warmup-ratio"] == "warmup_ratio"  # a field added is a flag
    assert parse_options(ToyPlus, ["--warmup-ratio", "0.3"]).warmup_ratio == 0.3
    assert any(line.startswith("--warmup-ratio") for line in describe_options(ToyPlus))
    with pytest.raises(OptionError, match="no option '--warmup-ratio'"):
        parse_options(Toy, ["--warmup-ratio", "0.3"], "toy")


def test_lists_bools_positional_and_short_flags_parse_as_the_scripts_did():
    got = parse_options(Toy, ["a", "-m", "b", "--seeds", "0", "1", "--seeds", "2", "--smooth", "--lr", "-1e-4"])
    assert got == Toy(model=["a", "b"], seeds=[0, 1, 2], smooth=True, lr=-1e-4)
    assert parse_options(Toy, []) == Toy()
    assert parse_options(Toy, ["--train-layers=4"]).train_layers == 4
    assert parse_options(Toy, option_args(got)) == got  # option_args is the inverse


def test_twins_scores_each_run_and_mode_as_the_old_script_did(tmp_path):
    """benchmarks/idiolink_twins.py called evaluate("idiolink", run, pooling="last2", recipe=<label>, seed=<seed>,
    model_name=<base model dir name>, ..., query_mode=<mode>, twin_expansion=..., usage_rerank=...)."""
    run = tmp_path / "infonce-seed1"
    run.mkdir()
    info = {"label": "idiolink-infonce", "config": {"seed": 1, "model": "/m/minilm"}}
    (run / "training.json").write_text(json.dumps(info))
    calls = []

    class Done:
        record = type("R", (), {"model": "minilm", "recipe": "idiolink-infonce"})()
        table = [["a", "b"]]
        path = tmp_path / "x.json"

    def fake_evaluate(task, model, **kwargs):
        calls.append((task, model, kwargs))
        return Done()

    ctx = RunContext(tmp_path, tmp_path / "res", command="idiomkit run ...", evaluate=fake_evaluate)
    options = parse_options(TwinsOptions, [str(run), "--modes", "span", "--usage-classifier"], "idiolink/twins")
    assert run_twins(options, ctx) == [tmp_path / "x.json"]
    ((task, model, kwargs),) = calls
    assert (task, model) == ("idiolink", str(run))
    assert kwargs == {
        "pooling": "last2",
        "recipe": "idiolink-infonce",
        "seed": 1,
        "model_name": "minilm",
        "data_dir": tmp_path,
        "results_dir": tmp_path / "res",
        "show_progress_bar": False,
        "command": "idiomkit run ...",
        "query_mode": "span",
        "twin_expansion": True,
        "usage_rerank": "classifier",
    }
    with pytest.raises(OptionError, match="at most one of"):
        run_twins(parse_options(TwinsOptions, [str(run), "--usage-rerank", "--usage-classifier"]), ctx)


def test_every_run_experiment_parses_against_its_methods_options():
    """Each ``idiomkit run`` experiment job (full and quick) names a runnable method and only options it takes."""
    import typer

    from idiomkit.reproduce.experiments import load_experiments
    from idiomkit.reproduce.jobs import job_argv

    root = Path(__file__).resolve().parents[3]
    command = typer.main.get_command(app).commands["run"]
    jobs = 0
    for exp in load_experiments(root / "benchmarks/experiments"):
        for quick in (False, True):
            argv = job_argv(exp, 0, quick, Path("runs/x"), Path("results"))
            if Path(argv[0]).name != "idiomkit" or argv[1] != "run":
                continue
            ctx = command.make_context("run", argv[2:])
            name = f"{ctx.params['task']}/{ctx.params['method']}"
            parse_options(get_runnable(name).options, ctx.args, name)
            jobs += 1
    assert jobs >= 60  # 30 experiments, full and quick
