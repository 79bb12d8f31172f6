"""adaptive-triplet recipe: relabelling, miner, loss, sampler, MWE tokens, training, checkpoint resume.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/training/test_training.py.
"""

import json
import math

import torch

from idiomkit.data.semeval2022 import load_train_pairs
from idiomkit.embedding.mwe import MweTransform, add_mwe_tokens, replace_mwes
from idiomkit.tasks.semeval2a import split_by_mwe
from idiomkit.training.relabel import group_pairs, mwe_key, relabel


def test_relabel_counts_on_full_train(data_dir):
    groups = group_pairs(load_train_pairs(data_dir))
    rows = relabel(groups)
    assert (len(groups), len({r.label for r in rows}), len(rows)) == (3643, 6572, 10215)
    order = [r.group for r in rows]
    assert order == sorted(order)  # group members adjacent
    train, val = split_by_mwe(groups, 0.1, seed=0, group=mwe_key)
    keys = lambda gs: {" | ".join(g.mwes).lower() for g in gs}  # noqa: E731
    assert not keys(train) & keys(val) and len(train) + len(val) == len(groups)
    assert 0.05 < len(keys(val)) / len(keys(groups)) < 0.15


def test_mwe_tokens_save_load_round_trip(tmp_path):
    from sentence_transformers import SentenceTransformer

    from idiomkit.models import load_model

    model = load_model("minilm", pooling="last2")
    emb = model[0].auto_model.get_input_embeddings().weight
    pieces = model.tokenizer("home run", add_special_tokens=False)["input_ids"]
    assert add_mwe_tokens(model, ["home run", "home run", "sts"]) == ["IDhomerunID"]
    tid = model.tokenizer.convert_tokens_to_ids("IDhomerunID")
    weight = model[0].auto_model.get_input_embeddings().weight
    assert torch.allclose(weight[tid], emb[pieces].mean(dim=0))
    text = replace_mwes("He hit a home run.", ["home run"])
    before = model.encode([text])
    model.save(str(tmp_path / "m"))
    loaded = SentenceTransformer(str(tmp_path / "m"), device="cpu")
    assert loaded.tokenizer.convert_tokens_to_ids("IDhomerunID") == tid
    assert "idhomerunid" in loaded.tokenizer.tokenize(text)
    assert MweTransform.for_model(loaded).known == {"idhomerunid"}
    assert torch.allclose(torch.tensor(loaded.encode([text])), torch.tensor(before), atol=1e-5)


SMALL = {"model": "minilm", "epochs": 1, "batch_size": 8, "limit_groups": 12, "checkpoint_every": 2}


def test_short_training_runs_checkpoints_and_saves(tmp_path):
    from idiomkit.models import load_model
    from idiomkit.training import train

    losses = []
    run = {**SMALL, "max_seq_length": 16}
    result = train(**run, max_steps=3, output_dir=tmp_path / "run", progress=lambda s, v: losses.append(v))
    out = tmp_path / "run"
    assert result.state.step == 3 and len(losses) == 3 and all(math.isfinite(v) for v in losses)
    assert (out / "checkpoint.pt").exists() and (out / "training.json").exists()
    model = load_model(str(out), pooling="last2")
    assert MweTransform.for_model(model).known  # MWE tokens came back with the saved model
    # #44: trained at 16 tokens, the saved model reads as far as its base model (not cut at the training length)
    base = load_model("minilm").max_seq_length
    assert model.max_seq_length == base > 16
    assert json.loads((out / "training.json").read_text())["config"]["max_seq_length"] == 16
    assert json.loads((out / "training.json").read_text())["reader_version"] is None  # trained without the reader
    assert "texts truncated to 16 tokens" in (out / "train.log").read_text()
    card = (out / "README.md").read_text()
    assert "## idiomkit training" in card and f"trained at 16 tokens (max_seq_length); reads up to {base}" in card
    # idiomkit's top, not the base model's card (that comes last, whole)
    assert "license: other" in card.split("## idiomkit training")[0] and "\n# adaptive-triplet" in card
    assert card.index("## idiomkit training") < card.index("## The base model's card")
    # a run saved before #44 (at its training length, no reads_max_seq_length) is re-saved reading up to its base's
    from idiomkit.training.trainer import resave_at_base_length

    before = load_model(str(out))
    before.max_seq_length = 16
    before.save(str(out))
    info = json.loads((out / "training.json").read_text())
    (out / "training.json").write_text(json.dumps({k: v for k, v in info.items() if k != "reads_max_seq_length"}))
    assert load_model(str(out)).max_seq_length == 16
    assert resave_at_base_length(out) == base
    after = load_model(str(out))
    assert after.max_seq_length == base and [type(m) for m in after] == [type(m) for m in before]
    assert json.loads((out / "training.json").read_text()) == info and (out / "checkpoint.pt").exists()
    assert f"reads up to {base}" in (out / "README.md").read_text() and not out.with_name("run.resave").exists()


