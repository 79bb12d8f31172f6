"""One benchmark's results table: the result files of a task, grouped by configuration (mean ± std over seeds),
with the reference rows of papers and independent re-computations."""

from __future__ import annotations

import re
import statistics
from pathlib import Path
from typing import Any

from idiomkit.report.experiments import experiment_cell
from idiomkit.results import ResultKey
from idiomkit.tasks import task_titles
from idiomkit.tasks.admire import PREFERRED_COLUMNS as ADMIRE_COLUMNS
from idiomkit.tasks.admire import reference_rows as admire_references
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
            "plain sentence-transformers + organisers' rules",
        ),
        (
            "me5-small zero-shot, mean, query: (independent reference)",
            {"ALL.idiom": 0.065, "ALL.sts": 0.869, "ALL.all": 0.712},
            "plain sentence-transformers + organisers' rules",
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
        ("target: ≤ 40M model, span", {"r_precision": 60.0, "ndcg@10": 86.0}, "idiomkit issue"),
    ],
}
REFERENCES["semeval2a-dev"] = SEMEVAL2A_ROWS
REFERENCES["xiao-pairs"] = [(label, row, "Xiao et al.: split over pairs, not idioms") for label, row in XIAO_ROWS]
REFERENCES["admire"] = admire_references()

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
    "xiao-pairs": list(XIAO_KEYS),
    "admire": ADMIRE_COLUMNS,
}


def flatten(metrics: dict[str, Any], prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    for key, value in metrics.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, name + "."))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = float(value)
    return out


def mean_std(values: list[float], percent: bool) -> str:
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
    """One benchmark's table: a row per configuration (seeds aggregated), the experiment that makes a trained row
    (:func:`~idiomkit.report.experiments.experiment_cell`) and the command that recorded it; then the reference
    rows."""
    runs = [r for _, r in entries]
    cols = _columns(task, runs)
    percent = task == "idiolink-test"
    head = ["model", "recipe", "config", "seeds", *cols, "epochs", "train s", "wall s", "experiment", "command"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for key, recs in sorted(by_configuration(entries), key=lambda item: is_pipeline(item[0].variant)):
        first = recs[0]
        config = key.variant or first["params"].get("pooling", "")
        config += f" ({PIPELINE_LABEL})" if is_pipeline(key.variant) else ""
        cells = [first["model"], first["recipe"], config, str(len(recs))]
        for col in cols:
            values = [flatten(r["metrics"])[col] for r in recs if col in flatten(r["metrics"])]
            cells.append(mean_std(values, percent) if values else "")
        cells += training_cells(recs)
        cells.append(f"{statistics.fmean(r['wall_s'] for r in recs):.0f}")
        cells.append(experiment_cell(recs, entries[0][0]))
        cells.append("; ".join(f"`{c}`" for c in seeds_commands(recs)))
        lines.append("| " + " | ".join(cells) + " |")
    for label, values, source in REFERENCES.get(task, []):
        cells = (
            [label, "reference", source, ""]
            + [f"{values[c]:.{2 if percent else 3}f}" if c in values else "" for c in cols]
            + ["", "", "", "", ""]
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# the training rules a trained row follows, from its run label's suffix (training/recipes/base.py ``run_label``)
RULES = {
    "recorded": "recorded: no held-out dedup, STS-B / ASSIN 2 dev (2B dev's STS rows) as validation",
    "task": "task rules: held-out sentences dropped, MWE overlap with 2B dev allowed (SemEval 2B fine_tune); "
    "STS validation carved from STS train",
    "scorecard": "scorecard rule: held-out sentences and idioms dropped; STS validation carved from STS train",
    "own splits": "own splits: the benchmark keeps its idioms apart by construction",
    "untrained": "untrained",
}


def training_rule(label: str | None) -> str:
    """The key in :data:`RULES` of a run label (None: an untrained model)."""
    if not label:
        return "untrained"
    if label.endswith("-dedup-sentences"):
        return "task"
    if label.endswith("-dedup") or label.startswith("flagship"):  # the flagship always goes through the dedup
        return "scorecard"
    if label.startswith(("idiolink-", "pairs-")):
        return "own splits"
    return "recorded"


def base_label(label: str) -> str:
    """A run label without its held-out rule suffix (``cosent-sts-stsw0.3-dedup`` -> ``cosent-sts-stsw0.3``)."""
    return label.removesuffix("-dedup-sentences").removesuffix("-dedup")
