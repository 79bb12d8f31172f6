"""encode_texts: the same numbers as model.encode, and each text encoded once inside shared_encodings."""

from __future__ import annotations

import numpy as np

from idiomkit.embedding.encode import encode_texts, shared_encodings


class LengthModel:
    """A stand-in encoder: each text's embedding is (its length, its prompt's length); it records what it encodes."""

    def __init__(self):
        self.encoded: list[str] = []

    def get_embedding_dimension(self) -> int:
        return 2

    def encode(self, texts, prompt_name=None, **_) -> np.ndarray:
        self.encoded += texts
        return np.array([[len(t), len(prompt_name or "")] for t in texts], dtype=np.float32)


def test_inside_shared_encodings_each_text_is_encoded_once_per_model_and_prompt():
    model, other = LengthModel(), LengthModel()
    with shared_encodings():
        first = encode_texts(model, ["ab", "abc", "ab"])
        second = encode_texts(model, ["abc", "abcd"])
        prompted = encode_texts(model, ["ab"], prompt_name="query")
        encode_texts(other, ["ab"])
        assert encode_texts(model, []).shape == (0, 2)
    assert first.tolist() == [[2, 0], [3, 0], [2, 0]] and first.dtype == np.float32
    assert second.tolist() == [[3, 0], [4, 0]]
    assert prompted.tolist() == [[2, 5]]
    assert model.encoded == ["ab", "abc", "abcd", "ab"] and other.encoded == ["ab"]
    encode_texts(model, ["ab"])  # outside the block: encoded again
    assert model.encoded[-1:] == ["ab"] and len(model.encoded) == 5
