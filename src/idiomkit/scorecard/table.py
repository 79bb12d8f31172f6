"""The scorecard's tables, model-free: the model card's section, the comparison rows (the scorecard beside the
untrained encoder and the published scorecards), the markdown table and the figure beside a scorecard's JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from idiomkit.report import HEADLINE, headline, markdown_table
from idiomkit.report.core_test import scorecard_controls_lines
from idiomkit.results import atomic_write_text, load_results
from idiomkit.scorecard.result import TASK, Scorecard
from idiomkit.settings import default_results_dir
from idiomkit.training.model_card import SCORECARD_HEADING, write_card_section

BASELINE = ("zero-shot",)  # recipes drawn as the untrained encoder beside a model


def update_model_card(model_dir: Path, cards: list[Scorecard]) -> Path:
    """Replace the scorecard section of ``model_dir/README.md`` (the model card) with these scorecards' numbers."""
    rows = [
        (f"{c.record.params['track']} track{' (quick)' if c.record.params['quick'] else ''}", c.record.metrics)
        for c in cards
    ]
    section = f"{SCORECARD_HEADING}\n\n`idiomkit evaluate all` (seed {cards[0].record.seed}):\n\n{markdown_table(rows)}"
    return write_card_section(model_dir, section)


def published_scorecards(results_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """Every scorecard result record under ``results_dir`` and under the project's results (the published rows),
    each result key once: a scorecard in both (a run from another checkout of the same results) counts from
    ``results_dir``."""
    roots = dict.fromkeys(Path(p).resolve() for p in (results_dir or default_results_dir(), default_results_dir()))
    cards: dict[str, dict[str, Any]] = {}
    for root in roots:
        for path, rec in load_results(root):
            if path.parent.name == TASK:
                cards.setdefault(json.dumps(rec["key"], sort_keys=True), rec)
    return list(cards.values())


def comparison_rows(card: Scorecard, published: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The scorecard, the untrained encoder of the same model (same track and quick mode) and the other published
    rows."""
    rec = card.record
    same = [
        r
        for r in published
        if r["params"].get("track") == rec.params["track"]
        and bool(r["params"].get("quick")) == bool(rec.params["quick"])
    ]
    rows = [(f"**{rec.model} {rec.recipe}** (this run)", rec.metrics)]
    others = [r for r in same if (r["model"], r["recipe"], r["seed"]) != (rec.model, rec.recipe, rec.seed)]
    others.sort(key=lambda r: (not (r["recipe"] in BASELINE and r["model"] == rec.model), r["recipe"] != "zero-shot"))
    for r in others:
        untrained = r["recipe"] in BASELINE and r["model"] == rec.model
        rows.append((f"{r['model']} {r['recipe']}" + (" (untrained)" if untrained else ""), r["metrics"]))
    return rows


def write_table(card: Scorecard, rows: list[tuple[str, dict[str, Any]]]) -> Path | None:
    """The markdown table beside the scorecard's JSON (``.md``)."""
    if card.path is None:
        return None
    title = f"Scorecard: {card.record.model} {card.record.recipe}, {card.record.params['track']} track"
    text = f"# {title}\n\n" + markdown_table(rows)
    controls = scorecard_controls_lines(card.record.metrics, card.record.params)
    text += "\n" + "\n".join(controls) + "\n" if controls else ""
    return atomic_write_text(card.path.with_suffix(".md"), text)


def write_figure(card: Scorecard, rows: list[tuple[str, dict[str, Any]]]) -> Path | None:
    """A PNG beside the scorecard: one panel per headline number (five a row), a horizontal bar per model, the
    scorecard's own bar first and in colour, each bar labelled with its value."""
    if card.path is None:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    flat = [(label.replace("*", "").replace(" (this run)", ""), headline(metrics)) for label, metrics in rows][:6]
    columns = [c for c, _, _ in HEADLINE if flat[0][1][c] is not None]
    ncols = 5
    nrows = -(-len(columns) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 0.35 * len(flat) * nrows + 1.2 * nrows), squeeze=False)
    for i, ax in enumerate(axes.flat):
        if i >= len(columns):
            ax.axis("off")
            continue
        values = [v[columns[i]] or 0.0 for _, v in flat]
        y = range(len(flat))[::-1]
        ax.barh(list(y), values, color=["tab:red"] + ["tab:gray"] * (len(flat) - 1))
        for yy, value in zip(y, values, strict=True):
            ax.text(value, yy, f" {value:.2f}", va="center", fontsize=6)
        ax.set_title(columns[i], fontsize=8)
        ax.set_yticks(list(y), [label[:28] for label, _ in flat] if i % ncols == 0 else [], fontsize=6)
        ax.tick_params(axis="x", labelsize=6)
    fig.suptitle(f"{card.record.model} {card.record.recipe}, {card.record.params['track']} track", fontsize=9)
    fig.tight_layout()
    path = card.path.with_suffix(".png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
