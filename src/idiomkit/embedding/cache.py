"""Embedding caches: a model fingerprint, and arrays kept in memory (per process) and as ``.npy`` files.

A cache key is a digest of the model's fingerprint and the texts (or the file they come from), so a trained model
or an edited data file never reads another's embeddings.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from idiomkit.data.errors import DataError
from idiomkit.idioms.reader import encoder_module
from idiomkit.settings import default_cache_dir

MEMORY_CACHE: dict[str, np.ndarray] = {}


def model_fingerprint(model) -> str:
    """sha256 over the model's source path, module layout and weights (changes when the model is trained)."""
    digest = hashlib.sha256()
    with contextlib.suppress(AttributeError, IndexError, TypeError):
        digest.update(str(encoder_module(model).auto_model.config._name_or_path).encode())
    digest.update(repr(model).encode())
    for name, tensor in model.state_dict().items():
        digest.update(name.encode())
        digest.update(tensor.detach().float().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()


def embeddings_cache_dir(name: str) -> Path:
    """``<idiomkit cache>/embeddings/<name>`` (see :mod:`idiomkit.settings`)."""
    return default_cache_dir() / "embeddings" / name


def save_array_atomically(path: Path, array: np.ndarray) -> None:
    """``np.save`` to a temporary file beside ``path``, then rename: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{time.time_ns()}.tmp.npy")
    np.save(tmp, array)
    tmp.replace(path)


def cached_array(
    key: str,
    compute: Callable[[], np.ndarray],
    *,
    directory: Path | None,
    rows: int | None = None,
    memory: bool = True,
) -> np.ndarray:
    """The array stored under ``key``: from memory (``memory``), else ``directory/<key>.npy`` when it has ``rows``
    rows (any number when None), else ``compute()``, which is then stored in both. ``directory`` None: no file."""
    if memory and key in MEMORY_CACHE:
        return MEMORY_CACHE[key]
    path = directory / f"{key}.npy" if directory is not None else None
    if path is not None and path.is_file():
        try:
            array = np.load(path)
        except (ValueError, EOFError) as exc:  # a truncated or foreign .npy
            raise DataError(path, None, None, f"unreadable cached array ({exc}); delete it to recompute") from exc
        if rows is None or array.shape[0] == rows:
            if memory:
                MEMORY_CACHE[key] = array
            return array
    array = compute()
    if memory:
        MEMORY_CACHE[key] = array
    if path is not None:
        save_array_atomically(path, array)
    return array
