"""The validation curve of each trained model (carved from its training sources), from its scorecard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from idiomkit.report.scorecard import full_scorecards

CURVE_COLUMNS = 8  # validation metrics shown per training curve at the most


def curve_columns(curve: list[dict[str, Any]], selected_on: str | None) -> list[str]:
    """The validation metrics a curve shows: the one selection used first, then the ``*_mean`` / ``*_accuracy`` /
    ``*_idiom`` / ``*_all`` / ``*_sts`` / ``*_margin`` summaries, then the rest, :data:`CURVE_COLUMNS` at the most;
    a metric that shows the same as one before it at every step is left out (a 2B validation without STS rows:
    its ``all`` is its ``idiom``)."""
    names = [k for k in curve[0] if k not in ("step", "epoch", "phase")]
    summary = ("_mean", "_accuracy", "_idiom", "_all", "_sts", "_margin")
    ranked = sorted(names, key=lambda k: (k != selected_on, not k.endswith(summary), names.index(k)))
    seen, shown = set(), []
    for name in ranked:
        cells = tuple(_cell(entry.get(name)) for entry in curve)
        if cells not in seen:
            seen.add(cells)
            shown.append(name)
    return shown[:CURVE_COLUMNS]


def _cell(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else ""


def curve_selection(best: dict[str, Any]) -> str:
    """What was kept from the run: a validated step, or weights interpolated at a ratio (the curve is then the
    tuned run's, and the ratio's own validation score is named)."""
    if "alpha" in best:
        return (
            f"weights at alpha {best['alpha']:g} between the base and the tuned run whose curve this is; "
            f"{best.get('metric')} {best.get('value'):.3f} there"
        )
    return f"selected: step {best.get('step')} on {best.get('metric')}"


def training_curves_section(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The validation curve of each trained model with a plain-track scorecard: one row per evaluation during training
    (step, phase, the first :data:`CURVE_COLUMNS` validation metrics), from the scorecard's ``params.training``."""
    out = []
    for (model, recipe), recs in sorted(full_scorecards(results, "plain").items()):
        for rec in sorted(recs, key=lambda r: r["seed"]):
            curve = (rec["params"].get("training") or {}).get("validation") or []
            if not curve:
                continue
            best = rec["params"]["training"].get("best") or {}
            columns = curve_columns(curve, best.get("metric"))
            out += [f"{model} {recipe}, seed {rec['seed']} ({curve_selection(best)})"]
            out += ["", "| step | phase | " + " | ".join(columns) + " |", "|" + "---|" * (len(columns) + 2)]
            for entry in curve:
                cells = [_cell(entry.get(c)) for c in columns]
                out.append(f"| {entry['step']} | {entry.get('phase', '')} | " + " | ".join(cells) + " |")
            out.append("")
    return ["### Training curves (validation carved from the training sources)", "", *out] if out else []
