"""Shipped models (:mod:`idiomkit.models.shipped`): the adapter format on a real base (minilm with a small random
LoRA delta): written, read back and merged to the same embeddings, refused when changed; and the shipped entries,
each the base with the reader in front."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from idiomkit.data.errors import DataError
from idiomkit.idioms.reader import IdiomReader, model_reader
from idiomkit.models import load_model
from idiomkit.models.shipped import ADAPTERS, SHIPPED, apply_adapter, read_adapter, save_adapter, shipped_entries

TEXTS = ["He finally kicked the bucket.", "The weather is nice today.", "She spilled the beans."]


@pytest.fixture(scope="module")
def tuned(minilm, tmp_path_factory):
    """A copy of minilm with a random rank-2 LoRA delta, its embeddings, and the delta saved as an adapter."""
    import torch
    from peft import LoraConfig, get_peft_model

    model = copy.deepcopy(minilm)
    torch.manual_seed(0)
    peft_model = get_peft_model(model[0].auto_model, LoraConfig(r=2, lora_alpha=4, target_modules=["query", "value"]))
    with torch.no_grad():
        for name, p in peft_model.named_parameters():
            if "lora_" in name:
                p.normal_(0.0, 0.2)
                p.copy_(p.half().float())  # the adapter is stored in fp16: compare like with like
    model[0].model = peft_model
    folder = save_adapter(peft_model, tmp_path_factory.mktemp("adapter") / "a", base="minilm", run="test")
    return model.encode(TEXTS), folder


def test_an_adapter_reproduces_the_trained_embeddings(minilm, tuned):
    want, folder = tuned
    got = apply_adapter(copy.deepcopy(minilm), folder).encode(TEXTS)
    np.testing.assert_allclose(got, want, atol=1e-4)
    assert not np.allclose(got, minilm.encode(TEXTS), atol=1e-3)  # the delta changes the model
    assert all(p.stat().st_size < 2_000_000 for p in folder.iterdir())


def test_a_changed_adapter_is_refused_in_one_line(tuned, tmp_path):
    _, folder = tuned
    for part in folder.iterdir():
        (tmp_path / part.name).write_bytes(part.read_bytes())
    data = bytearray((tmp_path / "adapter-1.safetensors").read_bytes())
    data[-2] ^= 0x40
    (tmp_path / "adapter-1.safetensors").write_bytes(bytes(data))
    with pytest.raises(DataError, match="sha256 differs") as err:
        read_adapter(tmp_path)
    assert "\n" not in str(err.value)


def test_a_record_that_is_not_an_adapter_is_refused(tuned, tmp_path):
    _, folder = tuned
    (tmp_path / "adapter-1.safetensors").write_bytes((folder / "adapter-1.safetensors").read_bytes())
    (tmp_path / "adapter.json").write_text('{"format": "other"}')
    with pytest.raises(DataError, match="not an idiomkit adapter"):
        read_adapter(tmp_path)


def test_the_shipped_entries_and_their_cards():
    names = [e["name"] for e in shipped_entries()]
    assert names == ["mpnet-idioms", "me5-idioms"]
    for spec in SHIPPED.values():
        assert spec.card and (spec.adapter is None) == ("No trained delta is shipped" in spec.card)
        if spec.adapter is not None:  # the card points to the run's full model card, shipped beside the adapter
            assert "README.md" in spec.card and (ADAPTERS / spec.adapter / "README.md").is_file()


def test_the_shipped_me5_adapter_reproduces_its_recorded_embeddings_and_refuses_a_changed_file(tmp_path):
    """The adapter in the package, applied to its base offline as ``load_model`` does, gives the embeddings recorded
    when it was shipped (encoder alone, to 1e-4; the base gives others); a flipped byte in a shard is refused in
    one line; every file stays under 2 MB."""
    from sentence_transformers import SentenceTransformer

    folder = ADAPTERS / SHIPPED["me5-idioms"].adapter
    recorded = json.loads((folder / "embeddings.json").read_text(encoding="utf-8"))
    model = load_model("me5-idioms")
    encoder = SentenceTransformer(modules=[m for m in model if not isinstance(m, IdiomReader)], device="cpu")
    want = np.array(recorded["embeddings"])
    np.testing.assert_allclose(encoder.encode(recorded["sentences"]), want, atol=1e-4)
    base = load_model("me5-small-enpt").encode(recorded["sentences"])
    assert np.abs(base - want).max() > 1e-2
    assert all(p.stat().st_size < 2_000_000 for p in folder.iterdir())
    for part in folder.iterdir():
        (tmp_path / part.name).write_bytes(part.read_bytes())
    data = bytearray((tmp_path / "adapter-2.safetensors").read_bytes())
    data[-5] ^= 0x10
    (tmp_path / "adapter-2.safetensors").write_bytes(bytes(data))
    with pytest.raises(DataError, match="sha256 differs") as err:
        apply_adapter(load_model("me5-small-enpt"), tmp_path)
    assert "\n" not in str(err.value)


def test_me5_idioms_loads_in_one_line_with_the_reader_in_front():
    model = load_model("me5-idioms")
    reader = model_reader(model)
    assert isinstance(reader, IdiomReader) and reader.mode == "replace" and reader.sense is not None
    assert reader.rewrite_inputs(["After years of illness, the old farmer finally kicked the bucket."]) != [
        "After years of illness, the old farmer finally kicked the bucket."
    ]
    assert model.encode(TEXTS).shape == (3, 384)


def test_a_lora_run_keeps_its_best_delta_as_an_adapter(minilm, tmp_path):
    """What training writes beside ``best/`` for a LoRA run (``best-adapter/``) is the adapter ``load_model`` of a
    shipped model applies; a run without LoRA writes none."""
    import torch

    from idiomkit.models.lora import add_lora
    from idiomkit.training.checkpoints import plain_copy, save_lora_adapter

    assert save_lora_adapter(copy.deepcopy(minilm), tmp_path / "none", "minilm") is None
    assert not (tmp_path / "none").exists()
    model = copy.deepcopy(minilm)
    add_lora(model, rank=4)
    torch.manual_seed(1)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_" in name:
                p.copy_(torch.randn_like(p).mul(0.1).half().float())
    folder = save_lora_adapter(model, tmp_path / "best-adapter", "minilm", "run-1")
    record, _ = read_adapter(folder)
    assert record["base"] == "minilm" and record["rank"] == 4 and record["run"] == "run-1"
    want = plain_copy(model).encode(TEXTS)
    np.testing.assert_allclose(apply_adapter(copy.deepcopy(minilm), folder).encode(TEXTS), want, atol=1e-4)


def test_a_large_delta_is_split_into_files_that_each_stay_small(minilm, tuned, tmp_path, monkeypatch):
    """The shards a bigger adapter is written in: each file holds at most SHARD_BYTES of tensors, all are checked and
    read back into the same delta; a missing shard is refused in one line."""
    import idiomkit.models.shipped as shipped

    want, folder = tuned
    record, state = read_adapter(folder)
    limit = max(v.numel() * v.element_size() for v in state.values()) * 3
    monkeypatch.setattr(shipped, "SHARD_BYTES", limit)
    peft_model = copy.deepcopy(minilm)
    apply_like = apply_adapter(copy.deepcopy(minilm), folder).encode(TEXTS)
    from peft import LoraConfig, get_peft_model, set_peft_model_state_dict

    wrapped = get_peft_model(peft_model[0].auto_model, LoraConfig(r=2, lora_alpha=4, target_modules=["query", "value"]))
    set_peft_model_state_dict(wrapped, {k: v.float() for k, v in state.items()})
    split = save_adapter(wrapped, tmp_path / "split", base="minilm")
    files = sorted(p.name for p in split.glob("*.safetensors"))
    assert len(files) > 2 and set(read_adapter(split)[0]["files"]) == set(files)
    _, again = read_adapter(split)
    assert sorted(again) == sorted(state) and all((again[k] == state[k]).all() for k in state)
    np.testing.assert_allclose(apply_adapter(copy.deepcopy(minilm), split).encode(TEXTS), apply_like, atol=1e-6)
    (split / files[-1]).unlink()
    with pytest.raises(DataError, match="missing"):
        read_adapter(split)


def test_a_record_naming_files_outside_its_folder_is_refused_in_one_line(tuned, tmp_path):
    import json

    _, folder = tuned
    record = json.loads((folder / "adapter.json").read_text())
    for files in ({"../adapter-1.safetensors": "0" * 64}, [], {}):
        (tmp_path / "adapter.json").write_text(json.dumps({**record, "files": files}))
        with pytest.raises(DataError, match="expected file names in this folder") as err:
            read_adapter(tmp_path)
        assert "\n" not in str(err.value)
