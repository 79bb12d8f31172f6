"""The import graph of ``src/idiomkit``: no circles, and data flows one way through the layers.

Static (``ast``): every ``import idiomkit...`` / ``from idiomkit... import`` in every module counts, at top level or
inside a function (a lazy import still couples two modules); imports under ``if TYPE_CHECKING:`` do not run and are
skipped. Layers, low to high -- a module may import its own layer and lower ones, never a higher one:

    utilities -> data -> models/embed -> losses/metrics -> tasks -> methods/training -> report -> api -> cli
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


PACKAGE = "idiomkit"


# (layer name, module prefixes); a module belongs to the layer of its longest matching prefix
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "utilities",
        (
            "idiomkit.settings",
            "idiomkit.progress",
            "idiomkit.errors",
            "idiomkit.data.errors",
            "idiomkit.options",
            "idiomkit.lazy",
        ),
    ),  # options: dataclass <-> command-line flags (tasks and methods); lazy: PEP 562 package exports
    # results: the record/prediction store; idioms: the lexicon, matcher and sense check
    ("data", ("idiomkit.data", "idiomkit.io", "idiomkit.results", "idiomkit.idioms")),
    # the idiom reader is a sentence-transformers module, and the cross-encoder sense check (and the loader that
    # reads either kind of sense check) builds on a registry model: both sit with the models
    (
        "models/embed",
        (
            "idiomkit.models",
            "idiomkit.embedding",
            "idiomkit.idioms.reader",
            "idiomkit.idioms.evaluation_reader",
            "idiomkit.idioms.senses",
            "idiomkit.idioms.sense_encoder",
        ),
    ),
    ("losses/metrics", ("idiomkit.losses", "idiomkit.metrics")),
    ("tasks", ("idiomkit.tasks", "idiomkit.mteb_tasks")),
    # the sense check's training (idioms/sense_training) scores with metrics: nothing below may import it
    (
        "methods/training",
        (
            "idiomkit.methods",
            "idiomkit.training",
            "idiomkit.idioms.sense_training",
            "idiomkit.idioms.sense_encoder_training",
        ),
    ),
    ("report", ("idiomkit.report",)),
    # the package root re-exports the API; the scorecard, the reader's API and the run options of both evaluate
    # verbs sit beside it
    ("api", ("idiomkit.api", "idiomkit.scorecard", "idiomkit.reader_api", "idiomkit.run_options", "idiomkit")),
    ("cli", ("idiomkit.cli", "idiomkit.reproduce")),  # reproduce runs the CLI's commands
]


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The idiomkit module ``name`` refers to: itself, or the package holding it (``pkg.attr`` -> ``pkg``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_modules(path: Path, modules: dict[str, Path], *, type_checking: bool = False) -> set[str]:
    """The idiomkit modules ``path`` imports anywhere (TYPE_CHECKING blocks excluded unless ``type_checking``)."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node) and not type_checking:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            names = [f"{base}.{alias.name}" for alias in node.names]  # a submodule or an attribute of ``base``
        else:
            for child in ast.iter_child_nodes(node):
                visit(child)
            return
        for name in names:
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                target = resolve(name, modules)
                if target and target != me:
                    found.add(target)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return found


def import_graph(*, type_checking: bool = False) -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imported_modules(path, modules, type_checking=type_checking) for name, path in modules.items()}


def layer_of(module: str) -> int:
    best = max(
        (
            (len(prefix), i)
            for i, (_, prefixes) in enumerate(LAYERS)
            for prefix in prefixes
            if module == prefix or (prefix != PACKAGE and module.startswith(prefix + "."))
        ),
        default=None,
    )
    if best is None:
        raise AssertionError(f"{module} belongs to no layer: add it to LAYERS")
    return best[1]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def cycle_path(graph: dict[str, set[str]], component: list[str]) -> str:
    """One circle through ``component``'s first module, e.g. ``a -> b -> a`` (for the failure message)."""
    members, start = set(component), component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & members):
            if w == start:
                return " -> ".join([*paths[v], start])
            if w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    return " <-> ".join(component)  # pragma: no cover


def test_every_module_has_a_layer():
    for module in import_graph():
        layer_of(module)


def test_no_import_cycles():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(cycle_path(graph, c) for c in found)


def test_no_import_cycles_through_type_only_imports():
    """A circle that only type hints close is still two modules that each need the other to be read: the type
    belongs in the lower one."""
    graph = import_graph(type_checking=True)
    found = cycles(graph)
    assert not found, "import cycles (type-only imports counted): " + "; ".join(cycle_path(graph, c) for c in found)


# private names still imported across modules, in modules other work is changing now: each to be made public there
PRIVATE_IMPORTS_LEFT: set[tuple[str, str, str]] = set()


