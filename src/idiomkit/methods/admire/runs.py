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
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sklearn.metrics import roc_auc_score

from idiomkit.data.admire import load_admire
from idiomkit.errors import OptionError
from idiomkit.methods.admire import features as af
from idiomkit.methods.admire import query_encoder as tr
from idiomkit.methods.admire import structured as st
from idiomkit.methods.runner import RunContext
from idiomkit.models import load_model, resolve_name
from idiomkit.results import ResultRecord, result_path, write_result
from idiomkit.settings import seed_everything
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
class RankerOptions:
    """What the rankers over frozen similarities share: the model, the query mode and the type signals."""

    model: str = field(default="minilm", metadata={"short": "m"})
    query_mode: str = "marked+span"
    signals: list[str] = field(default_factory=lambda: list(SIGNALS), metadata={"choices": SIGNALS})


@dataclass
class FeatureRankerOptions(RankerOptions):
    """Pairwise logistic ranker over per-caption features (:mod:`idiomkit.methods.admire.features`)."""

    c: float = field(default=0.1, metadata={"help": "inverse L2 strength of the logistic ranker (fixed)"})
    folds: int = 5
    threads: int = 2


@dataclass
class StructuredRankerOptions(RankerOptions):
    """A model of whole caption orders that also reads caption-caption similarities (:mod:`...structured`)."""

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


def item_sets(data: AdmireData) -> dict[str, list]:
    """The items each run scores: ``pool`` (train+dev, cross-validated), ``test`` and ``xe`` (the extended set)."""
    return {"pool": data.pool, "test": data.splits["test"].items, "xe": data.splits["xe"].items}


@dataclass
class EncoderRun:
    """What every seed and split of one query-encoder variant reads: the start model, the items and their captions."""

    options: QueryEncoderOptions
    context: RunContext
    name: str
    recipe: str
    base: Any
    data: AdmireData
    sets: dict[str, list]
    captions: dict[str, Any]


def query_encoder_config(options: QueryEncoderOptions) -> tuple[Any, str]:
    """The variant's training config (None: zero-shot) and its recipe name (``-<E>ep`` when epochs are overridden)."""
    if options.variant != "zero-shot" and options.variant not in tr.VARIANTS:
        raise OptionError(f"--variant: {options.variant!r} is not zero-shot or one of {', '.join(tr.VARIANTS)}")
    cfg = None if options.variant == "zero-shot" else tr.VARIANTS[options.variant]
    if cfg is not None and options.epochs:
        return replace(cfg, epochs=options.epochs), f"{options.variant}-{options.epochs}ep"
    return cfg, options.variant


def run_query_encoder(options: QueryEncoderOptions, context: RunContext) -> list[Path]:
    """Cross-validation (+ test) of one query-encoder variant for each seed; existing result files are skipped."""
    torch.set_num_threads(options.threads)
    cfg, recipe = query_encoder_config(options)
    data = load_admire_data(context.data_dir)
    name = options.model_name or (
        Path(options.model).name if Path(options.model).is_dir() else resolve_name(options.model)
    )
    base = load_model(options.model)
    sets = item_sets(data)
    captions = {k: tr.caption_embeddings(base, v, CACHE) for k, v in sets.items()}
    run = EncoderRun(options, context, name, recipe, base, data, sets, captions)
    written = []
    for seed in [0] if cfg is None else options.seeds:
        run_cfg = None if cfg is None else replace(cfg, seed=seed, query_mode=options.query_mode)
        for split in ("cv",) if options.no_test else ("cv", "test"):
            path = result_path(context.results_dir, "admire", name, recipe, seed, f"{split}-{options.query_mode}")
            if path.is_file():
                log.info("skip (exists): %s", path)
                continue
            written.append(write_encoder_result(run, run_cfg, seed, split))
    return written


