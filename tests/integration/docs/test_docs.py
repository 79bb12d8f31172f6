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
    for page in ("docs/quickstart.md", "docs/architecture.md", "docs/results/index.md", "docs/notes/index.md"):
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


def nav_pages() -> list[str]:
    """The navigation's pages in order (``mkdocs.yml``), sections flattened."""
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def flat(items) -> list[str]:
        out = []
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            out += flat(value) if isinstance(value, list) else [value]
        return out

    return flat(config["nav"])


def test_user_pages_come_first_and_the_notebook_is_one_entry_at_the_end():
    pages = nav_pages()
    assert pages[-1] == "notes/index.md"
    assert [p for p in pages if p.startswith("notes/")] == ["notes/index.md"]
    first_result = pages.index("results/index.md")
    assert all(not p.startswith(("results/", "notes/")) for p in pages[:first_result])
    assert {"scorecard.md", "architecture.md", "api.md"} <= set(pages[:first_result])


def test_the_home_page_lists_every_user_page():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    user_pages = [p for p in nav_pages() if p != "index.md" and not p.startswith(("results/", "notes/"))]
    assert [p for p in user_pages if f"]({p})" not in index] == []
    assert "](results/index.md)" in index and "](notes/index.md)" in index


def test_every_notebook_page_is_linked_from_the_notebook_index():
    notes = ROOT / "docs" / "notes"
    index = (notes / "index.md").read_text(encoding="utf-8")
    pages = sorted(p.name for p in notes.glob("*.md") if p.name != "index.md")
    assert [p for p in pages if f"]({p})" not in index] == []


def test_the_readme_layout_names_every_package():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    package = ROOT / "src" / "idiomkit"
    packages = sorted(p.name for p in package.iterdir() if (p / "__init__.py").is_file())
    assert len(packages) > 10
    assert [p for p in packages if f"`{p}/`" not in layout and f"`src/idiomkit/{p}/`" not in layout] == []


def test_the_api_page_covers_the_public_names():
    import idiomkit
    import idiomkit.losses

    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    public = [*idiomkit.__all__, "IdiomReader", "Task", "TaskMetadata", "TASKS"]
    public += [name for name in idiomkit.losses.__all__ if name.endswith("Loss")]
    assert [name for name in public if name not in api] == []


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
    summary = json.loads((ROOT / "benchmarks" / "lexicon" / "lexicon_judged.json").read_text(encoding="utf-8"))[
        "summary"
    ]
    assert [f"{summary[lang]['rate']:.2f}"[1:] for lang in ("EN", "PT")] == [f".{n}" for n in found.groups()]
