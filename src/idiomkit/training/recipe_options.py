"""Each recipe family's own options: one :class:`~idiomkit.training.config.RecipeOptions` dataclass per family (or
per recipe, where recipes of a family differ in what they take), named by the recipe's registry entry
(``Recipe.options``, in its recipe module under :mod:`idiomkit.training.recipes`).

They are declared here, apart from the recipe code, because the command line builds ``idiomkit train``'s flags from
them (:func:`train_options`) and must not import torch to do so. A recipe takes its own options and no other
family's: ``idiomkit train --recipe cosent --keep-weight 2`` is refused in one line. Each field's ``label`` metadata
and each class's ``LABEL`` make the run label (:func:`idiomkit.training.recipes.run_label`).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import ClassVar

from idiomkit.errors import OptionError
from idiomkit.options import Range
from idiomkit.training.config import RecipeOptions, TrainConfig, label_order, opt


@dataclass
class TripletLossOptions(RecipeOptions):
    """The adaptive triplet loss (He & Scarton) of the recipes that train with it (Python only)."""

    miner_margin: float = opt(0.4, cli=False)
    margin: float = opt(0.3, cli=False)
    miner_distance: str = opt("cosine", cli=False)


@dataclass
class StsMixingOptions(RecipeOptions):
    """A recipe whose steps add an STS batch: its loss's weight."""

    sts_weight: float = opt(
        1.0,
        "Weight of the STS CoSENT loss in each step's sum (*-sts 2B recipes, the flagship).",
        range=Range(0),
        label="-stsw{:g}",
    )


@dataclass
class SemEval2BRecipeOptions(TripletLossOptions):
    """The SemEval 2B recipes: labelled ``-dedup`` / ``-dedup-sentences`` after the held-out dedup."""

    LABEL: ClassVar[tuple[str, ...]] = (*label_order(), "heldout_dedup")


@dataclass
class SemEval2BStsRecipeOptions(SemEval2BRecipeOptions, StsMixingOptions):
    """The ``*-sts`` SemEval 2B recipes (round-robin with STS pairs)."""

    LABEL: ClassVar[tuple[str, ...]] = (*label_order("sts_weight"), "heldout_dedup")


@dataclass
class YnuRecipeOptions(SemEval2BRecipeOptions):
    """The ``ynu`` recipe: STS pre-training, then 2B."""

    sts_epochs: int = opt(1, "ynu recipe: epochs of STS pre-training.", range=Range(0))


@dataclass
class IdioLinkRecipeOptions(TripletLossOptions):
    """The IdioLink recipes: how they validate and whether the loss sees span embeddings of the queries; their
    label names an epoch budget other than the paper's 10."""

    LABEL: ClassVar[tuple[str, ...]] = ("span_queries", *label_order("epochs"))

    query_mode: str = opt(
        "span",
        "IdioLink recipes: query mode of the validation search.",
        known=("query mode", "idiomkit.tasks.idiolink:QUERY_MODES"),
    )
    span_queries: bool = opt(
        False, "IdioLink recipes: train on span embeddings.", off="--sentence-queries", label="-span"
    )


@dataclass
class PairsRecipeOptions(TripletLossOptions):
    """The idiom/definition pair recipes (Xiao et al.)."""


@dataclass
class FlagshipRecipeOptions(StsMixingOptions):
    """The flagship recipes with an STS stream (all but ``flagship-nosts``, which takes none of its own)."""

    LABEL: ClassVar[tuple[str, ...]] = label_order("sts_weight")


V2_LABEL = (
    "keep_weight",
    "keep_distance",
    "keep_relational",
    "pooling",
    "paraphrase_anchors",
    "pin_weight",
    "other_id_targets",
    "pair_weight",
)


@dataclass
class KeepRecipeOptions(RecipeOptions):
    """The flagship-v2 options: the keep-what-you-know loss, validation on unseen idioms, the 2B stream's loss
    (``flagship-v2-nosts`` takes these alone; its label also names a pooling other than last2)."""

    LABEL: ClassVar[tuple[str, ...]] = label_order(*V2_LABEL)

    keep_weight: float = opt(
        1.0,
        "flagship-v2 recipes: weight of the keep-what-you-know loss (embeddings near the frozen base model's on STS"
        " and idiomatic sentences; 0: off). With --keep-distance mse the term is per dimension (about 5e-4 on"
        " normalised 384-d embeddings): weight it accordingly.",
        range=Range(0),
        label="-keep{:g}",
    )
    keep_distance: str = opt(
        "mse",
        "flagship-v2 recipes: distance of the keep-what-you-know loss.",
        known=("distance", "idiomkit.losses.keep_close:DISTANCES"),
        label="-keep-{}",
    )
    keep_relational: float = opt(
        0.0,
        "flagship-v2 recipes: weight, inside the keep loss, of a relational term: the keep batch's cosines between"
        " different sentences stay at the frozen base's (mean squared difference; 0: off). A sentence kept near its"
        " own base embedding can still draw nearer to all others.",
        range=Range(0),
        label="-rel{:g}",
    )
    val_unseen: bool = opt(
        True,
        "flagship-v2 recipes: the validation idioms are left out of every training stream and of the reader's"
        " lexicon (val_mean gets a held-out-idiom part).",
    )
    paraphrase_anchors: bool = opt(
        False,
        "flagship-v2 recipes: each 2B train sentence and its correct paraphrase join the STS stream at score 1, so"
        " that an idiomatic sentence and its paraphrase rank with STS's closest pairs, not below them.",
        label="-anchors",
    )
    pin_weight: float = opt(
        0.0,
        "flagship-v2 recipes: weight of a pin on the 2B stream (PinPositivesLoss): each MWE sentence and its correct"
        " paraphrase are pulled towards cosine 1 (mean 1 - cos) beside CoSENT's ranking, so the correct pairs keep"
        " the value the reader gives them instead of being ranked down with the rest (0: off).",
        range=Range(0),
        label="-pin{:g}",
    )
    pair_weight: float = opt(
        1.0,
        "flagship-v2 recipes: weight of the SemEval 2B pair stream's loss in each step's sum (the stream that teaches"
        " 2B's idiom pairs; 0 keeps its batches but learns nothing from them, unlike the no2b leave-one-out recipe).",
        range=Range(0),
        label="-2bw{:g}",
    )
    other_id_targets: bool = opt(
        False,
        "flagship-v2 recipes: the 2B stream scores each incorrect pair as SemEval-2022 2B grades it (the otherID"
        " rule, OtherIdTargetsLoss): its target is the model's own similarity of the sentence's correct paraphrase"
        " and the incorrect one, not 0.",
        label="-otherid",
    )

    def check(self) -> None:
        """A keep term that keeps nothing (distance ``none`` without a relational weight) is refused."""
        if self.keep_weight > 0 and self.keep_distance == "none" and not self.keep_relational:
            raise OptionError("keep distance 'none' keeps nothing without a relational weight (--keep-relational)")


