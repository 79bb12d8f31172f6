"""Faster CPU inference: export a model's transformer to ONNX (float32, or dynamic int8) and run it with
onnxruntime behind the same ``SentenceTransformer`` API (``encode``, span pooling, the tasks).

The exported graph outputs exactly what the model's ``Pooling`` consumes: the last hidden layer for ``mean``,
the average of the last two layers for ``last2`` (the equal-weight ``WeightedLayerPooling``), so pooling,
normalisation and late-chunking span pooling stay the library's own. Needs the ``onnx`` extra
(``onnxruntime``, ``onnx``). Layout: the sentence-transformers directory plus ``onnx/model.onnx``,
``onnx/model_qint8.onnx`` and ``onnx/idiomkit_onnx.json``.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import torch

from idiomkit.embedding.pooling import pooling_of
from idiomkit.errors import OptionError
from idiomkit.idioms.reader import encoder_module

log = logging.getLogger(__name__)

ONNX_DIR = "onnx"
FILES = {"onnx": "model.onnx", "onnx-int8": "model_qint8.onnx"}
META = "idiomkit_onnx.json"


class _Encoder(torch.nn.Module):
    """The transformer with the layer pooling folded in: token embeddings out."""

    def __init__(self, transformer: torch.nn.Module, n_layers: int):
        super().__init__()
        self.transformer, self.n_layers = transformer, n_layers

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        out = self.transformer(
            input_ids=input_ids,
            attention_mask=attention_mask,
            token_type_ids=token_type_ids,
            output_hidden_states=self.n_layers > 1,
            return_dict=True,
        )
        if self.n_layers == 1:
            return out.last_hidden_state
        return torch.stack(out.hidden_states[-self.n_layers :]).mean(dim=0)


def _layers(pooling: str) -> int:
    if pooling == "mean":
        return 1
    if pooling.startswith("last") and pooling[4:].isdigit():
        return int(pooling[4:])
    raise OptionError(f"cannot export pooling '{pooling}' to ONNX (expected mean or lastN)")


def export_onnx(model, output_dir: str | Path, *, quantize: bool = True) -> Path:
    """Save ``model`` (a SentenceTransformer, pooling ``mean`` or ``lastN``) to ``output_dir`` with an ONNX export of
    its transformer (and, with ``quantize``, a dynamic int8 copy). Returns ``output_dir``."""
    out = Path(output_dir)
    pooling = pooling_of(model)
    model.save(str(out))
    onnx_dir = out / ONNX_DIR
    onnx_dir.mkdir(parents=True, exist_ok=True)
    encoder = _Encoder(encoder_module(model).auto_model, _layers(pooling)).eval()
    sample = model.tokenizer(
        ["he kicked the bucket", "a longer sentence to trace padding with"], padding=True, return_tensors="pt"
    ).to(model.device)
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in sample]
    axes = {n: {0: "batch", 1: "tokens"} for n in [*names, "token_embeddings"]}
    tmp = onnx_dir / (FILES["onnx"] + ".tmp")
    with torch.no_grad():
        torch.onnx.export(
            encoder,
            tuple(sample[n] for n in names),
            str(tmp),
            input_names=names,
            output_names=["token_embeddings"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,  # the TorchScript exporter: no onnxscript needed
        )
    os.replace(tmp, onnx_dir / FILES["onnx"])
    if quantize:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        tmp = onnx_dir / (FILES["onnx-int8"] + ".tmp")
        quantize_dynamic(
            str(onnx_dir / FILES["onnx"]),
            str(tmp),
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul"],
        )  # per-channel weights: closer to float (measured)
        os.replace(tmp, onnx_dir / FILES["onnx-int8"])
    meta = {
        "pooling": pooling,
        "inputs": names,
        "opset": 17,
        "files": [f for f in FILES.values() if (onnx_dir / f).exists()],
    }
    (onnx_dir / META).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return out


def load_onnx_model(path: str | Path, backend: str = "onnx", *, threads: int | None = None):
    """Load a directory made by :func:`export_onnx` as a SentenceTransformer whose transformer runs in
    onnxruntime (``backend``: ``onnx`` = float32, ``onnx-int8`` = dynamic int8)."""
    import onnxruntime as ort
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import WeightedLayerPooling

    from idiomkit.models import ModelNotAvailable, load_sentence_transformer

    if backend not in FILES:
        raise OptionError(f"unknown backend '{backend}' (expected {' or '.join(FILES)})")
    path = Path(path)
    graph = path / ONNX_DIR / FILES[backend]
    if not graph.is_file():
        raise ModelNotAvailable(f"{graph}: no ONNX export here (run `idiomkit export-onnx` first)")
    meta = json.loads((path / ONNX_DIR / META).read_text(encoding="utf-8"))
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or torch.get_num_threads()
    session = ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])
    st = load_sentence_transformer(str(path), device="cpu")
    encoder_module(st).forward = _onnx_forward(session, meta["inputs"])  # the transformer, behind a reader if any
    modules = [m for m in st if not isinstance(m, WeightedLayerPooling)]
    model = SentenceTransformer(
        modules=modules, device="cpu", prompts=dict(st.prompts), default_prompt_name=st.default_prompt_name
    )
    model.idiomkit_backend = {"backend": backend, "pooling": meta["pooling"], "graph": str(graph)}
    return model


def _onnx_forward(session, inputs: list[str]):
    def forward(features: dict[str, Any], **_kwargs) -> dict[str, Any]:
        feeds = {n: features[n].detach().cpu().numpy().astype("int64") for n in inputs if n in features}
        (tokens,) = session.run(None, feeds)
        features.update(token_embeddings=torch.from_numpy(tokens))
        return features

    return forward
