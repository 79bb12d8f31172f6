"""``pairs-<loss>-<set>`` recipes (Xiao, Gupta & Michaels): train on idiom/definition (``id``), sentence/paraphrase
(``sp``) or both (``idsp``) pairs of the *train* idioms (:mod:`idiomkit.data.definitions`), select on the validation
idioms (``val_margin`` = mean of the I/D and S/P margins), never touch held-out idioms.

Losses (the paper's three plus two): ``contrastive`` (``ContrastiveLoss``; each pair is, with probability 0.5, the
correct one labelled 1 or one with an incorrect definition/paraphrase labelled 0), ``cosine``
(``CosineSimilarityLoss``, same 1/0 pairs), ``triplet``
(``TripletLoss``, library defaults: Euclidean, margin 5), ``mnrl`` (``MultipleNegativesRankingLoss``, in-batch
negatives, no idiom twice a batch), ``adaptive-triplet`` (:class:`AdaptiveTripletLoss`; an idiom and its
definitions share a label, a sentence and its paraphrase share a label). Pooling is the model's own (mean), as in
the paper; no MWE tokens.
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Sequence

import torch
from sentence_transformers.sentence_transformer import losses as st_losses

from idiomkit.data.definitions import IdiomData, Pair, id_pairs, idiom_key, load_idiom_data, sp_pairs
from idiomkit.data.idiolink import load_idiolink
from idiomkit.data.sts import sts_files
from idiomkit.models import load_model
from idiomkit.settings import run_data_dir
from idiomkit.tasks.sts import StsEvaluator
from idiomkit.tasks.xiao_pairs import XiaoPairsEvaluator
from idiomkit.training.checkpoints import set_training_length
from idiomkit.training.examples import Examples, make_examples
from idiomkit.training.recipe_options import PairsRecipeOptions
from idiomkit.training.recipes.base import (
    Phase,
    PhasesFn,
    Recipe,
    Setup,
    Stream,
    adaptive_loss,
    stream_counts,
    sts_validation_pairs,
)
from idiomkit.training.recipes.idiolink import idiolink_infonce_examples, idiolink_recipe, infonce_loss

log = logging.getLogger(__name__)

PAIR_SETS = {"id": ("id",), "sp": ("sp",), "idsp": ("id", "sp")}
TRAIN_PAIRS_LABEL = {"id": "id", "sp": "sp", "idsp": "id+sp"}
SP_TRAIN_PER_IDIOM = 3  # sentences per train idiom (shared-CPU budget; EPIE has up to ~300 for some idioms)
VALIDATION_TEXT = "validation idioms (10% of idiom keys by hash); held-out idioms never used"


@functools.lru_cache(maxsize=2)
def idiom_data(data_dir: str) -> IdiomData:
    return load_idiom_data(data_dir)


def train_pairs(cfg, pair_set: str) -> list[Pair]:
    """The training pairs of ``pair_set`` over the train idioms (``limit_groups``: the first N idioms)."""
    idioms = idiom_data(str(run_data_dir(cfg.data_dir))).split("train")
    if cfg.limit_groups:
        idioms = idioms[: cfg.limit_groups]
    pairs: list[Pair] = []
    if "id" in PAIR_SETS[pair_set]:
        pairs += id_pairs(idioms, seed=cfg.seed)
    if "sp" in PAIR_SETS[pair_set]:
        pairs += sp_pairs(idioms, seed=cfg.seed, per_idiom=SP_TRAIN_PER_IDIOM)
    return pairs


def _groups(pairs: Sequence[Pair]) -> list[int]:
    index: dict[str, int] = {}
    return [index.setdefault(p.key, len(index)) for p in pairs]


def labelled_examples(model, pairs: Sequence[Pair], cfg) -> Examples:
    """Per pair, with probability 0.5 (seeded) (anchor, positive, 1.0), else (anchor, incorrect, 0.0) — the
    paper's construction for the contrastive and cosine losses."""
    rng = random.Random(cfg.seed)
    rows, labels = [], []
    for p in pairs:
        positive = rng.random() < 0.5
        rows.append((p.anchor, p.positive if positive else p.negative))
        labels.append(1.0 if positive else 0.0)
    return make_examples(model, "pairs-labelled", rows, labels, _groups(pairs), cfg.max_seq_length)


def triplet_examples(model, pairs: Sequence[Pair], cfg) -> Examples:
    rows = [(p.anchor, p.positive, p.negative) for p in pairs]
    return make_examples(model, "pairs-triplets", rows, [0.0] * len(rows), _groups(pairs), cfg.max_seq_length)


def positive_examples(
    model, pairs: Sequence[Pair], cfg, name: str = "pairs-positives", prompts: Sequence[str] | None = None
) -> Examples:
    rows = [(p.anchor, p.positive) for p in pairs]
    return make_examples(
        model, name, rows, [1.0] * len(rows), _groups(pairs), cfg.max_seq_length, spread_groups=True, prompts=prompts
    )


def class_examples(model, pairs: Sequence[Pair], cfg) -> Examples:
    """Single texts with class labels: an idiom and its definitions share one; a sentence and its paraphrase one."""
    groups = _groups(pairs)
    classes: dict[tuple[str, str], int] = {}
    seen: set[tuple[int, str]] = set()
    rows, labels, grp = [], [], []
    for p, g in zip(pairs, groups, strict=True):
        cls = classes.setdefault((p.kind, p.key if p.kind == "id" else p.anchor), len(classes))
        for text in (p.anchor, p.positive):
            if (cls, text) not in seen:
                seen.add((cls, text))
                rows.append((text,))
                labels.append(cls)
                grp.append(g)
    return make_examples(model, "pairs-classes", rows, labels, grp, cfg.max_seq_length, label_dtype=torch.long)


