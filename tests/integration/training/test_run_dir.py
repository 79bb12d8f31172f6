"""Run directories you can trust: tied to their config, one writer at a time, checkpoints that cannot run code,
options refused at parse time (issue #31, items 1, 2 and 4 for ``train`` / ``interpolate``).

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/training/test_run_dir.py.
"""

from __future__ import annotations

import json

import pytest

from idiomkit.training import train
from idiomkit.training.checkpoints import RunDirError, load_checkpoint

SMALL = {"model": "minilm", "epochs": 1, "batch_size": 8, "limit_groups": 12, "val_sts": False}


def test_force_new_never_ships_the_old_best_model(tmp_path):
    """A first run validates (best/ saved); a --force-new run with another seed that never validates must not
    ship that best/ and records only its own config."""
    out = tmp_path / "run"
    first = train(**SMALL, max_steps=2, eval_every=1, output_dir=out)
    assert first.state.best_step is not None and (out / "best").is_dir()
    with pytest.raises(RunDirError, match="was trained with seed=0; now seed=1"):
        train(**SMALL, max_steps=2, eval_every=1, seed=1, output_dir=out)
    second = train(**SMALL, max_steps=1, eval_every=0, seed=1, output_dir=out, force_new=True)
    assert second.state.step == 1 and second.state.best is None
    assert not (out / "best").exists()
    info = json.loads((out / "training.json").read_text())
    assert info["config"]["seed"] == 1 and info["steps"] == 1 and info["best"]["value"] is None
    blob = load_checkpoint(out)
    assert blob["state"]["step"] == 1 and blob["config"]["seed"] == 1
