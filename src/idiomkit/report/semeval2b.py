"""The SemEval 2B page's own sections: the recipe × model grid and the rows under each training rule."""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from idiomkit.report.tables import RULES, base_label, mean_std, result_key, training_rule
from idiomkit.tasks.semeval2b_task import PLAIN_VARIANT

# The 2B recipe x model grid (rows: recipes; the STS-keeping variants last), at the 2-epoch budget.
GRID_2B_RECIPES = (
    "adaptive-triplet",
    "adaptive-triplet-mwe",
    "triplet",
    "mnrl",
    "cosent",
    "contrastive",
    "cosine",
    "ynu",
    "adaptive-triplet-mwe-sts",
    "adaptive-triplet-mwe-sts-stsw0.1",
    "cosent-sts",
    "cosent-sts-stsw0.3",
    "contrastive-sts",
    "contrastive-sts-stsw0.3",
    "adaptive-triplet-mwe-lora",
    "adaptive-triplet-mwe-dropout0",
)


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
    lines = [
        "### Recipe × model grid (2 epochs; ALL idiom / STS, mean over seeds, seed count)",
        "",
        "| recipe | " + " | ".join(GRID_2B_MODELS) + " |",
        "|---|" + "---|" * len(GRID_2B_MODELS),
    ]
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


def rules_section(entries: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The trained 2B rows side by side under each training rule (:data:`~idiomkit.report.tables.RULES`): one block
    per (model, recipe, budget) trained under two or more rules, a row per rule and track (a model with MWE tokens
    scored without them is the plain track); ALL idiom / STS / all, mean ± std over seeds."""
    groups: dict[tuple[str, str, str], dict[tuple[str, str], list[dict[str, Any]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for path, rec in entries:
        if not rec["params"].get("training"):
            continue
        key = result_key(path, rec)
        budget = key.variant.removesuffix(f"-{PLAIN_VARIANT}").removesuffix(PLAIN_VARIANT)
        rule = training_rule(rec["recipe"])
        groups[(rec["model"], base_label(rec["recipe"]), budget)][(rule, key.track)].append(rec)
    shown = {g: rows for g, rows in groups.items() if len({rule for rule, _ in rows}) >= 2}
    if not shown:
        return []
    head = ["model", "recipe", "budget", "rule", "track", "seeds", "idiom ρ", "STS ρ", "all ρ"]
    lines = [
        "### The same recipe under each training rule (ALL; mean ± std over seeds)",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for (model, recipe, budget), rows in sorted(shown.items()):
        for rule, track in sorted(rows, key=lambda rt: (list(RULES).index(rt[0]), rt[1] != "marked")):
            recs = rows[(rule, track)]
            cells = [mean_std([r["metrics"]["ALL"][m] for r in recs], False) for m in ("idiom", "sts", "all")]
            lines.append("| " + " | ".join([model, recipe, budget, RULES[rule], track, str(len(recs)), *cells]) + " |")
    return lines + [""]
