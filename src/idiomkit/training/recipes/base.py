"""What every recipe is made of: :class:`Stream` and :class:`Phase`, the registry entry :class:`Recipe`, the
trainer's :class:`Setup` (a recipe family with its own data and evaluators builds one), the pieces several families
share, and :func:`run_label`, the recipe name a result file carries."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from idiomkit.config import run_data_dir
from idiomkit.data.heldout import filter_heldout, heldout_index, normalise_sentence
from idiomkit.data.sts import StsPair, load_sts
from idiomkit.losses import AdaptiveTripletLoss
from idiomkit.training.distributed import DistInfo
from idiomkit.training.examples import Examples

PRIMARY = "val_idiom"  # the validation metric that selects the best model, unless a setup names another
IDIOLINK_EPOCHS = 10  # the paper's budget (Hashiloni et al., Table 3); other budgets are named in the label
# recipes whose steps add an STS batch (weighted by ``cfg.sts_weight``)
STS_MIXING = frozenset({"adaptive-triplet-sts", "cosent-sts", "contrastive-sts"})


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


PhasesFn = Callable[[Any, Sequence[Any] | None, Any], list[Phase]]  # (model, train groups or None, cfg) -> phases


@dataclass(frozen=True)
class Recipe:
    """A registered recipe: its data source (``semeval2b``, ``idiolink`` or ``pairs``) and how it builds its
    phases."""

    source: str
    phases: PhasesFn


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
        pairs = filter_heldout("sts-train", pairs, lambda p: (p.sentence_1, p.sentence_2),
                               index=heldout_index(data_dir)).kept  # fmt: skip
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
    """:class:`AdaptiveTripletLoss` with the config's miner margin, loss margin and miner distance."""
    return AdaptiveTripletLoss(model, cfg.miner_margin, cfg.margin, miner_distance=cfg.miner_distance)


def run_label(
    recipe: str, mwe_tokens: bool, lora_rank: int | None = None, span_queries: bool = False,
    dropout: float | None = None, sts_weight: float = 1.0, epochs: int | None = None, heldout_dedup: bool = False,
    dedup_idioms: bool = True,
) -> str:  # fmt: skip
    """The recipe name used in result files: ``adaptive-triplet`` vs ``adaptive-triplet-mwe``; ``-lora`` suffix;
    IdioLink recipes: ``-span`` when the loss saw span embeddings of the queries, ``-ep<N>`` when the epoch budget
    is not the paper's 10 (2B result files name their epochs elsewhere); ``-dropout<p>`` when the run
    overrode the model's dropout; ``-stsw<w>`` for an STS-mixing recipe whose STS loss weight is not 1; ``-dedup``
    when a 2B recipe's training data went through the held-out dedup (the recorded rows before it carry no suffix;
    IdioLink and pairs recipes keep their idioms apart by construction, the dedup only moves their STS validation),
    ``-dedup-sentences`` when it dropped held-out sentences only (SemEval 2B's fine_tune rule: MWE overlap allowed)."""
    label = _recipe_label(recipe, mwe_tokens, span_queries) + ("-lora" if lora_rank else "")
    if recipe.startswith("idiolink-") and epochs not in (None, IDIOLINK_EPOCHS):
        label += f"-ep{epochs}"
    if sts_weight != 1.0 and recipe in STS_MIXING:
        label += f"-stsw{sts_weight:g}"
    # IdioLink and pairs data have no leak to drop; the flagship always goes through the dedup
    dedup = heldout_dedup and not recipe.startswith(("idiolink-", "pairs-", "flagship"))
    suffix = ("-dedup" if dedup_idioms else "-dedup-sentences") if dedup else ""
    return label + (f"-dropout{dropout:g}" if dropout is not None else "") + suffix


def _recipe_label(recipe: str, mwe_tokens: bool, span_queries: bool) -> str:
    if recipe.startswith(("pairs-", "flagship")):  # no MWE tokens by construction: nothing to tell apart
        return recipe
    if recipe.startswith("idiolink-"):
        return recipe + ("-span" if span_queries else "")
    if recipe.startswith("adaptive-triplet"):
        return recipe.replace("adaptive-triplet", "adaptive-triplet-mwe", 1) if mwe_tokens else recipe
    return recipe + ("" if mwe_tokens else "-nomwe")
