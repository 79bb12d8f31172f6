"""SemEval-2022 Task 2A dev grid: fine-tuned classifiers and frozen-encoder probes -> result JSONs.

Resumable: a configuration whose result file exists is skipped. Dev is held out (selection on a by-MWE split
of train). Examples::

    .venv/bin/python benchmarks/semeval2a.py classifier -m me5-small-enpt --setting zero_shot --epochs 2 --seeds 0
    .venv/bin/python benchmarks/semeval2a.py probe -m minilm runs/adaptive-triplet-mwe-minilm-6ep-seed0
    .venv/bin/python benchmarks/semeval2a.py matcher -m me5-small-enpt --setting one_shot --epochs 5 --seeds 0
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def command_line() -> str:
    return " ".join(shlex.quote(a) for a in [".venv/bin/python", *sys.argv])


def output_slot(args, model_name: str, recipe: str, seed: int, variant: str) -> tuple[str, str, str] | None:
    """(model name in result files, results dir, data dir) for a run, or None (and says so) when its result file
    exists and ``--force`` is not given."""
    from idiomkit.config import default_data_dir, default_results_dir
    from idiomkit.models import resolve_name
    from idiomkit.results import result_path

    name = Path(model_name).name if Path(model_name).is_dir() else resolve_name(model_name)
    results_dir = args.results_dir or default_results_dir()
    target = result_path(results_dir, "semeval2a-dev", name, recipe, seed, variant)
    if target.exists() and not args.force:
        print(f"skip (exists): {target}")
        return None
    return name, results_dir, args.data_dir or default_data_dir()


def run_classifier(args, model_name: str, setting: str, seed: int) -> Path | None:
    """Fine-tune one classifier and write its result JSON + submission CSV (skip if the result exists)."""
    from idiomkit.data.definitions import load_epie_usages
    from idiomkit.data.semeval2a import load_dev_split, load_setting
    from idiomkit.methods.semeval2a.classifier import EXTRA, ClassifierConfig, classify, train_classifier
    from idiomkit.models import load_model
    from idiomkit.results import ResultRecord, atomic_write_text, sha256_files, write_result
    from idiomkit.tasks.semeval2a import score, submission_csv

    cfg = ClassifierConfig(
        model=model_name,
        setting=setting,
        input=args.input,
        context=args.context,
        pool=args.pool,
        epochs=args.epochs,
        batch_size=args.batch_size,
        lr=args.lr,
        max_seq_length=args.max_seq_length,
        one_shot_repeat=args.one_shot_repeat,
        train_layers=args.train_layers,
        extra_train=args.extra_train,
        seed=seed,
    )
    variant = f"{setting}-{cfg.epochs}ep" + (f"-rep{cfg.one_shot_repeat}" if cfg.one_shot_repeat != 1 else "")
    if args.smooth and (cfg.extra_train or setting != "zero_shot"):
        raise SystemExit("--smooth: zero_shot setting without --extra-train only")
    recipe = cfg.recipe + ("-knn" if args.smooth else "")
    if (slot := output_slot(args, model_name, recipe, seed, variant)) is None:
        return None
    (name, results_dir, data_dir), start = slot, time.perf_counter()
    train, train_files = load_setting(data_dir, setting)
    key_of: dict[str, str] = {}
    if cfg.extra_train == "epie":  # training only: the validation split stays SemEval's own
        usages, key_of, epie_files = load_epie_usages(data_dir, setting=EXTRA)
        train, train_files = train + usages, train_files + epie_files
    dev, dev_files = load_dev_split(data_dir)
    st = load_model(model_name)
    model, info = train_classifier(st, train, cfg, on_epoch=lambda row: print(json.dumps(row), flush=True),
                                   group=lambda ex: key_of.get(ex.id, ex.mwe))  # fmt: skip
    labels, p_dev = classify(model, dev, cfg, info["best"]["threshold"])
    smoothing = None
    if args.smooth:
        smoothing = smooth_by_neighbours(args, train, dev, cfg, model, p_dev, info["best"]["threshold"])
        unsmoothed = score({ex.id: lab for ex, lab in zip(dev, labels, strict=True)}, dev)
        smoothing["dev_macro_f1_unsmoothed"] = {lang: m["macro_f1"] for lang, m in unsmoothed.items()}  # reported only
        labels = smoothing.pop("labels")
    metrics = score({ex.id: lab for ex, lab in zip(dev, labels, strict=True)}, dev)
    params = {
        "split": "dev",
        "setting": setting,
        "classifier": "fine-tuned encoder + linear head",
        "threshold": info["best"]["threshold"],
        "selected_epoch": info["best"]["epoch"],
        "training": info,
        **({"smoothing": smoothing} if smoothing else {}),
        "threads": os.environ.get("OMP_NUM_THREADS"),
        "command": command_line(),
    }
    record = ResultRecord(
        task="semeval2a-dev",
        model=name,
        recipe=recipe,
        seed=seed,
        metrics=metrics,
        params=params,
        data_sha256=sha256_files(train_files + dev_files),
        wall_s=time.perf_counter() - start,
    )
    path = write_result(record, results_dir, variant=variant)
    atomic_write_text(path.with_suffix(".submission.csv"), submission_csv(dev, labels, setting))
    print(
        f"{path}: ALL {metrics['ALL']['macro_f1']:.4f} EN {metrics['EN']['macro_f1']:.4f} "
        f"PT {metrics['PT']['macro_f1']:.4f}",
        flush=True,
    )
    return path


def smooth_by_neighbours(args, train, dev, cfg, clf, p_dev, threshold: float) -> dict:
    """Transductive zero-shot: each dev use's P(literal) mixed with that of the most similar other dev uses of its MWE
    (span cosine of a sense matcher trained on the same train split); (k, mix) chosen on the classifier's validation
    split, scored the same way. Returns the params to record, with the dev ``labels``."""
    from idiomkit.methods.semeval2a.classifier import build_inputs, carve_validation, predict_proba
    from idiomkit.methods.semeval2a.sense_matcher import (
        MatcherConfig,
        choose_smoothing,
        embed,
        neighbour_smoothing,
        train_matcher,
    )
    from idiomkit.models import load_model
    from idiomkit.tasks.semeval2a import split_by_mwe

    _, val = carve_validation(train, cfg)
    mcfg = MatcherConfig(model=args.matcher_model or cfg.model, epochs=args.matcher_epochs, seed=cfg.seed)
    _, matcher_val = split_by_mwe([ex for ex in train if ex.setting != "one_shot"], mcfg.val_fraction, mcfg.seed)
    if {ex.mwe for ex in matcher_val} != {ex.mwe for ex in val}:
        raise SystemExit("--smooth: the matcher's validation MWEs differ from the classifier's")
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


def run_matcher(args, model_name: str, setting: str, seed: int) -> Path | None:
    """One-shot sense matcher (``idiomkit.methods.semeval2a.sense_matcher``): train, label dev by its MWE's nearest
    shot."""
    from idiomkit.data.semeval2a import load_dev_split, load_setting
    from idiomkit.methods.semeval2a.sense_matcher import MatcherConfig, embed, nearest_shot_labels, train_matcher
    from idiomkit.models import load_model
    from idiomkit.results import ResultRecord, atomic_write_text, sha256_files, write_result
    from idiomkit.tasks.semeval2a import one_shot_table, score, submission_csv

    if setting != "one_shot":
        raise SystemExit("matcher: one_shot only (zero-shot dev MWEs have no shots)")
    cfg = MatcherConfig(model=model_name, epochs=args.epochs, lr=args.lr, max_seq_length=args.max_seq_length,
                        train_layers=args.train_layers or 4, seed=seed)  # fmt: skip
    variant = f"{setting}-{cfg.epochs}ep"
    if (slot := output_slot(args, model_name, cfg.recipe, seed, variant)) is None:
        return None
    (name, results_dir, data_dir), start = slot, time.perf_counter()
    train, train_files = load_setting(data_dir, setting)
    dev, dev_files = load_dev_split(data_dir)
    one = [ex for ex in train if ex.setting == "one_shot"]
    try:  # checked before training: every dev MWE needs its shots
        shots = one_shot_table(one, dev)
    except ValueError as err:
        raise SystemExit(f"matcher: {err}") from None
    show = lambda row: print(json.dumps(row), flush=True)  # noqa: E731
    matcher, info = train_matcher(load_model(model_name), train, cfg, on_epoch=show)
    x_shots, x_dev = embed(matcher, one, cfg.max_seq_length), embed(matcher, dev, cfg.max_seq_length)
    labels = nearest_shot_labels(x_dev, [ex.mwe for ex in dev], x_shots, shots)
    metrics = score({ex.id: lab for ex, lab in zip(dev, labels, strict=True)}, dev)
    single = sum(len(shots[ex.mwe]) == 1 for ex in dev)
    params = {
        "split": "dev",
        "setting": setting,
        "classifier": "nearest one-shot example (span cosine of a fine-tuned sense matcher); "
        "shots of a single label give that label",
        "selected_epoch": info["best"]["epoch"],
        "dev_examples_by_single_label_shots": single,
        "training": info,
        "threads": os.environ.get("OMP_NUM_THREADS"),
        "command": command_line(),
    }
    record = ResultRecord(task="semeval2a-dev", model=name, recipe=cfg.recipe, seed=seed, metrics=metrics,
                          params=params, data_sha256=sha256_files(train_files + dev_files),
                          wall_s=time.perf_counter() - start)  # fmt: skip
    path = write_result(record, results_dir, variant=variant)
    atomic_write_text(path.with_suffix(".submission.csv"), submission_csv(dev, labels, setting))
    print(f"{path}: ALL {metrics['ALL']['macro_f1']:.4f} EN {metrics['EN']['macro_f1']:.4f} "
          f"PT {metrics['PT']['macro_f1']:.4f}", flush=True)  # fmt: skip
    return path


def run_probe(args, model_name: str, setting: str) -> None:
    """Frozen-encoder logistic-regression probe through ``idiomkit.evaluate`` (skip if the result exists)."""
    from idiomkit.api import evaluate
    from idiomkit.config import default_results_dir

    evaluation = evaluate(
        "semeval2a",
        model_name,
        setting=setting,
        features=args.features,
        data_dir=args.data_dir,
        results_dir=args.results_dir or default_results_dir(),
        show_progress_bar=False,
        command=command_line(),
    )
    scores = {k: round(v["macro_f1"], 4) for k, v in evaluation.record.metrics.items()}
    print(f"{evaluation.path}: {json.dumps(scores)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["classifier", "probe", "matcher"])
    parser.add_argument("models", nargs="*", default=[])
    parser.add_argument("-m", "--model", action="append", default=[])
    parser.add_argument("--setting", action="append", choices=["zero_shot", "one_shot"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--max-seq-length", type=int, default=128)
    parser.add_argument("--input", default="sep", choices=["sep", "none"])
    parser.add_argument("--context", action="store_true")
    parser.add_argument("--pool", default="span+mean")
    parser.add_argument("--one-shot-repeat", type=int, default=1)
    parser.add_argument("--train-layers", type=int, help="fine-tune only the top N transformer layers (+ head)")
    parser.add_argument(
        "--extra-train",
        choices=["epie"],
        help="also train on the labelled EPIE formal sentences (EN; training only, recipe suffix -epie)",
    )
    parser.add_argument(
        "--smooth",
        action="store_true",
        help="classifier, zero_shot: mix each dev use's probability with its most similar other dev uses of the MWE "
        "(transductive; a sense matcher gives the similarity; recipe suffix -knn)",
    )
    parser.add_argument("--matcher-model", help="--smooth: the sense matcher's start model (default: the classifier's)")
    parser.add_argument("--matcher-epochs", type=int, default=3)
    parser.add_argument("--features", default="span")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "2")))
    parser.add_argument("--data-dir")
    parser.add_argument("--results-dir")
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    import logging

    import torch

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")

    torch.set_num_threads(args.threads)
    models = args.model + [m for m in args.models if m not in args.model] or ["minilm"]
    for model_name in models:
        for setting in args.setting or ["zero_shot", "one_shot"]:
            if args.kind == "probe":
                run_probe(args, model_name, setting)
                continue
            for seed in args.seeds:
                (run_matcher if args.kind == "matcher" else run_classifier)(args, model_name, setting, seed)


if __name__ == "__main__":
    main()
