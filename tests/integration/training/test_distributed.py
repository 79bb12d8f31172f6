"""Data-parallel training: whole groups per process, exact gradients, same loss trajectory as one process.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/training/test_distributed.py.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_torchrun_two_processes_follow_the_one_process_loss_trajectory(tmp_path):
    """benchmarks/speed/distributed_check.py: 2 gloo processes vs 1 process, adaptive triplet on a tiny 2B slice."""
    out = tmp_path / "check.json"
    cmd = [
        sys.executable,
        str(ROOT / "benchmarks/speed/distributed_check.py"),
        "--steps",
        "2",
        "--batch-size",
        "16",
        "--limit-groups",
        "20",
        "--json",
        str(out),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(out.read_text())
    assert len(result["loss_two_processes"]) == 2
    assert result["loss_one_process"][0] > 0
    assert result["max_abs_loss_diff"] < 1e-4
    assert result["max_abs_weight_diff"] < 1e-4
