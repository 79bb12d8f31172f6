"""ONNX / dynamic int8 export: same encode API, last2 and span pooling preserved, one-line errors."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from idiomkit.cli import app  # noqa: E402
from idiomkit.models import ModelNotAvailable  # noqa: E402
from idiomkit.models.onnx_backend import load_onnx_model  # noqa: E402

pytest.importorskip("onnxruntime", reason="the onnx extra installs onnxruntime")


def test_missing_export_and_bad_backend_are_one_line_errors(tmp_path):
    with pytest.raises(ModelNotAvailable, match="no ONNX export here"):
        load_onnx_model(tmp_path, "onnx")
    with pytest.raises(ValueError, match="unknown backend 'tensorrt'"):
        load_onnx_model(tmp_path, "tensorrt")
    result = CliRunner().invoke(app, ["export-onnx", "no-such-model", "-o", str(tmp_path / "x")])
    assert result.exit_code == 2 and "unknown model 'no-such-model'" in result.output
    assert len(result.output.strip().splitlines()) == 1
