"""What a run trains: the model (MWE tokens, dropout, CPU speed-ups, LoRA), the recipe's phases and the validation
evaluators, from the config (:func:`setup`); the train-carved SemEval 2B validation split (:func:`load_groups`)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import torch

from idiomkit.data.heldout import filter_heldout, heldout_index
from idiomkit.data.idiolink import load_idiolink, triplets_path
from idiomkit.data.semeval2022 import B_FILES, load_train_pairs, semeval_root
from idiomkit.data.sts import sts_files
from idiomkit.embedding.mwe import MweTransform, add_mwe_tokens
from idiomkit.embedding.pooling import stack_only_pooled_layers
from idiomkit.embedding.spans import install_span_pooling
from idiomkit.errors import OptionError, check_choice
from idiomkit.models import load_model
from idiomkit.models.lora import add_lora
from idiomkit.settings import run_data_dir
from idiomkit.tasks.idiolink import IdioLinkEvaluator
from idiomkit.tasks.semeval2a import split_by_mwe
from idiomkit.tasks.semeval2b import SemEval2BEvaluator
from idiomkit.tasks.sts import StsEvaluator
from idiomkit.training.checkpoints import set_training_length
from idiomkit.training.config import TrainConfig, check_options
from idiomkit.training.recipes import RECIPES, build_phases, train_config
from idiomkit.training.recipes.base import PRIMARY, Setup, stream_counts, sts_validation_pairs
from idiomkit.training.recipes.pairs import idiom_data
from idiomkit.training.relabel import Group, group_pairs, mwe_key, validation_pairs
from idiomkit.training.speedups import enable_fast_dropout, enable_unpadding

log = logging.getLogger("idiomkit.training")


def run_config(recipe: str, model: str, epochs: int, output_dir: str | Path, options: dict[str, Any]) -> TrainConfig:
    """The checked :class:`TrainConfig` of a run, as it will be recorded (IdioLink recipes have no MWE tokens):
    ``options`` are the shared options and the recipe's own (:func:`~idiomkit.training.recipes.train_config`)."""
    check_choice("recipe", recipe, RECIPES)
    cfg = train_config(recipe, model=model, epochs=epochs, output_dir=str(output_dir), **options)
    check_options(cfg)
    if RECIPES[cfg.recipe].source == "idiolink":
        cfg.mwe_tokens = False  # IdioLink sentences carry no MWE columns
    return cfg


