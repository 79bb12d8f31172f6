"""The repository stays light: no tracked file over 2 MB, run files gzipped, no logs in git."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 2_000_000  # bytes

# Plain IdioLink run files still tracked from before the redesign (issue #30). A stop may submit at most 256 MiB of
# diffs and deleting a file counts its whole text, so they are gzipped a batch per session; this list only shrinks.
LEGACY_PLAIN_RUN_FILES = frozenset(
    "benchmarks/results/idiolink-test/" + name
    for name in (
        "minilm__pairs-triplet-id__1ep-sentence__seed0.run.trec",
        "minilm__pairs-triplet-id__1ep-span__seed0.run.trec",
        "mpnet__zero-shot__sentence-span__seed0.run.trec",
        "mpnet__zero-shot__sentence__seed0.run.trec",
        "mpnet__zero-shot__span-usage__seed0.run.trec",
        "mpnet__zero-shot__span__seed0.run.trec",
    )
)


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in out.stdout.decode("utf-8").split("\0") if name]


def test_no_tracked_file_over_2_mb_but_the_listed_legacy_run_files():
    too_big = [name for name in tracked_files() if (ROOT / name).is_file() and (ROOT / name).stat().st_size > LIMIT]
    assert sorted(set(too_big) - LEGACY_PLAIN_RUN_FILES) == []


def test_legacy_list_names_only_plain_run_files_that_are_still_tracked():
    tracked = set(tracked_files())
    assert all(name.endswith(".run.trec") for name in LEGACY_PLAIN_RUN_FILES)
    assert tracked >= LEGACY_PLAIN_RUN_FILES  # a gzipped file leaves the list in the same commit


def test_new_run_files_are_gzipped_and_no_logs_are_tracked():
    tracked = tracked_files()
    plain_runs = {name for name in tracked if name.endswith(".run.trec")}
    assert plain_runs <= LEGACY_PLAIN_RUN_FILES
    assert [name for name in tracked if name.endswith(".log") or name.startswith("benchmarks/runs/")] == []
