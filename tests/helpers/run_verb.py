"""``idiomkit run``: the one-line refusal check (unit/methods, integration/methods)."""

from __future__ import annotations


def one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]
