"""The command line starts fast and prints tables that fit a plain terminal."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.models import REGISTRY

HEAVY = ("torch", "sentence_transformers", "transformers")


def test_cli_import_leaves_heavy_libraries_unloaded():
    """``idiomkit --help`` must not pay for torch / sentence-transformers (lazy package attributes)."""
    code = f"import sys, idiomkit, idiomkit.cli; print(' '.join(m for m in {HEAVY} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_experiment_schema_import_leaves_heavy_libraries_unloaded():
    """``idiomkit.reproduce.schema`` derives the ``[evaluate]`` table from the tasks (torch) at first use only."""
    code = (
        "import sys, idiomkit.reproduce.schema as schema; "
        f"print(' '.join(m for m in {HEAVY} if m in sys.modules)); "
        "assert 'query_mode' in dict(schema.TASK_OPTIONS) and schema.RUN_TYPES['evaluate'] is schema.EvaluateRun"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_models_verb_lists_the_registry_without_heavy_libraries():
    """``idiomkit models`` reads the registry only (it used to import the API and so sentence-transformers)."""
    code = (
        "import sys; from typer.testing import CliRunner; from idiomkit.cli import app; "
        "r = CliRunner().invoke(app, ['models', '--json']); assert r.exit_code == 0, r.output; "
        "assert '\"minilm\"' in r.output; "
        f"print('heavy:', *[m for m in {HEAVY} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "heavy:"


def test_lazy_public_names_resolve():
    import idiomkit

    assert callable(idiomkit.embed) and callable(idiomkit.load_model)
    assert issubclass(idiomkit.DataError, Exception)
    assert "DataError" in vars(idiomkit)  # kept: later lookups skip the hook


def test_lazy_packages_list_their_names_and_refuse_unknown_ones():
    import idiomkit
    import idiomkit.training

    for package, name in ((idiomkit, "evaluate_all"), (idiomkit.training, "TrainConfig")):
        assert name in dir(package) and name in package.__all__
        with pytest.raises(AttributeError, match=f"module '{package.__name__}' has no attribute 'nope'"):
            package.nope  # noqa: B018


def test_models_table_fits_80_columns():
    result = CliRunner().invoke(app, ["models"], env={"COLUMNS": "80"}, terminal_width=80)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    table = [line for line in lines if line[:1] in "┏┃┡│└"]
    assert table and all(len(line) <= 80 for line in table)
    names = {line.split("│")[1].strip() for line in table if line.startswith("│")}
    assert set(REGISTRY) <= names  # every registry name printed whole, not cut with an ellipsis


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "--epochs", "0"], "Invalid value for '--epochs'"),
        (["train", "--no-such-flag"], "No such option: --no-such-flag"),
        (["evaluate"], "Missing argument 'task'"),
        (["no-such-verb"], "No such command 'no-such-verb'"),
        (["interpolate", "r", "-o", "o", "--alphas", "5,-2"], "--alphas"),
        (["center", "r", "-o", "o", "--sentences", "0"], "--sentences"),
        (["train", "--recipe", "bogus"], "unknown recipe 'bogus' (expected one of adaptive-triplet, "),  # > 80 columns
    ],
)
def test_console_entry_point_gives_usage_errors_in_one_line(argv, message):
    """The installed ``idiomkit`` (cli.main) turns click's usage banner + boxed panel into one line, exit 2."""
    out = subprocess.run([sys.executable, "-m", "idiomkit.cli", *argv], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_help_shows_bracketed_text_and_plain_code():
    """Help texts are markdown, not rich markup: "[start, end]" stays (rich took it for a style tag and printed
    nothing), ``--help-options`` loses its backticks, and a docstring's line breaks reflow."""
    runner = CliRunner()

    def shown(args: list[str]) -> str:  # the help's words, the panels' borders taken out
        return " ".join(runner.invoke(app, args).output.replace("│", " ").split())

    assert "optional 'span' [start, end]" in shown(["embed", "--help"])
    top = shown(["--help"])
    assert "The task's own options follow (--help-options lists them)" in top and "``" not in top


def test_no_public_name_is_also_a_subpackage():
    """A lazy export named like a subpackage is shadowed once the subpackage is imported: ``idiomkit.models`` was the
    registry function until anything imported ``idiomkit.models`` (``load_model`` does), then the package."""
    import importlib.util

    import idiomkit

    clashes = [name for name in idiomkit.__all__ if importlib.util.find_spec(f"idiomkit.{name}") is not None]
    assert clashes == []
    assert idiomkit.load_model and callable(idiomkit.list_models)  # load_model imports the models package first
    assert {"name", "installed"} <= set(idiomkit.list_models()[0])


def test_evaluate_names_every_registered_task():
    from idiomkit.cli.evaluation import TASK_NAMES
    from idiomkit.tasks import TASKS

    assert tuple(TASKS) == TASK_NAMES
