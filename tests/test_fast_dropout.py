"""Fast dropout: same mask distribution as nn.Dropout, exact when masks keep everything, nothing saved differently."""

import json

import torch
from helpers import tokenize_on
from torch import nn

from idiomkit.training.speedups import fast_dropout
from idiomkit.training.speedups.fast_dropout import ATTENTION_NAME, FastDropout, dropout_scale_mask, enable_fast_dropout


def test_mask_drops_at_rate_p_scales_kept_values_and_follows_the_seed():
    torch.manual_seed(0)
    mask = dropout_scale_mask(torch.Size([1000, 1000]), 0.1, torch.float32, torch.device("cpu"))
    values = mask.unique()
    assert len(values) == 2 and values[0] == 0 and torch.isclose(values[1], torch.tensor(1 / 0.9))
    dropped = (mask == 0).float().mean().item()
    assert abs(dropped - 6554 / 65536) < 0.002  # 1e6 draws: std of the rate 3e-4
    assert abs(mask.mean().item() - 1.0) < 0.005  # unbiased in expectation, like nn.Dropout
    torch.manual_seed(0)
    again = dropout_scale_mask(torch.Size([1000, 1000]), 0.1, torch.float32, torch.device("cpu"))
    assert torch.equal(mask, again)
    odd = dropout_scale_mask(torch.Size([3, 5, 7]), 0.5, torch.float32, torch.device("cpu"))
    assert odd.shape == (3, 5, 7)  # element counts not divisible by 4


def test_fast_dropout_layer_matches_nn_dropout_in_eval_and_drops_in_train():
    layer = FastDropout(0.1)
    x = torch.ones(64, 100)
    layer.eval()
    assert torch.equal(layer(x), x)
    layer.train()
    y = layer(x)
    assert 0.05 < (y == 0).float().mean().item() < 0.15
    assert torch.allclose(y[y != 0], torch.tensor(1 / 0.9))


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


def test_attention_dropout_zeroes_probabilities_and_rescales(monkeypatch):
    """Dropped attention probabilities contribute nothing; kept ones count 1 / (1 - p) (hand-computed, 1 head)."""

    class Module:
        is_causal = False

    query = torch.tensor([[[[1.0, 0.0]]]])  # batch 1, head 1, 1 query, dim 2
    key = torch.tensor([[[[1.0, 0.0], [0.0, 1.0]]]])  # 2 keys
    value = torch.tensor([[[[2.0, 0.0], [0.0, 4.0]]]])
    mask = torch.tensor([[[[2.0, 0.0]]]])  # key 1 dropped, key 0 kept and scaled by 1 / (1 - 0.5)
    monkeypatch.setattr(fast_dropout, "dropout_scale_mask", lambda shape, p, dtype, device: mask)
    out, _ = fast_dropout.fast_dropout_attention(Module(), query, key, value, None, scaling=1.0, dropout=0.5)
    first = torch.softmax(torch.tensor([1.0, 0.0]), dim=0)[0].item()  # weight of key 0 before dropout
    assert torch.allclose(out, torch.tensor([[[[2.0 * first * 2.0, 0.0]]]]))


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
