"""What every recipe is made of: :class:`Stream` and :class:`Phase`, the registry entry :class:`Recipe`, the
trainer's :class:`Setup` (a recipe family with its own data and evaluators builds one), the pieces several families
share. A :class:`Recipe` says what the trainer, the model card and the run label
(:func:`~idiomkit.training.recipes.run_label`) need to know about it, so that none of them branches on its name."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from idiomkit.data.heldout import filter_heldout, heldout_index, normalise_sentence
from idiomkit.data.sts import StsPair, load_sts
from idiomkit.losses import AdaptiveTripletLoss
from idiomkit.settings import run_data_dir
from idiomkit.training.config import RecipeOptions
from idiomkit.training.distributed import DistInfo
from idiomkit.training.examples import Examples

PRIMARY = "val_idiom"  # the validation metric that selects the best model, unless a setup names another


@dataclass
class Stream:
    """Examples, the loss that consumes them and the loss's weight in the step's sum."""

    examples: Examples
    loss: torch.nn.Module
    weight: float = 1.0


@dataclass
class Phase:
    """Streams trained together for ``epochs``: one step = one batch of each stream, losses summed. An epoch is
    one pass over the first stream; the others cycle (restart when exhausted)."""

    name: str
    streams: list[Stream]
    epochs: int


def stream_counts(phases: Sequence[Phase]) -> dict[str, int]:
    """Rows and truncated rows of every stream: ``<phase>/<examples>_rows`` and ``..._truncated`` (Setup.counts)."""
    counts: dict[str, int] = {}
    for p in phases:
        for s in p.streams:
            counts[f"{p.name}/{s.examples.name}_rows"] = len(s.examples)
            counts[f"{p.name}/{s.examples.name}_truncated"] = s.examples.truncated
    return counts


PhasesFn = Callable[[Any, Sequence[Any] | None, Any], list[Phase]]  # (model, train groups or None, cfg) -> phases


@dataclass
class Setup:
    """The model, its training phases and the validation evaluators."""

    model: Any
    phases: list[Phase]
    evaluators: list[Any]
    data_files: list[Path]
    counts: dict[str, int]
    primary: str = PRIMARY  # the validation metric that selects the best model
    dist: DistInfo = field(default_factory=DistInfo)  # data-parallel processes (torchrun / accelerate launch)


SetupFn = Callable[[Any, Callable], Setup]  # (cfg, the trainer's load_groups) -> Setup


@dataclass(frozen=True)
class Recipe:
    """A registered recipe: its data source (``semeval2b``, ``idiolink``, ``pairs`` or ``flagship``), how it builds
    its phases, the options it takes (a :class:`~idiomkit.training.config.RecipeOptions` class, declared in
    :mod:`idiomkit.training.recipe_options`: its flags, checks, record and run label follow), and what the trainer
    and the model card need to know about it."""

    source: str
    phases: PhasesFn | None  # None: ``setup`` builds the phases (the flagship recipes)
    validation: str = ""  # the validation split, in words (model card)
    setup: SetupFn | None = None  # builds its own model, data and evaluators; None: the trainer's (2B, IdioLink)
    card_lines: Callable[[], list[str]] | None = None  # its own section of the model card
    labels: tuple[str, str] | None = None  # run label with MWE tokens on / off; None: the name (never MWE tokens)
    options: type[RecipeOptions] = RecipeOptions


def semeval_labels(name: str) -> tuple[str, str]:
    """(label with MWE tokens, without) of a 2B recipe: ``adaptive-triplet`` names its MWE tokens inside
    (``adaptive-triplet-mwe-sts``), the others name their absence (``mnrl-nomwe``)."""
    if name.startswith("adaptive-triplet"):
        return name.replace("adaptive-triplet", "adaptive-triplet-mwe", 1), name
    return name, name + "-nomwe"


STS_VAL_PERCENT = 5  # share of the deduplicated STS train pairs carved out as STS validation


def _sts_bucket(pair: StsPair) -> int:
    return int(hashlib.sha256(normalise_sentence(pair.sentence_1).encode()).hexdigest()[:8], 16) % 100


def sts_split(cfg) -> tuple[list[StsPair], list[StsPair]]:
    """(train, validation) STS-B (EN) + ASSIN 2 (PT) pairs.

    With ``cfg.heldout_dedup`` (the default): the train split, minus every pair with a sentence of a held-out split
    (:func:`~idiomkit.data.heldout.filter_heldout`; 2B dev's STS rows are STS-B/ASSIN 2 dev), cut by a fixed hash
    into train and a validation no benchmark scores. Without it (the recorded pre-dedup rows): all train pairs, and
    STS-B/ASSIN 2 dev as validation. ``limit_groups`` keeps the first ``limit_groups * 4`` of each.
    """
    data_dir = run_data_dir(cfg.data_dir)
    pairs = load_sts(data_dir, "train")
    if cfg.heldout_dedup:
        pairs = filter_heldout(
            "sts-train", pairs, lambda p: (p.sentence_1, p.sentence_2), index=heldout_index(data_dir)
        ).kept
        train = [p for p in pairs if _sts_bucket(p) >= STS_VAL_PERCENT]
        val = [p for p in pairs if _sts_bucket(p) < STS_VAL_PERCENT]
    else:
        train, val = pairs, load_sts(data_dir, "dev")
    if cfg.limit_groups:
        train, val = train[: cfg.limit_groups * 4], val[: cfg.limit_groups * 4]
    return train, val


def sts_validation_pairs(cfg) -> list[StsPair]:
    """The STS validation pairs of :func:`sts_split` (reported at each validation; selects only in interpolation)."""
    return sts_split(cfg)[1]


def single_stream(name: str, build: Callable, make_loss: Callable, phase: str = "2b") -> PhasesFn:
    """A one-phase, one-stream recipe: ``build(model, groups, cfg)`` examples under ``make_loss(model, cfg)``."""

    def phases(model, groups, cfg) -> list[Phase]:
        return [Phase(phase, [Stream(build(model, groups, cfg), make_loss(model, cfg))], cfg.epochs)]

    phases.__name__ = name
    return phases


def adaptive_loss(model, cfg) -> torch.nn.Module:
    """:class:`AdaptiveTripletLoss` with the recipe's miner margin, loss margin and miner distance
    (:class:`~idiomkit.training.recipe_options.TripletLossOptions`)."""
    o = cfg.options
    return AdaptiveTripletLoss(model, o.miner_margin, o.margin, miner_distance=o.miner_distance)
