"""Every training option is declared once, in :class:`TrainConfig`: the ``idiomkit train`` flags, the keywords
``train()`` accepts and the ``[train]`` table of an experiment file (``reproduce.schema.TrainRun``) all come from it."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.cli.training import TRAIN_RUN_OPTIONS, train_signature
from idiomkit.options import Range, cli_fields, default_of
from idiomkit.reproduce.schema import JOB_SUPPLIED, TrainRun, train_schema
from idiomkit.training.config import TrainConfig, check_options, opt, option_ranges
from idiomkit.training.setup import run_config


def train_command():
    return typer.main.get_command(app).commands["train"]


def command_of(config: type) -> tuple[typer.Typer, dict]:
    """A one-command app whose parameters are ``train_signature(config)``, and what it was called with."""
    captured: dict = {}

    def command(**given) -> None:
        captured.update(given)

    command.__signature__ = train_signature(config)
    single = typer.Typer()
    single.command()(command)
    return single, captured


def test_the_train_flags_are_the_command_line_fields_of_train_config():
    params = {p.name: p for p in train_command().params}
    fields = {f.name: f for f in cli_fields(TrainConfig)}
    assert set(params) == set(fields) | set(TRAIN_RUN_OPTIONS)
    for name, f in fields.items():
        default = default_of(f)
        assert params[name].default == (Path(default) if f.metadata.get("path") and default else default), name
        assert (params[name].help or "") == f.metadata.get("help", ""), name
    # flag spellings the command has always had
    assert params["model"].opts == ["--model", "-m"] and params["output_dir"].opts == ["--output", "-o"]
    assert params["span_queries"].secondary_opts == ["--sentence-queries"]
    assert params["mwe_tokens"].secondary_opts == ["--no-mwe-tokens"]
    assert params["resume"].hidden and params["resume"].secondary_opts == ["--no-resume"]
    assert params["evaluate_on"].opts == ["--evaluate"] and params["evaluate_on"].multiple
    assert params["epochs"].min == 1 and params["lr"].callback is not None and params["recipe"].callback is not None
    assert params["pooling"].callback is not None  # a known name: mean or last2
    # Python-only fields are not flags
    assert {"weight_decay", "max_grad_norm", "val_fraction"}.isdisjoint(params)


def test_train_accepts_exactly_the_train_config_fields():
    every = {f.name: default_of(f) for f in dataclasses.fields(TrainConfig)}
    head = {k: every.pop(k) for k in ("recipe", "model", "epochs", "output_dir")}
    cfg = run_config(head["recipe"], head["model"], head["epochs"], head["output_dir"], every)
    assert dataclasses.asdict(cfg) == dataclasses.asdict(TrainConfig())
    with pytest.raises(ValueError, match="unknown training option"):
        run_config("mnrl", "minilm", 1, "out", {"no_such_option": 1})


def test_the_experiment_schema_is_derived_from_train_config():
    hints = typing.get_type_hints(TrainRun)
    expected = {f.name for f in cli_fields(TrainConfig)} - set(JOB_SUPPLIED) | {"evaluate"}
    assert set(hints) == expected
    required = [f.name for f in dataclasses.fields(TrainRun) if f.default is dataclasses.MISSING]
    assert required == ["recipe", "model"]
    assert hints["epochs"] == int | None and hints["dropout"] == float | None and hints["evaluate"] == list[str] | None


def test_ranges_come_from_the_field_metadata():
    assert option_ranges()["epochs"] == Range(1) and option_ranges()["dropout"] == Range(0, 1, high_open=True)
    with pytest.raises(ValueError, match="^epochs must be >= 1, got 0$"):
        check_options(TrainConfig(epochs=0))
    with pytest.raises(ValueError, match="^dropout must be >= 0 and < 1, got 1.0$"):
        check_options(TrainConfig(dropout=1.0))
    check_options(TrainConfig(dropout=None, patience=None))  # optional fields may stay unset


def test_a_keep_term_that_keeps_nothing_is_refused_before_anything_loads():
    with pytest.raises(ValueError, match="^keep distance 'none' keeps nothing without a relational weight"):
        check_options(TrainConfig(recipe="flagship-v2", keep_weight=10.0, keep_distance="none"))
    check_options(TrainConfig(recipe="flagship-v2", keep_weight=10.0, keep_distance="none", keep_relational=5.0))
    check_options(TrainConfig(recipe="flagship-v2", keep_weight=0.0, keep_distance="none"))  # the term is off


@dataclasses.dataclass
class WithKnob(TrainConfig):
    knob: int = opt(3, "A new option, declared only here.", range=Range(1))
    python_only: float = opt(0.5, cli=False)


def test_a_new_train_config_field_reaches_the_flags_and_the_experiment_schema():
    single, captured = command_of(WithKnob)
    params = typer.main.get_command(single).params
    knob = next(p for p in params if p.name == "knob")
    assert knob.opts == ["--knob"] and knob.default == 3 and knob.help == "A new option, declared only here."
    assert "python_only" not in {p.name for p in params}
    runner = CliRunner()
    assert runner.invoke(single, ["--knob", "5", "-m", "x"]).exit_code == 0
    assert captured["knob"] == 5 and captured["model"] == "x"
    refused = runner.invoke(single, ["--knob", "0"])
    assert refused.exit_code == 2 and "--knob" in refused.output
    schema = train_schema(WithKnob)
    assert typing.get_type_hints(schema)["knob"] == int | None and "python_only" not in typing.get_type_hints(schema)
