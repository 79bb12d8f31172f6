"""Locations come from a flag, then the environment, then a documented default; `idiomkit settings` shows them."""

from __future__ import annotations

from rich.console import Console
from typer.testing import CliRunner

from idiomkit.cli import app, common


def test_settings_command_names_each_source(tmp_path, monkeypatch):
    monkeypatch.setenv("IDIOMKIT_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(common, "console", Console(width=400))  # a long tmp path (an xdist worker's) kept whole
    result = CliRunner().invoke(app, ["settings", "--results-dir", str(tmp_path / "nope")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    data_row = next(line for line in lines if "data directory" in line)
    results_row = next(line for line in lines if "results directory" in line)
    assert str(tmp_path) in data_row and "env IDIOMKIT_DATA_DIR" in data_row and "yes" in data_row
    assert "flag" in results_row and "no" in results_row
