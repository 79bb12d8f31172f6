"""The validation curves of trained models, drawn: one panel per validation metric, one line per run and seed.

    python benchmarks/analysis/training_curves.py --model mpnet --recipe flagship-v2 --recipe bf16

reads the plain-track scorecards under ``benchmarks/results/scorecard`` (each card keeps its run's validation curve,
carved from the training sources, in ``params.training.validation``), keeps the trained runs of ``--model`` whose
recipe label contains every ``--recipe`` string, and draws the ``--metric`` curves (default: the selection metric
``val_mean`` and its parts) to ``--out`` (default ``benchmarks/analysis/training_curves.png``), a dot at each run's
selected step. The same numbers are the tables of the results pages' "Training curves".
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from idiomkit.report.scorecard import full_scorecards
from idiomkit.results import load_results

OUT = Path(__file__).with_name("training_curves.png")
METRICS = ("val_mean", "val2b_idiom", "valsts_sts", "valdef_mrr", "valdef_margin", "valmis_accuracy")


@dataclass
class Run:
    """One training's validation curves: ``series[metric] = [(step, value), ...]`` and the step it kept."""

    series: dict[str, list[tuple[int, float]]]
    selected_step: int | None


def curves(
    results: list[tuple[Path, dict[str, Any]]], model: str, recipe_parts: list[str], metrics: tuple[str, ...]
) -> dict[str, Run]:
    """``{"<recipe>, seed N": Run}`` for the plain-track cards of ``model`` whose recipe contains every string of
    ``recipe_parts`` and that carry a validation curve; a metric a run never logged is left out of its series, and
    cards with the same curves (one training scored twice) share one entry, their names joined by `` = ``."""
    out: dict[str, Run] = {}
    for (card_model, recipe), recs in sorted(full_scorecards(results, "plain").items()):
        if card_model != model or not all(part in recipe for part in recipe_parts):
            continue
        for rec in sorted(recs, key=lambda r: r["seed"]):
            training = rec["params"].get("training") or {}
            curve = training.get("validation") or []
            series = {m: [(e["step"], e[m]) for e in curve if e.get(m) is not None] for m in metrics}
            series = {m: points for m, points in series.items() if points}
            name = f"{recipe}, seed {rec['seed']}"
            same = next((other for other, run in out.items() if run.series == series), None)
            if same:  # one training, two cards (e.g. a centred copy): one line, both names
                out[f"{same} = {name}"] = out.pop(same)
            elif series:
                out[name] = Run(series, (training.get("best") or {}).get("step"))
    return out


def plot(runs: dict[str, Run], metrics: tuple[str, ...], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = plt.get_cmap("tab20" if len(runs) > 10 else "tab10")
    shown = [m for m in metrics if any(m in run.series for run in runs.values())]
    ncols = 3
    nrows = -(-len(shown) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.0 * nrows), squeeze=False)
    for ax, metric in zip(axes.flat, shown, strict=False):
        for i, (name, run) in enumerate(runs.items()):
            if metric not in run.series:
                continue
            steps, values = zip(*run.series[metric], strict=True)
            (line,) = ax.plot(steps, values, marker=".", linewidth=1, color=colours(i), label=name)
            if run.selected_step in steps:
                ax.plot(run.selected_step, values[steps.index(run.selected_step)], "o", color=line.get_color())
        ax.set_title(metric, fontsize=9)
        ax.set_xlabel("step", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(shown) :]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    legend_rows = -(-len(labels) // 2)
    height = fig.get_figheight()
    fig.set_figheight(height + 0.16 * legend_rows)
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, (0.16 * legend_rows + 0.1) / (height + 0.16 * legend_rows), 1, 1))
    fig.savefig(out, dpi=100, metadata={"Software": None})
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="mpnet")
    parser.add_argument("--recipe", action="append", default=[], help="a string every recipe label drawn contains")
    parser.add_argument("--metric", action="append", default=None, help=f"a validation metric (default: {METRICS})")
    parser.add_argument("--results", default="benchmarks/results")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    metrics = tuple(args.metric or METRICS)
    results = load_results(args.results)
    runs = curves(results, args.model, args.recipe, metrics)
    if not runs:
        raise SystemExit(f"no plain-track card of {args.model} with a validation curve matches {args.recipe}")
    plot(runs, metrics, args.out)
    print(f"{len(runs)} runs -> {args.out}")


if __name__ == "__main__":
    main()