LOSSES = {
    "contrastive": (labelled_examples, lambda m, c: st_losses.ContrastiveLoss(m)),
    "cosine": (labelled_examples, lambda m, c: st_losses.CosineSimilarityLoss(m)),
    "triplet": (triplet_examples, lambda m, c: st_losses.TripletLoss(m)),
    "mnrl": (positive_examples, lambda m, c: st_losses.MultipleNegativesRankingLoss(m)),
    "adaptive-triplet": (class_examples, adaptive_loss),
}


def _phases_fn(loss: str, pair_set: str) -> PhasesFn:
    build, make_loss = LOSSES[loss]

    def phases(model, _groups, cfg) -> list[Phase]:
        examples = build(model, train_pairs(cfg, pair_set), cfg)
        return [Phase(f"pairs-{pair_set}", [Stream(examples, make_loss(model, cfg))], cfg.epochs)]

    phases.__name__ = f"pairs_{loss}_{pair_set}"
    return phases


PAIR_PHASES: dict[str, PhasesFn] = {f"pairs-{loss}-{s}": _phases_fn(loss, s) for s in PAIR_SETS for loss in LOSSES}


# --- idiom meaning as a second stream of IdioLink training ----------------------------------------------------

DEFINITION_SPLITS = ("train", "val")  # the Xiao held-out idioms stay unseen by every recipe


def decontaminated_idioms(cfg) -> tuple[list, int]:
    """Definition idioms (Xiao train + validation splits) minus every PIE of IdioLink val and test (matched by
    :func:`~idiomkit.data.definitions.idiom_key`); returns (idioms, number removed)."""
    data_dir = run_data_dir(cfg.data_dir)
    held_out = {idiom_key(d.idiom) for split in ("val", "test") for d in load_idiolink(data_dir, split).documents}
    idioms = [i for split in DEFINITION_SPLITS for i in idiom_data(str(data_dir)).split(split)]
    kept = [i for i in idioms if i.key not in held_out]
    return kept[: cfg.limit_groups or None], len(idioms) - len(kept)


def idiom_meaning_examples(model, cfg) -> Examples:
    """(idiom, definition) and (sentence with the idiom, its literal paraphrase) pairs for
    ``MultipleNegativesRankingLoss`` (no idiom twice a batch), from :func:`decontaminated_idioms`."""
    idioms, removed = decontaminated_idioms(cfg)
    log.info("idiom-meaning pairs: %d idioms (%d removed: PIEs of IdioLink val/test)", len(idioms), removed)
    pairs = id_pairs(idioms, seed=cfg.seed) + sp_pairs(idioms, seed=cfg.seed, per_idiom=SP_TRAIN_PER_IDIOM)
    return positive_examples(model, pairs, cfg, "idiom-meaning", prompts=["query", "passage"])


def idiolink_meaning_phases(model, groups, cfg) -> list[Phase]:
    """``idiolink-infonce-meaning``: the IdioLink InfoNCE tuples round-robin with idiom-meaning pairs (MNRL at the
    same temperature): does knowing what idioms mean help find the figurative documents?"""
    streams = [
        Stream(idiolink_infonce_examples(model, groups, cfg), infonce_loss(model)),
        Stream(idiom_meaning_examples(model, cfg), infonce_loss(model)),
    ]
    return [Phase("idiolink+meaning", streams, cfg.epochs)]


def pairs_setup(cfg, load_groups=None) -> Setup:
    """The trainer's :class:`~idiomkit.training.recipes.base.Setup` for a ``pairs-*`` recipe: mean pooling, no MWE
    tokens, validation on the validation idioms (+ STS dev when ``val_sts``; ``load_groups`` unused: no 2B data)."""
    cfg.mwe_tokens, cfg.pooling = False, "mean"
    model = load_model(cfg.model, pooling="mean", device="cpu" if not torch.cuda.is_available() else None)
    set_training_length(model, cfg.max_seq_length)
    data_dir = run_data_dir(cfg.data_dir)
    data = idiom_data(str(data_dir))
    phases = PAIR_PHASES[cfg.recipe](model, None, cfg)
    val = data.split("val")
    if cfg.limit_groups:
        val = val[: max(4, cfg.limit_groups // 5)]
    evaluators = [XiaoPairsEvaluator(val, name="val")]
    files = list(data.files)
    if cfg.val_sts:
        evaluators.append(StsEvaluator(sts_validation_pairs(cfg), name="val"))
        files += list(sts_files(data_dir, "train" if cfg.heldout_dedup else "dev").values())
    counts = {"train_idioms": len(data.split("train")), "val_idioms": len(val)}
    counts.update(stream_counts(phases))
    return Setup(model, phases, evaluators, files, counts, "val_margin")


# pairs-* first, then the IdioLink recipe that adds idiom meaning (the registry's order)
RECIPES: dict[str, Recipe] = {
    **{
        name: Recipe("pairs", fn, VALIDATION_TEXT, setup=pairs_setup, options=PairsRecipeOptions)
        for name, fn in PAIR_PHASES.items()
    },
    "idiolink-infonce-meaning": idiolink_recipe(idiolink_meaning_phases),
}
