"""PEP 562 lazy exports: a package's public names imported from their modules on first use."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, names: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (already in ``sys.modules``, as while it runs) that import
    each of ``names`` (public name -> module defining it) on first use and keep it in the package's namespace.

    Example::

        __getattr__, __dir__ = lazy_exports(__name__, {"train": "idiomkit.training.trainer"})
    """
    namespace = vars(sys.modules[package])

    def __getattr__(name: str) -> Any:
        if name in names:
            value = getattr(importlib.import_module(names[name]), name)
            namespace[name] = value  # later lookups skip this hook
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted([*namespace, *names])

    return __getattr__, __dir__
