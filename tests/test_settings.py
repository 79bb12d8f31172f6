"""Locations come from a flag, then the environment, then a documented default; `idiomkit settings` shows them."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.config import default_cache_dir, default_data_dir, default_results_dir, settings
from idiomkit.models.registry import cache_dir


def test_flag_beats_environment_beats_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("IDIOMKIT_DATA_DIR", "IDIOMKIT_RESULTS_DIR", "IDIOMKIT_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    data, results, cache = settings()
    assert (data.path, data.source) == ((tmp_path / ".." / "shared" / "data").resolve(), "default")
    assert (results.path, results.source) == (Path("benchmarks/results"), "default")
    assert cache.path == Path.home() / ".cache" / "idiomkit"

    monkeypatch.setenv("IDIOMKIT_DATA_DIR", "/env/data")
    monkeypatch.setenv("IDIOMKIT_RESULTS_DIR", "/env/results")
    monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
    assert default_data_dir() == Path("/env/data") and default_results_dir() == Path("/env/results")
    assert default_cache_dir() == Path("/xdg/idiomkit") == cache_dir()
    monkeypatch.setenv("IDIOMKIT_CACHE", "/env/cache")
    assert cache_dir() == Path("/env/cache")

    data, results, _ = settings(data_dir="/flag/data", results_dir="/flag/results")
    assert (data.path, data.source) == (Path("/flag/data"), "flag")
    assert (results.path, results.source) == (Path("/flag/results"), "flag")


def test_settings_command_names_each_source(tmp_path, monkeypatch):
    monkeypatch.setenv("IDIOMKIT_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["settings", "--results-dir", str(tmp_path / "nope")], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    data_row = next(line for line in lines if "data directory" in line)
    results_row = next(line for line in lines if "results directory" in line)
    assert str(tmp_path) in data_row and "env IDIOMKIT_DATA_DIR" in data_row and "yes" in data_row
    assert "flag" in results_row and "no" in results_row
