"""Where a model's 2B dev similarities sit: the idiom pairs against the STS pairs (issue #44).

2B dev's ``all`` ranks every row together: a correct idiom pair (gold 1) must score above the STS pairs, and an
incorrect one is graded against the same model's similarity of its correct paraphrase and the incorrect one (the
organisers' otherID rule), so it asks the idiomatic sentence to embed like its correct paraphrase. Training pulls
both off: this script reads the committed plain-track 2B dev submissions of scorecards and prints, per model, the
median similarity of the correct idiom pairs, of the STS pairs with gold >= .8 and <= .2, the share of STS rows
above the idiom pairs' median, and the mean otherID gap (similarity of the idiomatic sentence and the incorrect
paraphrase minus the similarity of the correct and the incorrect paraphrase). A diagnosis of scored rows: nothing
is selected on it.

    .venv/bin/python benchmarks/analysis/semeval2b_levels.py me5-small-enpt zero-shot-reader-replace \\
        flagship-v2-pool-mean
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

from idiomkit.data.semeval2022 import GoldRow, load_subtask_b
from idiomkit.settings import default_data_dir

SCORECARDS = Path(__file__).resolve().parents[1] / "results" / "scorecard"


def submission(model: str, label: str, seed: int) -> dict[str, float]:
    """The pre-train similarities of a committed plain-track card's 2B dev submission."""
    path = SCORECARDS / f"{model}__{label}__plain__seed{seed}.semeval2b.submission.csv"
    with path.open(encoding="utf-8") as f:
        return {row["ID"]: float(row["Sim"]) for row in csv.DictReader(f) if row["Sim"]}


def levels(sims: dict[str, float], gold: list[GoldRow]) -> dict[str, float]:
    """The medians, the share of STS rows above the idiom median and the mean otherID gap (module docstring)."""
    correct = [sims[g.id] for g in gold if not g.is_sts and g.sim == 1.0]
    sts = [(sims[g.id], g.sim) for g in gold if g.is_sts and g.sim is not None]
    gaps = [sims[g.id] - sims[g.other_id] for g in gold if not g.is_sts and g.sim is None and g.other_id]
    median = float(np.median(correct))
    return {
        "idiom pairs, gold 1": median,
        "STS pairs, gold >= .8": float(np.median([s for s, y in sts if y >= 0.8])),
        "STS pairs, gold <= .2": float(np.median([s for s, y in sts if y <= 0.2])),
        "STS rows above the idiom median": float(np.mean([s > median for s, _ in sts])),
        "otherID gap": float(np.mean(gaps)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="the model name in the card's file name, e.g. me5-small-enpt")
    parser.add_argument("labels", nargs="+", help="card labels, e.g. zero-shot-reader-replace flagship-v2-pool-mean")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()
    gold = load_subtask_b(args.data_dir or default_data_dir(), "dev").gold
    rows = {label: levels(submission(args.model, label, args.seed), gold) for label in args.labels}
    columns = list(next(iter(rows.values())))
    print("| card | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for label, values in rows.items():
        cells = [f"{v:.0%}" if "above" in c else f"{v:+.3f}" if "gap" in c else f"{v:.3f}" for c, v in values.items()]
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
