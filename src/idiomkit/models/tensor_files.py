"""Shipped weight files read safely: a safetensors file whose sha256 is recorded beside it (the sense encoder's
adapters and head, a shipped model's LoRA delta). A changed file, one safetensors cannot read, or a tensor holding
a non-finite value is a one-line DataError.

Example::

    state = read_checked_tensors(folder / "adapter.safetensors", record["sha256"], folder / "adapter.json")
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from idiomkit.data.errors import DataError
from idiomkit.models.registry import sha256_file


def read_checked_tensors(weights: Path, sha256: object, record: Path) -> dict[str, Any]:
    """The tensors of ``weights``, once its sha256 is the one ``record`` holds (``sha256``) and every value is
    finite."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    if sha256_file(weights) != sha256:
        raise DataError(weights, None, None, f"sha256 differs from the one recorded in {record.name} (changed file)")
    try:
        state = load_file(str(weights))
    except (SafetensorError, OSError) as exc:
        raise DataError(weights, None, None, f"not a readable safetensors file ({exc})") from None
    for key, value in state.items():
        if not bool(value.isfinite().all()):
            raise DataError(weights, None, key, "non-finite values")
    return state
