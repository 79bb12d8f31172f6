"""Locations come from a flag, then the environment, then a documented default; `idiomkit settings` shows them.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/test_settings.py.
"""

from __future__ import annotations

from pathlib import Path

from idiomkit.models.registry import cache_dir
from idiomkit.settings import default_cache_dir, default_data_dir, default_results_dir, settings


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
