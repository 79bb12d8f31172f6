"""Centering (idiomkit.embedding.center): the centred embeddings by hand, a plain sentence-transformers reload, span
pooling through the same modules, the drawn-together space pulled apart, and the refusals."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from sentence_transformers import SentenceTransformer

from idiomkit.embedding.center import add_centering, is_centering, mean_embedding
from idiomkit.embedding.spans import encode_spans
from idiomkit.errors import InputError

TEXTS = [
    "he kicked the bucket last year",
    "the old man died in his sleep",
    "she spilled the beans at dinner",
    "a dog runs across the park",
    "the market crashed on monday",
    "they painted the town red",
]


def unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def mean_pair_cosine(emb: np.ndarray) -> float:
    cos = emb @ emb.T
    return float(cos[~np.eye(len(emb), dtype=bool)].mean())


@pytest.fixture(scope="module")
def centred(minilm):
    model = copy.deepcopy(minilm)
    mean = mean_embedding(model, TEXTS)
    return add_centering(model, mean), mean


def test_centred_embeddings_are_the_unit_embeddings_minus_the_mean_rescaled(minilm, centred):
    model, mean = centred
    assert np.allclose(mean, minilm.encode(TEXTS, normalize_embeddings=True).mean(0), atol=1e-6)
    expected = unit(minilm.encode(TEXTS, normalize_embeddings=True) - mean)
    assert np.abs(model.encode(TEXTS) - expected).max() < 1e-5
    assert [type(m).__name__ for m in model][-3:] == ["Normalize", "Dense", "Normalize"]
    assert is_centering(model[-2]) and not any(is_centering(m) for m in minilm)


def test_centering_pulls_a_drawn_together_space_apart(minilm, centred):
    """The reference texts' mean cosine to each other falls (below 0: their mean is removed)."""
    model, _ = centred
    before = mean_pair_cosine(minilm.encode(TEXTS, normalize_embeddings=True))
    after = mean_pair_cosine(model.encode(TEXTS))
    assert before > 0.05 and after < 0 < before - after


def test_a_saved_centred_model_reloads_with_plain_sentence_transformers(centred, tmp_path):
    model, _ = centred
    model.save(str(tmp_path / "m"))
    again = SentenceTransformer(str(tmp_path / "m"))
    assert np.abs(again.encode(TEXTS) - model.encode(TEXTS)).max() < 1e-6


def test_span_embeddings_go_through_the_centre(minilm, centred):
    model, mean = centred
    spans = [(3, 22), (8, 15), (4, 21), (2, 5), (4, 10), (5, 25)]
    plain = encode_spans(minilm, TEXTS, spans)
    assert np.abs(encode_spans(model, TEXTS, spans) - unit(plain - mean)).max() < 1e-5


def test_centering_twice_or_with_a_wrong_mean_is_refused(minilm, centred):
    model, mean = centred
    with pytest.raises(InputError, match="centred already"):
        add_centering(model, mean)
    with pytest.raises(InputError, match=r"a mean of shape \(3,\) for a model of dimension 384"):
        add_centering(copy.deepcopy(minilm), np.zeros(3, dtype=np.float32))
    with pytest.raises(InputError, match="at least one reference sentence"):
        mean_embedding(minilm, [])
