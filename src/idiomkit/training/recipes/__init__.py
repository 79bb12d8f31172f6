"""Training recipes: which examples, which loss, in which phases. One registry entry per recipe.

Each family lives in its own module and registers its recipes in that module's ``RECIPES`` (name ->
:class:`~idiomkit.training.recipes.base.Recipe`): :mod:`.semeval2b` (the SemEval 2B recipes), :mod:`.idiolink`
(InfoNCE and friends on IdioLink), :mod:`.pairs` (idiom/definition pairs, Xiao et al.) and :mod:`.flagship` (every
source at once). Adding a recipe is one
entry there, or one new module added below. The trainer imports the recipes, never the reverse.
"""

from collections.abc import Sequence

from idiomkit.training.recipes import flagship, idiolink, pairs, semeval2b
from idiomkit.training.recipes.base import Phase, Recipe, Setup, Stream, run_label
from idiomkit.training.relabel import Group

RECIPES: dict[str, Recipe] = {**semeval2b.RECIPES, **idiolink.RECIPES, **pairs.RECIPES, **flagship.RECIPES}


def build_phases(recipe: str, model, groups: Sequence[Group] | None, cfg) -> list[Phase]:
    """The phases of ``recipe`` (one-line ``ValueError`` naming the known recipes for an unknown one)."""
    if recipe not in RECIPES:
        raise ValueError(f"unknown recipe '{recipe}' (expected one of {', '.join(RECIPES)})")
    return RECIPES[recipe].phases(model, groups, cfg)


__all__ = ["RECIPES", "Phase", "Recipe", "Setup", "Stream", "build_phases", "run_label"]
