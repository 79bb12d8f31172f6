"""Fast dropout: same mask distribution as nn.Dropout, exact when masks keep everything, nothing saved differently.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/training/speedups/test_fast_dropout.py.
"""

import json

import torch
from helpers import tokenize_on
from torch import nn

from idiomkit.training.speedups import fast_dropout
from idiomkit.training.speedups.fast_dropout import ATTENTION_NAME, FastDropout, enable_fast_dropout


def batch(model):
    features = tokenize_on(model, ["he kicked the bucket last year", "a red car", "spill the beans, then again spill"])
    assert (features["attention_mask"] == 0).any()  # padded batch: the attention mask is exercised
    return features


def test_train_mode_with_all_keep_masks_equals_eval_mode(minilm, monkeypatch):
    """With p so small that no element is dropped (and the 1 / (1 - p) scale ~1), the swapped dropout layers and the
    softmax-attention path must give the eval forward (SDPA): this checks padding masks and scaling of that path."""
    import copy

    model = copy.deepcopy(minilm)
    assert enable_fast_dropout(model) > 0
    config = model[0].auto_model.config
    assert config._attn_implementation == ATTENTION_NAME
    for module in model.modules():
        if isinstance(module, FastDropout):
            module.p = 1e-7  # round(p * 65536) = 0: nothing dropped
    features = batch(model)
    model.eval()
    with torch.no_grad():
        expected = model(dict(features))["sentence_embedding"]
    calls = []
    original = fast_dropout.dropout_scale_mask

    def recording(shape, p, dtype, device):
        calls.append(tuple(shape))
        mask = original(shape, p, dtype, device)
        assert (mask > 0).all()
        return mask

    monkeypatch.setattr(fast_dropout, "dropout_scale_mask", recording)
    model.train()
    with torch.no_grad():
        got = model(dict(features))["sentence_embedding"]
    assert torch.allclose(got, expected, atol=1e-5)
    heads = config.num_attention_heads
    assert any(len(s) == 4 and s[1] == heads for s in calls)  # attention probabilities went through the mask
    assert sum(len(s) == 3 for s in calls) == 1 + 2 * config.num_hidden_layers  # embeddings + 2 per layer


def test_swapped_model_samples_masks_in_training_and_saves_like_the_original(minilm, tmp_path):
    import copy

    from sentence_transformers import SentenceTransformer

    model = copy.deepcopy(minilm)
    n_dropout = sum(type(m) is nn.Dropout for m in model.modules())
    assert enable_fast_dropout(model) == n_dropout
    assert not any(type(m) is nn.Dropout for m in model.modules())
    features = batch(model)
    model.train()
    with torch.no_grad():
        first, second = (model(dict(features))["sentence_embedding"] for _ in range(2))
    assert not torch.allclose(first, second)
    model.save(str(tmp_path / "m"))
    saved = json.loads((tmp_path / "m" / "config.json").read_text())
    assert ATTENTION_NAME not in json.dumps(saved)
    reloaded = SentenceTransformer(str(tmp_path / "m"), device=str(model.device))
    assert not any(isinstance(m, FastDropout) for m in reloaded.modules())
    model.eval()
    with torch.no_grad():
        assert torch.allclose(
            reloaded(dict(features))["sentence_embedding"], model(dict(features))["sentence_embedding"], atol=1e-6
        )
