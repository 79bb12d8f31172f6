"""Fast dropout: same mask distribution as nn.Dropout, exact when masks keep everything, nothing saved differently."""

import torch

from idiomkit.training.speedups import fast_dropout
from idiomkit.training.speedups.fast_dropout import FastDropout, dropout_scale_mask


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
