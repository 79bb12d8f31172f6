"""Models: the offline registry and one loader for registry names, local paths and hub names."""

from __future__ import annotations

import json
import logging
import os
import pickle
from pathlib import Path
from typing import Any

from idiomkit.errors import InputError, is_safetensors_error, load_failure
from idiomkit.models.folder import (
    check_dense_activation,
    check_links_stay_inside,
    check_module_path,
    check_sentence_transformers_module,
    first_line,
)
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
    "load_sentence_transformer",
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
    """Load a :class:`~sentence_transformers.SentenceTransformer` by registry name, local path or hub id, safely: a
    saved idiom reader loads from the installed idiomkit, and no code in a model folder runs
    (:func:`load_sentence_transformer`).

    Args:
        name_or_path: ``minilm``, ``mpnet``, ``me5-small``, ``me5-small-enpt``; a shipped idiom-aware model,
            ``mpnet-idioms`` or ``me5-idioms`` (:mod:`idiomkit.models.shipped`: its base with the idiom reader in
            front); a model directory, or a hub id.
        pooling: ``mean`` (the model's own) or ``last2`` (average of the last two layers, then mean).
        device: torch device; default picks CUDA/MPS when available, else CPU.
        max_seq_length: optional cap on tokens per text.
    """
    from idiomkit.embedding.pooling import with_pooling
    from idiomkit.models.shipped import SHIPPED, load_shipped

    if name_or_path in SHIPPED:
        options = {"pooling": pooling, "device": device, "max_seq_length": max_seq_length}
        return load_shipped(name_or_path, lambda base: load_model(base, **options))
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
        model = load_sentence_transformer(source, device=device)
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


def own_module_classes() -> dict[str, type]:
    """The module classes outside sentence-transformers that a model folder may name in ``modules.json``: idiomkit's
    own, imported from the installed package (never from the folder), keyed by the ``type`` a saved model writes."""
    from idiomkit.idioms.reader import IdiomReader

    return {f"{cls.__module__}.{cls.__qualname__}": cls for cls in (IdiomReader,)}


def module_classes_of(local: Path) -> dict[str, type]:
    """The idiomkit classes the ``modules.json`` of a local model directory names (empty: none, or no such file).

    Raises:
        ModelNotAvailable: ``modules.json`` is not a JSON list of modules with a ``type``, or names a class that is
            neither sentence-transformers' nor idiomkit's (loading it would run code chosen by the folder).
    """
    path = local / "modules.json"
    if not local.is_dir() or not path.is_file():
        return {}
    try:
        modules = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ModelNotAvailable(f"{path}: not valid JSON ({first_line(exc)})") from None
    if not isinstance(modules, list):
        raise ModelNotAvailable(f"{path}: expected a JSON list of modules, got {type(modules).__name__}")
    own = own_module_classes()
    wanted: dict[str, type] = {}
    for row, entry in enumerate(modules, start=1):
        kind = entry.get("type") if isinstance(entry, dict) else None
        if not isinstance(kind, str) or not kind:
            raise ModelNotAvailable(f"{path}: module {row}: field 'type': missing or not a string")
        folder = check_module_path(path, row, entry.get("path"))
        if kind.startswith("sentence_transformers."):
            check_dense_activation(local / folder, check_sentence_transformers_module(path, row, kind))
            continue
        if kind not in own:
            raise ModelNotAvailable(
                f"{path}: module {row}: field 'type': '{kind}' is neither a sentence-transformers nor an idiomkit "
                f"module class; idiomkit runs no code from a model folder (known: {', '.join(sorted(own))})"
            )
        wanted[kind] = own[kind]
    return wanted


def load_sentence_transformer(source: str, **kwargs: Any):
    """``SentenceTransformer(source, **kwargs)`` without ``trust_remote_code``: nothing in a model folder is imported.

    sentence-transformers 6 imports a ``modules.json`` class outside its own package only with
    ``trust_remote_code=True``, and for a local folder that flag first tries the folder's own ``<module>.py`` (a
    ``type`` of ``idiomkit.Evil`` imports ``<folder>/idiomkit.py``). So the idiom reader's class is resolved here
    from the installed idiomkit (:func:`module_classes_of`) and handed to sentence-transformers, which then needs
    no flag; any other outside class is refused in one line before anything loads.
    """
    from sentence_transformers import SentenceTransformer

    check_links_stay_inside(Path(source))
    classes = module_classes_of(Path(source))
    try:
        if not classes:
            return SentenceTransformer(source, trust_remote_code=False, **kwargs)
        # sentence-transformers' hook for already imported module classes (what its trainer uses to reload a
        # checkpoint); the classes come from this package, not the folder, so no code of the folder runs
        return SentenceTransformer._load_with_module_classes(source, classes, trust_remote_code=False, **kwargs)
    except Exception as exc:
        if is_safetensors_error(exc):
            raise InputError(f"{weights_file(source)}: corrupt or truncated model weights ({exc})") from exc
        if isinstance(exc, pickle.UnpicklingError):  # torch.load(weights_only=True) refused a pickled *.bin
            raise InputError(
                f"{weights_file(source, '*.bin')}: refused to load: not plain model weights (tensors only; damaged "
                f"or crafted): {load_failure(exc)}"
            ) from None
        if isinstance(exc, RuntimeError) and str(exc).startswith("PytorchStreamReader failed"):  # a cut *.bin
            reason = str(exc).split(".", 1)[0]  # "PytorchStreamReader failed reading zip archive: ..."
            raise InputError(f"{weights_file(source, '*.bin')}: corrupt or truncated model weights ({reason})") from exc
        if isinstance(exc, ValueError) and "trust_remote_code" in str(exc):
            raise ModelNotAvailable(f"{source}: {first_line(exc)} (idiomkit never passes trust_remote_code)") from None
        if isinstance(exc, ValueError) and Path(source).is_dir():  # transformers: "Unrecognized model in ..."
            raise InputError(
                f"{source}: not a model folder sentence-transformers can load ({first_line(exc)})"
            ) from exc
        raise


def weights_file(source: str, pattern: str = "*.safetensors") -> str:
    """The model folder's one ``pattern`` file (its own or a module's, one folder down) when it has exactly one,
    else the folder itself."""
    path = Path(source)
    files = sorted(path.glob(pattern)) + sorted(path.glob(f"*/{pattern}")) if path.is_dir() else []
    return str(files[0]) if len(files) == 1 else source


def model_spec(name: str) -> ModelSpec | None:
    return get_spec(name)