def test_a_bf16_run_follows_the_fp32_run_and_is_labelled_as_its_own_recipe(tmp_path):
    """The same seed and batches in mixed precision: every step's loss within 2 % of the float32 run's (the
    forward's rounding, not another run), not equal to it, and the run named ``-bf16``."""
    from idiomkit.training import train

    losses = {"fp32": [], "bf16": []}
    for precision, seen in losses.items():
        out = tmp_path / precision
        train(
            **SMALL,
            max_steps=3,
            max_seq_length=64,  # 16 tokens cut most 2B pairs to the same words: no triplet to mine, every loss 0
            precision=precision,
            output_dir=out,
            progress=lambda s, v, seen=seen: seen.append(v),
        )
        assert json.loads((out / "training.json").read_text())["label"].split("-").count("bf16") == (
            precision == "bf16"
        )
    assert losses["bf16"] != losses["fp32"]
    for half, full in zip(losses["bf16"], losses["fp32"], strict=True):
        assert abs(half - full) <= 0.02 * abs(full) + 0.002  # 2 %, or rounding where the loss is near 0


def test_a_saved_copy_reads_at_the_base_length_and_the_training_model_keeps_its_own(tmp_path):
    from idiomkit.models import load_model
    from idiomkit.training.checkpoints import save_model_dir, set_training_length

    model = load_model("minilm")
    base = model.max_seq_length
    set_training_length(model, 16)
    set_training_length(model, 24)  # a second call keeps the base model's length, not the first training one
    save_model_dir(model, tmp_path / "best")
    assert model.max_seq_length == 24 and model.tokenize(["word " * 40])["input_ids"].shape[1] == 24
    saved = load_model(str(tmp_path / "best"))
    assert saved.max_seq_length == base > 24 and saved.tokenizer.model_max_length == base


def test_resume_after_interruption_matches_uninterrupted_run(tmp_path):
    from helpers import full_and_resumed

    from idiomkit.training import train

    small = {**SMALL, "limit_groups": 20}  # enough 2B rows for 4 steps of 8 in one epoch
    full, resumed = full_and_resumed(train, tmp_path, 2, **small, max_steps=4)
    assert resumed.state.step == full.state.step == 4
    a = torch.load(tmp_path / "full" / "checkpoint.pt", weights_only=True)
    b = torch.load(tmp_path / "cut" / "checkpoint.pt", weights_only=True)
    timing = ("train_s",)
    assert {k: v for k, v in a["state"].items() if k not in timing} == {
        k: v for k, v in b["state"].items() if k not in timing
    }
    for key, value in a["model"].items():
        assert torch.equal(value, b["model"][key]), key
    assert torch.equal(a["rng"]["torch"], b["rng"]["torch"])


def test_an_encoder_saved_without_a_pooler_reloads_without_one(tmp_path, caplog):
    """me5-small-enpt's conversion has no BERT pooler; a saved run must say so, or transformers reloads it with a
    freshly initialised pooler and a "MISSING" load report."""
    from sentence_transformers import SentenceTransformer

    from idiomkit.idioms.reader import encoder_module
    from idiomkit.models import load_model
    from idiomkit.training.checkpoints import save_model_dir

    model = load_model("minilm")
    encoder_module(model).model.pooler = None
    save_model_dir(model, tmp_path / "best")
    for reloaded in (load_model(str(tmp_path / "best")), SentenceTransformer(str(tmp_path / "best"))):
        assert encoder_module(reloaded).model.pooler is None
    with_pooler = load_model("minilm")
    save_model_dir(with_pooler, tmp_path / "pooled")
    assert "model_kwargs" not in (tmp_path / "pooled" / "sentence_bert_config.json").read_text()
    assert encoder_module(load_model(str(tmp_path / "pooled"))).model.pooler is not None
