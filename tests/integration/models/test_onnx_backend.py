"""ONNX / dynamic int8 export: same encode API, last2 and span pooling preserved, one-line errors.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/models/test_onnx_backend.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from idiomkit.embedding.spans import encode_spans  # noqa: E402
from idiomkit.models import load_model  # noqa: E402
from idiomkit.models.onnx_backend import export_onnx, load_onnx_model  # noqa: E402

pytest.importorskip("onnxruntime", reason="the onnx extra installs onnxruntime")

# lengths and batch shapes differ from the two sentences the export traces with
TEXTS = [
    "he kicked the bucket",
    "x",
    "She finally decided to spill the beans about the merger after many long "
    "and difficult weeks of negotiation with the board.",
    "Um gato dorme no sofá.",
] * 2


SPANS = [(3, 20), (0, 1), (23, 38), (3, 7)] * 2


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_onnx_export_matches_torch_last2_and_spans(tmp_path):
    model = load_model("minilm", pooling="last2")
    export_onnx(model, tmp_path / "m")
    ref, ref_spans = model.encode(TEXTS, batch_size=3), encode_spans(model, TEXTS, SPANS, batch_size=3)
    fp32 = load_onnx_model(tmp_path / "m", "onnx")
    assert np.abs(fp32.encode(TEXTS, batch_size=3) - ref).max() < 1e-4
    assert np.abs(encode_spans(fp32, TEXTS, SPANS, batch_size=3) - ref_spans).max() < 1e-4
    int8 = load_onnx_model(tmp_path / "m", "onnx-int8")
    emb = int8.encode(TEXTS, batch_size=3)
    assert emb.shape == ref.shape and 0.95 < cosines(emb, ref).min() < 0.99999  # close, but really quantised
    mean = load_model("minilm")  # the mean-pooled model differs from last2: the export kept the layer average
    assert cosines(mean.encode(TEXTS), ref).min() < 0.99


def test_a_model_with_the_reader_in_front_runs_its_transformer_in_onnxruntime(tmp_path):
    """The reader stays first and still rewrites; the graph replaces the transformer behind it (the int8 graph gives
    other numbers than torch), not the reader."""
    from idiomkit.idioms import Lexicon
    from idiomkit.idioms.reader import IdiomReader
    from idiomkit.reader_api import add_reader

    lexicon = Lexicon.from_pairs([("kick the bucket", "to die")])
    model = add_reader(load_model("minilm"), mode="replace", lexicon=lexicon, sense="none")
    export_onnx(model, tmp_path / "m")
    ref = model.encode(TEXTS, batch_size=3)
    fp32 = load_onnx_model(tmp_path / "m", "onnx")
    assert isinstance(fp32[0], IdiomReader) and fp32[0].rewrite_inputs(["he kicked the bucket"]) == ["he died"]
    assert np.abs(fp32.encode(TEXTS, batch_size=3) - ref).max() < 1e-4
    assert cosines(load_onnx_model(tmp_path / "m", "onnx-int8").encode(TEXTS, batch_size=3), ref).min() < 0.99999
