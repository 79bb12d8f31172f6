"""Default locations: data directory, results directory."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT_GUESS = Path(__file__).resolve().parents[2]


def default_data_dir() -> Path:
    """``$IDIOMKIT_DATA_DIR``, else ``../shared/data`` beside the current repo checkout (cwd, then source tree)."""
    if env := os.environ.get("IDIOMKIT_DATA_DIR"):
        return Path(env)
    for base in (Path.cwd(), REPO_ROOT_GUESS):
        candidate = base / ".." / "shared" / "data"
        if candidate.is_dir():
            return candidate.resolve()
    return (Path.cwd() / ".." / "shared" / "data").resolve()


def run_data_dir(data_dir: str | Path | None) -> Path:
    """A configured data directory, or the default one."""
    return Path(data_dir) if data_dir else default_data_dir()


def default_results_dir() -> Path:
    return Path(os.environ.get("IDIOMKIT_RESULTS_DIR", "benchmarks/results"))


def seed_everything(seed: int) -> None:
    """Seed python, numpy and torch (CPU determinism for evaluation and training)."""
    import random

    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
