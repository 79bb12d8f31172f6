"""AdMIRe subtask A (text) runs: ``idiomkit run admire --method query-encoder|features|structured``.

``query-encoder``: 5-fold cross-validation on train+dev (folds by compound) x seeds, plus test. For every seed:
``admire/<model>__<recipe>__cv-<query mode>__seed<N>.json`` (out-of-fold metrics over the 85 train+dev items,
per-fold metrics in ``metrics.folds``, predictions beside it) and ``…__test-<query mode>__…`` (trained on all 85,
scored on test; ``submission_xe.tsv`` = the extended set in the task's submission format). Finished result files
are skipped.

``features`` / ``structured``: rankers over frozen similarities, one result pair (cv, test) per type signal
(``none``, ``proxy``, ``oracle``); deterministic, no tuning (fixed ``--c`` / ``--l2``). The ``oracle`` rows read
the gold ``sentence_type`` of the item being ranked: an upper bound, not a system (no extended-set submission).

    idiomkit run admire --method query-encoder --variant zero-shot --query-mode span
    idiomkit run admire --method query-encoder --variant cnn-ranked-triplet --seeds 0 1 2 3 4
    idiomkit run admire --method features -m me5-small-enpt
    idiomkit run admire --method structured --stack lora-ranked-triplet --type-classifier --signals proxy
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import torch
from sklearn.metrics import roc_auc_score

from idiomkit.config import seed_everything
from idiomkit.data.admire import load_admire
from idiomkit.errors import OptionError
from idiomkit.methods.admire import features as af
from idiomkit.methods.admire import query_encoder as tr
from idiomkit.methods.admire import structured as st
from idiomkit.methods.runner import RunContext
from idiomkit.models import load_model, resolve_name
from idiomkit.results import ResultRecord, result_path, sha256_files, write_result
from idiomkit.tasks.admire import predictions_tsv, score_items, submission_tsv

log = logging.getLogger(__name__)
CACHE = Path("runs/admire-cache")
SIGNALS = ("none", "proxy", "oracle")


@dataclass
class QueryEncoderOptions:
    """A trained query encoder (``zero-shot`` or a key of ``methods.admire.query_encoder.VARIANTS``)."""

    variant: str = field(default="ranked-triplet", metadata={"help": "zero-shot or a query_encoder.VARIANTS key"})
    model: str = field(default="minilm", metadata={"short": "m"})
    model_name: str | None = field(default=None, metadata={"help": "name in the result file"})
    query_mode: str = "marked+span"
    seeds: list[int] = field(default_factory=lambda: [0])
    folds: int = 5
    epochs: int | None = field(default=None, metadata={"help": "override the variant's epochs (recipe -<E>ep)"})
    no_test: bool = False
    threads: int = 1


@dataclass
class FeatureRankerOptions:
    """Pairwise logistic ranker over per-caption features (:mod:`idiomkit.methods.admire.features`)."""

    model: str = field(default="minilm", metadata={"short": "m"})
    query_mode: str = "marked+span"
    signals: list[str] = field(default_factory=lambda: list(SIGNALS), metadata={"choices": SIGNALS})
    c: float = field(default=0.1, metadata={"help": "inverse L2 strength of the logistic ranker (fixed)"})
    folds: int = 5
    threads: int = 2


@dataclass
class StructuredRankerOptions:
    """A model of whole caption orders that also reads caption-caption similarities (:mod:`...structured`)."""

    model: str = field(default="minilm", metadata={"short": "m"})
    query_mode: str = "marked+span"
    signals: list[str] = field(default_factory=lambda: list(SIGNALS), metadata={"choices": SIGNALS})
    l2: float = field(default=0.01, metadata={"help": "L2 strength of the structured ranker (fixed)"})
    stack: str | None = field(default=None, metadata={"help": "also read this query_encoder.VARIANTS ranker"})
    seed: int = field(default=0, metadata={"help": "seed of the stacked ranker / type classifier"})
    type_classifier: bool = field(default=False, metadata={"help": "proxy: also a SemEval-2A span classifier"})
    type_epie: bool = field(default=False, metadata={"help": "--type-classifier: also EPIE formal sentences"})
    folds: int = 5
    threads: int = 2


@dataclass
class AdmireData:
    """The four splits, train+dev as one pool, and the files read."""

    splits: dict
    pool: list
    files: list[Path]


def load_admire_data(data_dir: Path) -> AdmireData:
    splits = {s: load_admire(data_dir, s) for s in ("train", "dev", "test", "xe")}
    files = [f for s in splits.values() for f in s.files]
    return AdmireData(splits, splits["train"].items + splits["dev"].items, files)


def fold_metrics(items, scores: np.ndarray, folds, n_folds: int) -> list[dict]:
    return [
        score_items([it for it, f in zip(items, folds, strict=True) if f == k], scores[np.asarray(folds) == k])
        for k in range(n_folds)
    ]


def run_query_encoder(options: QueryEncoderOptions, context: RunContext) -> list[Path]:
    """Cross-validation (+ test) of one query-encoder variant for each seed; existing result files are skipped."""
    torch.set_num_threads(options.threads)
    if options.variant != "zero-shot" and options.variant not in tr.VARIANTS:
        raise OptionError(f"--variant: {options.variant!r} is not zero-shot or one of {', '.join(tr.VARIANTS)}")
    data = load_admire_data(context.data_dir)
    pool, test, xe_items = data.pool, data.splits["test"].items, data.splits["xe"].items
    name = options.model_name or (
        Path(options.model).name if Path(options.model).is_dir() else resolve_name(options.model)
    )
    cfg = None if options.variant == "zero-shot" else tr.VARIANTS[options.variant]
    recipe = options.variant
    if cfg is not None and options.epochs:
        cfg, recipe = replace(cfg, epochs=options.epochs), f"{recipe}-{options.epochs}ep"
    base = load_model(options.model)
    cap_pool = tr.caption_embeddings(base, pool, CACHE)
    cap_test, cap_xe = tr.caption_embeddings(base, test, CACHE), tr.caption_embeddings(base, xe_items, CACHE)
    written = []
    for seed in [0] if cfg is None else options.seeds:
        run_cfg = None if cfg is None else replace(cfg, seed=seed, query_mode=options.query_mode)
        params = {
            "query_mode": options.query_mode,
            "variant": None,
            "folds": options.folds,
            "fold_seed": 0,
            "config": asdict(run_cfg) if run_cfg else None,
            "caption_tower": "frozen start model",
            "command": context.command,
        }
        jobs = [("cv", f"cv-{options.query_mode}")]
        jobs += [] if options.no_test else [("test", f"test-{options.query_mode}")]
        for split, variant in jobs:
            path = result_path(context.results_dir, "admire", name, recipe, seed, variant)
            if path.is_file():
                print(f"skip (exists): {path}")
                continue
            seed_everything(seed)
            start = time.perf_counter()
            if split == "cv":
                run = tr.cross_validate(base, pool, cap_pool, run_cfg, options.query_mode, options.folds)
                metrics = score_items(pool, run.scores)
                metrics["folds"] = fold_metrics(pool, run.scores, run.folds, options.folds)
                preds = {"predictions.tsv": predictions_tsv(pool, run.scores, [str(f) for f in run.folds])}
            else:
                run, xe = tr.train_and_test(
                    base, pool, cap_pool, [test, xe_items], [cap_test, cap_xe], run_cfg, options.query_mode
                )
                metrics = score_items(test, run.scores)
                preds = {
                    "predictions.tsv": predictions_tsv(test, run.scores),
                    "submission_xe.tsv": submission_tsv(xe_items, xe.scores),
                }
            record = ResultRecord(
                task="admire",
                model=name,
                recipe=recipe,
                seed=seed,
                metrics=metrics,
                params=params
                | {
                    "split": split,
                    "variant": variant,
                    "train_s": round(run.train_s, 2),
                    "trainable_params": run.trainable,
                    "n_items": len(run.scores),
                },
                data_sha256=sha256_files(data.files),
                wall_s=time.perf_counter() - start,
            )
            out = write_result(record, context.results_dir, variant=variant, predictions=preds)  # predictions first
            m = metrics
            print(f"{out}: top1 {m['top1']:.3f} dcg {m['dcg']:.3f} rho {m['spearman']:.3f} tau {m['kendall']:.3f}")
            written.append(out)
    return written


def stacked_ranker(model, pool, pool_captions, variant: str, seed: int, query_mode: str):
    """``learned(train_idx, items, captions)`` for the structured ranker: the scores of ``variant`` trained on
    ``pool[train_idx]`` (memoised: each training set is trained once for all type signals)."""
    cfg = replace(tr.VARIANTS[variant], seed=seed, query_mode=query_mode)
    encoders: dict = {}

    def learned(train_idx, items, captions):
        key = tuple(int(i) for i in train_idx)
        if key not in encoders:
            encoders[key] = tr.fit(model, [pool[i] for i in key], pool_captions[list(key)], cfg, query_mode)
        return tr.encoder_scores(encoders[key], items, captions)

    learned.trainable = lambda: max((tr.count_trainable(e) for e in encoders.values()), default=0)
    return learned


def run_feature_ranker(options: FeatureRankerOptions, context: RunContext) -> list[Path]:
    return run_rankers("feature", options, context)


def run_structured_ranker(options: StructuredRankerOptions, context: RunContext) -> list[Path]:
    if options.type_epie and not options.type_classifier:
        raise OptionError("--type-epie needs --type-classifier")
    if options.stack and options.stack not in tr.VARIANTS:
        raise OptionError(f"--stack: {options.stack!r} is not one of {', '.join(tr.VARIANTS)}")
    return run_rankers("structured", options, context)


def run_rankers(ranker: str, options, context: RunContext) -> list[Path]:
    """Each type signal's ranker: cv + test result files (predictions beside them) and a printed table."""
    torch.set_num_threads(options.threads)
    structured = ranker == "structured"
    stack_variant = options.stack if structured else None
    type_classifier = options.type_classifier if structured else False
    data = load_admire_data(context.data_dir)
    pool = data.pool
    name = resolve_name(options.model)
    model = load_model(options.model)
    start = time.perf_counter()
    sets = {"pool": pool, "test": data.splits["test"].items, "xe": data.splits["xe"].items}
    caps = {k: tr.caption_embeddings(model, v, str(CACHE)) for k, v in sets.items()}
    sims = {k: af.similarities(model, v, caps[k], options.query_mode) for k, v in sets.items()}
    encode_s = time.perf_counter() - start
    folds = tr.compound_folds(pool, options.folds, 0)
    ranks = np.array([it.gold_ranks for it in pool])
    seed = options.seed if stack_variant or type_classifier else 0  # the feature/structured rankers are deterministic
    learned, stacked = None, {k: None for k in sets}
    if stack_variant:  # the stacked ranker's scores do not depend on the type signal: computed once for all signals
        learned = stacked_ranker(model, pool, caps["pool"], stack_variant, options.seed, options.query_mode)
        everything = np.arange(len(pool))
        stacked = {k: learned(everything, sets[k], caps[k]) for k in ("test", "xe")}
        stacked["pool"] = st.out_of_fold(learned, pool, caps["pool"], everything, np.asarray(folds))
    type_extra, type_info = {k: None for k in sets}, None
    if type_classifier:
        type_extra, type_info = st.semeval2a_literal_logits(
            sets, context.data_dir, seed=options.seed, epie=options.type_epie
        )
    rows, written = [], []
    stack = f"+{stack_variant}" if stack_variant else ""
    type_kind = "proxy+2a+epie" if structured and options.type_epie else "proxy+2a"
    for signal in options.signals:
        kind = type_kind if signal == "proxy" and type_classifier else signal
        recipe = f"{ranker}-ranker{stack}" + ("" if signal == "none" else f"-{kind}-type")
        if structured:
            oof = st.cross_validated_structured_scores(
                caps["pool"], sims["pool"], pool, folds, signal, options.l2, learned, type_extra["pool"]
            )
            fitted = st.StructuredRanker(signal, options.l2).fit(
                caps["pool"], sims["pool"], pool, stacked["pool"], type_extra["pool"]
            )
            w = fitted.w
            test_scores = fitted.scores(caps["test"], sims["test"], sets["test"], stacked["test"], type_extra["test"])
            config = {
                "ranker": "softmax over the 120 caption orders, linear in order features (structured)",
                "l2": options.l2,
                "type_signal": signal,
                "features": w.size,
                "decode": "most probable order",
                "type_classifier": type_info
                and {
                    "semeval2a_train": "EN, zero-shot + one-shot files",
                    "epie_formal": options.type_epie,
                    "train_examples": type_info.get("train_examples"),
                    "seed": seed,
                    "best": type_info.get("best"),
                },
                "stacked": stack_variant
                and {"variant": stack_variant, "seed": options.seed, "inner_folds": "the other folds"},
            }
        else:
            f_pool = af.features(sims["pool"], af.type_signal(sims["pool"], pool, signal))
            oof = af.cross_validated_scores(f_pool, ranks, folds, options.c)
            w = af.fit_ranker(f_pool, ranks, options.c)
            test_scores = af.features(sims["test"], af.type_signal(sims["test"], sets["test"], signal)) @ w
            config = {
                "ranker": "pairwise logistic regression over frozen similarities",
                "c": options.c,
                "type_signal": signal,
                "features": w.size,
            }
        runs = {"cv": (pool, oof), "test": (sets["test"], test_scores)}
        for split, (items, scores) in runs.items():
            metrics = score_items(items, scores)
            if split == "cv":
                metrics["folds"] = fold_metrics(items, scores, folds, options.folds)
            variant = f"{split}-{options.query_mode}"
            params = {
                "query_mode": options.query_mode,
                "variant": variant,
                "split": split,
                "config": config,
                "trainable_params": int(w.size) + (learned.trainable() if learned else 0),
                "weights": [round(float(x), 4) for x in w],
                "folds": options.folds,
                "fold_seed": 0,
                "encode_s": round(encode_s, 1),
                "n_items": len(items),
                "command": context.command,
            }
            if structured and signal == "proxy":  # how often the sentence's sense was guessed right
                params["type_detection"] = (
                    st.type_detection(sims["pool"], pool, folds, type_extra["pool"])
                    if split == "cv"
                    else st.type_metrics(items, fitted.idiomatic_probability(sims["test"], items, type_extra["test"]))
                )
            if signal == "oracle":
                params["oracle"] = "reads the gold sentence_type of the ranked item: an upper bound, not a system"
            record = ResultRecord(
                task="admire",
                model=name,
                recipe=recipe,
                seed=seed,
                metrics=metrics,
                params=params,
                data_sha256=sha256_files(data.files),
                wall_s=time.perf_counter() - start,
            )
            extra = [str(f) for f in folds] if split == "cv" else None
            preds = {"predictions.tsv": predictions_tsv(items, scores, extra)}
            if split == "test" and signal != "oracle":
                if structured:
                    xe = fitted.scores(caps["xe"], sims["xe"], sets["xe"], stacked["xe"], type_extra["xe"])
                else:
                    xe = af.features(sims["xe"], af.type_signal(sims["xe"], sets["xe"], signal)) @ w
                preds["submission_xe.tsv"] = submission_tsv(sets["xe"], xe)
            out = write_result(record, context.results_dir, variant=variant, predictions=preds)  # predictions first
            written.append(out)
            m = metrics
            rows.append((recipe, split, m["top1"], m["spearman"], m["idiomatic"]["spearman"], m["literal"]["spearman"]))
    literal = [it.sentence_type == "literal" for it in pool]
    auc = roc_auc_score(literal, -af.type_signal(sims["pool"], pool, "proxy"))
    print(
        f"\n{name}, {options.query_mode}, {ranker} ranker; proxy type signal: AUC {auc:.3f} for literal vs "
        "idiomatic (train+dev)"
    )
    print("| recipe | split | top1 | spearman | idiomatic ρ | literal ρ |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.3f} | {r[3]:.3f} | {r[4]:.3f} | {r[5]:.3f} |")
    return written
