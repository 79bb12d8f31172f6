"""The run label, derived from the option declarations, is the label the runs already carry: the results files, the
experiment files and the README name runs by it. ``recorded_label`` is the rule as it was written by hand before
(the 17 options and the defaults it read, spelled out), kept here as the reference."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from idiomkit.reproduce.experiments import load_experiments
from idiomkit.training.recipes import RECIPES, run_label, train_config, train_label
from idiomkit.training.recipes.base import semeval_labels
from idiomkit.training.recipes.flagship import wanted_streams

ROOT = Path(__file__).resolve().parents[3]

# the defaults the hand-written rule compared with (TrainConfig's, when it held every option)
RECORDED_DEFAULTS = {
    "mwe_tokens": True,
    "span_queries": False,
    "lora_rank": None,
    "epochs": 10,
    "sts_weight": 1.0,
    "keep_weight": 1.0,
    "keep_distance": "mse",
    "keep_relational": 0.0,
    "pooling": "last2",
    "paraphrase_anchors": False,
    "pin_weight": 0.0,
    "other_id_targets": False,
    "pair_weight": 1.0,
    "distill_steps": 300,
    "teacher": "mpnet",
    "distill_align": "none",
    "dropout": None,
    "precision": "fp32",
    "heldout_dedup": False,  # a record without it was made before the held-out dedup
    "dedup_idioms": True,
}
STS_MIXING_2B = {"adaptive-triplet-sts", "cosent-sts", "contrastive-sts"}


def recorded_label(recipe: str, config: dict) -> str:
    """The label as the hand-written rule made it (per recipe: MWE-token names, ``-span``, the paper's 10 epochs,
    STS mixing, the dedup suffix, the flagship-v2 options)."""
    cfg = {**RECORDED_DEFAULTS, **config}
    source = RECIPES[recipe].source if recipe in RECIPES else "semeval2b"
    flagship_family = source == "flagship"
    labels = semeval_labels(recipe) if source == "semeval2b" else (recipe, recipe)
    sts_mixing = recipe in STS_MIXING_2B or (flagship_family and "sts" in wanted_streams(recipe))
    label = (labels[0] if cfg["mwe_tokens"] else labels[1]) + (
        "-span" if source == "idiolink" and cfg["span_queries"] else ""
    )
    label += "-lora" if cfg["lora_rank"] else ""
    if source == "idiolink" and cfg["epochs"] not in (None, 10):
        label += f"-ep{cfg['epochs']}"
    if cfg["sts_weight"] != 1.0 and sts_mixing:
        label += f"-stsw{cfg['sts_weight']:g}"
    if recipe.startswith("flagship-v2"):
        label += f"-keep{cfg['keep_weight']:g}" if cfg["keep_weight"] != 1.0 else ""
        label += f"-keep-{cfg['keep_distance']}" if cfg["keep_distance"] != "mse" else ""
        label += f"-rel{cfg['keep_relational']:g}" if cfg["keep_relational"] else ""
        label += f"-pool-{cfg['pooling']}" if cfg["pooling"] != "last2" else ""
        label += "-anchors" if cfg["paraphrase_anchors"] else ""
        label += f"-pin{cfg['pin_weight']:g}" if cfg["pin_weight"] else ""
        label += "-otherid" if cfg["other_id_targets"] else ""
        label += f"-2bw{cfg['pair_weight']:g}" if cfg["pair_weight"] != 1.0 else ""
        if recipe.endswith("-student"):
            label += f"-distill{cfg['distill_steps']}" if cfg["distill_steps"] != 300 else ""
            label += f"-teacher-{cfg['teacher']}" if cfg["teacher"] != "mpnet" else ""
            label += f"-align-{cfg['distill_align']}" if cfg["distill_align"] != "none" else ""
    label += f"-dropout{cfg['dropout']:g}" if cfg["dropout"] is not None else ""
    label += f"-{cfg['precision']}" if cfg["precision"] != "fp32" else ""
    if cfg["heldout_dedup"] and source == "semeval2b":
        label += "-dedup" if cfg["dedup_idioms"] else "-dedup-sentences"
    return label


def train_experiments():
    experiments = [e for e in load_experiments(ROOT / "benchmarks" / "experiments") if e.kind == "train"]
    assert len(experiments) >= 80
    return experiments


def training_options(spec: dict) -> dict:
    return {k: v for k, v in spec.items() if k != "evaluate"}


def test_every_training_experiment_keeps_its_label_as_its_table_reads():
    """A ``[train]`` table read as a record (a missing ``heldout_dedup``: before the dedup) keeps the hand-written
    rule's label."""
    for exp in train_experiments():
        for spec in (exp.spec, {**exp.spec, **exp.quick}):
            spec = training_options({k: v for k, v in spec.items() if k not in ("include", "seeds")})
            assert run_label(spec["recipe"], spec) == recorded_label(spec["recipe"], spec), exp.name


