"""Corrupt model weights, as every command that loads a model meets them: one line naming the weights file."""

from __future__ import annotations

from helpers import runner
from helpers.bad_inputs import assert_one_line_error

from idiomkit.cli import app


def test_corrupt_weights_name_their_file_in_every_loading_command(tmp_path, tiny_data, minilm):
    """A module's truncated model.safetensors, one folder down: one line naming that file (embed and train -m)."""
    folder = tmp_path / "corrupt"
    minilm.save(str(folder))
    (weights,) = [*folder.glob("model.safetensors"), *folder.glob("*/model.safetensors")]
    weights.write_bytes(weights.read_bytes()[:1000])
    for args in (
        ["embed", "-m", str(folder), "a sentence"],
        [
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
            "--data-dir",
            str(tiny_data),
        ],
    ):
        assert_one_line_error(runner.invoke(app, args), f"{weights}: corrupt or truncated model weights (")
