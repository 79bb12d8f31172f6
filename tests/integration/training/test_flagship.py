"""The flagship recipe on a tiny budget: every source goes through the held-out dedup (counted per source), the
multi-source loss falls, and the saved checkpoint reloads with its idiom reader and rewrites."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest
from sentence_transformers import SentenceTransformer

from idiomkit.idioms.version import READER_VERSION
from idiomkit.training import train
from idiomkit.training.recipes.flagship import LEAVE_OUT, STREAMS, wanted_streams

TINY = {
    "model": "minilm",
    "epochs": 6,
    "batch_size": 8,
    "max_seq_length": 32,
    "limit_groups": 6,
    "lr": 3e-4,
    "dropout": 0.0,
    "threads": 1,
    "checkpoint_every": 1000,
    "eval_every": 1000,
}


def test_leave_one_out_recipes_drop_their_streams():
    assert wanted_streams("flagship") == STREAMS
    assert wanted_streams("flagship-noextra") == ("2b", "idiolink", "sts")
    assert all(set(wanted_streams(f"flagship-{k}")) == set(STREAMS) - set(v) for k, v in LEAVE_OUT.items())


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory, data_dir):
    out = tmp_path_factory.mktemp("flagship")
    losses: list[float] = []
    handler = logging.getLogger("idiomkit")
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    keep = Keep(level=logging.INFO)
    handler.addHandler(keep)
    old = handler.level
    handler.setLevel(logging.INFO)
    try:
        train(
            "flagship",
            output_dir=out,
            max_steps=18,
            data_dir=str(data_dir),
            progress=lambda state, loss: losses.append(loss),
            **TINY,
        )
    finally:
        handler.removeHandler(keep)
        handler.setLevel(old)
    return out, losses, records


def test_every_source_is_deduplicated_and_counted(tiny_run):
    _, _, records = tiny_run
    for source in ("2B train", "sts-train", "flagship meaning", "misreading", "flagship idiolink"):
        assert any(r.startswith(f"held-out dedup {source}: kept ") for r in records), source


def test_multi_source_loss_falls(tiny_run):
    _, losses, _ = tiny_run
    per_epoch = len(losses) // 6  # an epoch is one pass over the first stream (the 2B groups' rows)
    assert per_epoch >= 2 and len(losses) == 6 * per_epoch  # 6 epochs of the same steps
    assert np.mean(losses[-2 * per_epoch :]) < np.mean(losses[: 2 * per_epoch])


def test_saved_flagship_reloads_with_its_reader(tiny_run):
    out, _, _ = tiny_run
    model = SentenceTransformer(str(out), trust_remote_code=True, device="cpu")
    reader = model[0]
    assert type(reader).__name__ == "IdiomReader"
    text = "After years of illness, the old farmer finally kicked the bucket."
    rewritten = reader.rewrite_inputs([text])[0]
    assert rewritten != text and "bucket" not in rewritten
    assert "README.md" in {p.name for p in out.iterdir()}
    assert json.loads((out / "training.json").read_text())["reader_version"] == READER_VERSION  # the reader it keeps
    assert "licence" in (out / "README.md").read_text(encoding="utf-8")


def test_saved_flagship_reads_at_its_base_length(tiny_run):
    """#44: trained at 32 tokens, the saved flagship (reader in front) reads as far as its base model."""
    from idiomkit.models import load_model

    out, _, records = tiny_run
    base = load_model(TINY["model"]).max_seq_length
    assert load_model(str(out)).max_seq_length == base > TINY["max_seq_length"]
    assert json.loads((out / "training.json").read_text())["config"]["max_seq_length"] == TINY["max_seq_length"]
    assert any(r.endswith("texts truncated to 32 tokens") for r in records)  # the examples kept the training length
