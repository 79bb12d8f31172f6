"""One job per file, small functions (issue #46): no file in src/ over 600 lines, no function over 60."""

from __future__ import annotations

import ast

from helpers import ROOT

SRC = ROOT / "src" / "idiomkit"
MAX_FILE_LINES, MAX_FUNCTION_LINES = 600, 60


def test_no_source_file_over_600_lines():
    long = {
        str(p.relative_to(SRC)): n for p in SRC.rglob("*.py") if (n := len(p.read_text().splitlines())) > MAX_FILE_LINES
    }
    assert not long, long


def test_no_function_over_60_lines():
    long = {}
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(SRC)}:{node.lineno} {node.name}"] = lines
    assert not long, long
