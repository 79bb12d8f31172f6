"""Atomic result/checkpoint writes (a crash or SIGKILL mid-write keeps the previous file) and same seed -> same
metrics."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
import torch

from idiomkit.training.checkpoints import CHECKPOINT, save_checkpoint
from idiomkit.training.config import TrainConfig, TrainState

WRITER = r"""
import json, sys, torch
from pathlib import Path
from idiomkit.results import atomic_write_text
from idiomkit.training.checkpoints import save_checkpoint
from idiomkit.training.config import TrainConfig, TrainState

out = Path(sys.argv[1])
model = torch.nn.Linear(1500, 1500)  # ~9 MB of weights: each save takes long enough to be caught mid-write
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: 1.0)
for i in range(1, 10_000):
    with torch.no_grad():
        model.weight.fill_(i)
    save_checkpoint(out, model, opt, sched, TrainState(step=i), TrainConfig())
    atomic_write_text(out / "result.json", json.dumps({"step": i, "pad": "x" * 2_000_000}))
    print(i, flush=True)
"""


def tiny_parts(step: int):
    model = torch.nn.Linear(4, 2)
    with torch.no_grad():
        model.weight.fill_(step)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return model, opt, torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0)


def test_checkpoint_crash_mid_write_keeps_previous(tmp_path, monkeypatch):
    save_checkpoint(tmp_path, *tiny_parts(1), TrainState(step=1), TrainConfig())
    real_save = torch.save

    def half_then_crash(obj, fh, *args, **kwargs):
        real_save(obj, fh, *args, **kwargs)
        fh.truncate(fh.tell() // 2)  # half a file on disk, then the process "dies"
        raise KeyboardInterrupt

    monkeypatch.setattr(torch, "save", half_then_crash)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(tmp_path, *tiny_parts(2), TrainState(step=2), TrainConfig())
    monkeypatch.setattr(torch, "save", real_save)
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))  # killed before rename
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(tmp_path, *tiny_parts(3), TrainState(step=3), TrainConfig())
    blob = torch.load(tmp_path / CHECKPOINT, weights_only=True)
    assert blob["state"]["step"] == 1 and bool((blob["model"]["weight"] == 1).all())
    assert [p.name for p in tmp_path.iterdir()] == [CHECKPOINT]  # no temp file left behind


def test_sigkill_during_writes_leaves_complete_files(tmp_path):
    """A real writer process is SIGKILLed while a checkpoint temp file is being written: both the checkpoint and
    the result JSON on disk are complete, self-consistent earlier versions."""
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert int(proc.stdout.readline()) == 1 and int(proc.stdout.readline()) == 2
        deadline = time.monotonic() + 60
        while not (tmp_path / (CHECKPOINT + ".tmp")).exists():  # wait until a save is under way
            assert time.monotonic() < deadline and proc.poll() is None
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    blob = torch.load(tmp_path / CHECKPOINT, weights_only=True)
    step = blob["state"]["step"]
    assert step >= 2 and bool((blob["model"]["weight"] == step).all())
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["step"] in (step - 1, step) and len(result["pad"]) == 2_000_000


def test_gz_prediction_files_round_trip_and_are_reproducible(tmp_path):
    from idiomkit.results import read_prediction, write_prediction

    text = "".join(f"q{i} Q0 d{j} {j + 1} {1 - j / 100:.6f} idiomkit\n" for i in range(50) for j in range(100))
    first = write_prediction(tmp_path / "a.run.trec.gz", text)
    second = write_prediction(tmp_path / "b.run.trec.gz", text)
    assert read_prediction(first) == text
    assert first.read_bytes() == second.read_bytes()  # no timestamp in the gzip header
    assert first.stat().st_size < len(text) / 4
    plain = write_prediction(tmp_path / "c.csv", text)
    assert plain.read_text() == text and read_prediction(plain) == text
    from idiomkit.data.errors import DataError

    whole = first.read_bytes()
    for broken in (whole[:20] + bytes(b ^ 0xFF for b in whole[20:60]) + whole[60:], whole[: len(whole) // 2]):
        first.write_bytes(broken)  # a damaged deflate stream (zlib.error), then a cut one (EOFError)
        with pytest.raises(DataError, match=r"a.run.trec.gz: not a readable gzip file \(\w"):
            read_prediction(first)