def test_every_training_experiment_keeps_the_label_its_run_records():
    """The label ``training.json`` gets: the run's whole config, after its setup turned MWE tokens off (IdioLink,
    pairs, flagship recipes) and, for the pairs recipes, the pooling to mean."""
    for exp in train_experiments():
        spec = training_options(exp.spec)
        cfg = train_config(**spec)
        source = RECIPES[cfg.recipe].source
        if source != "semeval2b":
            cfg.mwe_tokens = False
        if source == "pairs":
            cfg.pooling = "mean"
        whole = {**RECORDED_DEFAULTS, "heldout_dedup": True, **cfg.record()}
        assert run_label(cfg.recipe, cfg) == recorded_label(cfg.recipe, whole), exp.name
        assert train_label(exp.spec) == run_label(cfg.recipe, cfg), exp.name  # the label the pages pair it by


VARIATIONS = [
    {"mwe_tokens": False},
    {"span_queries": True},
    {"lora_rank": 16},
    {"epochs": 30},
    {"epochs": 10},
    {"sts_weight": 0.5},
    {"keep_weight": 0.0},
    {"keep_weight": 10.0, "keep_distance": "cosine", "keep_relational": 5.0},
    {"pooling": "mean"},
    {"paraphrase_anchors": True, "pin_weight": 10.0},
    {"other_id_targets": True, "pair_weight": 0.5},
    {"distill_steps": 100, "teacher": "minilm", "distill_align": "procrustes"},
    {"dropout": 0.0},
    {"dropout": 0.05, "precision": "bf16"},
    {"heldout_dedup": True},
    {"heldout_dedup": True, "dedup_idioms": False},
    {"heldout_dedup": False, "dedup_idioms": False},
]


@pytest.mark.parametrize("recipe", [*RECIPES, "adaptive-triplet-old-name"])
def test_representative_configs_keep_their_labels(recipe):
    """Each labelled option alone and in pairs, on every recipe (and a name no longer registered): the derived
    label is the hand-written rule's, options the recipe does not take included (a record of every option)."""
    combos = [{}, *VARIATIONS, *(a | b for a, b in itertools.combinations(VARIATIONS, 2))]
    for config in combos:
        assert run_label(recipe, config) == recorded_label(recipe, config), config


def test_the_reference_rule_is_the_one_the_recorded_labels_follow():
    """Labels the results and the README carry (the reference above makes them)."""
    assert recorded_label("cosent-sts", {"sts_weight": 0.3, "heldout_dedup": True, "dedup_idioms": False}) == (
        "cosent-sts-stsw0.3-dedup-sentences"
    )
    v2 = {"keep_weight": 10.0, "keep_distance": "cosine", "pooling": "mean", "precision": "bf16"}
    assert recorded_label("flagship-v2", v2) == "flagship-v2-keep10-keep-cosine-pool-mean-bf16"
