"""AdMIRe subtask A (text): rankers over frozen similarities, and the ceiling of "knowing the sense".

``--ranker feature``: a pairwise logistic ranker over per-caption features (:mod:`idiomkit.methods.admire.features`);
``--ranker structured``: a model of whole caption orders that also reads caption-caption similarities (the task's
two pairs + distractor structure; :mod:`idiomkit.methods.admire.structured`).
For each type signal (``none``, ``proxy``, ``oracle``) writes
``admire/<model>__<ranker>-ranker[-<signal>-type]__{cv,test}-<query mode>__seed0.json`` (5-fold CV by compound on the
85 train+dev items, and train-on-85 / score-test) with predictions beside them, and prints a table. Deterministic
(no seed), no tuning: the L2 strength is fixed (``--c``). The ``oracle`` rows read the gold ``sentence_type`` of the
item being ranked: an upper bound for a system that knew the sense, not a system (no extended-set submission).

    python benchmarks/admire_features.py
    python benchmarks/admire_features.py -m me5-small-enpt
    python benchmarks/admire_features.py --ranker structured
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-m", "--model", default="minilm")
    ap.add_argument("--query-mode", default="marked+span")
    ap.add_argument("--signals", nargs="+", default=["none", "proxy", "oracle"])
    ap.add_argument("--ranker", choices=["feature", "structured"], default="feature")
    ap.add_argument("--c", type=float, default=0.1, help="inverse L2 strength of the logistic ranker (fixed)")
    ap.add_argument("--l2", type=float, default=0.01, help="L2 strength of the structured ranker (fixed)")
    ap.add_argument(
        "--stack",
        default=None,
        help="structured: also read the scores of this trained ranker "
        "(a key of methods.admire.query_encoder.VARIANTS, e.g. lora-ranked-triplet; trained per fold, nested CV)",
    )
    ap.add_argument("--seed", type=int, default=0, help="seed of the stacked ranker's training")
    ap.add_argument(
        "--type-classifier",
        action="store_true",
        help="structured, proxy signal: the type classifier also reads a SemEval-2A span classifier's logit "
        "(fine-tuned on 2A train EN with --seed; recipe suffix -proxy+2a-type)",
    )
    ap.add_argument(
        "--type-epie",
        action="store_true",
        help="--type-classifier: also train it on the labelled EPIE formal sentences "
        "(recipe suffix -proxy+2a+epie-type)",
    )
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--results-dir", default=None, help="default: $IDIOMKIT_RESULTS_DIR or benchmarks/results")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    import numpy as np
    import torch

    torch.set_num_threads(args.threads)
    from idiomkit.config import default_data_dir, default_results_dir
    from idiomkit.data.admire import load_admire
    from idiomkit.methods.admire import features as af
    from idiomkit.methods.admire import structured as st
    from idiomkit.methods.admire.query_encoder import caption_embeddings, compound_folds
    from idiomkit.models import load_model, resolve_name
    from idiomkit.results import ResultRecord, atomic_write_text, sha256_files, write_result
    from idiomkit.tasks.admire import predictions_tsv, score_items, submission_tsv

    results_dir = args.results_dir or default_results_dir()
    command = "python " + " ".join(shlex.quote(a) for a in sys.argv)
    splits = {s: load_admire(default_data_dir(), s) for s in ("train", "dev", "test", "xe")}
    pool = splits["train"].items + splits["dev"].items
    files = [f for s in splits.values() for f in s.files]
    name = resolve_name(args.model)
    model = load_model(args.model)
    start = time.perf_counter()
    sets = {"pool": pool, "test": splits["test"].items, "xe": splits["xe"].items}
    caps = {k: caption_embeddings(model, v, "runs/admire-cache") for k, v in sets.items()}
    sims = {k: af.similarities(model, v, caps[k], args.query_mode) for k, v in sets.items()}
    encode_s = time.perf_counter() - start
    folds = compound_folds(pool, args.folds, 0)
    ranks = np.array([it.gold_ranks for it in pool])
    if (args.stack or args.type_classifier) and args.ranker != "structured":
        ap.error("--stack and --type-classifier need --ranker structured")
    if args.type_epie and not args.type_classifier:
        ap.error("--type-epie needs --type-classifier")
    seed = args.seed if args.stack or args.type_classifier else 0  # the feature/structured rankers are deterministic
    learned, stacked = None, {k: None for k in sets}
    if args.stack:  # the stacked ranker's scores do not depend on the type signal: computed once for all signals
        learned = stacked_ranker(model, pool, caps["pool"], args.stack, args.seed, args.query_mode)
        everything = np.arange(len(pool))
        stacked = {k: learned(everything, sets[k], caps[k]) for k in ("test", "xe")}
        stacked["pool"] = st.out_of_fold(learned, pool, caps["pool"], everything, np.asarray(folds))
    type_extra, type_info = {k: None for k in sets}, None
    if args.type_classifier:
        type_extra, type_info = st.semeval2a_literal_logits(
            sets, default_data_dir(), seed=args.seed, epie=args.type_epie
        )
    rows = []
    stack = f"+{args.stack}" if args.stack else ""
    type_kind = "proxy+2a+epie" if args.type_epie else "proxy+2a"
    for signal in args.signals:
        kind = type_kind if signal == "proxy" and args.type_classifier else signal
        recipe = f"{args.ranker}-ranker{stack}" + ("" if signal == "none" else f"-{kind}-type")
        if args.ranker == "structured":
            oof = st.cross_validated_structured_scores(caps["pool"], sims["pool"], pool, folds, signal, args.l2,
                                                       learned, type_extra["pool"])  # fmt: skip
            ranker = st.StructuredRanker(signal, args.l2).fit(caps["pool"], sims["pool"], pool, stacked["pool"],
                                                              type_extra["pool"])  # fmt: skip
            w = ranker.w
            test_scores = ranker.scores(caps["test"], sims["test"], sets["test"], stacked["test"], type_extra["test"])
            config = {
                "ranker": "softmax over the 120 caption orders, linear in order features (structured)",
                "l2": args.l2,
                "type_signal": signal,
                "features": w.size,
                "decode": "most probable order",
                "type_classifier": type_info
                and {
                    "semeval2a_train": "EN, zero-shot + one-shot files",
                    "epie_formal": args.type_epie,
                    "train_examples": type_info.get("train_examples"),
                    "seed": seed,
                    "best": type_info.get("best"),
                },  # fmt: skip
                "stacked": args.stack and {"variant": args.stack, "seed": args.seed, "inner_folds": "the other folds"},
            }
        else:
            f_pool = af.features(sims["pool"], af.type_signal(sims["pool"], pool, signal))
            oof = af.cross_validated_scores(f_pool, ranks, folds, args.c)
            w = af.fit_ranker(f_pool, ranks, args.c)
            test_scores = af.features(sims["test"], af.type_signal(sims["test"], sets["test"], signal)) @ w
            config = {
                "ranker": "pairwise logistic regression over frozen similarities",
                "c": args.c,
                "type_signal": signal,
                "features": w.size,
            }
        runs = {"cv": (pool, oof), "test": (sets["test"], test_scores)}
        for split, (items, scores) in runs.items():
            metrics = score_items(items, scores)
            if split == "cv":
                metrics["folds"] = [score_items([it for it, f in zip(items, folds, strict=True) if f == k],
                                                scores[np.asarray(folds) == k]) for k in range(args.folds)]  # fmt: skip
            variant = f"{split}-{args.query_mode}"
            params = {"query_mode": args.query_mode, "variant": variant, "split": split, "config": config,
                      "trainable_params": int(w.size) + (learned.trainable() if learned else 0),
                      "weights": [round(float(x), 4) for x in w], "folds": args.folds, "fold_seed": 0,
                      "encode_s": round(encode_s, 1), "n_items": len(items), "command": command}  # fmt: skip
            if args.ranker == "structured" and signal == "proxy":  # how often the sentence's sense was guessed right
                params["type_detection"] = (
                    st.type_detection(sims["pool"], pool, folds, type_extra["pool"]) if split == "cv"
                    else st.type_metrics(items, ranker.idiomatic_probability(sims["test"], items, type_extra["test"]))
                )  # fmt: skip
            if signal == "oracle":
                params["oracle"] = "reads the gold sentence_type of the ranked item: an upper bound, not a system"
            record = ResultRecord(task="admire", model=name, recipe=recipe, seed=seed, metrics=metrics, params=params,
                                  data_sha256=sha256_files(files), wall_s=time.perf_counter() - start)  # fmt: skip
            out = write_result(record, results_dir, variant=variant)
            extra = [str(f) for f in folds] if split == "cv" else None
            atomic_write_text(out.with_suffix(".predictions.tsv"), predictions_tsv(items, scores, extra))
            if split == "test" and signal != "oracle":
                if args.ranker == "structured":
                    xe = ranker.scores(caps["xe"], sims["xe"], sets["xe"], stacked["xe"], type_extra["xe"])
                else:
                    xe = af.features(sims["xe"], af.type_signal(sims["xe"], sets["xe"], signal)) @ w
                atomic_write_text(out.with_suffix(".submission_xe.tsv"), submission_tsv(sets["xe"], xe))
            m = metrics
            rows.append((recipe, split, m["top1"], m["spearman"], m["idiomatic"]["spearman"], m["literal"]["spearman"]))
    from sklearn.metrics import roc_auc_score

    literal = [it.sentence_type == "literal" for it in pool]
    auc = roc_auc_score(literal, -af.type_signal(sims["pool"], pool, "proxy"))
    print(f"\n{name}, {args.query_mode}, {args.ranker} ranker; proxy type signal: AUC {auc:.3f} for literal vs "
          "idiomatic (train+dev)")  # fmt: skip
    print("| recipe | split | top1 | spearman | idiomatic ρ | literal ρ |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.3f} | {r[3]:.3f} | {r[4]:.3f} | {r[5]:.3f} |")


def stacked_ranker(model, pool, pool_captions, variant: str, seed: int, query_mode: str):
    """``learned(train_idx, items, captions)`` for the structured ranker: the scores of ``variant`` trained on
    ``pool[train_idx]`` (memoised: each training set is trained once for all type signals)."""
    from dataclasses import replace

    from idiomkit.methods.admire import query_encoder as tr

    cfg = replace(tr.VARIANTS[variant], seed=seed, query_mode=query_mode)
    encoders: dict = {}

    def learned(train_idx, items, captions):
        key = tuple(int(i) for i in train_idx)
        if key not in encoders:
            encoders[key] = tr.fit(model, [pool[i] for i in key], pool_captions[list(key)], cfg, query_mode)
        return tr.encoder_scores(encoders[key], items, captions)

    learned.trainable = lambda: max((tr.count_trainable(e) for e in encoders.values()), default=0)
    return learned


if __name__ == "__main__":
    main()
