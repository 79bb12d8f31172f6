"""One error boundary for the CLI and the API: a failure of input, environment or disk is one line naming the file.

:func:`user_error_message` maps an exception to that line (``None`` for anything else: a bug keeps its traceback).
The boundary is narrow: bad input is raised as a typed error (:class:`OptionError` for an option out of range or
not among its choices, ``idiomkit.data.errors.DataError`` for a bad data file or row, :class:`InputError` for other
bad input to an API call); a plain ``ValueError`` (``TypeError``, ``KeyError``...) is a bug and keeps its traceback.
The typed errors subclass ``ValueError``, so callers that catch ``ValueError`` keep working.
The CLI prints it and exits 2 (``idiomkit.cli.common.user_errors``); the API's entry points re-raise it as an
:class:`IdiomkitError` (:func:`api_errors`), the original exception chained as ``__cause__``.
"""

from __future__ import annotations

import csv
import errno
import functools
import json
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar


class IdiomkitError(Exception):
    """Base of idiomkit's user-facing errors: ``str(err)`` is one line, fit to print as-is."""


class OptionError(IdiomkitError, ValueError):
    """An option out of range, not among its choices or not taken by the task; refused before any compute."""


class InputError(IdiomkitError, ValueError):
    """Bad input met inside an API entry point (the library's own exception is the ``__cause__``)."""


class UnknownName(OptionError, KeyError):
    """A task, method, block or other registry name that is not registered (a ``KeyError`` too, for callers that
    look names up; a bare ``KeyError`` is a bug and keeps its traceback)."""

    def __str__(self) -> str:  # the message as given, not KeyError's quoted repr
        return str(self.args[0]) if self.args else "unknown name"


class FileSystemError(IdiomkitError, OSError):
    """A file or directory that cannot be read or written (missing, not a directory, read-only, disk full)."""


class OutputClash(IdiomkitError):
    """Another process is writing the same output right now."""


OS_PROBLEMS = {
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EACCES: "permission denied (not writable or not readable)",
    errno.EPERM: "operation not permitted",
    errno.EROFS: "read-only file system",
    errno.EISDIR: "is a directory, not a file",
    errno.ENOTDIR: "a part of the path is a file, not a directory",
    errno.EEXIST: "already exists",
    errno.ENOENT: "file not found",
    errno.ENAMETOOLONG: "file name too long",
}


def os_error_message(exc: OSError) -> str:
    """``<file>: <problem>`` for an OSError (``<problem>`` alone when the error names no file)."""
    problem = OS_PROBLEMS.get(exc.errno) if exc.errno is not None else None
    problem = problem or exc.strerror or str(exc) or type(exc).__name__
    files = [str(f) for f in (exc.filename, exc.filename2) if f is not None]
    return f"{' -> '.join(files)}: {problem}" if files else problem


def is_safetensors_error(exc: BaseException) -> bool:
    """A ``safetensors`` error (corrupt or truncated weights), without importing safetensors."""
    return any(cls.__name__ == "SafetensorError" for cls in type(exc).__mro__) or type(exc).__module__.startswith(
        "safetensors"
    )


UNSAFE_ADVICE = ("weights_only", "safe_globals", "can still be loaded", "trust")


def load_failure(exc: BaseException) -> str:
    """What ``torch.load(weights_only=True)`` refused (a checkpoint, a model folder's pickled weights), in a few
    words, without PyTorch's advice to load the file unsafely (``weights_only=False``, allow-listing globals):
    idiomkit never suggests running a file's code."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))  # torch bolds part of its advice with terminal escapes
    if "WeightsUnpickler error:" in text:  # the unpickler's own reason, e.g. "Unsupported global: GLOBAL getattr"
        text = text.split("WeightsUnpickler error:", 1)[1]
    first = (re.split(r"\.\s|\n", text.strip(), maxsplit=1) or [""])[0].strip().rstrip(".")
    return first if first and not any(word in first for word in UNSAFE_ADVICE) else type(exc).__name__


def is_usage_error(exc: BaseException) -> bool:
    """A click/typer usage error (``BadParameter``...), whichever click the installed typer uses."""
    return hasattr(exc, "format_message") and any(cls.__name__ == "UsageError" for cls in type(exc).__mro__)


def is_model_not_available(exc: BaseException) -> bool:
    registry = sys.modules.get("idiomkit.models.registry")
    return registry is not None and isinstance(exc, registry.ModelNotAvailable)


def _message(exc: BaseException) -> str | None:
    if isinstance(exc, IdiomkitError) or is_model_not_available(exc):
        return str(exc)
    if isinstance(exc, OSError):
        return os_error_message(exc)
    if isinstance(exc, UnicodeDecodeError):
        return f"not valid {exc.encoding} text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid or truncated JSON (line {exc.lineno} column {exc.colno}: {exc.msg})"
    if isinstance(exc, csv.Error):
        return f"unreadable CSV ({exc})"
    if is_safetensors_error(exc):
        return f"corrupt or truncated safetensors weights ({exc})"
    if is_usage_error(exc):  # typer.BadParameter raised in a command's body
        return exc.format_message()  # type: ignore[attr-defined]
    return None  # a plain ValueError too: bad input is raised typed, so what is left is a bug


def user_error_message(exc: BaseException) -> str | None:
    """The one-line message for a failure of input, environment or disk; ``None`` when ``exc`` is none of those.

    Input: idiomkit's own errors (:class:`IdiomkitError`: ``DataError``, ``OptionError``, ``InputError``...,
    ``ModelNotAvailable``), undecodable text, JSON, CSV or weights, a click/typer usage error; environment and disk:
    ``OSError``. A plain ``ValueError``, a bare ``KeyError``, ``TypeError``, ``AttributeError`` and the rest are
    bugs: ``None``, so they keep their traceback."""
    text = _message(exc)
    return None if text is None else " ".join(text.split()) or type(exc).__name__


def as_idiomkit_error(exc: BaseException) -> BaseException:
    """``exc`` itself when it is already one of idiomkit's typed one-line errors, else an :class:`IdiomkitError`
    with its one-line message (:class:`FileSystemError` for OS failures, :class:`InputError` for the rest)."""
    if isinstance(exc, IdiomkitError) or is_model_not_available(exc):
        return exc
    message = user_error_message(exc)
    if message is None:
        return exc
    return FileSystemError(message) if isinstance(exc, OSError) else InputError(message)


F = TypeVar("F", bound=Callable[..., Any])


def api_errors(func: F) -> F:
    """Decorate an API entry point: failures of input, environment or disk leave it as typed one-line errors."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            typed = as_idiomkit_error(exc)
            if typed is exc:
                raise
            raise typed from exc

    return wrapper  # type: ignore[return-value]


def check_at_least(what: str, value: float | None, minimum: float) -> None:
    """Refuse ``value`` below ``minimum`` (``None`` means "not given" and passes)."""
    if value is not None and value < minimum:
        raise OptionError(f"{what} must be at least {minimum}, got {value}")


def check_choice(what: str, value: object, choices: Iterable[object]) -> None:
    """Refuse a ``value`` that is not one of ``choices``."""
    choices = list(choices)
    if value not in choices:
        raise OptionError(f"unknown {what} '{value}' (expected one of {', '.join(str(c) for c in choices)})")
