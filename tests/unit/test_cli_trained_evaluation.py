"""``idiomkit train --evaluate``: which evaluations follow a training, and with which pooling."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import idiomkit.api
from idiomkit.cli import training


def test_each_evaluate_task_expands_to_its_jobs():
    config = {"mwe_tokens": False}
    assert training.trained_evaluation_jobs(["xiao-pairs"], config) == [("xiao-pairs", {})]
    want = [("semeval2b", {"mwe_tokens": False, "setting": "fine_tune"})]
    assert training.trained_evaluation_jobs(["semeval2b"], config) == want
    idiolink = training.trained_evaluation_jobs(["idiolink"], config)
    assert [opts["query_mode"] for _, opts in idiolink[:3]] == ["sentence", "span", "sentence+span"]
    assert len(idiolink) == 9


def test_unknown_evaluate_task_is_refused_before_training():
    with pytest.raises(ValueError, match="unknown task 'xiao'"):
        training.check_evaluate_tasks(["xiao"])


def test_trained_model_is_evaluated_with_its_own_pooling(monkeypatch, tmp_path):
    """A pairs-* model is saved with mean pooling and a 2B model with last2: the evaluation keeps the saved one
    (``mean`` leaves a loaded model as it is) instead of re-pooling every model as last2."""
    calls = []

    def fake_evaluate(task, model, **kwargs):
        calls.append((task, model, kwargs))
        return SimpleNamespace(table=[["metric"], ["1"]], record=SimpleNamespace(model="minilm", recipe="r"), path="p")

    monkeypatch.setattr(idiomkit.api, "evaluate", fake_evaluate)
    info = {"label": "pairs-triplet-id", "config": {"model": "minilm", "seed": 3, "mwe_tokens": False}}
    training.evaluate_trained(tmp_path, info, ["xiao-pairs", "semeval2b"], None)
    assert [(task, kw["pooling"], kw["recipe"], kw["seed"]) for task, _, kw in calls] == [
        ("xiao-pairs", "mean", "pairs-triplet-id", 3),
        ("semeval2b", "mean", "pairs-triplet-id", 3),
    ]


def test_scorecard_after_training_is_the_plain_card_of_the_output(monkeypatch, tmp_path):
    """``--evaluate scorecard``: the trained folder's plain-track card (what ``idiomkit evaluate all -m OUTPUT``
    writes), after the single-task evaluations; it is not one of them."""
    import idiomkit.cli.evaluation
    import idiomkit.scorecard

    calls = []
    monkeypatch.setattr(idiomkit.api, "evaluate", lambda task, model, **kw: calls.append(task) or _FakeResult)
    monkeypatch.setattr(idiomkit.scorecard, "evaluate_all", lambda model, **kw: calls.append((model, kw)) or ["card"])
    monkeypatch.setattr(idiomkit.cli.evaluation, "show_scorecards", lambda cards, results: calls.append(cards))
    training.check_evaluate_tasks(["scorecard"])
    assert training.trained_evaluation_jobs(["scorecard"], {"mwe_tokens": False}) == []
    info = {"label": "flagship-v2-pool-mean-bf16", "config": {"model": "mpnet", "seed": 1, "mwe_tokens": False}}
    training.evaluate_trained(tmp_path, info, ["scorecard", "xiao-pairs"], None, quick=True)
    assert calls == [
        "xiao-pairs",
        (str(tmp_path), {"track": "plain", "quick": True, "data_dir": None}),
        ["card"],
    ]


_FakeResult = SimpleNamespace(table=[["metric"], ["1"]], record=SimpleNamespace(model="mpnet", recipe="r"), path="p")
