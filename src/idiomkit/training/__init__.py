"""Training: ``train(recipe, model, ...)`` with the recipes of :mod:`idiomkit.training.recipes`."""

from idiomkit.training.recipes import RECIPES, run_label
from idiomkit.training.trainer import TrainConfig, TrainResult, TrainState, train

__all__ = ["RECIPES", "TrainConfig", "TrainResult", "TrainState", "run_label", "train"]
