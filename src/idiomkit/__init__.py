"""idiomkit: train and measure idiom-aware sentence embeddings.

The public names are loaded on first use (PEP 562), so ``import idiomkit`` and ``idiomkit --help`` stay fast:
sentence-transformers and torch are imported only when a model is needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from idiomkit.lazy import lazy_exports

__version__ = "0.1.0"

_LAZY = {
    "DataError": "idiomkit.data.errors",
    "embed": "idiomkit.api",
    "evaluate": "idiomkit.api",
    "evaluate_all": "idiomkit.scorecard",
    "list_models": "idiomkit.api",
    "load_model": "idiomkit.models",
    "run_method": "idiomkit.api",
    "add_reader": "idiomkit.reader_api",
    "read": "idiomkit.reader_api",
}
__all__ = [
    "DataError",
    "add_reader",
    "embed",
    "evaluate",
    "evaluate_all",
    "list_models",
    "load_model",
    "read",
    "run_method",
]  # = sorted(_LAZY)

if TYPE_CHECKING:  # pragma: no cover
    from idiomkit.api import embed, evaluate, list_models, run_method
    from idiomkit.data.errors import DataError
    from idiomkit.models import load_model
    from idiomkit.reader_api import add_reader, read
    from idiomkit.scorecard import evaluate_all


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
