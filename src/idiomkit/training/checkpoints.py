"""A run's checkpoint (model, optimizer, scheduler, position and RNG states; tensors and plain data only, so it loads
with ``weights_only=True``) and atomically saved model directories (``best/``, ``epoch-<N>/``)."""

from __future__ import annotations

import copy
import errno
import json
import logging
import os
import random
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch

from idiomkit.errors import InputError, is_safetensors_error, load_failure
from idiomkit.idioms.reader import encoder_module, ship_full_lexicon
from idiomkit.models.shipped import save_adapter
from idiomkit.results import atomic_write_text
from idiomkit.training.config import TrainConfig, TrainState

log = logging.getLogger("idiomkit.training")

CHECKPOINT = "checkpoint.pt"


class RunDirError(InputError):
    """A one-line refusal about a run directory: another config, a second writer, an unsafe or broken checkpoint."""


CHECKPOINT_FORMAT = 2  # 2: only tensors and plain containers (loads with ``torch.load(weights_only=True)``)


def rng_states() -> dict[str, Any]:
    """Every generator a training step draws from (CUDA's too: dropout masks on a GPU come from it), as tensors and
    plain containers so that a checkpoint loads with ``weights_only=True``."""
    kind, keys, pos, has_gauss, gauss = np.random.get_state(legacy=True)
    states = {
        "torch": torch.get_rng_state(),
        "python": list(random.getstate()),
        "numpy": {
            "kind": str(kind),
            "keys": torch.from_numpy(np.asarray(keys, dtype=np.int64)),
            "pos": int(pos),
            "has_gauss": int(has_gauss),
            "gauss": float(gauss),
        },
    }
    if torch.cuda.is_available():
        states["cuda"] = torch.cuda.get_rng_state_all()
    return states


def set_rng_states(states: dict[str, Any]) -> None:
    """Restore :func:`rng_states` (a checkpoint read with ``map_location`` may have moved them to the GPU)."""
    torch.set_rng_state(states["torch"].cpu())
    if "cuda" in states and torch.cuda.is_available() and len(states["cuda"]) == torch.cuda.device_count():
        torch.cuda.set_rng_state_all([s.cpu() for s in states["cuda"]])
    version, internal, gauss_next = states["python"]
    random.setstate((version, tuple(internal), gauss_next))
    n = states["numpy"]
    keys = n["keys"].cpu().numpy().astype(np.uint32)
    np.random.set_state((n["kind"], keys, n["pos"], n["has_gauss"], n["gauss"]))


