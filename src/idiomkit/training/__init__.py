"""Training: ``train(recipe, model, ...)`` with the recipes of :mod:`idiomkit.training.recipes`.

The names are loaded on first use (PEP 562): :mod:`idiomkit.training.config` (which the command line reads to
build ``idiomkit train``'s flags) stays free of torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from idiomkit.lazy import lazy_exports

_LAZY = {
    "RECIPES": "idiomkit.training.recipes",
    "run_label": "idiomkit.training.recipes",
    "TrainConfig": "idiomkit.training.config",
    "TrainState": "idiomkit.training.config",
    "TrainResult": "idiomkit.training.trainer",
    "train": "idiomkit.training.trainer",
}
__all__ = ["RECIPES", "TrainConfig", "TrainResult", "TrainState", "run_label", "train"]

if TYPE_CHECKING:  # pragma: no cover
    from idiomkit.training.config import TrainConfig, TrainState
    from idiomkit.training.recipes import RECIPES, run_label
    from idiomkit.training.trainer import TrainResult, train


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