def fit_encoder(run: EncoderRun, run_cfg, split: str) -> tuple[Any, dict, dict[str, str]]:
    """Train and score one split: ``cv`` (out of fold over the pool) or ``test`` (trained on the whole pool); the
    trained run, its metrics and its prediction files."""
    pool, caps, options = run.sets["pool"], run.captions, run.options
    if split == "cv":
        fitted = tr.cross_validate(run.base, pool, caps["pool"], run_cfg, options.query_mode, options.folds)
        metrics = score_items(pool, fitted.scores)
        metrics["folds"] = fold_metrics(pool, fitted.scores, fitted.folds, options.folds)
        return (
            fitted,
            metrics,
            {"predictions.tsv": predictions_tsv(pool, fitted.scores, [str(f) for f in fitted.folds])},
        )
    test, xe_items = run.sets["test"], run.sets["xe"]
    fitted, xe = tr.train_and_test(
        run.base, pool, caps["pool"], [test, xe_items], [caps["test"], caps["xe"]], run_cfg, options.query_mode
    )
    preds = {
        "predictions.tsv": predictions_tsv(test, fitted.scores),
        "submission_xe.tsv": submission_tsv(xe_items, xe.scores),
    }
    return fitted, score_items(test, fitted.scores), preds


def write_encoder_result(run: EncoderRun, run_cfg, seed: int, split: str) -> Path:
    """Train, score and write one (seed, split) result of the variant (predictions first)."""
    options, variant = run.options, f"{split}-{run.options.query_mode}"
    seed_everything(seed)
    start = time.perf_counter()
    fitted, metrics, preds = fit_encoder(run, run_cfg, split)
    params = {
        "query_mode": options.query_mode,
        "variant": variant,
        "folds": options.folds,
        "fold_seed": 0,
        "config": asdict(run_cfg) if run_cfg else None,
        "caption_tower": "frozen start model",
        "command": run.context.command,
        "split": split,
        "train_s": round(fitted.train_s, 2),
        "trainable_params": fitted.trainable,
        "n_items": len(fitted.scores),
    }
    record = ResultRecord.timed(
        "admire", run.name, run.recipe, seed, metrics=metrics, params=params, files=run.data.files, start=start
    )
    out = write_result(record, run.context.results_dir, variant=variant, predictions=preds)
    m = metrics
    log.info("%s: top1 %.3f dcg %.3f rho %.3f tau %.3f", out, m["top1"], m["dcg"], m["spearman"], m["kendall"])
    return out


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


@dataclass
class RankerInputs:
    """What each type signal's ranker reads (:func:`ranker_inputs`): the items, their caption embeddings and
    query-caption similarities, the folds, and the stacked ranker's scores / the type classifier's logits if any."""

    name: str
    data: AdmireData
    sets: dict[str, list]
    caps: dict[str, Any]
    sims: dict[str, Any]
    folds: list[int]
    seed: int
    start: float
    encode_s: float
    learned: Any = None
    stacked: dict[str, Any] = field(default_factory=dict)
    type_extra: dict[str, Any] = field(default_factory=dict)
    type_info: dict[str, Any] | None = None


@dataclass
class SignalFit:
    """One type signal's ranker: out-of-fold pool scores, test scores, a scorer of the extended set, its weights and
    config, and (structured ``proxy``) how well it detected the sentence type, by split."""

    oof: np.ndarray
    test: np.ndarray
    xe: Callable[[], np.ndarray]
    w: np.ndarray
    config: dict[str, Any]
    type_detection: dict[str, Any] = field(default_factory=dict)


