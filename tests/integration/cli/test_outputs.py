"""Outputs you can trust: predictions before the result JSON (each atomic), a lock against concurrent writers of one
result, ``embed -o`` atomic and exact about its path, and the one error boundary of the CLI and the API.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/test_outputs.py.
"""

from __future__ import annotations

import errno

import numpy as np
import pytest
from helpers import runner
from helpers.bad_inputs import assert_one_line_error

from idiomkit import results
from idiomkit.cli import app


@pytest.fixture
def session_model(monkeypatch, minilm):
    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: minilm)


@pytest.mark.parametrize("name", ["emb.npy", "emb", "emb.vectors"])
def test_embed_writes_exactly_the_path_it_prints(tmp_path, session_model, name):
    out = tmp_path / "sub" / name
    result = runner.invoke(app, ["embed", "he died", "he kicked the bucket", "-o", str(out)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert f"-> {out}" in " ".join(
        result.output.split()
    )  # COLUMNS: a long tmp path (a pytest-xdist worker's) unwrapped
    assert sorted(p.name for p in out.parent.iterdir()) == [name]  # no extra .npy, no temp file left
    assert np.load(out).shape == (2, 384)


def test_embed_failure_keeps_the_previous_file(tmp_path, session_model, monkeypatch):
    out = tmp_path / "emb.npy"
    np.save(out, np.zeros((1, 3)))
    monkeypatch.setattr(results.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
    assert_one_line_error(runner.invoke(app, ["embed", "he died", "-o", str(out)]), "emb.npy: no space left on device")
    assert np.load(out).shape == (1, 3) and [p.name for p in tmp_path.iterdir()] == ["emb.npy"]
