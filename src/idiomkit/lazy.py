"""PEP 562 lazy names: a module's public names made (or imported from their modules) on first use."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

Hooks = tuple[Callable[[str], Any], Callable[[], list[str]]]  # a module's __getattr__ and __dir__


def lazy_values(package: str, makers: dict[str, Callable[[], Any]]) -> Hooks:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (already in ``sys.modules``, as while it runs) that make
    each of ``makers``' names on first use (its maker called once) and keep it in the package's namespace.

    Example::

        __getattr__, __dir__ = lazy_values(__name__, {"TABLE": build_table})
    """
    namespace = vars(sys.modules[package])

    def __getattr__(name: str) -> Any:
        if name in namespace:  # made already (a call by name from inside the package)
            return namespace[name]
        if name in makers:
            namespace[name] = makers[name]()  # later lookups skip this hook
            return namespace[name]
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted([*namespace, *makers])

    return __getattr__, __dir__


def lazy_exports(package: str, names: dict[str, str]) -> Hooks:
    """:func:`lazy_values` importing each of ``names`` (public name -> module defining it) on first use.

    Example::

        __getattr__, __dir__ = lazy_exports(__name__, {"train": "idiomkit.training.trainer"})
    """
    return lazy_values(package, {name: partial(imported, module, name) for name, module in names.items()})


def imported(module: str, name: str) -> Any:
    """``module.name``, importing ``module``."""
    return getattr(importlib.import_module(module), name)
