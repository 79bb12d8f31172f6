"""Train the idiom sense check (issue #37 point 4), ship it and record its numbers.

Trains :func:`idiomkit.idioms.sense_training.train_sense_check` (CPU, about a minute), writes the model to
``src/idiomkit/idioms/resources/sense.json`` and the numbers to ``benchmarks/sense/sense_check.json``, and prints a
table: accuracy and macro-F1 on the held-out validation idioms of each training source and on SemEval-2022 2A dev
(zero-shot: its idioms are unseen), beside the always-figurative baseline.

    .venv/bin/python benchmarks/sense/sense_check.py [--data-dir ../shared/data] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

from idiomkit.idioms.sense import RESOURCE
from idiomkit.idioms.sense_training import train_sense_check
from idiomkit.results import atomic_write_text, git_commit
from idiomkit.settings import run_data_dir

OUT = Path(__file__).with_name("sense_check.json")
ROOT = Path(__file__).resolve().parents[2]


def table(report: dict) -> str:
    """One row per evaluated set: n, accuracy and macro-F1 of the model and of the always-figurative baseline."""
    lines = [f"{'set':32} {'n':>5} {'fig':>5} {'acc':>6} {'F1':>6} {'base acc':>8} {'base F1':>7}"]
    sets = [(f"validation {k}", v) for k, v in report["validation"].items()]
    sets += [(f"2A dev {k}", v) for k, v in report["evaluation"]["2A dev"].items()]
    for name, s in sets:
        lines.append(
            f"{name:32} {s['n']:5d} {s['figurative']:5d} {s['accuracy']:6.3f} {s['macro_f1']:6.3f} "
            f"{s['baseline_accuracy']:8.3f} {s['baseline_macro_f1']:7.3f}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model-out", type=Path, default=RESOURCE)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    start = time.perf_counter()
    check, report = train_sense_check(run_data_dir(args.data_dir), seed=args.seed)
    check.save(args.model_out)
    shown = args.model_out.resolve()
    shown = shown.relative_to(ROOT) if shown.is_relative_to(ROOT) else shown
    report["model_file"] = {"path": str(shown), "bytes": args.model_out.stat().st_size}
    report["train_s"] = round(time.perf_counter() - start, 1)
    report["commit"] = git_commit()
    atomic_write_text(OUT, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    print(table(report))
    print(
        f"threshold {check.threshold}, groups {'+'.join(check.groups)}, C {check.summary['C']}, "
        f"{len(check.weights)} features, {report['model_file']['bytes'] / 1024:.0f} KiB"
    )


if __name__ == "__main__":
    main()
