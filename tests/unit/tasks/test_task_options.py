"""Typed task options and the one task registry: metadata, options dataclasses with today's defaults, flags
generated from them (``idiomkit evaluate TASK``), the experiments' [evaluate] argv, and the evaluators."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from sentence_transformers.base.evaluation import BaseEvaluator
from sentence_transformers.sentence_transformer.evaluation import EmbeddingSimilarityEvaluator
from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.data.sts import StsPair
from idiomkit.errors import OptionError
from idiomkit.options import option_args
from idiomkit.reproduce.experiments import load_experiments
from idiomkit.reproduce.jobs import job_argv
from idiomkit.tasks import TASKS, TaskMetadata, get_task, parse_task_options
from idiomkit.tasks.idiolink import IdioLinkEvaluator, IdioLinkOptions
from idiomkit.tasks.semeval2b import SemEval2BEvaluator
from idiomkit.tasks.sts import StsEvaluator
from idiomkit.tasks.xiao_pairs import XiaoPairsEvaluator

# the options and defaults `idiomkit evaluate` took before the options were typed
TODAYS_DEFAULTS = {
    "semeval2b": {"setting": "pre_train", "mwe_tokens": False},
    "semeval2a": {"setting": "zero_shot", "features": "span"},
    "idiolink": {
        "split": "test",
        "query_mode": "sentence",
        "top_k": 100,
        "bm25_method": "lucene",
        "usage_rerank": False,
        "twin_expansion": False,
    },
    "admire": {"split": "test", "query_mode": "span"},
    "xiao-pairs": {"split": "heldout", "train_pairs": None},
    "meaning-triples": {"lexicon": None},
    "sts-guard": {},
}


COMMON_FLAGS = {"--model", "-m", "--pooling", "--prompt-name", "--recipe", "--batch-size", "--seed"}


def test_every_task_declares_metadata_and_options_with_todays_defaults():
    assert set(TASKS) == set(TODAYS_DEFAULTS)
    for name, cls in TASKS.items():
        meta = cls.metadata
        assert isinstance(meta, TaskMetadata) and meta.name == name == cls.name
        assert meta.result_task == cls.result_task and meta.main_score and meta.languages and meta.title
        assert meta.data_files and all(not Path(f).is_absolute() for f in meta.data_files)
        defaults = dataclasses.asdict(cls.Options())
        assert {k: defaults[k] for k in TODAYS_DEFAULTS[name]} == TODAYS_DEFAULTS[name], name


@pytest.mark.parametrize(
    "task, values, message",
    [
        (
            "semeval2b",
            {"query_mode": "span"},
            "task 'semeval2b' takes no option query_mode (--query-mode); its options: mwe_tokens, setting",
        ),
        ("admire", {"setting": "one_shot"}, "task 'admire' takes no option setting"),
        ("idiolink", {"seeds": [0]}, "task 'idiolink' takes no option seeds"),
        ("admire", {"split": "xe"}, "unknown admire split 'xe' (expected one of train, dev, test, train+dev)"),
        ("semeval2a", {"features": "span+shots"}, "probe features 'span+shots' need --setting one_shot"),
    ],
)
def test_the_task_refuses_an_option_it_does_not_take_before_reading_any_data(tmp_path, task, values, message):
    with pytest.raises(OptionError) as err:
        get_task(task).evaluate(None, data_dir=tmp_path / "no-data", **values)
    assert message in str(err.value)


def test_options_object_of_another_task_is_refused(tmp_path):
    with pytest.raises(OptionError, match="takes one SemEval2BOptions, not IdioLinkOptions"):
        get_task("semeval2b").evaluate(None, IdioLinkOptions(), data_dir=tmp_path)
    with pytest.raises(OptionError, match="not both"):
        get_task("idiolink").evaluate("bm25", IdioLinkOptions(), data_dir=tmp_path, top_k=5)


def test_flags_are_generated_from_the_options_dataclass():
    idiolink = get_task("idiolink")
    options = parse_task_options(idiolink, ["--query-mode", "span", "--top-k", "20", "--usage-classifier"])
    assert (options.query_mode, options.top_k, options.usage_rerank) == ("span", 20, "classifier")
    assert option_args(options) == ["--query-mode", "span", "--top-k", "20", "--usage-classifier"]
    with pytest.raises(OptionError, match="unknown idiolink query mode 'instruction' .expected one of sentence, span"):
        parse_task_options(idiolink, ["--query-mode", "instruction"], lexical=True)
    with pytest.raises(OptionError, match="option '--top-k': expected int, got 'many'"):
        parse_task_options(idiolink, ["--top-k", "many"])
    with pytest.raises(OptionError, match="task 'semeval2b' takes no option twin_expansion .--twin-expansion."):
        parse_task_options(get_task("semeval2b"), ["--twin-expansion"])
    with pytest.raises(OptionError, match="no option '--cache-dir'"):  # Python-only fields are no flags
        parse_task_options(idiolink, ["--cache-dir", "x"])


def test_help_options_lists_the_task_options_and_exits_0():
    result = CliRunner().invoke(app, ["evaluate", "admire", "--help-options"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "--query-mode  str  default 'span' (one of sentence, span, marked, marked+span)" in result.output
    assert "--extended" not in result.output


def test_the_evaluate_command_refuses_another_tasks_flag_with_exit_code_2(tmp_path):
    args = ["evaluate", "xiao-pairs", "--data-dir", str(tmp_path), "--results-dir", str(tmp_path), "--setting", "x"]
    result = CliRunner().invoke(app, args, terminal_width=200)
    assert result.exit_code == 2
    assert "task 'xiao-pairs' takes no option setting (--setting); its options: split, train_pairs" in result.output
    assert not list(tmp_path.iterdir())


def test_every_evaluate_experiment_parses_against_its_task_options():
    experiments = [e for e in load_experiments("benchmarks/experiments") if e.kind == "evaluate"]
    assert experiments
    for exp in experiments:
        for seed in exp.seeds:
            argv = job_argv(exp, seed, False, Path("runs/reproduce"), Path("RES"))
            assert argv[1] == "evaluate"
            task, words = get_task(argv[2]), argv[3:]
            common = {i for i, w in enumerate(words) if w in COMMON_FLAGS} | {
                i + 1 for i, w in enumerate(words) if w in COMMON_FLAGS
            }
            rest = [w for i, w in enumerate(words) if i not in common]
            model = words[words.index("--model") + 1] if "--model" in words else "minilm"
            options = parse_task_options(task, rest, lexical=model in task.lexical_models)
            assert parse_task_options(task, option_args(options)) == options, exp.name  # flags <-> options


def test_the_registry_feeds_the_report_titles_and_the_mteb_adapters():
    from idiomkit.mteb_tasks import MTEB_TASKS
    from idiomkit.report import TASK_TITLES

    assert {cls.metadata.result_task: cls.metadata.title for cls in TASKS.values()} == TASK_TITLES
    assert (
        set(MTEB_TASKS)
        == {name for name, cls in TASKS.items() if cls.metadata.mteb_name}
        == {"semeval2b", "idiolink", "admire"}
    )
    for name, adapter in MTEB_TASKS.items():
        assert adapter.metadata.name == TASKS[name].metadata.mteb_name


def test_training_evaluators_are_sentence_evaluators(tmp_path):
    assert issubclass(StsEvaluator, EmbeddingSimilarityEvaluator)
    for evaluator in (
        StsEvaluator([StsPair("a", "b", 0.5, "stsb-en", "EN")]),
        SemEval2BEvaluator([], [], name="val"),
        XiaoPairsEvaluator([]),
        IdioLinkEvaluator(tmp_path),
    ):
        assert isinstance(evaluator, BaseEvaluator) and evaluator.greater_is_better
        assert evaluator.primary_metric.startswith("val") or evaluator.primary_metric.startswith("semeval2b")
