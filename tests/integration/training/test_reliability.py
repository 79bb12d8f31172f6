"""Atomic result/checkpoint writes (a crash or SIGKILL mid-write keeps the previous file) and same seed -> same
metrics.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/training/test_reliability.py.
"""

from __future__ import annotations

import json
import math

import torch

from idiomkit.training.checkpoints import CHECKPOINT


def test_same_seed_same_metrics_and_weights(tmp_path):
    """Two 1-step trainings with one seed give the same validation metrics (to 1e-6) and identical weights."""
    from idiomkit.training import train

    small = {
        "model": "minilm",
        "epochs": 1,
        "batch_size": 4,
        "limit_groups": 4,
        "max_steps": 1,
        "eval_every": 1,
        "val_sts": False,
        "seed": 3,
    }
    runs = [train("adaptive-triplet", output_dir=tmp_path / name, **small) for name in ("a", "b")]
    (first,), (second,) = (r.state.history for r in runs)
    assert set(first) == set(second) and "val_idiom" in first
    for key, value in first.items():
        assert math.isfinite(value) and abs(value - second[key]) <= 1e-6, key
    a, b = (torch.load(tmp_path / n / CHECKPOINT, weights_only=True)["model"] for n in ("a", "b"))
    assert all(torch.equal(a[k], b[k]) for k in a)
    card = (tmp_path / "a" / "README.md").read_text()  # the model card: recipe, data hashes, metrics, intended use
    sha = json.loads((tmp_path / "a" / "training.json").read_text())["data_sha256"]
    for line in (
        "- Recipe: `adaptive-triplet-mwe-dedup`",
        f"- Data sha256: {sha}",
        "best val_idiom = ",
        "- Intended use: ",
    ):
        assert line in card, line


def test_eval_at_start_validates_the_base_and_lets_selection_keep_it(tmp_path):
    """``eval_at_start``: the untrained model is validated at step 0 and is a candidate like any later step."""
    from idiomkit.training import train

    small = {"model": "minilm", "epochs": 1, "batch_size": 4, "limit_groups": 4, "max_steps": 1, "val_sts": False}
    run = train("adaptive-triplet", output_dir=tmp_path / "run", eval_every=1, eval_at_start=True, **small)
    steps = [entry["step"] for entry in run.state.history]
    assert steps == [0, 1]
    scores = [entry["val_idiom"] for entry in run.state.history]
    assert run.state.best_step == steps[scores.index(max(scores))] and run.state.best == max(scores)
    info = json.loads((tmp_path / "run" / "training.json").read_text())
    assert info["validation"][0]["step"] == 0 and info["best"]["step"] == run.state.best_step


def test_the_last_step_is_validated_when_it_is_not_a_multiple_of_eval_every(tmp_path):
    """A run that ends between two validations (the epoch runs out, or max_steps) validates where it ends, so its
    last steps are a selection candidate; a run that ends on a validation step is not validated twice."""
    from idiomkit.training import train

    small = {"model": "minilm", "epochs": 1, "batch_size": 4, "limit_groups": 8, "val_sts": False}
    run = train("adaptive-triplet", output_dir=tmp_path / "odd", eval_every=2, max_steps=3, **small)
    assert [entry["step"] for entry in run.state.history] == [2, 3]
    run = train("adaptive-triplet", output_dir=tmp_path / "even", eval_every=2, max_steps=2, **small)
    assert [entry["step"] for entry in run.state.history] == [2]


def test_the_last_checkpoint_holds_the_final_validation_so_a_finished_run_resumes_without_validating(tmp_path):
    """The validation where a run ends happens before its last checkpoint is written: resuming a finished run (as
    ``reproduce`` does before carding it) validates nothing again."""
    from idiomkit.training import train

    small = {"model": "minilm", "epochs": 1, "batch_size": 4, "limit_groups": 8, "val_sts": False}
    run = train("adaptive-triplet", output_dir=tmp_path / "odd", eval_every=2, max_steps=3, **small)
    saved = torch.load(tmp_path / "odd" / CHECKPOINT, weights_only=True)["state"]["history"]
    assert [entry["step"] for entry in saved] == [2, 3]
    again = train("adaptive-triplet", output_dir=tmp_path / "odd", eval_every=2, max_steps=3, **small)
    assert again.state.history == run.state.history
