"""Models: the offline registry and one loader for registry names, local paths and hub names."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from idiomkit.models.registry import (
    DEFAULT_MODEL,
    REGISTRY,
    ModelNotAvailable,
    ModelSpec,
    cache_dir,
    get_spec,
    registry_model_path,
)

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_MODEL",
    "REGISTRY",
    "ModelNotAvailable",
    "ModelSpec",
    "cache_dir",
    "load_model",
    "model_path",
    "resolve_name",
]


def resolve_name(name_or_path: str) -> str:
    """A short, file-name-friendly model name for result files (registry name or directory name)."""
    if name_or_path in REGISTRY:
        return name_or_path
    return Path(name_or_path.rstrip("/")).name or name_or_path


def model_path(name_or_path: str) -> str:
    """Registry name -> built directory; anything else is returned unchanged (local path or hub id)."""
    if name_or_path in REGISTRY:
        return str(registry_model_path(name_or_path))
    return name_or_path


def load_model(
    name_or_path: str = DEFAULT_MODEL,
    *,
    pooling: str = "mean",
    device: str | None = None,
    max_seq_length: int | None = None,
):
    """Load a :class:`~sentence_transformers.SentenceTransformer` by registry name, local path or hub id.

    Args:
        name_or_path: ``minilm``, ``mpnet``, ``me5-small``, ``me5-small-enpt``, a model directory, or a hub id.
        pooling: ``mean`` (the model's own) or ``last2`` (average of the last two layers, then mean).
        device: torch device; default picks CUDA/MPS when available, else CPU.
        max_seq_length: optional cap on tokens per text.
    """
    from sentence_transformers import SentenceTransformer

    from idiomkit.embedding.pooling import with_pooling

    source = model_path(name_or_path)
    local = Path(source)
    if name_or_path not in REGISTRY and local.exists():
        if (
            not local.is_dir()
            or not any(local.glob("*.safetensors"))
            and not any(local.glob("*.bin"))
            and not (local / "modules.json").exists()
        ):
            raise ModelNotAvailable(f"{local}: not a model directory (no weights and no modules.json)")
        if not any(any(local.glob(pattern)) or any(local.glob(f"*/{pattern}")) for pattern in WEIGHTS):
            raise ModelNotAvailable(
                f"{local}: not a complete model directory (no weights: no {' or '.join(WEIGHTS)} file)"
            )
    elif name_or_path not in REGISTRY and os.environ.get("HF_HUB_OFFLINE") == "1":
        raise ModelNotAvailable(
            f"unknown model '{name_or_path}': not a registry name ({', '.join(REGISTRY)}), not a local "
            "directory, and the hub is offline (HF_HUB_OFFLINE=1)"
        )
    try:
        model = SentenceTransformer(source, device=device, trust_remote_code=own_modules_only(local))
    except OSError as exc:
        if name_or_path not in REGISTRY and local.is_dir():  # a local directory, whatever the hub would say
            raise ModelNotAvailable(f"{local}: cannot load the model in this directory ({first_line(exc)})") from None
        raise ModelNotAvailable(
            f"unknown model '{name_or_path}': not a registry name ({', '.join(REGISTRY)}), not a local directory, "
            f"and the hub could not load it ({first_line(exc)})"
        ) from None
    if max_seq_length:
        model.max_seq_length = max_seq_length
    return with_pooling(model, pooling)


WEIGHTS = ("*.safetensors", "*.bin")  # a model directory's weights (its own, or a module's one folder down)


def own_modules_only(local: Path) -> bool:
    """Whether a local model directory's modules outside sentence-transformers are all idiomkit's (its idiom
    reader): only then does loading pass ``trust_remote_code`` (sentence-transformers needs it for any outside
    module class; a directory naming another package's class is loaded without it, and refused)."""
    try:
        modules = json.loads((local / "modules.json").read_text(encoding="utf-8"))
        types = [str(entry["type"]) for entry in modules]
    except (OSError, ValueError, TypeError, KeyError):
        return False
    outside = [t for t in types if not t.startswith("sentence_transformers.")]
    return bool(outside) and all(t.startswith("idiomkit.") for t in outside)


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def model_spec(name: str) -> ModelSpec | None:
    return get_spec(name)
