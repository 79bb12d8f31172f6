"""The repository stays light: no tracked file over 2 MB, run files gzipped, no logs in git."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 2_000_000  # bytes


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in out.stdout.decode("utf-8").split("\0") if name]


def test_no_tracked_file_over_2_mb():
    too_big = [name for name in tracked_files() if (ROOT / name).is_file() and (ROOT / name).stat().st_size > LIMIT]
    assert too_big == []


def test_run_files_are_gzipped_and_no_logs_are_tracked():
    tracked = tracked_files()
    assert [name for name in tracked if name.endswith(".run.trec")] == []
    assert [name for name in tracked if name.endswith(".log") or name.startswith("benchmarks/runs/")] == []
