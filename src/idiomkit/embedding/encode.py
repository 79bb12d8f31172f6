"""Fast text encoding with a rich progress bar: one global length sort, then chunks through ``model.encode``;
:func:`shared_encodings`, a block in which each text is encoded once; and :func:`unit_rows`, the normalisation
every cosine in idiomkit uses."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from idiomkit.progress import track

CHUNK = 512
_SHARED: ContextVar[dict | None] = ContextVar("idiomkit_shared_encodings", default=None)


@contextmanager
def shared_encodings() -> Iterator[None]:
    """Within the block, :func:`encode_texts` encodes each text once per model and prompt, and later calls reuse
    its embedding: evaluators run one after another on the same sentences (a validation's 2B STS rows and its
    STS check) share them. The model must not change inside the block."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def encode_texts(
    model,
    texts: Sequence[str],
    *,
    prompt_name: str | None = None,
    batch_size: int = 64,
    show_progress_bar: bool = False,
    chunk_size: int = CHUNK,
) -> np.ndarray:
    """Embed ``texts`` (float32, model's own pooling), longest first so batches carry little padding.

    Same numbers as ``model.encode``; the texts are sorted once globally and fed in chunks so a rich
    progress bar can report progress on long inputs. Inside :func:`shared_encodings`, only texts not yet
    encoded there are encoded.
    """
    texts = list(texts)
    shared = _SHARED.get()
    if shared is None:
        return _encode(model, texts, prompt_name, batch_size, show_progress_bar, chunk_size)
    known = shared.setdefault((id(model), prompt_name), {})
    new = [t for t in dict.fromkeys(texts) if t not in known]
    known.update(zip(new, _encode(model, new, prompt_name, batch_size, show_progress_bar, chunk_size), strict=True))
    if not texts:
        return np.zeros((0, model.get_embedding_dimension()), dtype=np.float32)
    return np.stack([known[t] for t in texts])


def _encode(
    model, texts: list[str], prompt_name: str | None, batch_size: int, show_progress_bar: bool, chunk_size: int
) -> np.ndarray:
    if not texts:
        return np.zeros((0, model.get_embedding_dimension()), dtype=np.float32)
    if not show_progress_bar or len(texts) <= chunk_size:
        return model.encode(
            texts, prompt_name=prompt_name, batch_size=batch_size, convert_to_numpy=True, show_progress_bar=False
        )
    order = np.argsort([-len(t) for t in texts], kind="stable")
    out = np.zeros((len(texts), model.get_embedding_dimension()), dtype=np.float32)
    chunks = [order[i : i + chunk_size] for i in range(0, len(order), chunk_size)]
    for idx in track(chunks, f"encoding {len(texts)} texts", enabled=True):
        out[idx] = model.encode(
            [texts[i] for i in idx],
            prompt_name=prompt_name,
            batch_size=batch_size,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
    return out


def unit_rows(x: np.ndarray) -> np.ndarray:
    """``x`` as float32 with every row (last axis) scaled to unit length; all-zero rows stay zero."""
    x = np.asarray(x, dtype=np.float32)
    return x / np.clip(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12, None)


def query_prompt_name(model) -> str | None:
    """The prompt the benchmarks encode with when none is named (``auto``): the model's ``query`` prompt when it
    defines a non-empty one (e5), else none."""
    return "query" if model.prompts.get("query") else None
