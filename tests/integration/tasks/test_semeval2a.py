"""SemEval-2022 Task 2A: strict loaders, official macro-F1, submission format, by-MWE selection, classifier.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/tasks/test_semeval2a.py.
"""

import torch
from helpers.semeval2a import example_2a

from idiomkit.data.semeval2a import load_dev_split, load_setting
from idiomkit.methods.semeval2a.classifier import (
    ClassifierConfig,
    SpanClassifier,
    build_inputs,
    train_classifier,
)


def test_real_files_counts(data_dir):
    train, files = load_setting(data_dir, "one_shot")
    dev, _ = load_dev_split(data_dir)
    assert (len(train), len(files), len(dev)) == (4491 + 140, 2, 739)
    assert {ex.language for ex in dev} == {"EN", "PT"} and all(ex.label in (0, 1) for ex in dev)
    # zero-shot: train MWEs are disjoint from dev MWEs; one-shot data covers every dev MWE
    zero = {ex.mwe for ex in train if ex.setting == "zero_shot"}
    one = {ex.mwe for ex in train if ex.setting == "one_shot"}
    assert not zero & {ex.mwe for ex in dev} and {ex.mwe for ex in dev} <= one


def test_span_mask_covers_only_the_mwe_in_the_first_segment(minilm):
    cfg = ClassifierConfig(input="sep")
    data = build_inputs([example_2a(1, target="He is a big fish in town.")], cfg)
    model = SpanClassifier(minilm, cfg.pool)
    feats = model.features(data, 32)
    tokens = minilm.tokenizer.convert_ids_to_tokens(feats["input_ids"][0])
    assert [t for t, m in zip(tokens, feats["span_mask"][0], strict=True) if m] == ["big", "fish"]
    assert tokens.count("big") == 2  # the MWE is appended as the second segment, but not pooled there
    assert model(feats).shape == (1, 2)


def test_tiny_training_run_selects_an_epoch(minilm):
    torch.manual_seed(0)
    train = [
        example_2a(i, mwe=f"m{i % 6}", label=i % 2, target=("literal" if i % 2 else "figure") + f" m{i % 6}")
        for i in range(12)
    ]
    cfg = ClassifierConfig(epochs=2, batch_size=8, val_fraction=0.34, max_seq_length=12, lr=1e-3, train_layers=1)
    encoder = minilm[0].auto_model
    state = {k: v.clone() for k, v in encoder.state_dict().items()}
    try:
        model, info = train_classifier(minilm, train, cfg)
        # only the top layer (and the head) moved; every parameter is trainable again afterwards
        after = encoder.state_dict()
        for key in ("encoder.layer.0.attention.self.query.weight", "embeddings.word_embeddings.weight"):
            assert torch.equal(after[key], state[key])
        assert not torch.equal(
            after["encoder.layer.5.output.dense.weight"], state["encoder.layer.5.output.dense.weight"]
        )
        assert all(p.requires_grad for p in encoder.parameters())
    finally:
        minilm[0].auto_model.load_state_dict(state)  # the session fixture is shared
        minilm.eval()
    assert [row["epoch"] for row in info["history"]] == [1, 2]
    assert info["best"]["val_macro_f1"] == max(row["val_macro_f1"] for row in info["history"])
    assert info["validation_mwes"] == 2 and info["fit_examples"] + info["validation_examples"] == 12
