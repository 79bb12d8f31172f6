"""idiomkit.lazy: names made on first use, once, and kept in the module's namespace."""

from __future__ import annotations

import sys
import types

import pytest

from idiomkit.lazy import lazy_exports, lazy_values


@pytest.fixture
def module(monkeypatch):
    mod = types.ModuleType("lazy_probe")
    monkeypatch.setitem(sys.modules, "lazy_probe", mod)
    return mod


def test_a_lazy_value_is_made_once_at_first_use_and_kept(module):
    calls = []
    module.__getattr__, module.__dir__ = lazy_values("lazy_probe", {"TABLE": lambda: calls.append(1) or {"a": 1}})
    assert "TABLE" not in vars(module) and "TABLE" in dir(module) and calls == []
    first = module.TABLE
    assert module.TABLE is first and module.__getattr__("TABLE") is first and calls == [1]
    assert vars(module)["TABLE"] is first
    with pytest.raises(AttributeError, match="module 'lazy_probe' has no attribute 'nope'"):
        _ = module.nope


def test_a_lazy_export_is_imported_from_its_module(module):
    module.__getattr__, _ = lazy_exports("lazy_probe", {"dumps": "json"})
    import json

    assert module.dumps is json.dumps
