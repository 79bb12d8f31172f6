"""A length-aware batch sampler that keeps label groups whole.

Each epoch (seeded by ``seed`` and ``epoch``) the groups are shuffled, cut into windows of ``bucket`` batches'
worth, sorted by token length inside a window and packed into batches of at most ``batch_size`` rows without
splitting a group; the batch order is then shuffled. Padding stays small and every row is used once per epoch.

With ``spread=True`` the opposite holds: no two rows of one group share a batch (for losses with in-batch
negatives, where a second row of the same group would be a false negative); rows are still length-sorted per window.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from sentence_transformers.base.sampler import DefaultBatchSampler


def group_rows(groups: Sequence[int]) -> list[list[int]]:
    """Row indices per group, groups in first-seen order."""
    out: dict[int, list[int]] = {}
    for i, g in enumerate(groups):
        out.setdefault(g, []).append(i)
    return list(out.values())


def pack(members: Sequence[list[int]], batch_size: int) -> list[list[int]]:
    """Pack whole groups, in order, into batches of at most ``batch_size`` rows (a larger group is its own batch)."""
    batches: list[list[int]] = []
    current: list[int] = []
    for rows in members:
        if current and len(current) + len(rows) > batch_size:
            batches.append(current)
            current = []
        current = current + rows
    if current:
        batches.append(current)
    return batches


def spread_pack(rows: Sequence[int], groups: Sequence[int], batch_size: int) -> list[list[int]]:
    """Pack rows, in order, into batches of at most ``batch_size`` with no group twice in a batch."""
    batches: list[list[int]] = []
    seen: list[set[int]] = []
    for i in rows:
        for batch, used in zip(batches, seen, strict=True):
            if len(batch) < batch_size and groups[i] not in used:
                batch.append(i)
                used.add(groups[i])
                break
        else:
            batches.append([i])
            seen.append({groups[i]})
    return batches


def grouped_length_batches(
    groups: Sequence[int],
    lengths: Sequence[int],
    batch_size: int,
    *,
    seed: int = 0,
    epoch: int = 0,
    bucket: int = 32,
    spread: bool = False,
) -> list[list[int]]:
    """The batches (row indices) of one epoch; deterministic given ``seed`` and ``epoch``."""
    rng = random.Random(seed * 1_000_003 + epoch)
    if spread:
        rows = list(range(len(groups)))
        rng.shuffle(rows)
        window = max(1, bucket * batch_size)
        batches = []
        for start in range(0, len(rows), window):
            chunk = sorted(rows[start : start + window], key=lambda i: lengths[i])
            batches += spread_pack(chunk, groups, batch_size)
        rng.shuffle(batches)
        return batches
    members = group_rows(groups)
    rng.shuffle(members)
    window = max(1, bucket * batch_size)
    batches: list[list[int]] = []
    start = 0
    while start < len(members):
        chunk, rows = [], 0
        while start < len(members) and rows < window:
            chunk.append(members[start])
            rows += len(members[start])
            start += 1
        chunk.sort(key=lambda rs: max(lengths[i] for i in rs))
        batches += pack(chunk, batch_size)
    rng.shuffle(batches)
    return batches


class GroupedLengthBatchSampler(DefaultBatchSampler):
    """sentence-transformers batch sampler over :func:`grouped_length_batches`.

    Pass ``functools.partial(GroupedLengthBatchSampler, groups=..., lengths=...)`` as ``batch_sampler`` in
    ``SentenceTransformerTrainingArguments``, or give the dataset ``group`` and ``length`` columns. The trainer
    calls :meth:`set_epoch` each epoch.
    """

    def __init__(
        self,
        dataset,
        batch_size: int,
        drop_last: bool = False,
        valid_label_columns: list[str] | None = None,
        generator=None,
        seed: int = 0,
        *,
        groups: Sequence[int] | None = None,
        lengths: Sequence[int] | None = None,
        bucket: int = 32,
    ) -> None:
        super().__init__(dataset, batch_size, drop_last, valid_label_columns, generator, seed)
        self.groups = list(groups if groups is not None else dataset["group"])
        self.lengths = list(lengths if lengths is not None else dataset["length"])
        self.bucket = bucket

    def batches(self) -> list[list[int]]:
        return grouped_length_batches(
            self.groups, self.lengths, self.batch_size, seed=self.seed, epoch=self.epoch, bucket=self.bucket
        )

    def __iter__(self) -> Iterator[list[int]]:
        yield from self.batches()

    def __len__(self) -> int:
        return len(self.batches())
