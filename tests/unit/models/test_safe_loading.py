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


# --- hostile folders that used to end in a traceback, a silent swap or a misleading message ---------------------


def minilm_without_weights(folder):
    """The registry minilm's folder, every file but its weights (a real config: transformers gets to the weights)."""
    import shutil

    from idiomkit.models.registry import registry_model_path

    shutil.copytree(registry_model_path("minilm"), folder, ignore=shutil.ignore_patterns("*.safetensors"))
    return folder


class RunsCode:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        from pathlib import Path

        return (Path.touch, (self.marker,))


def test_a_pickled_or_cut_pytorch_model_bin_is_one_line_without_advice_to_load_it_unsafely(tmp_path):
    import torch

    folder, marker = minilm_without_weights(tmp_path / "model"), tmp_path / "pwned"
    torch.save({"weights": RunsCode(marker)}, folder / "pytorch_model.bin")
    result = runner.invoke(app, ["embed", "-m", str(folder), "a sentence"])
    line = assert_one_line_error(
        result, f"{folder / 'pytorch_model.bin'}: refused to load: not plain model weights", "Unsupported global"
    )
    assert not any(advice in line for advice in ("weights_only", "safe_globals", "trust")) and not marker.exists()
    whole = (folder / "pytorch_model.bin").read_bytes()
    (folder / "pytorch_model.bin").write_bytes(whole[: len(whole) // 2])
    result = runner.invoke(app, ["embed", "-m", str(folder), "a sentence"])
    assert_one_line_error(result, f"{folder / 'pytorch_model.bin'}: corrupt or truncated model weights (Pytorch")


def folder_with_modules(tmp_path, *entries):
    folder = tmp_path / "model"
    folder.mkdir(exist_ok=True)
    (folder / "modules.json").write_text(json.dumps(list(entries)))
    (folder / "model.safetensors").write_bytes(b"")
    return folder


def module(kind, path=""):
    return {"idx": 0, "name": "0", "path": path, "type": kind}


BAD_MODULES = [
    (
        module("sentence_transformers.util.misc.os"),
        "'sentence_transformers.util.misc.os' is not a sentence-transformers module class (a module)",
    ),
    (
        module("sentence_transformers.util.misc.import_from_string"),
        "is not a sentence-transformers module class (a function)",
    ),
    (module("sentence_transformers.SimilarityFunction"), "is not a sentence-transformers module class (a class)"),
    (module("sentence_transformers.no.such.Thing"), "is not a sentence-transformers module class (no such name)"),
    (
        module("sentence_transformers.SentenceTransformer"),
        "'sentence_transformers.SentenceTransformer' is a whole "
        "model, not a module: modules.json lists a model's modules",
    ),
    (
        module("sentence_transformers.models.Pooling", "/etc"),
        "field 'path': '/etc' is absolute; a module's path is relative to the model folder",
    ),
    (
        module("sentence_transformers.models.Pooling", "1_Pooling/../../x"),
        "field 'path': '1_Pooling/../../x' leaves the model folder",
    ),
    ({"idx": 0, "name": "0", "type": "sentence_transformers.models.Pooling"}, "field 'path': missing or not a string"),
]


@pytest.mark.parametrize(
    ("entry", "fragment"), BAD_MODULES, ids=[e["type"].split(".")[-1] + str(i) for i, (e, _) in enumerate(BAD_MODULES)]
)
def test_a_modules_json_entry_that_is_no_module_here_is_one_accurate_line(entry, fragment, tmp_path):
    folder = folder_with_modules(tmp_path, entry)
    with pytest.raises(ModelNotAvailable) as err:
        load_model(str(folder))
    assert str(err.value).startswith(f"{folder / 'modules.json'}: module 1: field '") and fragment in str(err.value)
    assert "config.json" not in str(err.value) and "without '..'" not in str(err.value)


def test_a_dense_module_naming_an_untrusted_activation_is_refused_not_run_with_tanh(tmp_path, tiny_data):
    folder = folder_with_modules(tmp_path, module("sentence_transformers.models.Dense", "2_Dense"))
    (folder / "2_Dense").mkdir()
    config = folder / "2_Dense" / "config.json"
    for activation in ("os.system", "builtins.eval", 3):
        config.write_text(json.dumps({"in_features": 4, "out_features": 4, "activation_function": activation}))
        args = ["evaluate", "semeval2b", "-m", str(folder), "--no-write", "--data-dir", str(tiny_data)]
        assert_one_line_error(
            runner.invoke(app, args),
            f"{config}: field 'activation_function': {json.dumps(activation)} is not a torch activation class",
        )
    for activation in ("torch.nn.modules.activation.Tanh", None):  # what sentence-transformers saves: accepted
        config.write_text(json.dumps({"in_features": 4, "out_features": 4, "activation_function": activation}))
        assert module_classes_of(folder) == {}


def test_a_link_that_leaves_the_model_folder_is_refused_before_anything_is_read(tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("not a vocabulary\n")
    folder = minilm_without_weights(tmp_path / "model")
    (folder / "model.safetensors").write_bytes(b"")  # never read: the link is refused first
    (folder / "vocab.txt").unlink()
    (folder / "vocab.txt").symlink_to(outside)
    result = runner.invoke(app, ["embed", "-m", str(folder), "a sentence"])
    assert_one_line_error(result, f"{folder / 'vocab.txt'}: a link to {outside}, outside the model folder")
    (folder / "vocab.txt").unlink()
    (folder / "1_Pooling").rename(tmp_path / "pooling")
    (folder / "1_Pooling").symlink_to(tmp_path / "pooling")  # a linked folder is a link too
    with pytest.raises(ModelNotAvailable, match="1_Pooling: a link to .*pooling, outside the model folder"):
        load_model(str(folder))
    (folder / "1_Pooling").unlink()
    (tmp_path / "pooling").rename(folder / "1_Pooling")
    (folder / "vocab.txt").symlink_to(folder / "1_Pooling" / "config.json")  # inside the folder: not refused
    from idiomkit.models.folder import check_links_stay_inside

    check_links_stay_inside(folder)
