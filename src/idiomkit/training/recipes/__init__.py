"""Training recipes: which examples, which loss, in which phases. One registry entry per recipe.

Each family lives in its own module and registers its recipes in that module's ``RECIPES`` (name ->
:class:`~idiomkit.training.recipes.base.Recipe`): :mod:`.semeval2b` (the SemEval 2B recipes), :mod:`.idiolink`
(InfoNCE and friends on IdioLink), :mod:`.pairs` (idiom/definition pairs, Xiao et al.), :mod:`.flagship` (every
source at once) and :mod:`.flagship_v2` (the flagship with a keep-what-you-know term and a bilingual student).
Adding a recipe is one entry there, or one new module added below. The trainer imports the recipes, never the reverse.
"""

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from idiomkit.errors import OptionError, check_choice
from idiomkit.options import default_of
from idiomkit.training.config import TrainConfig, label_suffix
from idiomkit.training.recipe_options import SemEval2BRecipeOptions, recipe_fields
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
    phases = RECIPES[recipe].phases
    if phases is None:
        raise RuntimeError(f"{recipe} builds its phases in its setup (the trainer calls it)")
    return phases(model, groups, cfg)


# the suffix a post-training verb adds to the label of the run it reads (``idiomkit center RUN``: that run's label
# + ``-center``), so a method experiment's scorecards are named from the experiment it reads
METHOD_SUFFIXES = {"center": "-center"}


def recipe_entry(recipe: str) -> Recipe:
    """The registry entry of ``recipe``; a name not in the registry (an old ``training.json``) is read as a 2B
    recipe's."""
    return RECIPES.get(recipe) or Recipe(
        "semeval2b", build_phases, labels=semeval_labels(recipe), options=SemEval2BRecipeOptions
    )


def train_config(recipe: str = TrainConfig.recipe, **values: Any) -> TrainConfig:
    """The :class:`TrainConfig` of ``recipe`` from keyword ``values``: the shared options and the recipe's own
    (:attr:`Recipe.options`). An option of no recipe is an OptionError; another recipe family's option is one too,
    unless it has its default (the command line passes every flag's default)."""
    shared = {f.name for f in fields(TrainConfig)} - {"options"}
    options_cls = recipe_entry(recipe).options
    own = {f.name for f in fields(options_cls)}
    foreign = sorted(set(values) - shared - own)
    unknown = [name for name in foreign if name not in recipe_fields()]
    if unknown:
        raise OptionError(f"unknown training option(s): {', '.join(unknown)}")
    given = [name for name in foreign if values[name] != default_of(recipe_fields()[name])]
    if given:
        takes = ", ".join(sorted(own))
        raise OptionError(f"recipe {recipe} takes no option {', '.join(given)} (its own options: {takes or 'none'})")
    options = options_cls(**{k: v for k, v in values.items() if k in own})
    return TrainConfig(recipe=recipe, **{k: v for k, v in values.items() if k in shared}, options=options)


def config_from_record(record: Mapping[str, Any]) -> TrainConfig:
    """The :class:`TrainConfig` a run recorded (``training.json``'s ``config``): a record made before the recipe
    options were split off holds every family's options; those of other families are dropped. A name no option
    has is an OptionError."""
    own = {f.name for f in fields(recipe_entry(record.get("recipe", TrainConfig.recipe)).options)}
    shared = {f.name for f in fields(TrainConfig)}
    kept = {k: v for k, v in record.items() if k in shared or k in own or k not in recipe_fields()}
    return train_config(**kept)


def run_label(recipe: str, config: Mapping[str, Any] | TrainConfig | None = None) -> str:
    """The recipe name used in result files, derived from the declarations: the recipe's name (a 2B recipe's with
    or without MWE tokens, :attr:`Recipe.labels`), then the suffix of each field its options class names
    (:attr:`~idiomkit.training.config.RecipeOptions.LABEL`) whose value is not the default, as the field's ``label``
    metadata spells it (``-lora``, ``-span``, ``-ep30``, ``-stsw0.5``, ``-keep10``, ``-pool-mean``, ``-dropout0``,
    ``-bf16``, ``-dedup``...). ``config``: a :class:`TrainConfig` or a recorded config (``training.json``); a
    missing option has its default, but for ``heldout_dedup``: a record without it was made before the held-out
    dedup (an experiment's ``[train]`` table is no record: :func:`train_label`). A name not in the registry (an old
    ``training.json``) is labelled like a 2B recipe."""
    given = config.record() if isinstance(config, TrainConfig) else dict(config or {})
    entry = recipe_entry(recipe)
    declared = {f.name: f for f in (*fields(TrainConfig), *fields(entry.options))}
    cfg = {**{name: default_of(f) for name, f in declared.items()}, "heldout_dedup": False, **given}
    with_mwe, without = entry.labels or (recipe, recipe)
    label = with_mwe if cfg["mwe_tokens"] else without
    return label + "".join(label_suffix(declared[name], cfg) for name in entry.options.LABEL)


def train_label(options: Mapping[str, Any]) -> str:
    """The run label ``idiomkit train`` gives a run of ``options`` (an experiment's ``[train]`` table; its
    ``evaluate`` list names tasks, no option): an option not set has the command's default (:func:`train_config`),
    ``heldout_dedup`` too, where :func:`run_label` reads a record without it as one made before the dedup.

    Example::

        train_label({"recipe": "cosent-sts", "model": "minilm", "sts_weight": 0.3})  # "cosent-sts-stsw0.3-dedup"
    """
    given = {name: value for name, value in options.items() if name != "evaluate"}
    return run_label(given.get("recipe", TrainConfig.recipe), train_config(**given))


__all__ = [
    "RECIPES",
    "Phase",
    "Recipe",
    "Setup",
    "Stream",
    "build_phases",
    "config_from_record",
    "run_label",
    "train_config",
    "train_label",
]