def private_imports() -> set[tuple[str, str, str]]:
    """(importer, module, name) of every ``from idiomkit.x import _name`` (a private name of another module)."""
    found = set()
    for name, path in all_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE):
                found |= {(name, node.module, a.name) for a in node.names if is_private(a.name)}
    return found


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_imports_another_modules_private_names():
    """A name another module needs is public (``csvio.decode``, not ``csvio._decode``)."""
    assert private_imports() == PRIVATE_IMPORTS_LEFT


def test_no_module_imports_a_higher_layer():
    graph = import_graph()
    upward = [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for module, targets in sorted(graph.items())
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_tasks_never_import_methods_or_training():
    """A task scores; what trains lives in methods/ and training/ (the circle this redesign broke stays broken)."""
    graph = import_graph()
    bad = sorted(
        f"{m} -> {t}"
        for m, ts in graph.items()
        if m.startswith("idiomkit.tasks")
        for t in ts
        if t.startswith(("idiomkit.methods", "idiomkit.training"))
    )
    assert not bad


# packages of optional extras (pyproject): a module may import these inside the function that needs them
OPTIONAL_EXTRAS = frozenset(
    {
        "peft",
        "accelerate",
        "datasets",
        "pytorch_metric_learning",
        "matplotlib",
        "openTSNE",
        "umap",
        "bm25s",
        "onnxruntime",
        "onnx",
        "mteb",
    }
)


TOP_LEVEL_IMPORTS_ONLY = ("idiomkit.training",)  # packages whose modules import everything else at the top


def function_imports(path: Path) -> list[str]:
    """``line: module`` for each import inside a function of ``path`` that is not an optional extra."""
    found = []
    for func in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = ["." * node.level + (node.module or "")]
            else:
                continue
            found += [f"{node.lineno}: {n}" for n in names if n.split(".")[0] not in OPTIONAL_EXTRAS]
    return sorted(set(found), key=lambda entry: int(entry.split(":")[0]))


def test_training_imports_at_top_level_but_optional_extras():
    """A module of training/ states what it needs at its top (the graph above sees every edge where it is made)."""
    lazy = [
        f"{module}:{entry}"
        for module, path in all_modules().items()
        if module.startswith(TOP_LEVEL_IMPORTS_ONLY)
        for entry in function_imports(path)
    ]
    assert not lazy, "imports inside functions:\n" + "\n".join(lazy)


def test_function_imports_finds_lazy_imports_and_lets_optional_extras_be(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        "import json\n\n\ndef f():\n    from idiomkit.models import load_model\n    from peft import LoraConfig\n"
        "\n\nclass C:\n    def g(self):\n        import random\n        from . import sibling\n",
        encoding="utf-8",
    )
    assert function_imports(path) == ["5: idiomkit.models", "11: random", "12: ."]


def write_package(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return {module_name_under(root, p): p for p in root.rglob("*.py")}


def module_name_under(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_checker_sees_lazy_relative_and_attribute_imports_and_skips_type_checking(tmp_path, monkeypatch):
    monkeypatch.setitem(globals(), "SRC", tmp_path)
    modules = write_package(
        tmp_path,
        {
            "idiomkit/__init__.py": "",
            "idiomkit/tasks/__init__.py": "",
            "idiomkit/tasks/a.py": "def f():\n    from idiomkit.methods.b import g\n",
            "idiomkit/tasks/c.py": "from . import a\nfrom .a import f\n",
            "idiomkit/tasks/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import idiomkit.cli\n",
            "idiomkit/methods/__init__.py": "",
            "idiomkit/methods/b.py": "from idiomkit.tasks import a\n",
        },
    )
    graph = {name: imported_modules(path, modules) for name, path in modules.items()}
    assert graph["idiomkit.tasks.a"] == {"idiomkit.methods.b"}  # lazy import inside a function counts
    assert graph["idiomkit.tasks.c"] == {"idiomkit.tasks.a"}  # relative imports resolve
    assert graph["idiomkit.tasks.d"] == set()  # TYPE_CHECKING imports never run
    assert cycles(graph) == [["idiomkit.methods.b", "idiomkit.tasks.a"]]
    assert cycle_path(graph, cycles(graph)[0]) == "idiomkit.methods.b -> idiomkit.tasks.a -> idiomkit.methods.b"
    assert layer_of("idiomkit.tasks.a") < layer_of("idiomkit.methods.b")


@pytest.mark.parametrize("module", ["idiomkit.nowhere", "somethingelse"])
def test_a_module_outside_every_layer_is_named(module):
    with pytest.raises(AssertionError, match=f"{module} belongs to no layer"):
        layer_of(module)
