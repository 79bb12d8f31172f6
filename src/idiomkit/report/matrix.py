"""The cross-benchmark matrix: one row per model/recipe configuration with results on two or more benchmarks."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from idiomkit.report.tables import flatten, mean_std, result_key
from idiomkit.results import ResultKey

# (column title, results folder, flattened metric, params the result must have)
MATRIX_COLUMNS: list[tuple[str, str, str, dict[str, str]]] = [
    ("2B idiom ρ", "semeval2b-dev", "ALL.idiom", {}),
    ("2B STS ρ", "semeval2b-dev", "ALL.sts", {}),
    ("IdioLink nDCG@10 sentence", "idiolink-test", "ndcg@10", {"query_mode": "sentence"}),
    ("IdioLink nDCG@10 span", "idiolink-test", "ndcg@10", {"query_mode": "span"}),
    ("2A F1 zero-shot", "semeval2a-dev", "ALL.macro_f1", {"setting": "zero_shot"}),
    ("2A F1 one-shot", "semeval2a-dev", "ALL.macro_f1", {"setting": "one_shot"}),
    ("AdMIRe ρ (cv)", "admire", "spearman", {"split": "cv"}),
    ("Xiao I/D margin", "xiao-pairs", "id_margin", {}),
]


# variant tokens that name the column (query mode, setting, split), not the model/recipe configuration
COLUMN_TOKENS = {
    "sentence",
    "span",
    "instruction",
    "sentence+span",
    "instruction+span",
    "cv",
    "test",
    "zero_shot",
    "one_shot",
    "dev",
    "heldout",
}


def row_config(variant: str) -> str:
    """The part of a key's variant that names the model/recipe configuration (a matrix row): its ``-``-separated
    tokens but those of :data:`COLUMN_TOKENS`, which name the column (``6ep-sentence`` -> ``6ep``)."""
    return "-".join(t for t in variant.split("-") if t and t not in COLUMN_TOKENS)


def matrix_row_key(key: ResultKey) -> tuple[str, str, str]:
    """(model, recipe, configuration) of a result's key: the matrix row it belongs to."""
    return key.model, key.recipe, row_config(key.variant)


def matrix_section(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """Model/recipe × benchmark main scores (mean over seeds), one row per configuration found in two or more
    benchmarks' result files (rows seen in one benchmark only are in that benchmark's table)."""
    cells: dict[tuple[str, str, str], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    chosen: dict[tuple[tuple[str, str, str], int], tuple[str, ...]] = {}
    keyed = [(result_key(path, rec), rec) for path, rec in results]
    keyed.sort(key=lambda item: item[0].path("").as_posix())  # file order, made from the keys
    for key, rec in keyed:
        row = matrix_row_key(key)
        values = flatten(rec["metrics"])
        for col, (_title, task, metric, need) in enumerate(MATRIX_COLUMNS):
            if rec["task"] != task or metric not in values:
                continue
            if any(rec["params"].get(k) != v for k, v in need.items()):
                continue
            if chosen.setdefault((row, col), key.config) != key.config:  # two configurations in a cell: keep the 1st
                continue
            cells[row][col].append(values[metric])
    rows = {row: cols for row, cols in cells.items() if len({MATRIX_COLUMNS[c][1] for c in cols}) >= 2}
    if not rows:
        return []
    header = ["model", "recipe", "config"] + [title for title, *_ in MATRIX_COLUMNS]
    lines = [
        "## Cross-benchmark matrix",
        "",
        "Main score per benchmark (mean over seeds; ρ = Spearman; nDCG in percent) for every model/recipe "
        "configuration with results on two or more benchmarks; generated from the same result files.",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    for (model, recipe, config), cols in sorted(rows.items()):
        out = [model, recipe, config]
        for col, (_title, task, _metric, _need) in enumerate(MATRIX_COLUMNS):
            vals = cols.get(col)
            out.append(mean_std(vals, task == "idiolink-test") if vals else "")
        lines.append("| " + " | ".join(out) + " |")
    return lines + [""]