@dataclass
class FlagshipV2RecipeOptions(KeepRecipeOptions, StsMixingOptions):
    """``flagship-v2`` and its leave-one-out rows with an STS stream."""

    LABEL: ClassVar[tuple[str, ...]] = label_order("sts_weight", *V2_LABEL)


@dataclass
class StudentRecipeOptions(FlagshipV2RecipeOptions):
    """``flagship-v2-student``: a distillation phase from a teacher before the flagship streams."""

    LABEL: ClassVar[tuple[str, ...]] = label_order("sts_weight", *V2_LABEL, "distill_steps", "teacher", "distill_align")

    distill_steps: int = opt(
        300,
        "flagship-v2-student: steps of EN/PT distillation before the flagship streams.",
        range=Range(1),
        label="-distill{}",
    )
    teacher: str = opt(
        "mpnet",
        "flagship-v2-student: the teacher (idiom reader in front) distilled into the model on EN/PT parallel"
        " sentences.",
        label="-teacher-{}",
    )
    distill_align: str = opt(
        "none",
        "flagship-v2-student: map the teacher's targets into the untrained student's own space before"
        " distilling (procrustes: centred, rotated and scaled, fitted on both models' embeddings of the same"
        " sentences) or not (none).",
        known=("alignment", "idiomkit.training.recipes.frozen:ALIGNMENTS"),
        label="-align-{}",
    )


# every recipe options class (a recipe's registry entry names one of them; a test holds the two in step)
RECIPE_OPTIONS: tuple[type[RecipeOptions], ...] = (
    RecipeOptions,
    SemEval2BRecipeOptions,
    SemEval2BStsRecipeOptions,
    YnuRecipeOptions,
    IdioLinkRecipeOptions,
    PairsRecipeOptions,
    FlagshipRecipeOptions,
    KeepRecipeOptions,
    FlagshipV2RecipeOptions,
    StudentRecipeOptions,
)


def recipe_fields() -> dict[str, dataclasses.Field]:
    """Every recipe option, once, by name: a name several families take is one declaration (a shared base class's
    field), never two."""
    found: dict[str, dataclasses.Field] = {}
    for cls in RECIPE_OPTIONS:
        for f in dataclasses.fields(cls):
            if found.setdefault(f.name, f) is not f:
                raise TypeError(f"recipe option {f.name}: declared again in {cls.__name__}")
    return found


def copied(f: dataclasses.Field) -> dataclasses.Field:
    """A new field with ``f``'s default and metadata (a field object belongs to one dataclass)."""
    if f.default_factory is not dataclasses.MISSING:
        return dataclasses.field(default_factory=f.default_factory, metadata=f.metadata)
    return dataclasses.field(default=f.default, metadata=f.metadata)


def train_options(config: type = TrainConfig) -> type:
    """The dataclass of every ``idiomkit train`` option: ``config``'s fields, then each recipe option once (the
    flags of the command, the fields of an experiment's ``[train]`` table)."""
    hints = typing.get_type_hints(config) | {
        name: hint for cls in RECIPE_OPTIONS for name, hint in typing.get_type_hints(cls).items()
    }
    spec = [(f.name, hints[f.name], copied(f)) for f in dataclasses.fields(config) if f.name != "options"]
    spec += [(name, hints[name], copied(f)) for name, f in recipe_fields().items()]
    doc = "Every option of ``idiomkit train``: the shared ones (TrainConfig), then every recipe family's own."
    return dataclasses.make_dataclass("TrainOptions", spec, namespace={"__doc__": doc, "__module__": __name__})


__all__ = [
    "RECIPE_OPTIONS",
    "FlagshipRecipeOptions",
    "FlagshipV2RecipeOptions",
    "IdioLinkRecipeOptions",
    "KeepRecipeOptions",
    "PairsRecipeOptions",
    "SemEval2BRecipeOptions",
    "SemEval2BStsRecipeOptions",
    "StsMixingOptions",
    "StudentRecipeOptions",
    "TripletLossOptions",
    "YnuRecipeOptions",
    "train_options",
]
