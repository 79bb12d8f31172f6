"""Training recipes: which examples, which loss, in which phases. One registry entry per recipe.

Each family lives in its own module and registers its recipes in that module's ``RECIPES`` (name ->
:class:`~idiomkit.training.recipes.base.Recipe`): :mod:`.semeval2b` (the SemEval 2B recipes), :mod:`.idiolink`
(InfoNCE and friends on IdioLink), :mod:`.pairs` (idiom/definition pairs, Xiao et al.), :mod:`.flagship` (every
source at once) and :mod:`.flagship_v2` (the flagship with a keep-what-you-know term and a bilingual student).
Adding a recipe is one entry there, or one new module added below. The trainer imports the recipes, never the reverse.
"""

from collections.abc import Mapping, Sequence
from dataclasses import asdict, fields, is_dataclass
from typing import Any

from idiomkit.errors import check_choice
from idiomkit.training.config import TrainConfig
from idiomkit.training.recipes import flagship, flagship_v2, idiolink, pairs, semeval2b
from idiomkit.training.recipes.base import Phase, Recipe, Setup, Stream, semeval_labels
from idiomkit.training.relabel import Group

RECIPES: dict[str, Recipe] = {
    **semeval2b.RECIPES,
    **idiolink.RECIPES,
    **pairs.RECIPES,
    **flagship.RECIPES,
    **flagship_v2.RECIPES,
}


def build_phases(recipe: str, model, groups: Sequence[Group] | None, cfg) -> list[Phase]:
    """The phases of ``recipe`` (one-line ``OptionError`` naming the known recipes for an unknown one)."""
    check_choice("recipe", recipe, RECIPES)
    return RECIPES[recipe].phases(model, groups, cfg)


# the suffix a post-training verb adds to the label of the run it reads (``idiomkit center RUN``: that run's label
# + ``-center``), so a method experiment's cards are named from the experiment it reads
METHOD_SUFFIXES = {"center": "-center"}


def run_label(recipe: str, config: Mapping[str, Any] | None = None) -> str:
    """The recipe name used in result files, from the recipe's :class:`Recipe` entry and the run's options
    (``config``: a :class:`~idiomkit.training.config.TrainConfig` or its dict, as in ``training.json``; a missing
    option has its default): ``adaptive-triplet`` vs ``adaptive-triplet-mwe`` (``labels``); ``-lora`` suffix;
    IdioLink recipes: ``-span`` when the loss saw span embeddings of the queries, ``-ep<N>`` when the epoch budget is
    not the paper's 10 (2B result files name their epochs elsewhere); ``-dropout<p>`` when the run overrode the
    model's dropout; ``-bf16`` for a run trained in mixed precision (:mod:`idiomkit.training.precision`);
    ``-stsw<w>`` for an STS-mixing recipe whose STS loss weight is not 1; flagship-v2 recipes:
    ``-keep<w>`` / ``-keep-<distance>`` / ``-rel<w>`` when the keep-what-you-know loss is not the default (weight
    1, ``mse``, no relational term),
    ``-anchors`` with ``paraphrase_anchors``, ``-pin<w>`` with a ``pin_weight``, ``-otherid`` with
    ``other_id_targets``, ``-2bw<w>`` when the 2B pair stream's ``pair_weight`` is not 1,
    ``-pool-<pooling>`` when the pooling is not ``last2``, ``-distill<N>`` / ``-teacher-<name>`` /
    ``-align-<how>`` when the student's distillation is not; ``-dedup`` when a 2B recipe's
    training data went through the held-out dedup (the recorded rows before it carry no suffix; IdioLink and pairs
    recipes keep their idioms apart by construction, the dedup only moves their STS validation; the flagship always
    goes through it), ``-dedup-sentences`` when it dropped held-out sentences only (SemEval 2B's fine_tune rule: MWE
    overlap allowed). A name not in the registry (an old ``training.json``) is labelled like a 2B recipe."""
    cfg = _with_defaults(config)
    entry = RECIPES.get(recipe) or Recipe("semeval2b", build_phases, labels=semeval_labels(recipe), dedup_label=True)
    with_mwe, without = entry.labels or (recipe, recipe)
    label = (with_mwe if cfg["mwe_tokens"] else without) + ("-span" if entry.span_label and cfg["span_queries"] else "")
    label += "-lora" if cfg["lora_rank"] else ""
    if entry.paper_epochs is not None and cfg["epochs"] not in (None, entry.paper_epochs):
        label += f"-ep{cfg['epochs']}"
    if cfg["sts_weight"] != 1.0 and entry.sts_mixing:
        label += f"-stsw{cfg['sts_weight']:g}"
    label += _v2_label(recipe, cfg) if entry.keep_label else ""
    label += f"-dropout{cfg['dropout']:g}" if cfg["dropout"] is not None else ""
    label += f"-{cfg['precision']}" if cfg["precision"] != "fp32" else ""
    if cfg["heldout_dedup"] and entry.dedup_label:
        label += "-dedup" if cfg["dedup_idioms"] else "-dedup-sentences"
    return label


def _with_defaults(config: Mapping[str, Any] | None) -> dict[str, Any]:
    given = asdict(config) if is_dataclass(config) else dict(config or {})
    defaults = {f.name: f.default for f in fields(TrainConfig)}
    return {**defaults, "heldout_dedup": False, **{k: v for k, v in given.items() if k in defaults}}


def _v2_label(recipe: str, cfg: Mapping[str, Any]) -> str:
    """The flagship-v2 part of a run label: what differs from the recipe's defaults."""
    label = f"-keep{cfg['keep_weight']:g}" if cfg["keep_weight"] != 1.0 else ""
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
    return label


__all__ = ["RECIPES", "Phase", "Recipe", "Setup", "Stream", "build_phases", "run_label"]
