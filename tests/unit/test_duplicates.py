"""src/ says each thing once: every pair of places ``duplicates`` reports there is a declaration of the same shape
listed in ``duplicates_allowed.txt`` (TaskMetadata blocks, option fields, keyword signatures), never logic written
twice. ``duplicates`` is a developer tool outside the project: where it is not installed the check is skipped."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from helpers import ROOT

ALLOWED = Path(__file__).with_name("duplicates_allowed.txt")
ROW = re.compile(r"^D\d+ (\S+?):\d+-\d+ ~ (\S+?):\d+-\d+")


def file_pair(first: str, second: str) -> str:
    return " ~ ".join(sorted((first, second)))


def reported_pairs(output: str) -> Counter:
    """``a ~ b`` (sorted files) for each row of ``duplicates`` output."""
    return Counter(file_pair(*m.groups()) for line in output.splitlines() if (m := ROW.match(line)))


def allowed_pairs(text: str) -> Counter:
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    return Counter(file_pair(*(part.strip() for part in line.split(" ~ "))) for line in lines if line)


def test_the_allowed_list_reads_as_pairs_of_files_under_src():
    allowed = allowed_pairs(ALLOWED.read_text(encoding="utf-8"))
    assert allowed and all(count == 1 for count in allowed.values())
    for pair in allowed:
        assert all((ROOT / "src" / path).is_file() for path in pair.split(" ~ ")), pair


def test_reported_rows_become_sorted_file_pairs():
    output = "2 pairs\nD1 b.py:1-9 ~ a.py:3-11 shape\nD2 a.py:5-10 ~ b.py:20-25 (+1 more run)\n(+3 more pairs)\n"
    assert reported_pairs(output) == Counter({"a.py ~ b.py": 2})


def test_every_pair_duplicates_reports_in_src_is_an_allowed_declaration():
    command = shutil.which("duplicates")
    if command is None:
        pytest.skip("the duplicates command is not installed here")
    out = subprocess.run(
        [command, "--repo", str(ROOT / "src"), "--most", "200", "--seconds", "300"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "incomplete:" not in out and "more pairs)" not in out, out
    unlisted = reported_pairs(out) - allowed_pairs(ALLOWED.read_text(encoding="utf-8"))
    assert not unlisted, "pairs of places that repeat each other (make them one, or list a declaration):\n" + out
