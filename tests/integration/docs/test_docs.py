"""The documentation site builds without a warning (broken links, missing pages, bad API references)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def test_mkdocs_build_strict(tmp_path):
    pytest.importorskip("mkdocs", reason="install the 'docs' extra")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert (tmp_path / "site" / "results" / "index.html").exists()
    assert "load_model" in (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")


def test_readme_is_short_and_links_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 160
    for page in ("docs/quickstart.md", "docs/results/index.md", "docs/notes/index.md"):
        assert page in readme and (ROOT / page).exists()


def test_readme_results_table_is_the_generated_one():
    from idiomkit.report import README_MARKERS, readme_table

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split(README_MARKERS[0], 1)[1].split(README_MARKERS[1], 1)[0]
    assert block.strip("\n") == readme_table(ROOT / "benchmarks/results")
    assert block.count("\n| ") >= 3  # a header, a rule and at least one configuration


def test_readme_scorecard_is_the_generated_plain_track():
    from idiomkit.report import SCORECARD_MARKERS
    from idiomkit.report.pages import readme_scorecard
    from idiomkit.results import load_results

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split(SCORECARD_MARKERS[0], 1)[1].split(SCORECARD_MARKERS[1], 1)[0]
    assert block.strip("\n") == readme_scorecard(load_results(ROOT / "benchmarks/results"))
    assert "| † |" not in block  # rows on the earlier core test stay on the results pages
    assert readme.index(SCORECARD_MARKERS[0]) < readme.index("<!-- results-table:start")
    assert "**Plain track**" in block and "**Marked track**" not in block  # the marked track: the results pages


def test_readme_lexicon_counts_are_the_shipped_lexicons():
    import re

    from idiomkit.idioms.sources import default_lexicon

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"its lexicon knows \(([\d,]+) EN, ([\d,]+) PT", readme)
    assert found, "the README states the lexicon's size"
    lex = default_lexicon()
    assert [int(n.replace(",", "")) for n in found.groups()] == [len(lex.entries("EN")), len(lex.entries("PT"))]


def test_readme_judged_lexicon_rates_are_the_recorded_ones():
    import json
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"judged by hand, \.(\d+) / \.(\d+) are idioms", readme)
    assert found, "the README states the judged sample's rates"
    summary = json.loads((ROOT / "benchmarks" / "lexicon_judged.json").read_text(encoding="utf-8"))["summary"]
    assert [f"{summary[lang]['rate']:.2f}"[1:] for lang in ("EN", "PT")] == [f".{n}" for n in found.groups()]
