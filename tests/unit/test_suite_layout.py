"""The test suite's layout: every test file in tests/unit (mirroring src/idiomkit) or tests/integration (by area),
and every integration test carries the ``integration`` marker (set by the hook in tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from helpers import ROOT

TESTS = ROOT / "tests"
PACKAGE = ROOT / "src" / "idiomkit"


def test_every_test_file_is_in_unit_or_integration():
    files = sorted(p.relative_to(TESTS) for p in TESTS.rglob("test_*.py") if "__pycache__" not in p.parts)
    assert len(files) > 40
    assert [f for f in files if f.parts[0] not in {"unit", "integration"}] == []
    top = {p.name for p in TESTS.iterdir() if p.name != "__pycache__"}
    assert top == {"conftest.py", "helpers", "unit", "integration"}


def test_pytest_collects_only_test_files():
    """pytest's default pattern also collects ``*_test.py``: a package module such as ``report/core_test.py`` would be
    collected as a test file. The configuration names ``test_*.py`` alone."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert config["python_files"] == ["test_*.py"]


def test_unit_folders_mirror_the_package():
    folders = {p.relative_to(TESTS / "unit") for p in (TESTS / "unit").rglob("*") if p.is_dir()} - {Path("__pycache__")}
    folders = {f for f in folders if "__pycache__" not in f.parts}
    assert folders and [f for f in folders if not (PACKAGE / f / "__init__.py").is_file()] == []


def test_integration_tests_are_grouped_by_area():
    loose = [p.name for p in (TESTS / "integration").glob("test_*.py")]
    assert loose == []


def test_the_integration_marker_is_registered():
    config = subprocess.run([sys.executable, "-m", "pytest", "--markers"], capture_output=True, text=True, cwd=ROOT)
    assert "@pytest.mark.integration: uses the real benchmark data" in config.stdout


def test_collected_integration_tests_carry_the_marker_and_unit_tests_do_not(request):
    """Checks this session's own items (all 135+ integration tests when the whole suite runs)."""
    for item in request.session.items:
        marked = item.get_closest_marker("integration") is not None
        assert marked == (TESTS / "integration" in item.path.parents), item.nodeid


def test_the_conftest_hook_marks_exactly_the_integration_folder(tmp_path):
    """A throw-away tree with the real conftest.py: ``-m integration`` selects only the test under integration/."""
    (tmp_path / "conftest.py").write_text((TESTS / "conftest.py").read_text())
    for folder in ("unit", "integration"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"test_{folder}_side.py").write_text("def test_one():\n    pass\n")
    env = os.environ | {"PYTHONPATH": str(TESTS)}
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "--collect-only",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(tmp_path),
        "-c",
        os.devnull,
        "-m",
        "integration",
        str(tmp_path),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "integration/test_integration_side.py::test_one" in out.stdout
    assert "test_unit_side" not in out.stdout
    assert "1/2 tests collected (1 deselected)" in out.stdout
