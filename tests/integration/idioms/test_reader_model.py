"""The idiom reader on a real model (minilm): every door a text enters the model by -- ``encode``, span pooling
(late chunking: the 2A probe, AdMIRe, IdioLink span queries) and training's token cache -- reads it through the
reader; and model.save keeps the reader through a reload."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from idiomkit.embedding.spans import encode_spans
from idiomkit.idioms import Lexicon
from idiomkit.idioms.reader import IdiomReader
from idiomkit.idioms.sources import default_lexicon
from idiomkit.models import load_model
from idiomkit.reader_api import add_reader
from idiomkit.training.examples import make_examples

IDIOM, REWRITTEN, PLAIN = "she finally kicked the bucket", "she finally died", "the weather is nice today"


@pytest.fixture(scope="module")
def reader_model(minilm):
    return add_reader(copy.deepcopy(minilm), mode="replace", sense="none")  # the shipped lexicon, no sense check


def span_of(text: str, part: str) -> tuple[int, int]:
    start = text.index(part)
    return start, start + len(part)


def test_encode_applies_the_reader_and_leaves_ordinary_text_alone(reader_model, minilm):
    got = reader_model.encode([IDIOM, PLAIN])
    want = minilm.encode([REWRITTEN, PLAIN])
    np.testing.assert_allclose(got, want, atol=1e-6)
    assert not np.allclose(got[0], minilm.encode(IDIOM), atol=1e-3)
    assert reader_model.max_seq_length == minilm.max_seq_length and reader_model.tokenizer is not None


def test_span_pooling_reads_the_rewritten_text_over_the_moved_span(reader_model, minilm):
    spans = [span_of(IDIOM, "kicked the bucket"), span_of(PLAIN, "weather")]
    got = encode_spans(reader_model, [IDIOM, PLAIN], spans, prompt="query: ")
    want = encode_spans(minilm, [REWRITTEN, PLAIN], [span_of(REWRITTEN, "died"), spans[1]], prompt="query: ")
    np.testing.assert_allclose(got, want, atol=1e-5)
    plain = encode_spans(minilm, [IDIOM], spans[:1], prompt="query: ")
    assert not np.allclose(got[0], plain[0], atol=1e-3)


def test_training_tokenizes_the_rewritten_text_and_pools_the_moved_span(reader_model, minilm):
    examples = make_examples(
        reader_model, "doors", [(IDIOM, PLAIN)], [1.0], [0], 128, spans=[span_of(IDIOM, "kicked the bucket")]
    )
    ids = minilm.tokenizer([REWRITTEN, PLAIN])["input_ids"]
    assert examples.columns == [[ids[0]], [ids[1]]]
    tokens = minilm.tokenizer.convert_ids_to_tokens(ids[0])
    assert [t for t, on in zip(tokens, examples.span_masks[0], strict=True) if on] == ["died"]


def test_the_2a_classifier_reads_the_rewritten_text(reader_model, minilm):
    from idiomkit.methods.semeval2a.classifier import Encoded, SpanClassifier

    batch = Encoded([IDIOM], ["kick the bucket"], [span_of(IDIOM, "kicked the bucket")])
    features = SpanClassifier(reader_model).features(batch, 128)
    want = minilm.tokenizer([REWRITTEN], ["die"], return_tensors="pt")["input_ids"]
    assert features["input_ids"].cpu().tolist() == want.tolist()
    tokens = minilm.tokenizer.convert_ids_to_tokens(want[0])
    assert [t for t, on in zip(tokens, features["span_mask"][0].tolist(), strict=True) if on] == ["died"]


def test_save_and_reload_keep_the_reader(reader_model, minilm, tmp_path):
    from sentence_transformers import SentenceTransformer

    reader_model.save(str(tmp_path))
    assert {p.name for p in (tmp_path / "0_IdiomReader").iterdir()} == {"idiom_reader.json", "lexicon.tsv"}
    assert Lexicon.from_tsv(tmp_path / "0_IdiomReader" / "lexicon.tsv").sizes() == default_lexicon().sizes()
    with pytest.raises(ValueError, match="trust_remote_code"):
        SentenceTransformer(str(tmp_path), device="cpu")
    for loaded in (
        load_model(str(tmp_path), device=str(minilm.device)),  # the safe loader: no trust_remote_code
        SentenceTransformer(str(tmp_path), trust_remote_code=True, device=str(minilm.device)),
    ):
        assert type(loaded[0]) is IdiomReader
        np.testing.assert_allclose(loaded.encode(IDIOM), minilm.encode(REWRITTEN), atol=1e-5)
        np.testing.assert_allclose(loaded.encode(PLAIN), minilm.encode(PLAIN), atol=1e-5)
