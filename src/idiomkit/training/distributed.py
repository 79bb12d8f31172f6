"""Data-parallel training over several processes (``torchrun`` / ``accelerate launch``), exact for in-batch losses.

Every process builds the same global batch (same seed, same batch plan), keeps a shard of **whole label groups**
(:func:`shard_batch`), encodes only its shard and all-gathers the embeddings (with gradients) and labels, so the
loss sees the full global batch exactly as one process would: the in-batch miner of the adaptive triplet loss and
the in-batch negatives of MNRL find the same triplets/negatives. Gradients are averaged across processes after the
backward pass (:func:`average_gradients`), which gives every process the single-process gradient.

Launch any training command unchanged under a launcher, e.g.::

    torchrun --nproc_per_node 2 $(which idiomkit) train --recipe adaptive-triplet -m minilm -o runs/at
    accelerate launch --num_processes 2 $(which idiomkit) train --recipe adaptive-triplet -m minilm -o runs/at

The backend is NCCL on GPUs and gloo on CPU. Only process 0 writes checkpoints, model directories and logs.
``benchmarks/speed/distributed_check.py`` compares the loss trajectory of 2 CPU processes with 1 process.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import torch
import torch.distributed as dist


@dataclass(frozen=True)
class DistInfo:
    """This process's rank and the number of processes (1 = not distributed)."""

    rank: int = 0
    world_size: int = 1

    @property
    def enabled(self) -> bool:
        return self.world_size > 1

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def env_rank() -> int:
    """This process's rank as a launcher (torchrun / accelerate launch) sets it; 0 without a launcher."""
    return int(os.environ.get("RANK", "0"))


def init_from_env() -> DistInfo:
    """Join the process group a launcher describes in ``WORLD_SIZE``/``RANK`` (no-op for a single process)."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return DistInfo()
    if not dist.is_initialized():
        if torch.cuda.is_available():  # one GPU per process: "cuda" then means this process's GPU
            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
        dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    return DistInfo(dist.get_rank(), dist.get_world_size())


def shard_batch(batch: Sequence[int], groups: Sequence[int], world_size: int) -> list[list[int]]:
    """Split ``batch`` (row indices) into ``world_size`` shards of whole groups, balanced by rows.

    Groups are taken in order of first appearance and each goes to the currently smallest shard (ties: lowest
    rank), so every process computes the same split. Raises if there are fewer groups than processes.
    """
    members: dict[int, list[int]] = {}
    for row in batch:
        members.setdefault(groups[row], []).append(row)
    if len(members) < world_size:
        raise ValueError(f"a batch of {len(members)} label groups cannot be split over {world_size} processes")
    shards: list[list[int]] = [[] for _ in range(world_size)]
    for rows in members.values():
        smallest = min(range(world_size), key=lambda r: (len(shards[r]), r))
        shards[smallest].extend(rows)
    return shards


def _gather_padded(tensor: torch.Tensor) -> tuple[list[torch.Tensor], list[int]]:
    """All-gather tensors whose first dimension differs between processes (padded, then trimmed)."""
    size = torch.tensor([tensor.shape[0]], device=tensor.device)
    sizes = [torch.zeros_like(size) for _ in range(dist.get_world_size())]
    dist.all_gather(sizes, size)
    counts = [int(s.item()) for s in sizes]
    pad = max(counts) - tensor.shape[0]
    if pad:
        tensor = torch.cat([tensor, tensor.new_zeros((pad, *tensor.shape[1:]))])
    parts = [torch.empty_like(tensor) for _ in counts]
    dist.all_gather(parts, tensor.contiguous())
    return [p[:n] for p, n in zip(parts, counts, strict=True)], counts


class _GatherWithGrad(torch.autograd.Function):
    """Concatenate every process's rows; the backward pass sums the gradient over processes and keeps ours."""

    @staticmethod
    def forward(ctx, tensor: torch.Tensor) -> torch.Tensor:
        parts, counts = _gather_padded(tensor.detach())
        ctx.start = sum(counts[: dist.get_rank()])
        ctx.count = counts[dist.get_rank()]
        return torch.cat(parts)

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> torch.Tensor:
        grad = grad.contiguous()
        dist.all_reduce(grad)
        return grad[ctx.start : ctx.start + ctx.count]


def gather_with_grad(tensor: torch.Tensor) -> torch.Tensor:
    """All processes' rows of ``tensor`` in rank order; gradients flow back to each process's own rows."""
    return _GatherWithGrad.apply(tensor)


def gather_labels(labels: torch.Tensor) -> torch.Tensor:
    """All processes' labels in rank order (no gradient)."""
    return torch.cat(_gather_padded(labels)[0])


@contextmanager
def gathered_embeddings(model) -> Iterator[None]:
    """While active, ``model(features)["sentence_embedding"]`` holds every process's rows (rank order)."""

    def hook(_module, _inputs, output):
        output["sentence_embedding"] = gather_with_grad(output["sentence_embedding"])
        return output

    handle = model.register_forward_hook(hook)
    try:
        yield
    finally:
        handle.remove()


def average_gradients(parameters) -> None:
    """Average the gradients of ``parameters`` over processes (one flat all-reduce)."""
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()
