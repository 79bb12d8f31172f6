"""The ``idiomkit`` command line (typer + rich). Bad input -> one red line and exit code 2, no traceback; a bug
keeps its traceback (:func:`idiomkit.cli.common.user_errors`). One module per group of commands:

- :mod:`~idiomkit.cli.texts`: ``embed``, ``read``, ``nearest``;
- :mod:`~idiomkit.cli.evaluation`: ``evaluate``, ``run``, ``score``, ``compare``, ``mteb``, ``report``;
- :mod:`~idiomkit.cli.training`: ``train``, ``interpolate``, ``center``;
- :mod:`~idiomkit.cli.reproduction`: ``reproduce``;
- :mod:`~idiomkit.cli.models`: ``models``, ``settings``, ``export-onnx``."""

from __future__ import annotations

import typer
from rich.markup import escape
from typer.exceptions import TyperException  # typer's click exceptions (UsageError, ...) derive from it

from idiomkit.cli import evaluation, models, reproduction, texts, training  # noqa: F401  (registers the commands)
from idiomkit.cli.common import app, err_console

__all__ = ["app", "main"]


def main() -> None:
    """The ``idiomkit`` console entry point: like ``app()``, but a usage error (bad option value, unknown option,
    missing argument) is one line and exit code 2 too, not click's usage banner and boxed panel."""
    try:
        code = app(standalone_mode=False)
    except typer.Abort:
        err_console.print("aborted")
        raise SystemExit(1) from None
    except TyperException as exc:
        if not hasattr(exc, "format_message"):
            raise
        err_console.print(
            f"[bold red]error:[/] {escape(' '.join(exc.format_message().split()))}", highlight=False, soft_wrap=True
        )
        raise SystemExit(getattr(exc, "exit_code", 2)) from None
    raise SystemExit(code if isinstance(code, int) else 0)
