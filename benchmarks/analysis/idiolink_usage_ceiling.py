"""How good must a literal/figurative decision be for IdioLink span retrieval to reach the target (R-Prec 60 / nDCG@10
86)? And how good is the best classifier we can train for it? Two measurements:

``oracle``: re-rank saved test run files (top 100 per query) with ``score + weight * u(q) * u(d)``, where u = ±1 is
the *gold* usage (literal -1, figurative +1) flipped at random with probability 1 - accuracy, independently per
query and document; documents without the PIE's words (simplification, sense) get u = 0 (a classifier cannot say
which PIE they paraphrase). An upper-bound analysis on test gold labels, not a system: nothing here is chosen for a
system, and every weight of the grid is printed.

``classifier``: the SemEval-2A span classifier (``idiomkit.methods.semeval2a.classifier``: minilm, top 4 layers,
2 epochs, ``[SEP]`` + span-and-mean pooling) fine-tuned on IdioLink **train** (queries + literal/idiomatic
documents; optionally plus 2A ``train_zero_shot``), accuracy on the PIE-bearing records of IdioLink **val** (unseen
PIEs), overall and per PIE. Test is not touched.

usage: python benchmarks/analysis/idiolink_usage_ceiling.py oracle [RUN.trec[.gz] ...]
       python benchmarks/analysis/idiolink_usage_ceiling.py classifier [--with-2a] [--model minilm] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent
DEFAULT_RUNS = [
    f"minilm__idiolink-infonce__{mode}__seed{seed}.run.trec{ext}"
    for mode, ext in (("span", ""), ("span-twins", ".gz"))
    for seed in (0, 1, 2)
]
ACCURACIES = (1.0, 0.97, 0.95, 0.92, 0.90, 0.85)
WEIGHTS = (0.02, 0.05, 0.1)
NOISE_SEEDS = (0, 1, 2)


def usage_sign(usage: str) -> int:
    """-1 literal, +1 figurative (idiomatic); 0 for documents without the PIE (simplification, sense)."""
    return {"literal": -1, "idiomatic": 1}.get(usage, 0)


def noisy_signs(records, accuracy: float, rng: random.Random) -> dict[str, int]:
    """Gold usage signs, each flipped with probability ``1 - accuracy``."""
    return {r.id: usage_sign(r.usage) * (1 if rng.random() < accuracy else -1) for r in records}


def oracle(paths: list[Path], data_dir: Path) -> None:
    from idiomkit.data.idiolink import load_idiolink
    from idiomkit.metrics.retrieval import r_precision_and_ndcg10
    from idiomkit.metrics.trec import read_trec_run
    from idiomkit.results import read_prediction

    split = load_idiolink(data_dir, "test")
    qrels = split.qrels()
    print("| run | usage accuracy | " + " | ".join(f"w={w} R-Prec / nDCG@10" for w in WEIGHTS) + " |")
    print("|---|---|" + "---|" * len(WEIGHTS))
    for path in paths:
        run = read_trec_run(read_prediction(path))
        name = path.name.removesuffix(".gz").removesuffix(".run.trec")
        plain = r_precision_and_ndcg10(qrels, run)
        print(f"| {name} | (none) | {plain['r_precision']:.2f} / {plain['ndcg@10']:.2f} |" + " |" * (len(WEIGHTS) - 1))
        for accuracy in ACCURACIES:
            cells = []
            for w in WEIGHTS:
                scores = []
                for noise_seed in NOISE_SEEDS:
                    rng = random.Random(noise_seed)
                    u_q, u_d = noisy_signs(split.queries, accuracy, rng), noisy_signs(split.documents, accuracy, rng)
                    reranked = {
                        q: sorted(((d, s + w * u_q[q] * u_d[d]) for d, s in docs), key=lambda x: -x[1])
                        for q, docs in run.items()
                    }
                    m = r_precision_and_ndcg10(qrels, reranked)
                    scores.append((m["r_precision"], m["ndcg@10"]))
                rp, nd = np.mean(scores, axis=0)
                cells.append(f"{rp:.2f} / {nd:.2f}")
            print(f"| {name} | {accuracy:.2f} | " + " | ".join(cells) + " |")
    print(f"\nMeans over {len(NOISE_SEEDS)} noise draws; re-ranking within each run's top 100 (test, gold usages).")


def classifier(data_dir: Path, model_name: str, with_2a: bool, seed: int) -> None:
    from idiomkit.data.idiolink import load_idiolink
    from idiomkit.data.semeval2a import Example2A, load_setting
    from idiomkit.methods.semeval2a.classifier import ClassifierConfig, classify, train_classifier
    from idiomkit.models import load_model

    def records(split: str):
        s = load_idiolink(data_dir, split)
        return [r for r in [*s.queries, *s.documents] if r.usage in ("literal", "idiomatic")]

    def examples(records) -> list[Example2A]:
        return [
            Example2A(r.id, "EN", r.span_text, "", r.sentence, "", 0 if r.usage == "idiomatic" else 1) for r in records
        ]

    val_records = records("val")
    train, val = examples(records("train")), examples(val_records)
    if with_2a:
        train += load_setting(data_dir, "zero_shot")[0]
    cfg = ClassifierConfig(model=model_name, epochs=2, train_layers=4, tune_threshold=False, seed=seed)
    model, info = train_classifier(load_model(model_name), train, cfg)
    predicted, _ = classify(model, val, cfg, 0.5)
    correct = np.array([p == ex.label for p, ex in zip(predicted, val, strict=True)])
    is_query = np.array([ex.id.startswith("q_") for ex in val])
    data = "IdioLink train" + (" + 2A train_zero_shot" if with_2a else "")
    print(f"{model_name} classifier on {data} ({len(train)} examples, {info['train_s']:.0f} s), seed {seed}:")
    print(
        f"IdioLink val accuracy {100 * correct.mean():.1f} % ({len(val)} records; queries "
        f"{100 * correct[is_query].mean():.1f}, documents {100 * correct[~is_query].mean():.1f})"
    )
    by_pie: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(val_records):
        by_pie[r.idiom].append(i)
    print("| PIE | literal correct % | idiomatic correct % |\n|---|---|---|")
    for pie, idx in sorted(by_pie.items()):
        lit = [i for i in idx if val[i].label == 1]
        fig = [i for i in idx if val[i].label == 0]
        print(f"| {pie} | {100 * correct[lit].mean():.0f} | {100 * correct[fig].mean():.0f} |")


def main() -> None:
    from idiomkit.settings import default_data_dir

    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("oracle", "classifier"))
    parser.add_argument("runs", nargs="*", type=Path)
    parser.add_argument("--with-2a", action="store_true")
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    data_dir = args.data_dir or default_data_dir()
    if args.what == "oracle":
        oracle(args.runs or [ROOT.parent / "results" / "idiolink-test" / name for name in DEFAULT_RUNS], data_dir)
    else:
        classifier(data_dir, args.model, args.with_2a, args.seed)


if __name__ == "__main__":
    main()
