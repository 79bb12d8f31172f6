"""Frozen-model targets: computed once from the exact cached token ids, cached in the run folder and read back on
resume, handed to the loss as a (B, d) label tensor; PCA reduction keeps the geometry of low-rank targets;
Procrustes alignment finds the rotation between two spaces and keeps every angle."""

from __future__ import annotations

import numpy as np
import pytest

from idiomkit.metrics.similarity import cosine_rows
from idiomkit.training.examples import collate, make_examples
from idiomkit.training.recipes import frozen
from idiomkit.training.recipes.frozen import (
    FROZEN_DIR,
    frozen_embeddings,
    procrustes_align,
    reduce_dim,
    with_targets,
)

TEXTS = ["A man is playing a guitar.", "He finally spilled the beans.", "The cat sleeps.", "It is raining."]


@pytest.fixture(scope="module")
def examples(minilm):
    rows = [(t,) for t in TEXTS]
    return make_examples(minilm, "keep", rows, [0.0] * len(rows), list(range(len(rows))), 32)


def test_targets_are_the_frozen_models_embeddings_and_are_cached(minilm, examples, tmp_path, monkeypatch):
    targets = frozen_embeddings(minilm, examples, tmp_path, "base|minilm")
    expected = minilm.encode(TEXTS, convert_to_numpy=True)
    assert targets.shape == expected.shape
    np.testing.assert_allclose(targets, expected, atol=1e-5)
    assert len(list((tmp_path / FROZEN_DIR).glob("keep-*.npy"))) == 1

    def recompute(*args):
        raise AssertionError("recomputed although cached")

    monkeypatch.setattr(frozen, "embed_examples", recompute)
    np.testing.assert_array_equal(frozen_embeddings(minilm, examples, tmp_path, "base|minilm"), targets)
    with pytest.raises(AssertionError, match="recomputed"):  # another model name is another cache entry
        frozen_embeddings(minilm, examples, tmp_path, "teacher|mpnet")


def test_a_sibling_run_of_the_same_inputs_shares_the_cache_only_when_asked(minilm, examples, tmp_path, monkeypatch):
    """A leave-one-out run beside its recipe's run (same registry model, same token ids) copies the recipe's cache
    instead of embedding again; without ``share`` (a model given as a folder), or with other inputs, it computes."""
    first = frozen_embeddings(minilm, examples, tmp_path / "recipe-seed0", "base|minilm")
    calls = []
    monkeypatch.setattr(frozen, "embed_examples", lambda model, ex: calls.append(ex.name) or first[: len(ex)] + 1)
    shared = frozen_embeddings(minilm, examples, tmp_path / "recipe-nokeep-seed0", "base|minilm", share=True)
    np.testing.assert_array_equal(shared, first)
    assert not calls and len(list((tmp_path / "recipe-nokeep-seed0" / FROZEN_DIR).glob("keep-*.npy"))) == 1
    own = frozen_embeddings(minilm, examples, tmp_path / "from-a-folder", "base|minilm")
    assert calls == ["keep"] and not np.array_equal(own, first)
    fewer = make_examples(minilm, "keep", [(t,) for t in TEXTS[:3]], [0.0] * 3, [0, 1, 2], 32)
    frozen_embeddings(minilm, fewer, tmp_path / "other-inputs", "base|minilm", share=True)
    assert calls == ["keep", "keep"]


def test_collate_hands_the_loss_one_target_row_per_example(minilm, examples):
    targets = np.arange(len(TEXTS) * 3, dtype=np.float32).reshape(len(TEXTS), 3)
    keep = with_targets(examples, targets)
    _, labels = collate(minilm, keep, [2, 0])
    assert labels.shape == (2, 3)
    np.testing.assert_array_equal(labels.numpy(), targets[[2, 0]])
    with pytest.raises(ValueError, match="keep: 2 targets for 4 rows"):
        with_targets(examples, targets[:2])


def test_pca_reduction_keeps_distances_of_low_rank_targets():
    rng = np.random.default_rng(0)
    wide = rng.normal(size=(50, 3)) @ rng.normal(size=(3, 8))
    narrow = reduce_dim(wide, 3)
    assert narrow.shape == (50, 3)
    dist = lambda a: np.linalg.norm(a[:, None] - a[None], axis=-1)  # noqa: E731
    np.testing.assert_allclose(dist(narrow), dist(wide), atol=1e-4)
    assert reduce_dim(wide, 8) is wide
    with pytest.raises(ValueError, match="cannot widen 8-dimensional targets to 9"):
        reduce_dim(wide, 9)


def test_procrustes_recovers_a_similarity_transform_and_keeps_the_centred_geometry():
    rng = np.random.default_rng(1)
    teacher = rng.normal(size=(60, 6))
    rotation, _ = np.linalg.qr(rng.normal(size=(6, 6)))
    offset = 3.0 * rng.normal(size=6)  # the student's common direction
    student = 0.4 * (teacher - teacher.mean(axis=0)) @ rotation + offset + 0.01 * rng.normal(size=(60, 6))
    assert abs(cosine_rows(teacher, student).mean()) < 0.5
    aligned = procrustes_align(teacher, student)
    np.testing.assert_allclose(aligned, student, atol=0.05)
    assert cosine_rows(aligned, student).mean() > 0.999
    centred = aligned - aligned.mean(axis=0)
    gram = (teacher - teacher.mean(axis=0)) @ (teacher - teacher.mean(axis=0)).T
    np.testing.assert_allclose(centred @ centred.T / 0.4**2, gram, rtol=0.05, atol=0.05)  # angles kept, one scale
    with pytest.raises(ValueError, match=r"differ in shape"):
        procrustes_align(teacher, student[:, :5])
