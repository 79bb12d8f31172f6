"""Headline zero-shot numbers on the real 2B dev split (independent reference values, issue #4)."""

import json

import pytest

from idiomkit.api import evaluate
from idiomkit.data.semeval2022 import load_subtask_b
from idiomkit.tasks.semeval2b import score_submission


def test_minilm_zero_shot_dev(data_dir, tmp_path):
    result = evaluate("semeval2b", "minilm", data_dir=data_dir, results_dir=tmp_path, show_progress_bar=False)
    ALL = result.record.metrics["ALL"]
    assert ALL["idiom"] == pytest.approx(0.110, abs=0.003)
    assert ALL["sts"] == pytest.approx(0.818, abs=0.003)
    assert ALL["all"] == pytest.approx(0.648, abs=0.003)
    assert result.record.metrics["EN"]["idiom"] == pytest.approx(0.02, abs=0.01)
    assert result.record.metrics["PT"]["idiom"] == pytest.approx(0.26, abs=0.01)
    # the envelope and the raw predictions beside it: rescoring the submission gives the same numbers
    saved = json.loads(result.path.read_text())
    assert saved["task"] == "semeval2b-dev" and saved["recipe"] == "zero-shot" and saved["params"]["pooling"] == "mean"
    assert result.path.name == "minilm__zero-shot__seed0.json"
    gold = load_subtask_b(data_dir, "dev").gold
    assert score_submission(result.path.with_suffix(".submission.csv"), gold) == saved["metrics"]


@pytest.mark.parametrize("prompts, expected", [({"query": "query: ", "passage": "passage: "}, "query"), ({}, None)])
def test_curve_points_are_scored_with_the_result_rows_prompt(minilm, tiny_data, monkeypatch, prompts, expected):
    """Report-only curves (tradeoff.py epochs, interpolate --curve) score 2B dev with the prompt the result rows use
    (`auto`: e5's `query: `); before, they scored e5 models without it and disagreed with the rows."""
    from idiomkit.api import semeval2b_dev_metrics
    from idiomkit.tasks import get_task

    task_class = type(get_task("semeval2b"))
    original, seen = task_class.evaluate, []

    def spy(self, model, **kwargs):
        seen.append(kwargs.get("prompt_name"))
        return original(self, model, **kwargs)

    monkeypatch.setattr(task_class, "evaluate", spy)
    monkeypatch.setattr(minilm, "prompts", prompts)
    metrics = semeval2b_dev_metrics(minilm, data_dir=tiny_data)
    assert seen == [expected]
    assert set(metrics) >= {"ALL"} and -1.0 <= metrics["ALL"]["idiom"] <= 1.0


@pytest.mark.parametrize("mwe_tokens, variant", [(False, "plain"), (True, None)])
def test_a_model_with_mwe_tokens_scored_without_them_is_the_plain_variant(tiny_data, monkeypatch, mwe_tokens, variant):
    """A trained 2B model scored without its MWE tokens (the plain track) gets the variant ``plain``, so its result
    file stands beside the marked one instead of over it; a model without MWE tokens gets no variant."""
    from types import SimpleNamespace

    import idiomkit.tasks.semeval2b as scoring
    from idiomkit.results import result_track
    from idiomkit.tasks import get_task
    from idiomkit.tasks.base import EvalContext

    monkeypatch.setattr(
        scoring, "pair_similarities", lambda model, pairs, **kw: [0.5 + i / 100 for i in range(len(pairs))]
    )
    task = get_task("semeval2b")
    context = EvalContext(tiny_data, None, 8, False, 0, False)
    with_tokens = SimpleNamespace(tokenizer=SimpleNamespace(get_added_vocab=lambda: {"IDbigfishID": 1}))
    out = task.run(with_tokens, task.make_options(mwe_tokens=mwe_tokens), context)
    assert out.params.get("variant") == variant
    assert result_track(out.params) == ("marked" if mwe_tokens else "plain")
    without_tokens = SimpleNamespace(tokenizer=SimpleNamespace(get_added_vocab=lambda: {}))
    assert "variant" not in task.run(without_tokens, task.make_options(), context).params


def test_the_training_evaluator_and_the_task_score_2b_the_same_way(minilm, tiny_data):
    """2B is scored in one place (``score_pairs``): the training-time evaluator reports the task's ALL numbers."""
    from idiomkit.tasks import get_task
    from idiomkit.tasks.base import EvalContext
    from idiomkit.tasks.semeval2b import SemEval2BEvaluator

    task = get_task("semeval2b")
    out = task.run(minilm, task.make_options(), EvalContext(tiny_data, None, 8, False, 0, False))
    split = load_subtask_b(tiny_data, "dev")
    scores = SemEval2BEvaluator(split.pairs, split.gold, name="val", batch_size=8)(minilm)
    expected = {f"val_{k}": v for k, v in out.metrics["ALL"].items() if v == v}  # NaN (a constant slice) left out
    assert scores == pytest.approx(expected) and expected
