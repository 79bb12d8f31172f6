"""One name per thing: no two classes of the package share a name (nor one of ours a class imported from a library
without an alias), Task classes are named ``<Name>Task`` after their registry name, and each kind of registered
thing (task, method, recipe) has one registry."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections import defaultdict

from helpers import ROOT

from idiomkit.methods import METHODS, Method
from idiomkit.tasks import TASKS, Task
from idiomkit.training.recipes import RECIPES
from idiomkit.training.recipes.base import Recipe

SRC = ROOT / "src" / "idiomkit"


def class_names() -> dict[str, list[str]]:
    """Class name -> where it is defined in the package, or imported under its own name from outside it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        where = str(path.relative_to(SRC))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(where)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.module.startswith("idiomkit"):
                for alias in node.names:
                    if alias.asname is None and alias.name[:1].isupper():
                        found[alias.name].append(f"{where} (from {node.module})")
    return found


def test_no_two_classes_share_a_name():
    """Two ``TaskMetadata`` (ours and mteb's) or two ``SpanClassifier`` made a reader ask which one a module means."""
    shared = {
        name: places
        for name, places in class_names().items()
        if len(set(places)) > 1 and any("(from" not in p for p in places)
    }
    assert shared == {}


def task_class_name(registry_name: str) -> str:
    """The rule, case aside: ``xiao-pairs`` -> ``xiaopairstask`` (XiaoPairsTask)."""
    return registry_name.replace("-", "") + "task"


def test_task_classes_are_named_after_their_registry_name():
    assert len(TASKS) >= 7
    for name, cls in TASKS.items():
        assert cls.__name__.lower() == task_class_name(name), (name, cls.__name__)


def test_task_class_rule_reads_the_registry_name():
    assert task_class_name("sts-guard") == "stsguardtask" and task_class_name("semeval2b") == "semeval2btask"


def package_modules(*packages: str) -> list:
    """The modules of ``packages`` (imported), the packages included."""
    modules = []
    for package in packages:
        root = importlib.import_module(package)
        modules.append(root)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            modules.append(importlib.import_module(info.name))
    return modules


def registries_of(test, modules) -> set[str]:
    """``module.NAME`` of every module-level dict whose values pass ``test`` (a registry of that kind)."""
    return {
        f"{module.__name__}.{name}"
        for module in modules
        for name, value in vars(module).items()
        if isinstance(value, dict) and value and all(test(v) for v in value.values())
    }


def is_task(value) -> bool:
    return isinstance(value, type) and issubclass(value, Task)


def is_method(value) -> bool:
    return (isinstance(value, type) and issubclass(value, Method)) or isinstance(value, METHODS_ENTRY)


METHODS_ENTRY = type(next(iter(METHODS.values())))


def test_one_registry_per_kind():
    """Tasks in ``TASKS``, methods in ``METHODS``, recipes in ``RECIPES``: a second mapping of the same kind (the
    ``RUNNABLE`` beside ``METHODS`` there was) would have to be kept in step by hand. A recipe family's module keeps
    the part of ``RECIPES`` it registers; ``training.recipes.RECIPES`` joins them."""
    modules = package_modules("idiomkit.tasks", "idiomkit.methods", "idiomkit.scorecard", "idiomkit.training.recipes")
    modules += [importlib.import_module(m) for m in ("idiomkit.api", "idiomkit.reader_api", "idiomkit.cli")]
    assert registries_of(is_task, modules) == {"idiomkit.tasks.TASKS"}
    assert registries_of(is_method, modules) == {"idiomkit.methods.METHODS"}
    recipes = registries_of(lambda v: isinstance(v, Recipe), modules)
    families = {r for r in recipes if r != "idiomkit.training.recipes.RECIPES"}
    assert "idiomkit.training.recipes.RECIPES" in recipes
    assert all(r.endswith(".RECIPES") for r in families)
    joined = {name for r in families for name in importlib.import_module(r.rpartition(".")[0]).RECIPES}
    assert joined == set(RECIPES)
