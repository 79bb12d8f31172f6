"""Training recipes: ``train(recipe="adaptive-triplet", ...)``."""

from idiomkit.training.adaptive_triplet import TrainConfig, TrainResult, TrainState, train

RECIPES = ("adaptive-triplet",)

__all__ = ["RECIPES", "TrainConfig", "TrainResult", "TrainState", "train"]