def save_checkpoint(out: Path, model, optimizer, scheduler, state: TrainState, cfg: TrainConfig) -> Path:
    """Write model + optimizer + scheduler + position + RNG states atomically to ``out/checkpoint.pt``."""
    path = out / CHECKPOINT
    tmp = out / (CHECKPOINT + ".tmp")
    blob = {
        "format": CHECKPOINT_FORMAT,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "state": asdict(state),
        "rng": rng_states(),
        "config": cfg.record(),
    }
    try:  # write beside, flush to disk, then rename: a kill at any point leaves the previous checkpoint intact
        with open(tmp, "wb") as fh:
            torch.save(blob, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def load_checkpoint(out: Path) -> dict[str, Any] | None:
    """The checkpoint blob in ``out`` (on the CPU), or None. It is unpickled with ``weights_only=True``: tensors and
    plain containers only, so a crafted file cannot run code; anything else is a one-line :class:`RunDirError`."""
    path = out / CHECKPOINT
    if not path.exists():
        return None
    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - pickle, zip and EOF errors all mean the same thing here
        raise RunDirError(
            f"{path}: refused to load: not a plain idiomkit checkpoint (tensors and plain data only; written by an "
            f"older idiomkit, damaged or crafted): {load_failure(exc)}; use --force-new to start over"
        ) from None
    if not isinstance(blob, dict) or blob.get("format") != CHECKPOINT_FORMAT:
        raise RunDirError(f"{path}: not an idiomkit checkpoint of format {CHECKPOINT_FORMAT}; use --force-new")
    return blob


def restore_checkpoint(blob: dict[str, Any], model) -> None:
    """Put a :func:`load_checkpoint` blob's weights into ``model`` and its RNG states into the generators. The
    weights are copied, so the blob's copy is dropped (a resumed mpnet run held 440 MB of it until the end)."""
    model.load_state_dict(blob.pop("model"))
    set_rng_states(blob["rng"])


BASE_LENGTH = "idiomkit_base_max_seq_length"  # the attribute that keeps the base model's own maximum length


def set_training_length(model, length: int) -> None:
    """Truncate ``model``'s inputs at ``length`` while it trains, remembering the base model's own maximum length
    (the first time), which every saved copy keeps (:func:`at_base_length`)."""
    if not hasattr(model, BASE_LENGTH):
        setattr(model, BASE_LENGTH, model.max_seq_length)
    model.max_seq_length = length


def base_length(model) -> int | None:
    """The maximum length ``model`` reads outside training: its base model's, or its own."""
    return getattr(model, BASE_LENGTH, None) or getattr(model, "max_seq_length", None)


@contextmanager
def at_base_length(model, length: int | None = None) -> Iterator[None]:
    """``model`` reads up to its base model's maximum length (or ``length``) inside the block, to be saved so (the
    training length is a speed setting, not the model's), and its training length again after it; a module
    without a ``max_seq_length`` is left as it is."""
    training, reads = getattr(model, "max_seq_length", None), length or base_length(model)
    if training is None or reads is None:
        yield
        return
    model.max_seq_length = reads
    try:
        yield
    finally:
        model.max_seq_length = training


def plain_copy(model):
    """The model itself, or for a LoRA run a copy with the adapters merged into the weights."""
    if not hasattr(encoder_module(model).model, "merge_and_unload"):
        return model
    merged = copy.deepcopy(model)
    encoder = encoder_module(merged)
    encoder.model = encoder.model.merge_and_unload()
    return merged


def save_plain(model, path: Path, length: int | None = None) -> None:
    """Save ``model`` as a plain sentence-transformers directory: LoRA adapters merged, reading up to its base
    model's maximum length (not the training one: :func:`set_training_length`), or ``length``; its idiom reader,
    if any, with the full shipped lexicon (:func:`~idiomkit.idioms.reader.ship_full_lexicon`)."""
    with at_base_length(model, length):
        plain = plain_copy(model)
        plain.save(str(path))
    record_no_pooler(plain, path)
    ship_full_lexicon(path)


def record_no_pooler(model, path: Path) -> None:
    """Write ``add_pooling_layer: false`` into the saved encoder's module config when the encoder has no pooler
    (me5-small-enpt's conversion has none). sentence-transformers 6 does not save the ``model_kwargs`` that say so,
    and without them transformers reloads the folder with a freshly initialised pooler and a "MISSING" report."""
    encoder = encoder_module(model)
    if getattr(encoder.model, "pooler", "absent") is not None:
        return
    idx = next(i for i, module in enumerate(model) if module is encoder)
    entry = next(e for e in json.loads((path / "modules.json").read_text(encoding="utf-8")) if e["idx"] == idx)
    config_file = path / entry["path"] / "sentence_bert_config.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config.setdefault("model_kwargs", {})["add_pooling_layer"] = False
    atomic_write_text(config_file, json.dumps(config, indent=2) + "\n")


def write_folder(path: Path, write: Callable[[Path], Any]) -> None:
    """Write a folder atomically: ``write(tmp)`` into a folder beside ``path``, then swap it in. A failed write leaves
    no half-written copy behind (the previous ``path`` stays); safetensors' own error for a failed write (disk
    full...) is raised as the OSError behind it (:func:`write_failure`)."""
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        write(tmp)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if is_safetensors_error(exc):
            raise write_failure(exc, path) from exc
        raise
    shutil.rmtree(path, ignore_errors=True)
    os.replace(tmp, path)


def save_model_dir(model, path: Path) -> None:
    """Save a sentence-transformers directory atomically (:func:`write_folder`) with :func:`save_plain`."""
    write_folder(path, lambda tmp: save_plain(model, tmp))


def save_lora_adapter(model, path: Path, base: str, run: str = "") -> Path | None:
    """For a LoRA run, the adapters alone (unmerged, fp16: :func:`~idiomkit.models.shipped.save_adapter`) in
    ``path``, written whole beside the model directory or not at all (:func:`write_folder`); None for a run without
    LoRA."""
    encoder = encoder_module(model).model
    if not hasattr(encoder, "peft_config"):
        return None
    write_folder(path, lambda tmp: save_adapter(encoder, tmp, base, run))
    return path


def write_failure(exc: BaseException, path: Path) -> OSError:
    """The OSError behind safetensors' "Error while serializing: IoError(Os { code: 28, ... })", naming ``path``
    (so a full disk reads as "no space left on device", not as corrupt weights)."""
    found = re.search(r"\bcode: (\d+)", str(exc))
    code = int(found.group(1)) if found else errno.EIO
    return OSError(code, os.strerror(code) if found else f"cannot write the model weights ({exc})", str(path))