def ranker_inputs(ranker: str, options: RankerOptions, context: RunContext) -> RankerInputs:
    """Embed every item set once; the stacked ranker and the type classifier (structured only) once for all
    signals (the feature/structured rankers themselves are deterministic: seed 0 unless one of those is used)."""
    structured = ranker == "structured"
    stack_variant = options.stack if structured else None
    type_classifier = options.type_classifier if structured else False
    data = load_admire_data(context.data_dir)
    name = resolve_name(options.model)
    model = load_model(options.model)
    start = time.perf_counter()
    sets = item_sets(data)
    caps = {k: tr.caption_embeddings(model, v, str(CACHE)) for k, v in sets.items()}
    sims = {k: af.similarities(model, v, caps[k], options.query_mode) for k, v in sets.items()}
    encode_s = time.perf_counter() - start
    inputs = RankerInputs(
        name,
        data,
        sets,
        caps,
        sims,
        folds=tr.compound_folds(data.pool, options.folds, 0),
        seed=options.seed if stack_variant or type_classifier else 0,
        start=start,
        encode_s=encode_s,
        stacked={k: None for k in sets},
        type_extra={k: None for k in sets},
    )
    if stack_variant:
        inputs.learned = stacked_ranker(model, data.pool, caps["pool"], stack_variant, options.seed, options.query_mode)
        everything = np.arange(len(data.pool))
        inputs.stacked = {k: inputs.learned(everything, sets[k], caps[k]) for k in ("test", "xe")}
        inputs.stacked["pool"] = st.out_of_fold(
            inputs.learned, data.pool, caps["pool"], everything, np.asarray(inputs.folds)
        )
    if type_classifier:
        inputs.type_extra, inputs.type_info = st.semeval2a_literal_logits(
            sets, context.data_dir, seed=options.seed, epie=options.type_epie
        )
    return inputs


def ranker_recipe(ranker: str, options: RankerOptions, signal: str) -> str:
    """``<ranker>-ranker[+<stack>][-<signal>-type]``; the proxy signal names the type classifier that helps it."""
    structured = ranker == "structured"
    stack = f"+{options.stack}" if structured and options.stack else ""
    type_kind = "proxy+2a+epie" if structured and options.type_epie else "proxy+2a"
    kind = type_kind if signal == "proxy" and structured and options.type_classifier else signal
    return f"{ranker}-ranker{stack}" + ("" if signal == "none" else f"-{kind}-type")


def fit_structured(options: StructuredRankerOptions, inp: RankerInputs, signal: str) -> SignalFit:
    """The structured ranker of ``signal``: cross-validated on the pool, then fitted on all of it."""
    pool, test, caps, sims, extra = inp.sets["pool"], inp.sets["test"], inp.caps, inp.sims, inp.type_extra
    oof = st.cross_validated_structured_scores(
        caps["pool"], sims["pool"], pool, inp.folds, signal, options.l2, inp.learned, extra["pool"]
    )
    fitted = st.StructuredRanker(signal, options.l2).fit(
        caps["pool"], sims["pool"], pool, inp.stacked["pool"], extra["pool"]
    )
    config = {
        "ranker": "softmax over the 120 caption orders, linear in order features (structured)",
        "l2": options.l2,
        "type_signal": signal,
        "features": fitted.w.size,
        "decode": "most probable order",
        "type_classifier": inp.type_info
        and {
            "semeval2a_train": "EN, zero-shot + one-shot files",
            "epie_formal": options.type_epie,
            "train_examples": inp.type_info.get("train_examples"),
            "seed": inp.seed,
            "best": inp.type_info.get("best"),
        },
        "stacked": options.stack and {"variant": options.stack, "seed": options.seed, "inner_folds": "the other folds"},
    }
    test_scores = fitted.scores(caps["test"], sims["test"], test, inp.stacked["test"], extra["test"])
    detection = {}
    if signal == "proxy":  # how often the sentence's sense was guessed right
        detection = {
            "cv": st.type_detection(sims["pool"], pool, inp.folds, extra["pool"]),
            "test": st.type_metrics(test, fitted.idiomatic_probability(sims["test"], test, extra["test"])),
        }

    def xe() -> np.ndarray:
        return fitted.scores(caps["xe"], sims["xe"], inp.sets["xe"], inp.stacked["xe"], extra["xe"])

    return SignalFit(oof, test_scores, xe, fitted.w, config, detection)


