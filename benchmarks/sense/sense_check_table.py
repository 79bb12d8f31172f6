"""The sense checks side by side on SemEval-2022 2A dev (zero-shot: its idioms are in no training source), with the
threshold curve, and how often the whole reader rewrites ordinary text (STS-B and ASSIN 2 test sentences).

For each sense check (the cross-encoder and the feature model, each at its shipped threshold -- the encoder's one
per language -- chosen on the validation idioms carved from training):

- 2A dev macro-F1 (the organisers' metric) for EN, PT and both, on the gold MWE spans;
- the reader's rates on 2A dev, per language: the share of literal uses it would rewrite (P(figurative) >= the
  threshold) and of idiomatic uses it reads (rewrites);
- the threshold curve: the same numbers at thresholds 0.1 .. 0.9 (reported, never chosen on);
- the share of STS-B / ASSIN 2 test sentences the reader (shipped lexicon, ``replace``) changes;
- its cost: milliseconds per span on 2A dev (the encoder in batches, on the machine's torch threads).

Beside them the task's reference numbers (its zero-shot leaderboard on the unreleased test split, from
``semeval2022_task2/results``), the task baseline and the project's own 2A classifier rows (their result files).
Writes ``benchmarks/sense/sense_check_table.json`` (+ ``.md``) and the raw probabilities beside them
(``sense_check_table_predictions.jsonl.gz``).

    .venv/bin/python benchmarks/sense/sense_check_table.py [--data-dir ../shared/data]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import logging
import time
from pathlib import Path
from statistics import median

import numpy as np

from idiomkit.data.sts import load_sts
from idiomkit.idioms.rewrite import Rewriter
from idiomkit.idioms.sense_training import cut_points, evaluation_samples
from idiomkit.idioms.senses import named_sense
from idiomkit.idioms.sources import default_lexicon
from idiomkit.metrics.classification import macro_f1
from idiomkit.results import atomic_write_text, git_commit
from idiomkit.settings import run_data_dir

OUT = Path(__file__).with_name("sense_check_table.json")
RESULTS_2A = Path(__file__).resolve().parents[1] / "results" / "semeval2a-dev"
CURVE = [round(t, 1) for t in np.arange(0.1, 0.91, 0.1)]
TASK_BASELINE = 0.65  # the organisers' mBERT zero-shot baseline on 2A dev, as the task reports it


def rates(gold: np.ndarray, prob: np.ndarray, threshold: float | np.ndarray) -> dict[str, float]:
    pred = prob >= threshold
    return {
        "macro_f1": round(macro_f1(gold.tolist(), pred.tolist()), 4),
        "literal_rewritten": round(float(pred[~gold].mean()), 4),
        "idiomatic_read": round(float(pred[gold].mean()), 4),
    }


def by_language(samples, probs, threshold) -> dict[str, dict[str, float]]:
    """:func:`rates` per language and for all, at ``threshold`` (a number, or a function of the language)."""
    gold = np.array([s.figurative for s in samples])
    lang = np.array([s.language for s in samples])
    probs, cut = np.asarray(probs), np.broadcast_to(cut_points(samples, threshold), len(samples))
    out = {code: rates(gold[lang == code], probs[lang == code], cut[lang == code]) for code in ("EN", "PT")}
    out["ALL"] = rates(gold, probs, cut)
    return out


def threshold_label(check) -> str:
    """The shipped threshold(s): one number, or one per language."""
    per_language = getattr(check, "thresholds", None)
    if not per_language:
        return f"{check.threshold:.2f}"
    return " / ".join(f"{code} {value:.2f}" for code, value in sorted(per_language.items()))


def sts_rewrite_rate(data_dir: Path, sense) -> dict[str, dict[str, float | int]]:
    """The share of STS-B / ASSIN 2 test sentences the reader (shipped lexicon, replace mode) changes."""
    rewriter = Rewriter(default_lexicon(), "replace", sense)
    out = {}
    for source in ("stsb-en", "assin2"):
        sentences = sorted({s for p in load_sts(data_dir, "test", (source,)) for s in (p.sentence_1, p.sentence_2)})
        changed = [t for t, r in zip(sentences, rewriter.read_all(sentences), strict=True) if r.rewritten != t]
        out[source] = {
            "sentences": len(sentences),
            "rewritten": len(changed),
            "share": round(len(changed) / len(sentences), 4),
        }
    return out


def torch_threads() -> int:
    import torch

    return torch.get_num_threads()


def leaderboard(data_dir: Path) -> dict[str, float]:
    path = (
        data_dir / "semeval2022_task2" / "results" / "best_submission_for_each_participant" / "subtask_a_zero_shot.csv"
    )
    with path.open(encoding="utf-8") as f:
        scores = [float(r["F1 Score"]) for r in csv.DictReader(f)]
    return {"best": max(scores), "median": round(median(scores), 4), "teams": len(scores)}


def classifier_rows(results: Path = RESULTS_2A) -> dict[str, dict[str, list[float]]]:
    """The project's own 2A classifiers (fine-tuned on 2A train, zero-shot setting, scored on 2A dev by
    ``idiomkit evaluate semeval2a``): per configuration, each seed's macro-F1 EN, PT and ALL."""
    rows: dict[str, dict[str, list[float]]] = {}
    for path in sorted(results.glob("*__classifier-*__zero_shot-*__seed*.json")):
        model, recipe, setting, _ = path.stem.split("__")
        metrics = json.loads(path.read_text(encoding="utf-8"))["metrics"]
        row = rows.setdefault(f"{model} {recipe} {setting}", {"EN": [], "PT": [], "ALL": []})
        for code in row:
            row[code].append(round(float(metrics[code]["macro_f1"]), 4))
    return rows


