"""Training recipes: which examples, which loss, in which phases. One registry entry per recipe.

Each family lives in its own module and registers its recipes in that module's ``RECIPES`` (name ->
:class:`~idiomkit.training.recipes.base.Recipe`): :mod:`.semeval2b` (the SemEval 2B recipes), :mod:`.idiolink`
(InfoNCE and friends on IdioLink), :mod:`.pairs` (idiom/definition pairs, Xiao et al.), :mod:`.flagship` (every
source at once) and :mod:`.flagship_v2` (the flagship with a keep-what-you-know term and a bilingual student).
Adding a recipe is one entry there, or one new module added below. The trainer imports the recipes, never the reverse.
"""

from collections.abc import Sequence

from idiomkit.errors import OptionError
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
    if recipe not in RECIPES:
        raise OptionError(f"unknown recipe '{recipe}' (expected one of {', '.join(RECIPES)})")
    return RECIPES[recipe].phases(model, groups, cfg)


def run_label(
    recipe: str,
    mwe_tokens: bool,
    lora_rank: int | None = None,
    span_queries: bool = False,
    dropout: float | None = None,
    sts_weight: float = 1.0,
    epochs: int | None = None,
    heldout_dedup: bool = False,
    dedup_idioms: bool = True,
) -> str:
    """The recipe name used in result files, from the recipe's :class:`Recipe` entry: ``adaptive-triplet`` vs
    ``adaptive-triplet-mwe`` (``labels``); ``-lora`` suffix; IdioLink recipes: ``-span`` when the loss saw span
    embeddings of the queries, ``-ep<N>`` when the epoch budget is not the paper's 10 (2B result files name their
    epochs elsewhere); ``-dropout<p>`` when the run overrode the model's dropout; ``-stsw<w>`` for an STS-mixing
    recipe whose STS loss weight is not 1; ``-dedup`` when a 2B recipe's training data went through the held-out
    dedup (the recorded rows before it carry no suffix; IdioLink and pairs recipes keep their idioms apart by
    construction, the dedup only moves their STS validation; the flagship always goes through it),
    ``-dedup-sentences`` when it dropped held-out sentences only (SemEval 2B's fine_tune rule: MWE overlap
    allowed). A name not in the registry (an old ``training.json``) is labelled like a 2B recipe."""
    entry = RECIPES.get(recipe) or Recipe("semeval2b", build_phases, labels=semeval_labels(recipe), dedup_label=True)
    with_mwe, without = entry.labels or (recipe, recipe)
    label = (with_mwe if mwe_tokens else without) + ("-span" if entry.span_label and span_queries else "")
    label += "-lora" if lora_rank else ""
    if entry.paper_epochs is not None and epochs not in (None, entry.paper_epochs):
        label += f"-ep{epochs}"
    if sts_weight != 1.0 and entry.sts_mixing:
        label += f"-stsw{sts_weight:g}"
    suffix = ("-dedup" if dedup_idioms else "-dedup-sentences") if heldout_dedup and entry.dedup_label else ""
    return label + (f"-dropout{dropout:g}" if dropout is not None else "") + suffix


__all__ = ["RECIPES", "Phase", "Recipe", "Setup", "Stream", "build_phases", "run_label"]
