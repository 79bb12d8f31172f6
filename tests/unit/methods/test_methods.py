"""The METHODS registry and the IdioLink second-stage options (no model, no data)."""

from __future__ import annotations

import pytest

from idiomkit.methods import METHODS, Method, get_method
from idiomkit.methods.idiolink.rerank import IdioLinkRerank, rerank_from_options
from idiomkit.tasks.idiolink import IdioLinkTask


def test_every_registered_method_is_a_method_named_task_slash_method():
    assert "semeval2a/sense-matcher" in METHODS and "admire/structured" in METHODS
    for name, entry in METHODS.items():
        assert issubclass(entry.method, Method) and entry.method.name == name and get_method(name) is entry.method
        assert name.split("/")[0] in {"semeval2a", "idiolink", "admire"}


def test_unknown_method_is_named():
    with pytest.raises(KeyError, match="unknown method 'idiolink/oracle'"):
        get_method("idiolink/oracle")


@pytest.mark.parametrize(
    ("usage", "twins", "suffix"),
    [
        (True, False, "-usage"),
        ("classifier", True, "-usageclf-twins"),
        ("span-probe", False, "-usagespan"),
        ("shared-classifier", False, "-usagesharedclf"),
        (False, True, "-twins"),
    ],
)
def test_rerank_variant_suffix(usage, twins, suffix):
    assert IdioLinkRerank(usage_rerank=usage, twin_expansion=twins).variant_suffix == suffix


def test_rerank_from_options_builds_the_stage_only_when_asked():
    options = rerank_from_options({"query_mode": "span", "usage_rerank": "classifier", "twin_expansion": False})
    assert options == {"query_mode": "span", "rerank": IdioLinkRerank(usage_rerank="classifier")}
    assert rerank_from_options({"query_mode": "span", "twin_expansion": False}) == {"query_mode": "span"}
    with pytest.raises(ValueError, match="unknown usage re-ranker 'oracle'"):
        rerank_from_options({"usage_rerank": "oracle"})


def test_the_task_refuses_the_old_rerank_options(tmp_path):
    with pytest.raises(ValueError, match="usage_rerank is a method now"):
        IdioLinkTask().evaluate("bm25", data_dir=tmp_path, usage_rerank=True)


def test_classifier_config_takes_every_field_the_options_share_with_it():
    """``idiomkit run semeval2a --method classifier`` options: the defaults are ClassifierConfig's own, and each
    shared field reaches the config (none copied by hand and forgotten)."""
    from dataclasses import fields

    from idiomkit.methods.semeval2a.classifier import ClassifierConfig
    from idiomkit.methods.semeval2a.runs import ClassifierOptions, classifier_config

    config_fields = {f.name: f for f in fields(ClassifierConfig)}
    shared = [f for f in fields(ClassifierOptions) if f.name in config_fields and f.name not in ("model", "setting")]
    assert {f.name for f in shared} >= {"epochs", "lr", "batch_size", "input", "pool", "train_layers", "extra_train"}
    assert all(f.default == config_fields[f.name].default for f in shared)
    changed = {"epochs": 7, "batch_size": 3, "lr": 0.5, "max_seq_length": 9, "input": "none", "context": True}
    changed |= {"pool": "cls", "one_shot_repeat": 2, "train_layers": 1, "extra_train": "epie"}
    assert set(changed) == {f.name for f in shared}
    cfg = classifier_config(ClassifierOptions(**changed), "minilm", "one_shot", 4)
    assert {k: getattr(cfg, k) for k in changed} == changed
    assert (cfg.model, cfg.setting, cfg.seed) == ("minilm", "one_shot", 4)