def load_groups(cfg: TrainConfig) -> tuple[list[Group], list[Group], list[Path]]:
    """(train groups, validation groups, data files) for the config (validation carved by MWE, seeded)."""
    data_dir = run_data_dir(cfg.data_dir)
    path = semeval_root(data_dir) / B_FILES["train"]
    groups = group_pairs(load_train_pairs(data_dir))
    if cfg.heldout_dedup:
        groups = filter_heldout(
            "2B train",
            groups,
            lambda g: (g.sentence, *g.correct, *(i for i, _ in g.incorrect)),
            (lambda g: g.mwes) if cfg.dedup_idioms else None,
            index=heldout_index(data_dir),
            forms=cfg.dedup_idioms,
        ).kept
    train, val = split_by_mwe(groups, cfg.val_fraction, cfg.seed, mwe_key)
    if cfg.limit_groups:
        train, val = train[: cfg.limit_groups], across_mwes(val)[: max(2, cfg.limit_groups // 5)]
    return train, val, [path]


def across_mwes(groups: list[Group]) -> list[Group]:
    """``groups`` reordered round-robin over their MWEs (each MWE's first group, then each one's second, ...), so
    that a limited validation (``limit_groups``) holds several idioms, not the first MWE's groups alone."""
    count: dict[str, int] = {}
    keyed = []
    for i, group in enumerate(groups):
        key = mwe_key(group)
        keyed.append((count.get(key, 0), i))
        count[key] = count.get(key, 0) + 1
    return [groups[i] for _, i in sorted(keyed)]


def validation_evaluator(val: list[Group], model, mwe_tokens: bool) -> SemEval2BEvaluator:
    """The 2B evaluator on the train-carved validation groups (metrics ``val_*``; MWE tokens as ``model`` has them)."""
    pairs, gold = validation_pairs(val)
    transform = MweTransform.for_model(model) if mwe_tokens else None
    return SemEval2BEvaluator(pairs, gold, name="val", transform=transform)


def setup(cfg: TrainConfig) -> Setup:
    """Load the model, add MWE tokens (2B recipes, when on), build the recipe's phases (tokenised once) and the
    validation evaluators (train-carved 2B validation, or IdioLink val); ``cfg.dropout``, ``cfg.fast_dropout``
    and ``cfg.unpad`` (CPU only: on GPUs torch's own dropout kernels are fast, and unpadding's index look-ups would
    synchronise with the host; not measured there) apply to every recipe."""
    recipe = RECIPES[cfg.recipe]  # pairs and flagship recipes build their own model, data and evaluators
    if cfg.options is None:  # a TrainConfig made without its recipe's options: their defaults
        cfg.options = recipe.options()
    run = recipe.setup(cfg, load_groups) if recipe.setup else sentence_setup(cfg)
    if cfg.dropout is not None:
        set_dropout(run.model, cfg.dropout)
    if cfg.fast_dropout and cfg.dropout != 0 and run.model.device.type == "cpu":
        enable_fast_dropout(run.model)
    if cfg.unpad and run.model.device.type == "cpu":
        enable_unpadding(run.model)
    stack_only_pooled_layers(run.model)
    return run


def sentence_setup(cfg: TrainConfig) -> Setup:
    """:func:`setup` for the SemEval 2B and IdioLink recipes."""
    model = load_model(cfg.model, pooling=cfg.pooling, device="cpu" if not torch.cuda.is_available() else None)
    set_training_length(model, cfg.max_seq_length)
    source = RECIPES[cfg.recipe].source
    data_dir = run_data_dir(cfg.data_dir)
    new_ids: list[int] = []
    evaluators: list[Any] = []
    counts: dict[str, int] = {}
    primary = PRIMARY
    if source == "idiolink":
        cfg.mwe_tokens = False  # IdioLink sentences carry no MWE columns (also set by run_config)
        phases = build_phases(cfg.recipe, model, None, cfg)
        files = [triplets_path(data_dir, "train", "span")]
        if not cfg.limit_groups or cfg.limit_groups >= 50:
            evaluators.append(IdioLinkEvaluator(data_dir, split="val", query_mode=cfg.options.query_mode))
            files += list(load_idiolink(data_dir, "val").files)
            primary = "val_ndcg@10"
    else:
        train, val, files = load_groups(cfg)
        if cfg.mwe_tokens:
            added = add_mwe_tokens(model, [m for g in train + val for m in g.mwes])
            new_ids = model.tokenizer.convert_tokens_to_ids(added)
            log.info("added %d MWE tokens", len(added))
        phases = build_phases(cfg.recipe, model, train, cfg)
        if val:
            evaluators.append(validation_evaluator(val, model, cfg.mwe_tokens))
        counts.update(train_groups=len(train), val_groups=len(val))
    if cfg.val_sts:
        evaluators.append(StsEvaluator(sts_validation_pairs(cfg), name="val"))
        files += list(sts_files(data_dir, "train" if cfg.heldout_dedup else "dev").values())
    if any(s.examples.name == "sts" for p in phases for s in p.streams):
        files += list(sts_files(data_dir, "train").values())
    if any(s.examples.name == "idiom-meaning" for p in phases for s in p.streams):
        files += list(idiom_data(str(data_dir)).files)
    if any(s.examples.span_masks is not None for p in phases for s in p.streams):
        install_span_pooling(model)
    if cfg.lora_rank:
        add_lora(model, cfg.lora_rank, new_ids)
    counts.update(stream_counts(phases))
    log.info("data: %s", counts)
    return Setup(model, phases, evaluators, files, counts, primary)


def set_dropout(model, p: float) -> int:
    """Set every dropout layer of ``model`` to probability ``p`` for this run (the saved config keeps the model's
    own values, so later fine-tuning of the saved model is unaffected); returns the number of layers changed."""
    if not 0 <= p < 1:
        raise OptionError(f"dropout must be in [0, 1), got {p}")
    layers = [m for m in model.modules() if isinstance(m, torch.nn.Dropout)]
    for layer in layers:
        layer.p = p
    log.info("dropout %.2f in %d layers", p, len(layers))
    return len(layers)
