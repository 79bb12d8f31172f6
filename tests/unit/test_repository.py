"""The repository stays light (no tracked file over 2 MB, run files gzipped, no logs in git) and speaks of itself
only (no work-period names, no build-machine paths, no issue numbers in src/)."""

from __future__ import annotations

import re
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


# The project speaks of itself only: no work period by its number, no build machine's absolute path, and no issue
# number in src/. The patterns and examples are spelled in pieces, so that `git grep` finds nothing in this file too.
WORK_PERIOD = "sess" + "ion ?[0-9]+"
MACHINE_PATH = "|".join(("/" + "work/", "/" + "tmp/pytest", "/" + "root/"))
ISSUE_NUMBER = "#[0-9]{2}\\b|issue #?[0-9]+"
CORPUS_TEXT = (":!*.tsv", ":!*.csv", ":!*.gz")  # sentences of the benchmarks' corpora, not the project's words


def git_grep(pattern: str, *pathspec: str, ignore_case: bool = False) -> list[str]:
    tracked_files()  # skips outside a git checkout
    flags = ["-n", "-I", "-E"] + (["-i"] if ignore_case else [])
    out = subprocess.run(["git", "grep", *flags, pattern, "--", *pathspec], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr  # 1: no match
    return out.stdout.splitlines()


def test_no_work_period_names_in_the_tree():
    assert git_grep(WORK_PERIOD, ".", *CORPUS_TEXT, ignore_case=True) == []


def test_no_build_machine_paths_in_the_tree():
    assert git_grep(MACHINE_PATH, ".", *CORPUS_TEXT) == []


def test_no_issue_numbers_in_src():
    assert git_grep(ISSUE_NUMBER, "src/", ignore_case=True) == []


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [
        (WORK_PERIOD, "the runs of Sess" + "ion 57 ended", True),
        (WORK_PERIOD, "jobs-sess" + "ion25.txt", True),
        (WORK_PERIOD, "an ONNX InferenceSession and a session fixture", False),
        (MACHINE_PATH, "code in /" + "work/run18", True),
        (MACHINE_PATH, "../run18 and /tmp/other", False),
        (ISSUE_NUMBER, "# before #44", True),
        (ISSUE_NUMBER, "(issue #8)", True),
        (ISSUE_NUMBER, "key#2 and # 10 items", False),
    ],
)
def test_the_patterns_find_what_they_mean(pattern, text, found):
    assert bool(re.search(pattern, text, re.IGNORECASE)) is found


# benchmarks/ is laid out like the package: scripts by concern, each output beside its script (benchmarks/README.md)
BENCHMARK_FOLDERS = {"experiments", "results", "speed", "lexicon", "sense", "checks", "analysis"}


def test_benchmarks_top_level_holds_only_the_readme_and_its_folders():
    top = {name.split("/")[1] for name in tracked_files() if name.startswith("benchmarks/")}
    assert top == BENCHMARK_FOLDERS | {"README.md"}
    files = {name.split("/")[1] for name in tracked_files() if name.count("/") == 1 and name.startswith("benchmarks/")}
    assert files == {"README.md"}


def test_benchmarks_readme_maps_every_folder_and_script():
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    assert [folder for folder in sorted(BENCHMARK_FOLDERS) if f"`{folder}/`" not in readme] == []
    scripts = [name for name in tracked_files() if name.startswith("benchmarks/") and name.endswith(".py")]
    assert [name for name in scripts if f"`{name.rsplit('/', 1)[1]}`" not in readme] == []
