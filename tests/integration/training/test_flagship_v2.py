"""Flagship v2 on a tiny budget (issue #44): the bilingual student's distill phase runs before the flagship
streams, the keep-what-you-know stream trains beside them, LoRA composes with both (adapters under the reader,
merged on save), the frozen targets are cached in the run folder and read back when the run resumes, and the
validation idioms reach no training stream."""

from __future__ import annotations

import json
import logging

import pytest

from idiomkit.idioms.reader import encoder_module
from idiomkit.models import load_model
from idiomkit.training import train
from idiomkit.training.recipes.frozen import FROZEN_DIR

TINY = {
    "model": "minilm",
    "teacher": "minilm",
    "lora_rank": 4,
    "epochs": 1,
    "batch_size": 8,
    "max_seq_length": 32,
    "limit_groups": 40,
    "distill_steps": 2,
    "distill_align": "procrustes",
    "lr": 3e-4,
    "dropout": 0.0,
    "threads": 1,
    "checkpoint_every": 2,
    "eval_every": 4,
    "pin_weight": 10.0,  # the 2B stream's CoSENT with its correct pairs pinned (PinPositivesLoss)
    "other_id_targets": True,  # ... on the otherID rule's targets (OtherIdTargetsLoss): three text columns
    "keep_relational": 2.0,  # the keep stream also holds its batch's cosine matrix at the base's
}


def records_of(run) -> list[str]:
    messages: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())

    logger, keep = logging.getLogger("idiomkit"), Keep(level=logging.INFO)
    old = logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.INFO)
    try:
        run()
    finally:
        logger.removeHandler(keep)
        logger.setLevel(old)
    return messages


class Killed(Exception):
    """Stands for a kill after step 3 (the last checkpoint is step 2's)."""


def kill_after_step_3(state) -> None:
    if state.step == 3:
        raise Killed


@pytest.fixture(scope="module")
def student_run(tmp_path_factory, data_dir):
    out = tmp_path_factory.mktemp("flagship-v2")
    losses: list[tuple[int, float]] = []
    options = {**TINY, "output_dir": out, "max_steps": 4, "data_dir": str(data_dir)}
    first = records_of(
        lambda: pytest.raises(
            Killed,
            train,
            "flagship-v2-student",
            on_step=kill_after_step_3,
            progress=lambda s, loss: losses.append((s.phase, loss)),
            **options,
        )
    )
    resumed = records_of(lambda: train("flagship-v2-student", **options))
    return out, losses, first, resumed


def test_distill_phase_then_flagship_streams_with_the_keep_term(student_run):
    out, losses, _, _ = student_run
    info = json.loads((out / "training.json").read_text(encoding="utf-8"))
    assert info["label"] == (
        "flagship-v2-student-lora-rel2-pin10-otherid-distill2-teacher-minilm-align-procrustes-dropout0"
    )
    assert info["steps"] == 4
    counts = info["counts"]
    assert counts["distill_rows"] == 2 * 4 and counts["keep_rows"] > 0 and counts["misreading_rows"] > 0
    assert counts["val_unseen_idioms"] > 0 and counts["val_triples"] > 0
    assert [phase for phase, _ in losses] == [0, 0, 1]  # 2 distill steps (8 rows, 4 a step), then the flagship
    last = info["validation"][-1]
    assert {"valmis_accuracy", "valsts_sts", "val_mean"} <= set(last)
    # the STS validation pairs join the 2B validation's table as its STS rows (2B dev's joint "all")
    assert last["val2b_all"] != last["val2b_idiom"] and "val2b_sts" not in last  # (its STS part is valsts_sts)


def test_frozen_targets_are_cached_and_read_back_on_resume(student_run):
    out, _, first, resumed = student_run
    cached = sorted(p.name.split("-")[0] for p in (out / FROZEN_DIR).glob("*.npy"))
    assert cached == ["distill", "keep", "teacher"]  # distill: the untrained student's, for the Procrustes fit
    assert sum(m.startswith("frozen embeddings of") and "written" in m for m in first) == 3
    assert sum(m.startswith("frozen embeddings of") and ": read " in m for m in resumed) == 3
    assert sum(m.startswith("targets mapped into the student's space") for m in first) == 1


def test_lora_is_merged_and_the_reader_reloads(student_run):
    out, _, _, _ = student_run
    model = load_model(str(out))
    assert type(model[0]).__name__ == "IdiomReader" and not hasattr(encoder_module(model).model, "merge_and_unload")
    assert not any("lora" in name for name, _ in model.named_parameters())
    assert model.encode(["He spilled the beans."]).shape == (1, 384)


def test_interpolation_chooses_on_the_recipes_own_validation_and_keeps_the_shipped_reader(student_run, tmp_path):
    """The sweep scores each ratio with the flagship's validation (val_mean, validation idioms out of the reader's
    lexicon); at α = 1 it gives back the trained model's own validation, the ratio with the best val_mean is
    chosen, and the saved model keeps the tuned model's modules (its reader)."""
    from idiomkit.training.interpolate import interpolate_run

    out, _, _, _ = student_run
    trained = json.loads((out / "training.json").read_text(encoding="utf-8"))
    info = interpolate_run(out, tmp_path / "mix", alphas=(0.0, 1.0), max_sts_drop=1.0)
    mix = info["interpolation"]
    assert (mix["primary"], mix["sts"]) == ("val_mean", "valsts_sts") and info["label"].endswith("-interp")
    at_one, best = next(p for p in mix["sweep"] if p["alpha"] == 1.0), trained["validation"][-1]
    for part in ("valsts_sts", "valmis_accuracy", "valdef_margin"):  # the tiny 2B validation (8 groups, one MWE)
        assert at_one[part] == pytest.approx(best[part], abs=2e-3)  # is left out: its ties flip on float noise
    chosen = max(mix["sweep"], key=lambda p: p["val_mean"])
    assert info["best"] == {"metric": "val_mean", "value": chosen["val_mean"], "alpha": chosen["alpha"]}
    saved, tuned = load_model(str(tmp_path / "mix")), load_model(str(out))
    assert type(saved[0]).__name__ == "IdiomReader" and list(saved[0].lexicon.rows()) == list(tuned[0].lexicon.rows())


def test_centering_a_run_keeps_its_reader_and_labels_its_cards(student_run, tmp_path, data_dir):
    """`idiomkit center`: the saved model is the run's (reader first) with the centre after it, its embeddings the
    run's minus the reference mean, rescaled; the label gains -center and the reference is recorded."""
    import numpy as np

    from idiomkit.embedding.center import is_centering, mean_embedding
    from idiomkit.training.center import center_run, reference_sentences

    out, _, _, _ = student_run
    info = center_run(out, tmp_path / "c", data_dir, sentences=40, seed=3)
    trained = json.loads((out / "training.json").read_text(encoding="utf-8"))
    assert info["label"] == trained["label"] + "-center"
    assert info["centering"]["reference"] == ["stsb-en train"] and info["centering"]["sentences"] == 40
    assert json.loads((tmp_path / "c" / "training.json").read_text(encoding="utf-8"))["label"] == info["label"]
    saved, tuned = load_model(str(tmp_path / "c")), load_model(str(out))
    assert type(saved[0]).__name__ == "IdiomReader" and is_centering(saved[-2])
    texts = ["he kicked the bucket", "prices went through the roof", "a cat sleeps"]
    mean = mean_embedding(tuned, reference_sentences(data_dir, ("stsb-en",), 40, 3))
    expected = tuned.encode(texts, normalize_embeddings=True) - mean
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert np.abs(saved.encode(texts) - expected).max() < 1e-5
