"""Pooling: last2 equals the hand computation, reloads from disk; span pooling pools only the span's tokens.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/embedding/test_pooling.py.
"""

import numpy as np
import pytest
import torch
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import WeightedLayerPooling

from idiomkit.embedding.pooling import pooling_of, with_pooling
from idiomkit.embedding.spans import encode_spans

TEXTS = ["He finally kicked the bucket last night.", "Ela é um pão duro, nunca paga nada."]


def _hidden_states(model, texts):
    tok = model.tokenizer(texts, padding=True, return_tensors="pt").to(model.device)
    with torch.inference_mode():
        out = model[0].model(**tok, output_hidden_states=True)
    return out.hidden_states, tok["attention_mask"]


def test_last2_is_mean_of_last_two_layers(minilm):
    model = with_pooling(minilm, "last2")
    assert pooling_of(model) == "last2" and pooling_of(minilm) == "mean"
    hidden, mask = _hidden_states(minilm, TEXTS)
    avg = (hidden[-1] + hidden[-2]) / 2
    m = mask.unsqueeze(-1).float()
    expected = torch.nn.functional.normalize((avg * m).sum(1) / m.sum(1), dim=-1).cpu().numpy()
    got = model.encode(TEXTS, convert_to_numpy=True)
    np.testing.assert_allclose(got, expected, atol=1e-5)
    assert not np.allclose(got, minilm.encode(TEXTS), atol=1e-3)


def test_last2_survives_save_and_plain_reload(minilm, tmp_path):
    model = with_pooling(minilm, "last2")
    model.save(str(tmp_path / "m"))
    reloaded = SentenceTransformer(str(tmp_path / "m"))
    assert pooling_of(reloaded) == "last2"
    assert any(isinstance(m, WeightedLayerPooling) for m in reloaded)
    np.testing.assert_allclose(reloaded.encode(TEXTS), model.encode(TEXTS), atol=1e-6)


def test_unknown_pooling_is_refused(minilm):
    with pytest.raises(ValueError, match="unknown pooling 'max2'"):
        with_pooling(minilm, "max2")


def test_span_pooling_matches_hand_computation(minilm):
    text = TEXTS[0]
    start = text.index("kicked the bucket")
    span = (start, start + len("kicked the bucket"))
    got = encode_spans(minilm, [text, TEXTS[1]], [span, (0, 3)])
    tok = minilm.tokenizer([text], return_offsets_mapping=True, return_tensors="pt")
    offsets = tok.pop("offset_mapping")[0]
    tok = tok.to(minilm.device)
    with torch.inference_mode():
        tokens = minilm[0].model(**tok).last_hidden_state[0]
    inside = [i for i, (s, e) in enumerate(offsets.tolist()) if e > s and s < span[1] and e > span[0]]
    pieces = minilm.tokenizer.convert_ids_to_tokens(tok["input_ids"][0][inside])
    assert pieces == ["kicked", "the", "bucket"]
    expected = torch.nn.functional.normalize(tokens[inside].mean(0), dim=0).cpu().numpy()
    np.testing.assert_allclose(got[0], expected, atol=1e-5)
    # batching/padding with a longer or shorter neighbour does not change a span embedding
    np.testing.assert_allclose(encode_spans(minilm, [text], [span])[0], got[0], atol=1e-5)
