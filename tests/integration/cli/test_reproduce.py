"""`idiomkit reproduce`: experiment files, the commands they become, skip-when-unchanged, the generated report.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/test_reproduce.py.
"""

from helpers import ROOT, runner

from idiomkit.cli import app


def test_unknown_only_is_one_line_error(tmp_path):
    result = runner.invoke(
        app, ["reproduce", "--dry-run", "--only", "nope", "--experiments", str(ROOT / "benchmarks/experiments")]
    )
    assert result.exit_code == 2 and "--only nope" in result.output
