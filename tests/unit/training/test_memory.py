"""The resident memory a training logs, and the C heap's free pages given back (idiomkit.training.memory)."""

from __future__ import annotations

import pytest
import torch

from idiomkit.training.memory import _glibc, describe_resident, resident_bytes, trim_heap


@pytest.mark.skipif(_glibc() is None or resident_bytes() is None, reason="needs glibc and /proc")
def test_trimming_gives_back_the_heap_pages_of_freed_tensors():
    """4,000 tensors of 64 KB (under glibc's mmap threshold, so on the heap) freed below a live one stay resident
    until the heap is trimmed."""
    trim_heap()  # what earlier tests left free in this process's heap is not resident now
    before = resident_bytes()
    small = [torch.ones(16_000) for _ in range(4_000)]  # 256 MB
    pinned = torch.ones(16_000)  # keeps the heap's top in use, so free() alone cannot shrink it
    grown = resident_bytes()
    del small
    freed = resident_bytes()
    assert trim_heap() is True
    trimmed = resident_bytes()
    assert grown - before > 200e6 and freed - trimmed > 150e6, (before, grown, freed, trimmed)
    assert float(pinned.sum()) == 16_000


def test_resident_memory_reads_in_gigabytes():
    text = describe_resident()
    if resident_bytes() is None:
        assert text == ""
    else:
        gigabytes = float(text.removeprefix("resident ").removesuffix(" GB"))
        assert 0.01 < gigabytes < 1000
