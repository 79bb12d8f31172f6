"""Mixed precision: the model's forward in bfloat16, its outputs, the losses and the weights in float32."""

import pytest
import torch
from torch import nn

from idiomkit.errors import OptionError
from idiomkit.training.config import TrainConfig, check_options
from idiomkit.training.precision import mixed_precision


class Tiny(nn.Module):
    """A stand-in encoder that returns a dict, as a sentence-transformers model does."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.lin = nn.Linear(16, 8)

    def forward(self, features):
        return {"sentence_embedding": self.lin(features["x"]), "count": 3}


def test_bf16_runs_the_forward_in_bfloat16_and_returns_float32():
    model, x = Tiny(), torch.randn(5, 16)
    full = model({"x": x})["sentence_embedding"]
    with mixed_precision(model, "bf16"):
        out = model({"x": x})
    half = nn.functional.linear(x.bfloat16(), model.lin.weight.bfloat16(), model.lin.bias.bfloat16()).float()
    assert out["sentence_embedding"].dtype == torch.float32 and out["count"] == 3
    assert torch.allclose(out["sentence_embedding"], half, atol=1e-2) and not torch.equal(
        out["sentence_embedding"], full
    )
    assert torch.allclose(out["sentence_embedding"], full, atol=0.05)  # rounded, not different
    out["sentence_embedding"].pow(2).sum().backward()
    assert model.lin.weight.grad.dtype == torch.float32 and model.lin.weight.dtype == torch.float32


def test_the_model_is_itself_again_after_the_block_and_fp32_changes_nothing():
    model, x = Tiny(), torch.randn(5, 16)
    full = model({"x": x})["sentence_embedding"]
    with mixed_precision(model, "fp32"):
        assert torch.equal(model({"x": x})["sentence_embedding"], full)
    with pytest.raises(RuntimeError), mixed_precision(model, "bf16"):
        raise RuntimeError("a failing step")
    assert "forward" not in model.__dict__ and torch.equal(model({"x": x})["sentence_embedding"], full)


def test_an_unknown_precision_is_a_one_line_option_error():
    with pytest.raises(OptionError, match=r"unknown precision .fp16. \(expected one of fp32, bf16\)"):
        check_options(TrainConfig(precision="fp16"))


def test_bf16_without_native_support_warns_and_fp32_never_does(monkeypatch, caplog):
    import idiomkit.training.precision as precision

    monkeypatch.setattr(precision, "native_bf16", lambda device_type="cpu": False)
    precision.warn_if_slow("fp32")
    assert not caplog.records
    precision.warn_if_slow("bf16")
    assert "no native bfloat16; expect steps slower than fp32" in caplog.text
    caplog.clear()
    monkeypatch.setattr(precision, "native_bf16", lambda device_type="cpu": True)
    precision.warn_if_slow("bf16")
    assert not caplog.records
