"""What every ``idiomkit`` command shares: the typer app and its global options, the consoles, the common
options (``--data-dir``, ``--results-dir``), table printing, and the error boundary (:func:`user_errors`)."""

from __future__ import annotations

import functools
import logging
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

os.environ.setdefault("HF_HUB_OFFLINE", "1") if os.environ.get("IDIOMKIT_ONLINE") != "1" else None

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode="markdown",  # help texts reflow, and "[start, end]" is text, not a rich style tag
    help="Train and measure idiom-aware sentence embeddings.",
)
console = Console()
err_console = Console(stderr=True)

DataDir = Annotated[Path | None, typer.Option("--data-dir", help="Benchmark data root (default ../shared/data).")]
ResultsDir = Annotated[
    Path | None, typer.Option("--results-dir", help="Where result JSONs go (default benchmarks/results).")
]


def user_errors(func):
    """The CLI's error boundary: a failure of input, environment or disk (:func:`idiomkit.errors.user_error_message`:
    idiomkit's typed errors -- DataError, OptionError, InputError, ModelNotAvailable... --, the OSError family,
    csv/JSON/UTF-8/safetensors errors) is one line on stderr and exit code 2; anything else (a bug: a bare KeyError,
    TypeError, AttributeError, a plain ValueError...) keeps its traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from idiomkit.errors import user_error_message

        try:
            return func(*args, **kwargs)
        except Exception as exc:
            message = user_error_message(exc)
            if message is None:
                raise
            text = escape(message + missing_data_dir_hint(message))  # "[start, end]" in a message is not markup
            err_console.print(f"[bold red]error:[/] {text}", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper


def missing_data_dir_hint(message: str) -> str:
    """A hint for an error about a file under the data directory in force (environment or default) when that
    directory does not exist: where it was looked for, and how to give another."""
    from idiomkit.settings import settings

    try:
        data = settings()[0]
    except Exception:  # noqa: BLE001 - a hint never hides the error it adds to (the settings may be what failed)
        return ""
    if data.path.exists() or str(data.path) not in message:
        return ""
    return f" (the data directory {data.path}, {data.source}, does not exist: give --data-dir or set IDIOMKIT_DATA_DIR)"


def print_options(owner: str, options: type) -> None:
    """``--help-options``: the flags generated from a task's or method's options dataclass, one per line."""
    from idiomkit.options import describe_options

    console.print(f"{owner} options:", highlight=False)
    for line in describe_options(options):
        console.print("  " + escape(line), highlight=False, soft_wrap=True)


def print_table(rows: list[list[str]], title: str | None = None) -> None:
    table = Table(title=title)
    for col in rows[0]:
        table.add_column(col)
    for row in rows[1:]:
        table.add_row(*row)
    console.print(table)


@app.callback()
def global_options(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log progress details.")] = False,
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    if not verbose:
        quiet_transformers()


def quiet_transformers() -> None:
    """transformers' warnings and progress bars off: through the environment variables it reads when first imported
    (importing it here would cost every verb a second), or directly when something imported it already."""
    if "transformers" in sys.modules:
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
        return
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


DOCS_RESULTS = Path("docs/results")  # where `idiomkit report` writes the results pages


def publish_report(source: Path, output: Path, data_dir: Path, readme: Path | None = None) -> None:
    """Write the results pages of ``source`` into ``output`` (the benchmarks' gold in ``data_dir`` gives the 2B, 2A
    and IdioLink columns their paired intervals) and refresh ``readme``'s marked tables: by default README.md when
    the pages go to :data:`DOCS_RESULTS`. What `idiomkit report` and `idiomkit reproduce` both end with, so that
    the two write the same pages."""
    from idiomkit.report import update_readme, write_report

    console.print(f"wrote {write_report(source, output, data_dir=data_dir)}")
    readme = readme or (Path("README.md") if output == DOCS_RESULTS else None)
    if readme and readme.is_file():
        changed = update_readme(readme, source)
        console.print(f"{'updated' if changed else 'left as is (already current, or no tables)'}: {readme}")
