"""Registry, model loading errors, the CLI (one-line errors, exit codes), result files and the envelope."""

import json

import pytest

from idiomkit.models import REGISTRY, ModelNotAvailable, load_model
from idiomkit.results import ResultRecord, atomic_write_text, write_result


def test_registry_names():
    assert {"minilm", "mpnet", "me5-small", "me5-small-enpt"} <= set(REGISTRY)
    assert REGISTRY["me5-small"].query_prompt == "query"


def test_unknown_model_is_one_line_error(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelNotAvailable, match="unknown model 'no-such-model': not a registry name"):
        load_model("no-such-model")


def test_model_dir_without_weights(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ModelNotAvailable, match="not a model directory"):
        load_model(str(tmp_path))


def test_atomic_write_keeps_old_file_on_failure(tmp_path, monkeypatch):
    path = atomic_write_text(tmp_path / "r.json", "old")

    def boom(*_args, **_kwargs):
        raise KeyboardInterrupt  # a kill between writing the temp file and renaming it

    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_text(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_write_result_envelope(tmp_path):
    rec = ResultRecord(
        task="semeval2b-dev",
        model="m",
        recipe="zero-shot",
        seed=3,
        metrics={"ALL": {"idiom": 0.1, "sts": 0.2, "all": 0.3}},
        data_sha256="x",
    )
    path = write_result(rec, tmp_path)
    saved = json.loads(path.read_text())
    assert path.name == "m__zero-shot__seed3.json"
    assert set(saved) == {
        "key",
        "task",
        "model",
        "recipe",
        "seed",
        "commit",
        "data_sha256",
        "params",
        "metrics",
        "wall_s",
        "created",
    }
