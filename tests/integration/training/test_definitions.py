"""Idiom/definition + sentence/paraphrase pairs (Xiao et al.): keys, split by idiom, loaders, metrics.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/data/test_definitions.py.
"""

from __future__ import annotations

from types import SimpleNamespace

from helpers.definitions import idiom_with_pairs

from idiomkit.data.definitions import (
    id_pairs,
    sp_pairs,
    split_of,
)
from idiomkit.tasks.xiao_pairs import train_pairs_of


def test_training_pairs_never_touch_held_out_or_validation_idioms(data_dir):
    from idiomkit.training.recipes.pairs import idiom_data, train_pairs

    data = idiom_data(str(data_dir))
    cfg = SimpleNamespace(data_dir=str(data_dir), limit_groups=None, seed=0)
    pairs = train_pairs(cfg, "idsp")
    assert {p.kind for p in pairs} == {"id", "sp"}
    assert {split_of(p.key) for p in pairs} == {"train"}
    held = [i for i in data.idioms.values() if i.split != "train"]
    assert len(data.split("heldout")) > 500 and len(data.split("val")) > 200
    train_texts = {t for p in pairs for t in (p.anchor, p.positive, p.negative)}
    held_texts = {i.text for i in held} | {d.text for i in held for d in i.definitions}
    held_texts |= {x for i in held for q in i.pairs for x in (q.sentence, q.paraphrase)}
    train_defs = {d.text for i in data.split("train") for d in i.definitions}
    # a held-out text can only show up in training if a train idiom has the very same text (shared wording)
    leaked = (train_texts & held_texts) - train_defs - {i.text for i in data.split("train")}
    leaked -= {x for i in data.split("train") for q in i.pairs for x in (q.sentence, q.paraphrase)}
    assert not leaked


def test_pair_examples_labels_and_classes(minilm):
    from idiomkit.training.recipes.pairs import class_examples, labelled_examples, triplet_examples

    idioms = [idiom_with_pairs(k, f"meaning of {k}", 2) for k in ("a1", "b2", "c3")]
    pairs = id_pairs(idioms) + sp_pairs(idioms)
    cfg = SimpleNamespace(seed=0, max_seq_length=32)
    labelled = labelled_examples(minilm, pairs, cfg)
    assert len(labelled) == len(pairs) and set(labelled.labels) == {0.0, 1.0}
    assert triplet_examples(minilm, pairs, cfg).n_columns == 3
    classes = class_examples(minilm, pairs, cfg)
    # 3 idiom classes (idiom + definition) and 6 sentence classes (sentence + paraphrase), two texts each
    assert len(classes) == 18 and sorted(set(classes.labels)) == list(range(9))
    assert all(classes.labels.count(c) == 2 for c in range(9))


def test_pairs_recipe_trains_and_records_its_pair_set(data_dir, tmp_path):
    from idiomkit.training import train

    out = tmp_path / "run"
    result = train(
        "pairs-mnrl-id",
        "minilm",
        epochs=1,
        output_dir=out,
        limit_groups=8,
        max_steps=2,
        batch_size=8,
        max_seq_length=32,
        val_sts=False,
        threads=1,
        data_dir=str(data_dir),
    )
    assert result.state.step == 2 and result.counts["pairs-id/pairs-positives_rows"] >= 8
    info = (out / "training.json").read_text()
    assert '"label": "pairs-mnrl-id"' in info and '"pooling": "mean"' in info
    assert train_pairs_of(SimpleNamespace(tokenizer=SimpleNamespace(name_or_path=str(out)))) == "id"


def test_dropout_override_reaches_the_pairs_recipes(data_dir):
    import torch

    from idiomkit.training.config import TrainConfig
    from idiomkit.training.setup import setup

    cfg = TrainConfig(recipe="pairs-mnrl-id", limit_groups=8, dropout=0.0, val_sts=False, data_dir=str(data_dir))
    layers = [m for m in setup(cfg).model.modules() if isinstance(m, torch.nn.Dropout)]
    assert layers and all(m.p == 0.0 for m in layers)