def _mean_std(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.3f}"
    return f"{np.mean(values):.3f} ± {np.std(values, ddof=1):.3f}"


def markdown(report: dict) -> str:
    lines = [
        "| sense check | threshold | 2A dev F1 EN | PT | ALL | literal rewritten EN / PT | idiomatic read EN / PT |"
        " STS-B rewritten | ASSIN 2 rewritten | ms per span |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, row in report["checks"].items():
        d, s = row["2A dev"], row["sts"]
        lines.append(
            f"| {name} | {row['threshold_label']} | {d['EN']['macro_f1']:.3f} | {d['PT']['macro_f1']:.3f} | "
            f"{d['ALL']['macro_f1']:.3f} | {d['EN']['literal_rewritten']:.2f} / {d['PT']['literal_rewritten']:.2f} | "
            f"{d['EN']['idiomatic_read']:.2f} / {d['PT']['idiomatic_read']:.2f} | "
            f"{100 * s['stsb-en']['share']:.1f} % | {100 * s['assin2']['share']:.1f} % | {row['ms_per_span']:.1f} |"
        )
    board = report["reference"]
    lines += [
        "",
        f"Reference (2A zero-shot, macro-F1 ALL): task baseline {TASK_BASELINE:.2f} (dev); leaderboard on the "
        f"unreleased test split: best {board['best']:.3f}, median {board['median']:.3f} of {board['teams']} teams.",
        "",
        "The project's 2A classifiers (a cross-encoder fine-tuned on 2A train per configuration, zero-shot, "
        "`benchmarks/results/semeval2a-dev`; mean ± std over seeds; not sense checks: they read the gold span and "
        "its sentence, at their own threshold):",
        "",
        "| classifier | seeds | F1 EN | F1 PT | F1 ALL |",
        "|---|---|---|---|---|",
        *(
            f"| {name} | {len(row['ALL'])} | {_mean_std(row['EN'])} | {_mean_std(row['PT'])} | "
            f"{_mean_std(row['ALL'])} |"
            for name, row in report.get("classifiers", {}).items()
        ),
        "",
        "Threshold curve (2A dev, reported only; the shipped thresholds were chosen on the validation idioms):",
        "",
        "| sense check | threshold | F1 EN | F1 PT | F1 ALL | literal rewritten EN / PT | idiomatic read EN / PT |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, row in report["checks"].items():
        for t, d in row["curve"].items():
            lines.append(
                f"| {name} | {t} | {d['EN']['macro_f1']:.3f} | {d['PT']['macro_f1']:.3f} | "
                f"{d['ALL']['macro_f1']:.3f} | "
                f"{d['EN']['literal_rewritten']:.2f} / {d['PT']['literal_rewritten']:.2f} | "
                f"{d['EN']['idiomatic_read']:.2f} / {d['PT']['idiomatic_read']:.2f} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--checks", nargs="+", default=["encoder", "features"])
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    data_dir = run_data_dir(args.data_dir)
    dev = evaluation_samples(data_dir)
    dev_items = [(s.sentence, s.start, s.end) for s in dev]
    report = {
        "checks": {},
        "reference": leaderboard(data_dir) | {"task_baseline": TASK_BASELINE},
        "classifiers": classifier_rows(),
    }
    predictions = []
    for name in args.checks:
        check = named_sense(name)
        started = time.perf_counter()
        if hasattr(check, "probabilities"):
            check.probabilities(dev_items[:8])  # the model is built on first use: not part of the cost per span
            check.forget()
            started = time.perf_counter()
            probs = check.probabilities(dev_items)
        else:
            probs = [check.score(s.sentence, s.start, s.end, s.idiom, s.language) for s in dev]
        per_span_ms = 1000 * (time.perf_counter() - started) / len(dev)
        report["checks"][name] = {
            "threshold": check.threshold,
            "thresholds": dict(getattr(check, "thresholds", {})),
            "threshold_label": threshold_label(check),
            "ms_per_span": round(per_span_ms, 2),
            "torch_threads": torch_threads(),
            "2A dev": by_language(dev, probs, check.threshold_for),
            "curve": {str(t): by_language(dev, probs, t) for t in CURVE},
            "sts": sts_rewrite_rate(data_dir, check),
        }
        predictions += [
            {
                "check": name,
                "sentence": s.sentence,
                "start": s.start,
                "end": s.end,
                "language": s.language,
                "figurative": s.figurative,
                "probability": round(float(p), 5),
            }
            for s, p in zip(dev, probs, strict=True)
        ]
    report["commit"] = git_commit()
    atomic_write_text(OUT, json.dumps(report, indent=1) + "\n")
    atomic_write_text(OUT.with_suffix(".md"), markdown(report))
    with gzip.open(OUT.with_name("sense_check_table_predictions.jsonl.gz"), "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(p, ensure_ascii=False) + "\n" for p in predictions)
    print(markdown(report))


if __name__ == "__main__":
    main()
