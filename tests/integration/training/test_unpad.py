"""Unpadded BERT layers: same outputs and gradients as the padded forward, nothing saved differently.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/training/speedups/test_unpad.py.
"""

import copy

import pytest
import torch
from helpers import tokenize_on

from idiomkit.training.speedups.fast_dropout import enable_fast_dropout
from idiomkit.training.speedups.unpad import UnpaddedBertLayer, enable_unpadding

TEXTS = ["he kicked the bucket last year", "a red car", "spill the beans, then again spill them on the floor"]


def no_dropout(model, p: float = 0.0):
    """Every dropout layer set to ``p`` (fast dropout with p = 1e-7 drops nothing but takes its attention path)."""
    for module in model.modules():
        if isinstance(module, torch.nn.Dropout):
            module.p = p
    return model


def embeddings_and_grads(model, features):
    model.zero_grad()
    emb = model(dict(features))["sentence_embedding"]
    weights = torch.arange(emb.numel(), device=emb.device).view_as(emb).sin()  # a loss that weighs every coordinate
    (emb * weights).sum().backward()
    return emb.detach(), {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}


@pytest.mark.parametrize("fast", [False, True])
def test_unpadded_layers_give_the_padded_outputs_and_gradients(minilm, fast):
    padded = copy.deepcopy(minilm)
    if fast:
        enable_fast_dropout(padded)  # in train mode: the softmax-attention path (dropout > 0), in eval mode SDPA
    no_dropout(padded, 1e-7 if fast else 0.0)
    unpadded = copy.deepcopy(padded)
    assert enable_unpadding(unpadded) == unpadded[0].auto_model.config.num_hidden_layers
    features = tokenize_on(padded, TEXTS)
    assert (features["attention_mask"] == 0).any()
    for mode in ("eval", "train"):
        padded.train(mode == "train")
        unpadded.train(mode == "train")
        emb_p, grads_p = embeddings_and_grads(padded, features)
        emb_u, grads_u = embeddings_and_grads(unpadded, features)
        assert torch.allclose(emb_u, emb_p, atol=1e-6)
        assert grads_u.keys() == grads_p.keys()
        for name, grad in grads_p.items():
            assert torch.allclose(grads_u[name], grad, atol=1e-5), name


def test_unpadded_forward_with_dropout_zeroes_padding_and_differs_per_call(minilm):
    model = copy.deepcopy(minilm)
    enable_fast_dropout(model)
    enable_unpadding(model)
    model.train()
    features = tokenize_on(model, TEXTS)
    with torch.no_grad():
        first = model(dict(features))
        second = model(dict(features))["sentence_embedding"]
    pad = features["attention_mask"] == 0
    assert (first["token_embeddings"][pad] == 0).all()  # padding rows are zeros, real rows are not
    assert (first["token_embeddings"][~pad].abs().sum(-1) > 0).all()
    assert not torch.allclose(first["sentence_embedding"], second)  # dropout still samples


def test_saved_unpadded_model_reloads_as_plain_bert(minilm, tmp_path):
    from sentence_transformers import SentenceTransformer

    model = copy.deepcopy(minilm)
    enable_unpadding(model)
    assert any(isinstance(m, UnpaddedBertLayer) for m in model.modules())
    model.save(str(tmp_path / "m"))
    reloaded = SentenceTransformer(str(tmp_path / "m"), device=str(model.device))
    assert not any(isinstance(m, UnpaddedBertLayer) for m in reloaded.modules())
    model.eval()
    features = tokenize_on(model, TEXTS)
    with torch.no_grad():
        expected = model(dict(features))["sentence_embedding"]
        assert torch.allclose(reloaded(dict(features))["sentence_embedding"], expected, atol=1e-6)


def test_stacking_only_the_pooled_layers_gives_the_library_pooling_and_saves_plainly(minilm, tmp_path):
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import WeightedLayerPooling

    from idiomkit.embedding.pooling import stack_only_pooled_layers, with_pooling

    library = with_pooling(copy.deepcopy(minilm), "last2")
    ours = copy.deepcopy(library)
    assert stack_only_pooled_layers(ours) == 1
    features = tokenize_on(library, TEXTS)
    library.eval()
    ours.eval()
    emb_lib, grads_lib = embeddings_and_grads(library, features)
    emb_ours, grads_ours = embeddings_and_grads(ours, features)
    assert torch.equal(emb_ours, emb_lib)  # same arithmetic on the same layers
    for name, grad in grads_lib.items():
        assert torch.allclose(grads_ours[name], grad, atol=1e-6), name
    ours.save(str(tmp_path / "m"))
    reloaded = SentenceTransformer(str(tmp_path / "m"), device="cpu")
    assert type(reloaded[1]) is WeightedLayerPooling and "forward" not in vars(reloaded[1])
