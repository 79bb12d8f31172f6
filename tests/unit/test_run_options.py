"""Every run option of ``idiomkit evaluate TASK`` / ``evaluate all`` is declared once, in :class:`RunOptions`: the
flags of the command, the keywords :func:`idiomkit.api.evaluate` and :func:`idiomkit.scorecard.evaluate_all` take,
and the checks of both come from its fields."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest
import typer
from helpers import runner
from helpers.bad_inputs import assert_one_line_error

import idiomkit.run_options
from idiomkit.api import evaluate
from idiomkit.cli import app
from idiomkit.cli.evaluation import EVALUATE_OWN_OPTIONS, evaluate_signature
from idiomkit.embedding import POOLINGS
from idiomkit.errors import OptionError
from idiomkit.options import cli_fields, default_of, field_flag
from idiomkit.run_options import RunOptions, check_run_options, split_run_options, with_seed_of
from idiomkit.scorecard import evaluate_all


def evaluate_command():
    return typer.main.get_command(app).commands["evaluate"]


def other_value(f: dataclasses.Field, tmp_path: Path):
    """A value of field ``f`` other than its default, as the command line gives it and as the API receives it."""
    default = default_of(f)
    if f.metadata.get("path"):
        return str(tmp_path / f.name), tmp_path / f.name
    if f.metadata.get("choices"):
        value = next(c for c in f.metadata["choices"] if c != default)
        return value, value
    if isinstance(default, bool):
        return None, not default
    if isinstance(default, int) or (
        default is None and int in typing.get_args(typing.get_type_hints(RunOptions)[f.name])
    ):
        return str((default or 0) + 3), (default or 0) + 3
    return f"x-{f.name}", f"x-{f.name}"


def run_flags(tmp_path: Path) -> tuple[list[str], RunOptions]:
    """A non-default value for every command-line field of RunOptions: the flags and the RunOptions they mean."""
    argv, expected = [], {}
    for f in cli_fields(RunOptions):
        text, expected[f.name] = other_value(f, tmp_path)
        flag = field_flag(f)
        argv += [flag, text] if text is not None else ["--no-" + flag[2:] if default_of(f) else flag]
    return argv, RunOptions(**expected)


def test_the_evaluate_flags_are_the_command_line_fields_of_run_options():
    params = {p.name: p for p in evaluate_command().params}
    fields = {f.name: f for f in cli_fields(RunOptions)}
    assert set(params) == set(fields) | set(EVALUATE_OWN_OPTIONS)
    for name, f in fields.items():
        assert field_flag(f) in params[name].opts, name
        assert params[name].default == default_of(f), name
        if name not in ("data_dir", "results_dir"):  # their annotation is shared with the other commands
            assert (params[name].help or "") == f.metadata["help"], name
    assert params["write"].secondary_opts == ["--no-write"]  # the spelling the command has always had
    assert "model_name" not in params  # a Python-only field is no flag


def test_a_field_added_to_run_options_is_a_flag_and_an_api_keyword(monkeypatch):
    extended = dataclasses.make_dataclass(
        "Extended",
        [("extra_knob", int, dataclasses.field(default=1, metadata={"help": "new"}))],
        bases=(RunOptions,),
        frozen=True,
    )
    captured: dict = {}

    def command(ctx: typer.Context, **given) -> None:
        captured.update(given)

    command.__signature__ = evaluate_signature(extended)
    single = typer.Typer()
    single.command()(command)
    result = runner.invoke(single, ["semeval2b", "--extra-knob", "5", "--batch-size", "8"])
    assert result.exit_code == 0, result.output
    assert captured["extra_knob"] == 5 and captured["batch_size"] == 8 and captured["task"] == "semeval2b"

    monkeypatch.setattr(idiomkit.run_options, "RunOptions", extended)
    run, rest = split_run_options(None, {"extra_knob": 7, "query_mode": "span"}, "evaluate idiolink")
    assert (run.extra_knob, rest) == (7, {"query_mode": "span"})


def test_every_run_flag_reaches_evaluate_and_evaluate_all(monkeypatch, tmp_path):
    """Each command-line field, given a non-default value, arrives in the RunOptions the API receives."""
    argv, expected = run_flags(tmp_path)
    seen: list = []

    def capture(*args, run=None, **values):
        seen.append(run)
        raise OptionError("captured")

    monkeypatch.setattr("idiomkit.api.evaluate", capture)
    monkeypatch.setattr("idiomkit.scorecard.evaluate_all", capture)
    for task in ("semeval2b", "all"):
        assert_one_line_error(runner.invoke(app, ["evaluate", task, *argv]), "captured")
    assert seen == [expected, expected]
    assert runner.invoke(app, ["evaluate", "all", "--prompt-name", "none", "--no-write"]).exit_code == 2
    assert seen[-1] == RunOptions(prompt_name=None, write=False)  # 'none' on the command line: no prompt


def test_every_run_option_is_an_api_keyword_and_the_rest_are_the_tasks():
    values = {f.name: default_of(f) for f in dataclasses.fields(RunOptions)} | {"query_mode": "span"}
    run, rest = split_run_options(None, values, "evaluate idiolink")
    assert run == RunOptions() and rest == {"query_mode": "span"}
    run, rest = split_run_options(RunOptions(seed=2), {"track": "both"}, "evaluate all")
    assert run.seed == 2 and rest == {"track": "both"}
    with pytest.raises(OptionError, match="^evaluate all: give one RunOptions as run= or its fields as keyword"):
        split_run_options(RunOptions(), {"seed": 1}, "evaluate all")


def test_a_trained_models_result_takes_its_training_seed_unless_one_is_given():
    """Seed 1 of a recipe is scored and named as seed 1: an evaluation of its folder without ``--seed`` no longer
    writes (over) the seed-0 result."""
    trained = {"label": "flagship-v2", "config": {"model": "me5-small-enpt", "seed": 1}}
    assert with_seed_of(RunOptions(), trained).seed == 1
    assert with_seed_of(RunOptions(seed=4), trained).seed == 4  # given: kept
    assert with_seed_of(RunOptions(), None).seed == 0  # an untrained model
    assert with_seed_of(RunOptions(), {"config": {}}).seed == 0  # an old training.json without a seed


@pytest.fixture
def no_model(monkeypatch):
    """A model load would be a traceback (AssertionError is no user error): proves the refusal came first."""

    def refuse(*args, **kwargs):
        raise AssertionError("a model was loaded before the run options were checked")

    monkeypatch.setattr("idiomkit.api.load_model", refuse)
    monkeypatch.setattr("idiomkit.scorecard.run.load_model", refuse)


BAD_VALUES = [  # {owner}: the command that refuses it (a bad choice names it)
    ({"batch_size": 0}, ["--batch-size", "0"], "batch-size must be >= 1, got 0"),
    ({"pooling": "max"}, ["--pooling", "max"], "{owner}: option '--pooling': 'max' is not one of mean, last2"),
]


@pytest.mark.parametrize("values, flags, message", BAD_VALUES)
def test_a_bad_run_value_is_refused_by_the_api_and_the_command_line(values, flags, message, no_model, tmp_path):
    """Refused before anything is read: not the model, nor its training.json (here unreadable)."""
    folders = {"data_dir": tmp_path, "results_dir": tmp_path / "results"}
    model = tmp_path / "trained"
    model.mkdir()
    (model / "training.json").write_text("{not json")
    calls = {
        "evaluate semeval2b": lambda: evaluate("semeval2b", str(model), **values, **folders),
        "evaluate all": lambda: evaluate_all(str(model), **values),
        "mteb": lambda: check_run_options(RunOptions(**values), "mteb"),
    }
    for owner, call in calls.items():
        with pytest.raises(OptionError) as refused:
            call()
        assert str(refused.value) == message.format(owner=owner)
    dirs = ["--data-dir", str(tmp_path), "--results-dir", str(tmp_path / "results")]
    for task in ("semeval2b", "all"):
        result = runner.invoke(app, ["evaluate", task, *flags, *dirs])
        assert assert_one_line_error(result) == "error: " + message.format(owner=f"evaluate {task}")
    result = runner.invoke(app, ["mteb", *flags, "--data-dir", str(tmp_path)])
    assert assert_one_line_error(result) == "error: " + message.format(owner="mteb")
    assert not (tmp_path / "results").exists()


def test_the_mteb_pooling_and_batch_size_are_the_run_options_declarations():
    """``idiomkit mteb`` declares neither flag itself: help and default are RunOptions', the check is evaluate's."""
    params = {p.name: p for p in typer.main.get_command(app).commands["mteb"].params}
    for f in cli_fields(RunOptions):
        if f.name in ("pooling", "batch_size"):
            assert params[f.name].opts == [field_flag(f)], f.name
            assert (params[f.name].help, params[f.name].default) == (f.metadata["help"], default_of(f)), f.name
    assert params["pooling"].help == " | ".join(POOLINGS)  # the choices offered are the poolings declared


def test_an_unknown_keyword_is_still_the_tasks_or_the_scorecards_one_line_error(no_model):
    with pytest.raises(OptionError, match="^task 'semeval2b' takes no option nope .--nope.; its options: "):
        evaluate("semeval2b", "minilm", write=False, nope=1)
    with pytest.raises(OptionError, match=r"^evaluate all takes no option nope \(--nope\); its options: only, "):
        evaluate_all("minilm", write=False, nope=1)
