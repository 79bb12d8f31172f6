"""Reliability sweep: malformed inputs across every loader and the CLI.

Each case builds a small data tree with one defect, runs the loader (expects a one-line ``DataError`` naming
file, row and field) and, where a command reads that file, the CLI (exit code 2, one ``error:`` line, no
traceback). Valid inputs with awkward-but-legal content must load completely (nothing silently dropped).

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/test_bad_inputs.py.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from helpers import runner
from helpers.bad_inputs import CASES, assert_one_line_error, expected_location, no_space

from idiomkit.cli import app

CLI_CASES = [c for c in CASES if c.cli]


@pytest.fixture
def no_model_load(monkeypatch, minilm):
    """`train` loads the model before its data: hand it a copy of the session model instead of re-loading."""
    monkeypatch.setattr("idiomkit.training.setup.load_model", lambda *a, **k: copy.deepcopy(minilm))


@pytest.mark.parametrize("case", CLI_CASES, ids=[c.id for c in CLI_CASES])
def test_cli_one_line_exit_2(case, tmp_path, no_model_load):
    root = case.build(tmp_path)
    result = runner.invoke(app, case.cli(root))
    assert_one_line_error(result, expected_location(case), case.problem)


def test_permission_denied_output_is_one_line(tmp_path, monkeypatch, minilm):
    import tempfile

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied", kwargs.get("dir"))

    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: minilm)
    monkeypatch.setattr(tempfile, "mkstemp", denied)
    result = runner.invoke(app, ["embed", "he died", "-o", str(tmp_path / "emb.npy")])
    assert_one_line_error(result, "output directory is not writable (", "Permission denied")
    assert not (tmp_path / "emb.npy").exists()


def garbage_model(root: Path, weights: bytes) -> Path:
    """A copy of minilm's small files with ``weights`` as its model.safetensors."""
    import shutil

    from idiomkit.models import model_path

    source, target = Path(model_path("minilm")), root / "broken-model"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.safetensors", "*.bin", "*.onnx"))
    (target / "model.safetensors").write_bytes(weights)
    return target


@pytest.mark.parametrize(
    "weights", [b"garbage!", b"\x10\x00\x00\x00\x00\x00\x00\x00{}" + b"\x00" * 6], ids=["garbage", "truncated"]
)
@pytest.mark.parametrize("verb", ["evaluate", "embed", "mteb"])
def test_corrupt_safetensors_is_one_line_naming_the_file(verb, weights, tmp_path, tiny_data):
    model = garbage_model(tmp_path, weights)
    args = {
        "evaluate": ["evaluate", "semeval2b", "-m", str(model), "--no-write", "--data-dir", str(tiny_data)],
        "embed": ["embed", "he died", "-m", str(model)],
        "mteb": ["mteb", "-m", str(model), "--data-dir", str(tiny_data)],
    }[verb]
    result = runner.invoke(app, args)
    assert_one_line_error(result, "broken-model/model.safetensors: corrupt or truncated model weights (")


def test_corrupt_safetensors_from_the_api_is_a_typed_one_line_error(tmp_path):
    from idiomkit.api import embed
    from idiomkit.errors import IdiomkitError

    model = garbage_model(tmp_path, b"garbage!")
    with pytest.raises(IdiomkitError, match="model.safetensors: corrupt or truncated model weights") as info:
        embed(["he died"], str(model))
    assert "\n" not in str(info.value) and type(info.value.__cause__).__name__ == "SafetensorError"


def test_disk_full_during_embed_output_is_one_line_and_writes_nothing(tmp_path, monkeypatch, minilm):
    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: minilm)
    monkeypatch.setattr("idiomkit.results.os.fsync", no_space)
    result = runner.invoke(app, ["embed", "he died", "-o", str(tmp_path / "emb.npy")])
    assert_one_line_error(result, "emb.npy: no space left on device")
    assert list(tmp_path.iterdir()) == []


def test_unknown_prompt_name_is_refused_before_encoding(tmp_path, monkeypatch, minilm):
    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: minilm)
    monkeypatch.setattr("idiomkit.api.encode_texts", lambda *a, **k: pytest.fail("encoded"))
    result = runner.invoke(app, ["embed", "he died", "--prompt-name", "passage-x"])
    assert_one_line_error(result, "unknown prompt name 'passage-x' (this model's prompts: ")
