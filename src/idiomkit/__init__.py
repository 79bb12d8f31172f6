"""idiomkit: train and measure idiom-aware sentence embeddings."""

from idiomkit.api import embed, evaluate, models
from idiomkit.data.errors import DataError
from idiomkit.models import load_model

__version__ = "0.1.0"
__all__ = ["DataError", "embed", "evaluate", "load_model", "models"]
