"""Every training option is declared once: in :class:`TrainConfig` (what every recipe shares) or in its recipe's
options class (:mod:`idiomkit.training.recipe_options`). The ``idiomkit train`` flags, the keywords ``train()``
accepts, the ``[train]`` table of an experiment file (``reproduce.schema.TrainRun``), what a run records and its
label all come from these declarations."""

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
from idiomkit.training.config import RecipeOptions, TrainConfig, check_options, opt, option_ranges
from idiomkit.training.recipe_options import (
    RECIPE_OPTIONS,
    FlagshipV2RecipeOptions,
    IdioLinkRecipeOptions,
    SemEval2BRecipeOptions,
    train_options,
)
from idiomkit.training.recipes import RECIPES, config_from_record, train_config
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


def test_the_train_flags_are_the_command_line_fields_of_train_config_and_the_recipe_options():
    params = {p.name: p for p in train_command().params}
    fields = {f.name: f for f in cli_fields(train_options())}
    assert {f.name for f in cli_fields(TrainConfig)} | {"keep_weight", "span_queries", "teacher"} <= set(fields)
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


def test_train_accepts_exactly_the_shared_fields_and_the_recipes_own():
    every = {f.name: default_of(f) for f in dataclasses.fields(TrainConfig) if f.name != "options"}
    head = {k: every.pop(k) for k in ("recipe", "model", "epochs", "output_dir")}
    cfg = run_config(head["recipe"], head["model"], head["epochs"], head["output_dir"], every)
    assert cfg == TrainConfig(options=SemEval2BRecipeOptions())  # adaptive-triplet: a 2B recipe
    cfg = run_config("flagship-v2", "minilm", 1, "out", {"keep_weight": 2.0, "sts_weight": 0.5})
    assert cfg.options == FlagshipV2RecipeOptions(keep_weight=2.0, sts_weight=0.5)
    with pytest.raises(ValueError, match="unknown training option"):
        run_config("mnrl", "minilm", 1, "out", {"no_such_option": 1})


def test_a_recipe_refuses_another_familys_option_unless_it_is_the_default():
    """The command line passes every flag's default, so only a value someone gave can be refused."""
    with pytest.raises(ValueError, match=r"^recipe cosent takes no option keep_weight \(its own options: margin, "):
        train_config("cosent", keep_weight=2.0)
    with pytest.raises(ValueError, match=r"^recipe flagship-nosts takes no option sts_weight \(its own options: none"):
        train_config("flagship-nosts", sts_weight=0.5)
    assert train_config("cosent", keep_weight=1.0).options == SemEval2BRecipeOptions()
    assert train_config("idiolink-mnrl", span_queries=True).options == IdioLinkRecipeOptions(span_queries=True)


def test_a_run_records_its_shared_options_and_its_recipes_own():
    record = train_config("idiolink-infonce", epochs=3, span_queries=True).record()
    shared = [f.name for f in dataclasses.fields(TrainConfig) if f.name != "options"]
    assert list(record) == shared + [f.name for f in dataclasses.fields(IdioLinkRecipeOptions)]
    assert record["epochs"] == 3 and record["span_queries"] is True and "keep_weight" not in record


def test_a_record_of_every_option_reads_back_as_its_recipes_config():
    """A run recorded before the recipe options were split off holds every family's options: those of other
    families are dropped, a name no option has is refused."""
    old = {**TrainConfig().record(), **{n: f.default for n, f in train_options_fields().items()}}
    old |= {"recipe": "flagship-v2", "keep_weight": 10.0, "teacher": "mpnet", "span_queries": False}
    assert config_from_record(old) == train_config(
        **{**TrainConfig().record(), "recipe": "flagship-v2"}, keep_weight=10.0
    )
    with pytest.raises(ValueError, match="unknown training option"):
        config_from_record({**old, "no_such_option": 1})


def train_options_fields() -> dict:
    shared = {f.name for f in dataclasses.fields(TrainConfig)}
    return {f.name: f for f in dataclasses.fields(train_options()) if f.name not in shared}


def test_every_recipe_names_a_declared_options_class_and_each_class_is_used():
    used = {entry.options for entry in RECIPES.values()}
    assert used == set(RECIPE_OPTIONS)
    assert RECIPES["flagship-nosts"].options is RecipeOptions  # no STS stream: no STS weight


def test_each_options_class_labels_its_labelled_fields_and_only_declared_ones():
    """A labelled option a class forgot to name would make two different runs one label."""
    shared = {f.name for f in dataclasses.fields(TrainConfig)}
    for cls in RECIPE_OPTIONS:
        own = {f.name: f for f in dataclasses.fields(cls)}
        assert set(cls.LABEL) <= shared | set(own), cls
        assert {name for name, f in own.items() if "label" in f.metadata} <= set(cls.LABEL), cls
        assert len(set(cls.LABEL)) == len(cls.LABEL), cls


def test_the_experiment_schema_is_derived_from_train_config_and_the_recipe_options():
    hints = typing.get_type_hints(TrainRun)
    expected = {f.name for f in cli_fields(train_options())} - set(JOB_SUPPLIED) | {"evaluate"}
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
        check_options(train_config("flagship-v2", keep_weight=10.0, keep_distance="none"))
    check_options(train_config("flagship-v2", keep_weight=10.0, keep_distance="none", keep_relational=5.0))
    check_options(train_config("flagship-v2", keep_weight=0.0, keep_distance="none"))  # the term is off
    with pytest.raises(ValueError, match="^keep-weight must be >= 0, got -1"):
        check_options(train_config("flagship-v2", keep_weight=-1.0))  # a recipe option's range is checked too


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
