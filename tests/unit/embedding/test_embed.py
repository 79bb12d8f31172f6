"""The helpers merged into embed/ (and config.seed_everything): one copy each, the numbers of the copies replaced."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from idiomkit.embedding.cache import MEMORY_CACHE, cached_array
from idiomkit.embedding.encode import unit_rows
from idiomkit.embedding.spans import masked_mean
from idiomkit.settings import seed_everything


def test_masked_mean_averages_only_the_masked_tokens():
    tokens = torch.tensor([[[1.0, 2.0], [3.0, 4.0], [100.0, 100.0]]])
    mask = torch.tensor([[1, 1, 0]])
    assert masked_mean(tokens, mask).tolist() == [[2.0, 3.0]]
    assert masked_mean(tokens, torch.zeros(1, 3)).tolist() == [[0.0, 0.0]]  # no token: zeros, not NaN


def test_unit_rows_scales_each_row_and_keeps_zero_rows():
    out = unit_rows(np.array([[3.0, 4.0], [0.0, 0.0]], dtype=np.float64))
    assert out.dtype == np.float32
    assert out.tolist() == [[pytest.approx(0.6), pytest.approx(0.8)], [0.0, 0.0]]
    assert unit_rows(np.ones((2, 3, 4))).shape == (2, 3, 4)  # the last axis is the vector


class Counter:
    def __init__(self, rows: int = 3):
        self.calls, self.rows = 0, rows

    def __call__(self) -> np.ndarray:
        self.calls += 1
        return np.full((self.rows, 2), float(self.calls), dtype=np.float32)


def test_cached_array_computes_once_then_reads_memory_then_the_file(tmp_path):
    MEMORY_CACHE.pop("k1", None)
    compute = Counter()
    first = cached_array("k1", compute, directory=tmp_path, rows=3)
    assert compute.calls == 1 and (tmp_path / "k1.npy").is_file()
    assert cached_array("k1", compute, directory=tmp_path, rows=3) is first  # memory
    MEMORY_CACHE.pop("k1")
    again = cached_array("k1", compute, directory=tmp_path, rows=3)  # file
    assert compute.calls == 1 and np.array_equal(again, first)
    assert not list(tmp_path.glob("*.tmp.npy"))  # written atomically, nothing left behind
    MEMORY_CACHE.pop("k1")


def test_cached_array_recomputes_a_file_of_another_row_count(tmp_path):
    np.save(tmp_path / "k2.npy", np.zeros((5, 2), dtype=np.float32))
    compute = Counter(rows=3)
    out = cached_array("k2", compute, directory=tmp_path, rows=3, memory=False)
    assert compute.calls == 1 and out.shape == (3, 2) and np.load(tmp_path / "k2.npy").shape == (3, 2)
    assert "k2" not in MEMORY_CACHE


def test_cached_array_without_directory_or_memory_always_computes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    compute = Counter()
    cached_array("k3", compute, directory=None, memory=False)
    cached_array("k3", compute, directory=None, memory=False)
    assert compute.calls == 2 and not list(tmp_path.iterdir())


def test_seed_everything_repeats_python_numpy_and_torch_draws():
    def draws():
        return random.random(), float(np.random.rand()), float(torch.rand(1))

    seed_everything(3)
    first = draws()
    seed_everything(3)
    assert draws() == first
    seed_everything(4)
    assert draws() != first
