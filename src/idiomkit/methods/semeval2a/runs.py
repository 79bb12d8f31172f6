"""SemEval-2022 Task 2A dev runs (``idiomkit run semeval2a --method classifier|sense-matcher|probe``).

Resumable: a configuration whose result file exists is skipped (``--force`` re-runs it). Dev is held out (selection
on a by-MWE split of train). Examples::

    idiomkit run semeval2a --method classifier -m me5-small-enpt --setting zero_shot --epochs 2 --seeds 0
    idiomkit run semeval2a --method probe -m minilm runs/adaptive-triplet-mwe-minilm-6ep-seed0
    idiomkit run semeval2a --method sense-matcher -m me5-small-enpt --setting one_shot --epochs 5 --seeds 0
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, NamedTuple

import torch

from idiomkit.data.definitions import load_epie_usages
from idiomkit.data.semeval2a import load_dev_split, load_setting
from idiomkit.errors import OptionError
from idiomkit.methods.runner import RunContext
from idiomkit.methods.semeval2a.classifier import (
    EXTRA,
    INPUTS,
    ClassifierConfig,
    build_inputs,
    carve_validation,
    classify,
    predict_proba,
    train_classifier,
)
from idiomkit.methods.semeval2a.sense_matcher import (
    MatcherConfig,
    choose_smoothing,
    embed,
    nearest_shot_labels,
    neighbour_smoothing,
    train_matcher,
)
from idiomkit.models import load_model, resolve_name
from idiomkit.results import ResultRecord, result_path, sha256_files, write_result
from idiomkit.tasks.semeval2a import one_shot_table, score, split_by_mwe, submission_csv

log = logging.getLogger(__name__)

SETTINGS = ("zero_shot", "one_shot")
MODELS = {"positional": True, "short": "m", "help": "registry names or model directories"}


def default_threads() -> int:
    return int(os.environ.get("OMP_NUM_THREADS", "2"))


@dataclass
class ProbeOptions:
    """Frozen-encoder logistic-regression probe through the 2A task (``idiomkit evaluate semeval2a``)."""

    model: list[str] = field(default_factory=lambda: ["minilm"], metadata=MODELS)
    setting: list[str] = field(default_factory=lambda: list(SETTINGS), metadata={"choices": SETTINGS})
    features: str = "span"
    threads: int = field(default_factory=default_threads)


@dataclass
class FineTuneOptions:
    """What the fine-tuned methods share: the (model, setting, seed) runs that :func:`run_each` goes through, and epochs
    (each method's own options follow these, in its dataclass)."""

    model: list[str] = field(default_factory=lambda: ["minilm"], metadata=MODELS)
    setting: list[str] = field(default_factory=lambda: list(SETTINGS), metadata={"choices": SETTINGS})
    seeds: list[int] = field(default_factory=lambda: [0])
    epochs: int = 2


@dataclass
class ClassifierOptions(FineTuneOptions):
    """Fine-tuned encoder + linear head: the :class:`~idiomkit.methods.semeval2a.classifier.ClassifierConfig`
    fields a run may set (their defaults are that class's), then the run's own options."""

    batch_size: int = ClassifierConfig.batch_size
    lr: float = ClassifierConfig.lr
    max_seq_length: int = ClassifierConfig.max_seq_length
    input: str = field(default=ClassifierConfig.input, metadata={"choices": INPUTS})
    context: bool = ClassifierConfig.context
    pool: str = ClassifierConfig.pool
    one_shot_repeat: int = ClassifierConfig.one_shot_repeat
    train_layers: int | None = field(
        default=ClassifierConfig.train_layers, metadata={"help": "fine-tune only the top N layers (+ head)"}
    )
    extra_train: str | None = field(
        default=ClassifierConfig.extra_train, metadata={"choices": ("epie",), "help": "EPIE formal sentences"}
    )
    smooth: bool = field(default=False, metadata={"help": "zero_shot: transductive neighbour smoothing (-knn)"})
    matcher_model: str | None = field(default=None, metadata={"help": "--smooth: the sense matcher's start model"})
    matcher_epochs: int = 3
    threads: int = field(default_factory=default_threads)
    force: bool = False


@dataclass
class MatcherOptions(FineTuneOptions):
    """One-shot sense matcher (:class:`~idiomkit.methods.semeval2a.sense_matcher.MatcherConfig`)."""

    lr: float = 5e-5
    max_seq_length: int = 128
    train_layers: int | None = field(default=None, metadata={"help": "fine-tune only the top N layers (default 4)"})
    threads: int = field(default_factory=default_threads)
    force: bool = False


def model_names(models: list[str]) -> list[str]:
    """The models in order, each once (``-m`` and positional ones together)."""
    return list(dict.fromkeys(models)) or ["minilm"]


def output_slot(context: RunContext, model_name: str, recipe: str, seed: int, variant: str, force: bool) -> str | None:
    """The model name in result files, or None (and says so) when the result file exists and ``force`` is off."""
    name = Path(model_name).name if Path(model_name).is_dir() else resolve_name(model_name)
    target = result_path(context.results_dir, "semeval2a-dev", name, recipe, seed, variant)
    if target.exists() and not force:
        log.info("skip (exists): %s", target)
        return None
    return name


def show_epoch(row: dict) -> None:
    log.info("epoch %s", json.dumps(row))


def classifier_config(options: ClassifierOptions, model_name: str, setting: str, seed: int) -> ClassifierConfig:
    """The :class:`ClassifierConfig` of one (model, setting, seed) run: every field ``options`` shares with it
    (``epochs``, ``lr``, ``input``, ...) copied, the run's model, setting and seed."""
    per_run = {"model": model_name, "setting": setting, "seed": seed}
    shared = {f.name for f in fields(ClassifierConfig)} & {f.name for f in fields(options)} - set(per_run)
    return ClassifierConfig(**{name: getattr(options, name) for name in shared}, **per_run)


class DevRun(NamedTuple):
    """What names a dev result: the model's name, the recipe, seed, setting and variant."""

    model: str
    recipe: str
    seed: int
    setting: str
    variant: str


def write_2a_result(
    context: RunContext, run: DevRun, dev, labels, params: dict[str, Any], data_files: list[Path], start: float
) -> Path:
    """Score the dev ``labels`` of ``run`` and write that ``semeval2a-dev`` result (``params`` + threads and command,
    the data files' hashes, seconds since ``start``) with its submission CSV."""
    record = ResultRecord(
        task="semeval2a-dev",
        model=run.model,
        recipe=run.recipe,
        seed=run.seed,
        metrics=score({ex.id: lab for ex, lab in zip(dev, labels, strict=True)}, dev),
        params={**params, "threads": os.environ.get("OMP_NUM_THREADS"), "command": context.command},
        data_sha256=sha256_files(data_files),
        wall_s=time.perf_counter() - start,
    )
    predictions = {"submission.csv": submission_csv(dev, labels, run.setting)}
    path = write_result(record, context.results_dir, variant=run.variant, predictions=predictions)  # predictions first
    f1 = {lang: record.metrics[lang]["macro_f1"] for lang in ("ALL", "EN", "PT")}
    log.info("%s: ALL %.4f EN %.4f PT %.4f", path, f1["ALL"], f1["EN"], f1["PT"])
    return path


def run_classifier_once(options: ClassifierOptions, context: RunContext, model_name: str, setting: str, seed: int):
    """Fine-tune one classifier and write its result JSON + submission CSV (skip if the result exists)."""
    cfg = classifier_config(options, model_name, setting, seed)
    variant = f"{setting}-{cfg.epochs}ep" + (f"-rep{cfg.one_shot_repeat}" if cfg.one_shot_repeat != 1 else "")
    if options.smooth and (cfg.extra_train or setting != "zero_shot"):
        raise OptionError("--smooth: zero_shot setting without --extra-train only")
    recipe = cfg.recipe + ("-knn" if options.smooth else "")
    if (name := output_slot(context, model_name, recipe, seed, variant, options.force)) is None:
        return None
    start = time.perf_counter()
    train, train_files = load_setting(context.data_dir, setting)
    key_of: dict[str, str] = {}
    if cfg.extra_train == "epie":  # training only: the validation split stays SemEval's own
        usages, key_of, epie_files = load_epie_usages(context.data_dir, setting=EXTRA)
        train, train_files = train + usages, train_files + epie_files
    dev, dev_files = load_dev_split(context.data_dir)
    st = load_model(model_name)
    model, info = train_classifier(st, train, cfg, on_epoch=show_epoch, group=lambda ex: key_of.get(ex.id, ex.mwe))
    labels, p_dev = classify(model, dev, cfg, info["best"]["threshold"])
    smoothing = None
    if options.smooth:
        smoothing = smooth_by_neighbours(options, train, dev, cfg, model, p_dev, info["best"]["threshold"])
        unsmoothed = score({ex.id: lab for ex, lab in zip(dev, labels, strict=True)}, dev)
        smoothing["dev_macro_f1_unsmoothed"] = {lang: m["macro_f1"] for lang, m in unsmoothed.items()}  # reported only
        labels = smoothing.pop("labels")
    params = {
        "split": "dev",
        "setting": setting,
        "classifier": "fine-tuned encoder + linear head",
        "threshold": info["best"]["threshold"],
        "selected_epoch": info["best"]["epoch"],
        "training": info,
        **({"smoothing": smoothing} if smoothing else {}),
    }
    run = DevRun(name, recipe, seed, setting, variant)
    return write_2a_result(context, run, dev, labels, params, train_files + dev_files, start)


def smooth_by_neighbours(options: ClassifierOptions, train, dev, cfg, clf, p_dev, threshold: float) -> dict:
    """Transductive zero-shot: each dev use's P(literal) mixed with that of the most similar other dev uses of its MWE
    (span cosine of a sense matcher trained on the same train split); (k, mix) chosen on the classifier's validation
    split, scored the same way. Returns the params to record, with the dev ``labels``."""
    _, val = carve_validation(train, cfg)
    mcfg = MatcherConfig(model=options.matcher_model or cfg.model, epochs=options.matcher_epochs, seed=cfg.seed)
    _, matcher_val = split_by_mwe([ex for ex in train if ex.setting != "one_shot"], mcfg.val_fraction, mcfg.seed)
    if {ex.mwe for ex in matcher_val} != {ex.mwe for ex in val}:
        raise OptionError("--smooth: the matcher's validation MWEs differ from the classifier's")
    matcher, minfo = train_matcher(load_model(mcfg.model), train, mcfg)
    p_val = predict_proba(clf, build_inputs(val, cfg), cfg.max_seq_length)
    x_val, x_dev = embed(matcher, val, mcfg.max_seq_length), embed(matcher, dev, mcfg.max_seq_length)
    k, a, curve = choose_smoothing(p_val, x_val, [ex.mwe for ex in val], [ex.label for ex in val], threshold)
    q = neighbour_smoothing(p_dev, x_dev, [ex.mwe for ex in dev], k, a)
    return {
        "labels": [int(v >= threshold) for v in q],
        "method": "transductive: P(literal) = a * own + (1 - a) * mean over the k most similar other dev uses of the "
        "same MWE (sense-matcher span cosine; k = 0: all); no dev label is read",
        "k": k,
        "a": a,
        "validation_macro_f1": curve,
        "matcher": minfo,
    }


def run_matcher_once(options: MatcherOptions, context: RunContext, model_name: str, setting: str, seed: int):
    """One-shot sense matcher: train, label dev by its MWE's nearest shot (skip if the result exists)."""
    if setting != "one_shot":
        raise OptionError("sense-matcher: one_shot only (zero-shot dev MWEs have no shots)")
    cfg = MatcherConfig(
        model=model_name,
        epochs=options.epochs,
        lr=options.lr,
        max_seq_length=options.max_seq_length,
        train_layers=options.train_layers or 4,
        seed=seed,
    )
    variant = f"{setting}-{cfg.epochs}ep"
    if (name := output_slot(context, model_name, cfg.recipe, seed, variant, options.force)) is None:
        return None
    start = time.perf_counter()
    train, train_files = load_setting(context.data_dir, setting)
    dev, dev_files = load_dev_split(context.data_dir)
    one = [ex for ex in train if ex.setting == "one_shot"]
    try:  # checked before training: every dev MWE needs its shots
        shots = one_shot_table(one, dev)
    except ValueError as err:
        raise OptionError(f"sense-matcher: {err}") from None
    matcher, info = train_matcher(load_model(model_name), train, cfg, on_epoch=show_epoch)
    x_shots, x_dev = embed(matcher, one, cfg.max_seq_length), embed(matcher, dev, cfg.max_seq_length)
    labels = nearest_shot_labels(x_dev, [ex.mwe for ex in dev], x_shots, shots)
    single = sum(len(shots[ex.mwe]) == 1 for ex in dev)
    params = {
        "split": "dev",
        "setting": setting,
        "classifier": "nearest one-shot example (span cosine of a fine-tuned sense matcher); "
        "shots of a single label give that label",
        "selected_epoch": info["best"]["epoch"],
        "dev_examples_by_single_label_shots": single,
        "training": info,
    }
    run = DevRun(name, cfg.recipe, seed, setting, variant)
    return write_2a_result(context, run, dev, labels, params, train_files + dev_files, start)


def run_each(
    once: Callable[..., Path | None], options: ClassifierOptions | MatcherOptions, context: RunContext
) -> list[Path]:
    """``once(options, context, model, setting, seed)`` for every (model, setting, seed) of ``options``, on
    ``options.threads`` threads; returns the result files written (not those skipped)."""
    torch.set_num_threads(options.threads)
    runs = [
        once(options, context, m, s, seed)
        for m in model_names(options.model)
        for s in options.setting
        for seed in options.seeds
    ]
    return [p for p in runs if p is not None]


def run_classifier(options: ClassifierOptions, context: RunContext) -> list[Path]:
    """Every (model, setting, seed) of ``options``; returns the result files written."""
    return run_each(run_classifier_once, options, context)


def run_matcher(options: MatcherOptions, context: RunContext) -> list[Path]:
    """Every (model, setting, seed) of ``options``; returns the result files written."""
    return run_each(run_matcher_once, options, context)


def run_probe(options: ProbeOptions, context: RunContext) -> list[Path]:
    """Frozen-encoder probe through the API's ``evaluate`` (which writes the result JSON and predictions)."""
    torch.set_num_threads(options.threads)
    if context.evaluate is None:
        raise OptionError("semeval2a/probe: needs the API's evaluate (run it through idiomkit.api.run_method)")
    paths = []
    for model_name in model_names(options.model):
        for setting in options.setting:
            evaluation: Any = context.evaluate(
                "semeval2a",
                model_name,
                setting=setting,
                features=options.features,
                data_dir=context.data_dir,
                results_dir=context.results_dir,
                show_progress_bar=False,
                command=context.command,
            )
            scores = {k: round(v["macro_f1"], 4) for k, v in evaluation.record.metrics.items()}
            log.info("%s: %s", evaluation.path, json.dumps(scores))
            paths.append(evaluation.path)
    return paths
