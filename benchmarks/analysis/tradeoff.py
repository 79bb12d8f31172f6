"""Idiom vs STS trade-off on SemEval 2B dev: learning curves (epochs), interpolation ratios, recipes.

    python benchmarks/analysis/tradeoff.py epochs runs/<run> --name <label>   # score runs/<run>/epoch-N on 2B dev
    python benchmarks/analysis/tradeoff.py plot  # table + benchmarks/analysis/tradeoff.png

2B dev is held out: the curves are *reported* here, never used to pick an epoch or a ratio (runs select on
the train-carved validation split; ``idiomkit interpolate`` on validation + STS-B/ASSIN 2 dev). Curve files
live in ``benchmarks/analysis/tradeoff/*.json`` (``idiomkit interpolate --curve`` writes the interpolation ones).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CURVES = ROOT / "tradeoff"
RESULTS = ROOT.parent / "results" / "semeval2b-dev"

# He & Scarton, p-v2 (paraphrase-multilingual-mpnet-base-v2), TEST split, Tables 6-7: epoch -> (idiom, STS)
PAPER_EPOCHS = {0: (0.225, 0.838), 8: (0.499, 0.785), 10: (0.531, 0.740), 15: (0.539, 0.740), 25: (0.548, 0.716)}
TARGET = (0.60, 0.80)


def score_epochs(run: Path, name: str, data_dir: str | None) -> Path:
    from idiomkit.api import semeval2b_dev_metrics
    from idiomkit.models import load_model
    from idiomkit.tasks.sts import StsEvaluator
    from idiomkit.training.recipes import config_from_record
    from idiomkit.training.recipes.base import sts_validation_pairs

    info = json.loads((run / "training.json").read_text(encoding="utf-8"))
    cfg = config_from_record({**info["config"], "data_dir": data_dir or info["config"].get("data_dir")})
    history = {h["epoch"]: h for h in info["validation"]}
    sts = StsEvaluator(sts_validation_pairs(cfg))
    dirs = sorted(run.glob("epoch-*"), key=lambda p: int(p.name.split("-")[1]))
    points = []
    for d in dirs:
        epoch = int(d.name.split("-")[1])
        model = load_model(str(d), device="cpu")
        # scored as the run's result row is (the model's own prompt: e5's `query: `)
        dev = semeval2b_dev_metrics(model, data_dir=data_dir, mwe_tokens=cfg.mwe_tokens)
        val = {k: v for k, v in history.get(epoch, {}).items() if k.startswith("val_")}
        val.update(sts(model))
        points.append({"x": epoch, "dev": dev["ALL"], "val": val})
        print(f"epoch {epoch}: dev {dev['ALL']} val {val}", flush=True)
    CURVES.mkdir(exist_ok=True)
    out = CURVES / f"{name}.json"
    payload = {"name": name, "kind": "epochs", "run": str(run), "prompt": "auto", "points": points}
    out.write_text(json.dumps(payload, indent=2) + "\n")
    return out


def recipe_points() -> dict[str, tuple[float, float, int]]:
    """(idiom, STS, seeds) of every trained or zero-shot result on 2B dev (mean over seeds)."""
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for path in RESULTS.glob("*.json"):
        rec = json.loads(path.read_text(encoding="utf-8"))
        key = re.sub(r"__seed\d+$", "", path.stem)
        groups[key].append((rec["metrics"]["ALL"]["idiom"], rec["metrics"]["ALL"]["sts"]))
    return {
        k: (statistics.fmean(v[0] for v in vals), statistics.fmean(v[1] for v in vals), len(vals))
        for k, vals in groups.items()
    }


def plot(out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 7))
    ax.axvspan(TARGET[0], 1.0, ymin=0, ymax=1, alpha=0)
    ax.fill_between(
        [TARGET[0], 0.8], TARGET[1], 0.9, color="green", alpha=0.08, label="target (idiom ≥ .60, STS ≥ .80)"
    )
    ex, ey = zip(*PAPER_EPOCHS.values(), strict=True)
    ax.plot(ex, ey, "k--", marker="s", ms=4, label="He & Scarton p-v2 over epochs (TEST split)")
    for epoch, (x, y) in PAPER_EPOCHS.items():
        ax.annotate(f"{epoch}", (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    print("| curve / recipe | point | dev idiom | dev STS |\n|---|---|---|---|")
    for path in sorted(CURVES.glob("*.json")):
        curve = json.loads(path.read_text(encoding="utf-8"))
        xs = [p["dev"]["idiom"] for p in curve["points"]]
        ys = [p["dev"]["sts"] for p in curve["points"]]
        label = f"{curve['name']} ({'epochs' if curve['kind'] == 'epochs' else 'interpolation α'})"
        if curve.get("prompt", "auto") is None:  # scored before the curves used the result rows' prompt
            label += ", scored without the e5 prompt"
        ax.plot(xs, ys, marker="o", ms=4, label=label)
        for p in curve["points"]:
            ax.annotate(
                f"{p['x']:g}",
                (p["dev"]["idiom"], p["dev"]["sts"]),
                textcoords="offset points",
                xytext=(3, -9),
                fontsize=7,
            )
            print(f"| {curve['name']} | {curve['kind']} {p['x']:g} | {p['dev']['idiom']:.3f} | {p['dev']['sts']:.3f} |")
    markers = {"minilm": "^", "me5-small-enpt": "D", "mpnet": "s"}  # me5-small = me5-small-enpt on EN/PT text
    for key, (x, y, n) in sorted(recipe_points().items()):
        model, name = key.split("__", 1)
        if model not in markers:
            continue
        zero = "zero-shot" in name
        ax.scatter([x], [y], marker="*" if zero else markers[model], s=70 if zero else 30, zorder=3)
        short = name if model == "minilm" else f"{model.split('-')[0]}: {name}"
        ax.annotate(short, (x, y), textcoords="offset points", xytext=(4, 2), fontsize=6)
        print(f"| {name} ({model}, {n} seed{'s' if n > 1 else ''}) | result | {x:.3f} | {y:.3f} |")
    ax.set_xlabel("idiom Spearman (2B dev, ALL)")
    ax.set_ylabel("STS Spearman (2B dev, ALL)")
    ax.set_title("Idiom vs STS on SemEval-2022 2B dev — recipes (▲ minilm, ◆ me5-small-enpt, ■ mpnet, ★ zero-shot)")
    ax.set_xlim(0.0, 0.8)
    ax.set_ylim(0.6, 0.9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"\nwrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    ep = sub.add_parser("epochs", help="score every epoch-N model of a run on 2B dev")
    ep.add_argument("run", type=Path)
    ep.add_argument("--name", required=True)
    ep.add_argument("--data-dir", default=None)
    pl = sub.add_parser("plot", help="print the table and draw the PNG")
    pl.add_argument("--out", type=Path, default=ROOT / "tradeoff.png")
    args = parser.parse_args()
    if args.cmd == "epochs":
        print(score_epochs(args.run, args.name, args.data_dir))
    else:
        plot(args.out)


if __name__ == "__main__":
    main()