def fit_features(options: FeatureRankerOptions, inp: RankerInputs, signal: str) -> SignalFit:
    """The pairwise feature ranker of ``signal``: cross-validated on the pool, then fitted on all of it."""
    pool, sims = inp.sets["pool"], inp.sims
    ranks = np.array([it.gold_ranks for it in pool])

    def features(split: str) -> np.ndarray:
        return af.features(sims[split], af.type_signal(sims[split], inp.sets[split], signal))

    f_pool = features("pool")
    oof = af.cross_validated_scores(f_pool, ranks, inp.folds, options.c)
    w = af.fit_ranker(f_pool, ranks, options.c)
    config = {
        "ranker": "pairwise logistic regression over frozen similarities",
        "c": options.c,
        "type_signal": signal,
        "features": w.size,
    }
    return SignalFit(oof, features("test") @ w, lambda: features("xe") @ w, w, config)


def signal_params(options, context: RunContext, inp: RankerInputs, fit: SignalFit, split: str, signal: str) -> dict:
    """The params recorded with one (signal, split) result."""
    params = {
        "query_mode": options.query_mode,
        "variant": f"{split}-{options.query_mode}",
        "split": split,
        "config": fit.config,
        "trainable_params": int(fit.w.size) + (inp.learned.trainable() if inp.learned else 0),
        "weights": [round(float(x), 4) for x in fit.w],
        "folds": options.folds,
        "fold_seed": 0,
        "encode_s": round(inp.encode_s, 1),
        "n_items": len(inp.sets["pool" if split == "cv" else "test"]),
        "command": context.command,
    }
    if fit.type_detection:
        params["type_detection"] = fit.type_detection[split]
    if signal == "oracle":
        params["oracle"] = "reads the gold sentence_type of the ranked item: an upper bound, not a system"
    return params


def write_signal(ranker: str, options, context: RunContext, inp: RankerInputs, signal: str) -> list[tuple[Path, tuple]]:
    """Fit ``signal``'s ranker and write its cv and test results (predictions first; the extended-set submission
    beside test, but for the oracle); each result's path and table row."""
    fit = fit_structured(options, inp, signal) if ranker == "structured" else fit_features(options, inp, signal)
    recipe = ranker_recipe(ranker, options, signal)
    out = []
    for split, items, scores in (("cv", inp.sets["pool"], fit.oof), ("test", inp.sets["test"], fit.test)):
        metrics = score_items(items, scores)
        if split == "cv":
            metrics["folds"] = fold_metrics(items, scores, inp.folds, options.folds)
        params = signal_params(options, context, inp, fit, split, signal)
        record = ResultRecord.timed(
            "admire", inp.name, recipe, inp.seed, metrics=metrics, params=params, files=inp.data.files, start=inp.start
        )
        preds = {
            "predictions.tsv": predictions_tsv(items, scores, [str(f) for f in inp.folds] if split == "cv" else None)
        }
        if split == "test" and signal != "oracle":
            preds["submission_xe.tsv"] = submission_tsv(inp.sets["xe"], fit.xe())
        path = write_result(record, context.results_dir, variant=params["variant"], predictions=preds)
        m = metrics
        out.append(
            (path, (recipe, split, m["top1"], m["spearman"], m["idiomatic"]["spearman"], m["literal"]["spearman"]))
        )
    return out


def run_rankers(ranker: str, options: RankerOptions, context: RunContext) -> list[Path]:
    """Each type signal's ranker: cv + test result files (predictions beside them) and a logged table."""
    torch.set_num_threads(options.threads)
    inp = ranker_inputs(ranker, options, context)
    results = [result for signal in options.signals for result in write_signal(ranker, options, context, inp, signal)]
    pool = inp.sets["pool"]
    literal = [it.sentence_type == "literal" for it in pool]
    auc = roc_auc_score(literal, -af.type_signal(inp.sims["pool"], pool, "proxy"))
    table = "\n".join(f"| {r[0]} | {r[1]} | {r[2]:.3f} | {r[3]:.3f} | {r[4]:.3f} | {r[5]:.3f} |" for _, r in results)
    log.info(
        "%s, %s, %s ranker; proxy type signal: AUC %.3f for literal vs idiomatic (train+dev)\n"
        "| recipe | split | top1 | spearman | idiomatic ρ | literal ρ |\n|---|---|---|---|---|---|\n%s",
        inp.name,
        options.query_mode,
        ranker,
        auc,
        table,
    )
    return [path for path, _ in results]
