"""The idiom reader on a real model (minilm): encode applies it, and model.save keeps it through a reload."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from idiomkit.idioms import Lexicon
from idiomkit.idioms.reader import IdiomReader
from idiomkit.idioms.sources import default_lexicon
from idiomkit.models import load_model
from idiomkit.reading import add_reader

IDIOM, REWRITTEN, PLAIN = "she finally kicked the bucket", "she finally died", "the weather is nice today"


@pytest.fixture(scope="module")
def reader_model(minilm):
    return add_reader(copy.deepcopy(minilm), mode="replace")  # the shipped lexicon, no sense check


def test_encode_applies_the_reader_and_leaves_ordinary_text_alone(reader_model, minilm):
    got = reader_model.encode([IDIOM, PLAIN])
    want = minilm.encode([REWRITTEN, PLAIN])
    np.testing.assert_allclose(got, want, atol=1e-6)
    assert not np.allclose(got[0], minilm.encode(IDIOM), atol=1e-3)
    assert reader_model.max_seq_length == minilm.max_seq_length and reader_model.tokenizer is not None


def test_save_and_reload_keep_the_reader(reader_model, minilm, tmp_path):
    from sentence_transformers import SentenceTransformer

    reader_model.save(str(tmp_path))
    assert {p.name for p in (tmp_path / "0_IdiomReader").iterdir()} == {"idiom_reader.json", "lexicon.tsv"}
    assert Lexicon.from_tsv(tmp_path / "0_IdiomReader" / "lexicon.tsv").sizes() == default_lexicon().sizes()
    with pytest.raises(ValueError, match="trust_remote_code"):
        SentenceTransformer(str(tmp_path), device="cpu")
    for loaded in (load_model(str(tmp_path), device=str(minilm.device)),  # the safe loader: no trust_remote_code
                   SentenceTransformer(str(tmp_path), trust_remote_code=True, device=str(minilm.device))):
        assert type(loaded[0]) is IdiomReader
        np.testing.assert_allclose(loaded.encode(IDIOM), minilm.encode(REWRITTEN), atol=1e-5)
        np.testing.assert_allclose(loaded.encode(PLAIN), minilm.encode(PLAIN), atol=1e-5)
