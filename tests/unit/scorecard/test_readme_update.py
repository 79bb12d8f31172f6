"""`idiomkit report` rewrites the README's generated tables only when they changed."""

from __future__ import annotations

from idiomkit.report import README_MARKERS, update_readme
from idiomkit.report.scorecard import SCORECARD_MARKERS


def test_update_readme_writes_stale_tables_once_and_leaves_current_ones(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    readme = tmp_path / "README.md"
    stale = "# t\n{}\nold scorecard\n{}\ntext\n{}\nold table\n{}\nend\n".format(*SCORECARD_MARKERS, *README_MARKERS)
    readme.write_text(stale, encoding="utf-8")
    assert update_readme(readme, results) is True
    first = readme.read_text(encoding="utf-8")
    assert "old scorecard" not in first and "old table" not in first
    assert first.startswith("# t\n") and first.endswith("end\n") and "\ntext\n" in first
    assert update_readme(readme, results) is False  # already current: nothing written
    assert readme.read_text(encoding="utf-8") == first


def test_update_readme_without_markers_writes_nothing(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# no tables\n", encoding="utf-8")
    assert update_readme(readme, tmp_path) is False
    assert readme.read_text(encoding="utf-8") == "# no tables\n"
