"""Mixed-precision training: the encoder's forward pass in bfloat16, everything else in float32.

On a CPU with AVX-512 BF16 (the AMD EPYC this project trains on), a training step of mpnet (32
texts of 64 tokens, one thread) took about half as long under ``torch.autocast(dtype=torch.bfloat16)`` as in
float32 in an ad-hoc timing, and a flagship step 20.6 s instead of 34 s (the lab notebook, training engineering;
``benchmarks/speed/train_speed.py``'s configuration ``ours-bf16`` times it, not yet run). Only the model's forward runs
under autocast (its matrix products in bfloat16); its outputs come back as float32, so the losses, the backward
pass's accumulation into the float32 weights, the optimizer and the validations keep full precision. Unlike the
speed-ups in :mod:`idiomkit.training.speedups`, this changes what a run computes (the forward's rounding), so a bf16
run is a different recipe: its label ends in ``-bf16`` (:func:`~idiomkit.training.recipes.run_label`).

Example::

    with mixed_precision(model, "bf16"):
        loss = loss_fn(features, labels)  # the model's forward inside the loss runs in bfloat16
    loss.backward()
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import torch

log = logging.getLogger("idiomkit.training")

PRECISIONS: dict[str, torch.dtype | None] = {"fp32": None, "bf16": torch.bfloat16}


def native_bf16(device_type: str = "cpu") -> bool | None:
    """Whether this machine computes bfloat16 matrix products natively (a CPU with AVX-512 BF16 or AMX; any CUDA
    device torch supports bf16 on); None when torch cannot tell."""
    if device_type == "cuda":
        return torch.cuda.is_bf16_supported()
    try:
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return None


def warn_if_slow(precision: str, device_type: str = "cpu") -> None:
    """Log a warning when ``precision`` is bf16 on a machine without native bfloat16, where autocast emulates it
    and a step is slower than in float32 (measured on an earlier machine of this project)."""
    if PRECISIONS[precision] is not None and native_bf16(device_type) is False:
        log.warning(
            "precision %s: this %s has no native bfloat16; expect steps slower than fp32", precision, device_type
        )


def _to_float32(value):
    if torch.is_tensor(value) and value.is_floating_point() and value.dtype != torch.float32:
        return value.float()
    return value


@contextmanager
def mixed_precision(model: torch.nn.Module, precision: str) -> Iterator[None]:
    """Inside the block, ``model``'s forward runs under autocast to ``PRECISIONS[precision]`` and returns its
    floating-point outputs (a tensor or a dict of them, as a sentence-transformers model does) as float32; with
    ``fp32`` nothing changes. The model is restored when the block ends."""
    dtype = PRECISIONS[precision]
    if dtype is None:
        yield
        return
    device_type = next(model.parameters()).device.type
    patched_before = model.__dict__.get("forward")
    original = model.forward

    def forward(*args, **kwargs):
        with torch.autocast(device_type=device_type, dtype=dtype):
            out = original(*args, **kwargs)
        if isinstance(out, dict):
            return type(out)({k: _to_float32(v) for k, v in out.items()})
        return _to_float32(out)

    model.forward = forward
    try:
        yield
    finally:
        if patched_before is None:
            del model.forward  # the instance attribute: the class's forward again
        else:
            model.forward = patched_before
