"""Embeddings of a frozen model, computed once per run and cached in the run folder: the targets of the
keep-what-you-know term (the base model before training) and of distillation (a teacher).

The cache file is named by a digest of the model's name and the exact token ids it embeds
(``<run>/frozen/<name>-<digest>.npy``), so a resumed run reads it back and a change of inputs computes anew. With
``share`` (a registry model: its weights are pinned, so its name fixes them), a run without the file copies it from
a sibling run folder that has it (the same digest: the same model and token ids), e.g. a leave-one-out run from
its recipe's run of the same seed; computing it costs an mpnet run about 11 minutes on one thread.
The targets ride in :attr:`Examples.labels` as :class:`TargetRows` (one row per example, handed to the loss by
:func:`~idiomkit.training.examples.collate` as a ``(B, d)`` tensor).
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from scipy.linalg import orthogonal_procrustes

from idiomkit.data.errors import DataError
from idiomkit.errors import OptionError
from idiomkit.metrics.similarity import cosine_rows
from idiomkit.results import atomic_write_bytes
from idiomkit.training.examples import Examples, collate

log = logging.getLogger(__name__)

FROZEN_DIR = "frozen"
ENCODE_BATCH = 64
ALIGNMENTS = ("none", "procrustes")  # how distillation targets meet the student's space (``distill_align``)


class TargetRows(Sequence):
    """A ``(n, d)`` array seen as ``n`` label rows (each a list of floats, as ``collate`` stacks labels)."""

    def __init__(self, array: np.ndarray):
        self.array = np.asarray(array, dtype=np.float32)

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, i):
        return self.array[i].tolist()


def inputs_digest(tag: str, examples: Examples) -> str:
    """A digest of ``tag`` (the model's name) and every token id of ``examples``' first column."""
    digest = hashlib.sha256(tag.encode())
    for ids in examples.columns[0]:
        digest.update(np.asarray(ids, dtype=np.int64).tobytes())
        digest.update(b"|")
    return digest.hexdigest()[:16]


@torch.no_grad()
def embed_examples(model, examples: Examples) -> np.ndarray:
    """``model``'s embeddings (eval mode, no dropout) of the cached token ids of ``examples``' first column."""
    was_training = model.training
    model.eval()
    one = replace(examples, columns=examples.columns[:1], labels=[0.0] * len(examples))
    out = []
    try:
        for start in range(0, len(one), ENCODE_BATCH):
            features, _ = collate(model, one, list(range(start, min(start + ENCODE_BATCH, len(one)))))
            out.append(model(features[0])["sentence_embedding"].float().cpu().numpy())
    finally:
        model.train(was_training)
    return np.concatenate(out)


def frozen_embeddings(model, examples: Examples, run_dir: str | Path, tag: str, *, share: bool = False) -> np.ndarray:
    """``model``'s embeddings of ``examples`` (first column), read from the run folder's cache when there; with
    ``share``, else copied from a sibling run folder's cache of the same digest (module docstring)."""
    path = Path(run_dir) / FROZEN_DIR / f"{examples.name}-{inputs_digest(tag, examples)}.npy"
    cached = _read_cache(path, len(examples))
    if cached is not None:
        log.info("frozen embeddings of %s: read %s", examples.name, path)
        return cached
    for sibling in sorted(path.parents[2].glob(f"*/{FROZEN_DIR}/{path.name}")) if share else []:
        if sibling != path and (cached := _read_cache(sibling, len(examples))) is not None:
            _save(path, cached)
            log.info("frozen embeddings of %s: copied from %s (the same model and token ids)", examples.name, sibling)
            return cached
    array = embed_examples(model, examples)
    _save(path, array)
    log.info("frozen embeddings of %s: %d x %d written to %s", examples.name, *array.shape, path)
    return array


def _read_cache(path: Path, rows: int) -> np.ndarray | None:
    """The cached array at ``path`` when it exists and has ``rows`` rows; a file that is not a readable ``.npy`` is
    a one-line data error."""
    if not path.is_file():
        return None
    try:
        cached = np.load(path, allow_pickle=False)
    except (ValueError, EOFError) as exc:  # a truncated or foreign .npy
        raise DataError(path, None, None, f"unreadable cached embeddings ({exc}); delete it to recompute") from exc
    return cached if len(cached) == rows else None


def _save(path: Path, array: np.ndarray) -> None:
    """``array`` as a ``.npy`` file, written atomically (a killed run never leaves a truncated cache)."""
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    atomic_write_bytes(path, buffer.getvalue())


def reduce_dim(targets: np.ndarray, dim: int) -> np.ndarray:
    """``targets`` projected on their first ``dim`` principal axes (fit on ``targets``; no centring in the
    projection, as sentence-transformers' dimensionality-reduction example); unchanged when already ``dim`` wide."""
    if targets.shape[1] == dim:
        return targets
    if targets.shape[1] < dim:
        raise OptionError(f"cannot widen {targets.shape[1]}-dimensional targets to {dim}")
    _, values, axes = np.linalg.svd(targets - targets.mean(axis=0), full_matrices=False)
    kept = float((values[:dim] ** 2).sum() / (values**2).sum())
    log.info(
        "targets reduced from %d to %d dimensions (PCA, %.1f%% of the variance)", targets.shape[1], dim, 100 * kept
    )
    return (targets @ axes[:dim].T).astype(np.float32)


def procrustes_align(targets: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """``targets`` mapped into ``reference``'s coordinates by the similarity transform fitted on the same rows:
    centred, rotated (orthogonal Procrustes, :func:`scipy.linalg.orthogonal_procrustes`), scaled, and moved to
    ``reference``'s mean (``s (targets - mean_t) R + mean_r``, the least-squares fit). Angles and distances between
    the centred targets are kept up to one scale, so distillation toward them transfers the teacher's geometry
    without asking the student to turn its space to the teacher's axes (two encoders trained apart agree on no
    axis) or to give up its own anisotropy (e5 students have a common direction: random sentence pairs at cosine
    .75, against .03 for mpnet)."""
    if targets.shape != reference.shape:
        raise ValueError(f"targets {targets.shape} and reference {reference.shape} differ in shape")
    centred, centre = targets - targets.mean(axis=0), reference.mean(axis=0)
    rotation, trace = orthogonal_procrustes(centred, reference - centre)
    scale = trace / max(float((centred**2).sum()), 1e-12)
    aligned = (scale * centred @ rotation + centre).astype(np.float32)
    log.info(
        "targets mapped into the student's space (centred orthogonal Procrustes, scale %.3f, on %d rows): mean row"
        " cosine %.3f -> %.3f",
        scale,
        len(targets),
        cosine_rows(targets, reference).mean(),
        cosine_rows(aligned, reference).mean(),
    )
    return aligned


def with_targets(examples: Examples, targets: np.ndarray) -> Examples:
    """``examples`` whose label of row ``i`` is ``targets[i]`` (for :class:`~idiomkit.losses.KeepCloseLoss`)."""
    if len(targets) != len(examples):
        raise ValueError(f"{examples.name}: {len(targets)} targets for {len(examples)} rows")
    return replace(examples, labels=TargetRows(targets))
