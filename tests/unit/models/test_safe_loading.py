"""A model folder is data: no command that loads a model runs code the folder brings (#42).

The planted folder names a class ``idiomkit.Evil`` in ``modules.json`` and holds its own ``idiomkit.py``, which
writes a marker file when imported. Plain sentence-transformers with ``trust_remote_code=True`` imports it (the
hole, shown first so the fixture is known to bite); every idiomkit command refuses the folder in one line naming
``modules.json`` and the marker never appears.
"""

from __future__ import annotations

import json

import pytest
from helpers import runner
from helpers.bad_inputs import assert_one_line_error

from idiomkit.cli import app
from idiomkit.models import ModelNotAvailable, load_model, module_classes_of


@pytest.fixture
def planted(tmp_path, monkeypatch):
    """(model folder, marker path): a folder whose modules.json names ``idiomkit.Evil`` from its own idiomkit.py."""
    folder, marker = tmp_path / "evil-model", tmp_path / "pwned"
    folder.mkdir()
    (folder / "modules.json").write_text(json.dumps([{"idx": 0, "name": "0", "path": "", "type": "idiomkit.Evil"}]))
    (folder / "config.json").write_text('{"model_type": "bert"}')
    (folder / "model.safetensors").write_bytes(b"")
    (folder / "idiomkit.py").write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\n\nclass Evil:\n    pass\n"
    )
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "hf-modules"))
    return folder, marker


def test_the_planted_folder_runs_its_code_under_trust_remote_code(planted):
    """The hole itself, in plain sentence-transformers: the flag imports the folder's idiomkit.py."""
    from sentence_transformers import SentenceTransformer

    folder, marker = planted
    with pytest.raises(Exception):  # noqa: B017 -- whatever breaks after the import, the code has run
        SentenceTransformer(str(folder), trust_remote_code=True, device="cpu")
    assert marker.read_text() == "ran"


def test_load_model_refuses_the_folder_before_importing_anything(planted):
    folder, marker = planted
    with pytest.raises(ModelNotAvailable, match=r"modules.json: module 1: field 'type': 'idiomkit.Evil' is neither"):
        load_model(str(folder))
    assert not marker.exists()


def commands(folder, tmp_path, tiny_data):
    data = ["--data-dir", str(tiny_data)]
    return {
        "embed": ["embed", "-m", str(folder), "a sentence"],
        "evaluate": ["evaluate", "semeval2b", "-m", str(folder), "--no-write", *data],
        "evaluate all": [
            "evaluate",
            "all",
            "-m",
            str(folder),
            "--quick",
            "--only",
            "semeval2b",
            "--results-dir",
            str(tmp_path / "res"),
            *data,
        ],
        "nearest": ["nearest", "-m", str(folder)],
        "train -m": [
            "train",
            "--recipe",
            "cosent",
            "-m",
            str(folder),
            "--max-steps",
            "1",
            "--limit-groups",
            "4",
            "-o",
            str(tmp_path / "run"),
            *data,
        ],
    }


@pytest.mark.parametrize("command", ["embed", "evaluate", "evaluate all", "nearest", "train -m"])
def test_every_loading_command_refuses_the_folder_in_one_line(command, planted, tmp_path, tiny_data):
    folder, marker = planted
    result = runner.invoke(app, commands(folder, tmp_path, tiny_data)[command])
    assert_one_line_error(result, "modules.json: module 1: field 'type': 'idiomkit.Evil'", "runs no code")
    assert not marker.exists()


def test_the_reader_class_comes_from_the_installed_package(tmp_path):
    from idiomkit.idioms.reader import IdiomReader

    (tmp_path / "modules.json").write_text(
        json.dumps(
            [
                {"idx": 0, "name": "r", "path": "0_IdiomReader", "type": "idiomkit.idioms.reader.IdiomReader"},
                {
                    "idx": 1,
                    "name": "t",
                    "path": "",
                    "type": "sentence_transformers.base.modules.transformer.Transformer",
                },
            ]
        )
    )
    assert module_classes_of(tmp_path) == {"idiomkit.idioms.reader.IdiomReader": IdiomReader}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[{"idx": 0, "type": "sentence_transformers.', "modules.json: not valid JSON ("),
        ('{"type": "x"}', "modules.json: expected a JSON list of modules, got dict"),
        ('[{"idx": 0, "path": ""}]', "modules.json: module 1: field 'type': missing or not a string"),
    ],
)
def test_a_broken_modules_json_is_one_line_naming_it(text, fragment, tmp_path, tiny_data):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "modules.json").write_text(text)
    (folder / "model.safetensors").write_bytes(b"")
    args = ["evaluate", "semeval2b", "-m", str(folder), "--no-write", "--data-dir", str(tiny_data)]
    name, message = fragment.split(":", 1)
    assert_one_line_error(runner.invoke(app, args), f"{folder / name}:{message}")


def test_a_folder_transformers_does_not_recognise_is_one_line_naming_it(tmp_path, tiny_data):
    """A config.json of an unknown model type: transformers raises a plain ValueError, which idiomkit names as bad
    input (the folder) rather than a bug."""
    folder = tmp_path / "not-a-model"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "no-such-architecture"}')
    (folder / "model.safetensors").write_bytes(b"")
    args = ["evaluate", "semeval2b", "-m", str(folder), "--no-write", "--data-dir", str(tiny_data)]
    assert_one_line_error(runner.invoke(app, args), f"{folder}: not a model folder sentence-transformers can load")
