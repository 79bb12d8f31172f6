"""Settings: where idiomkit reads data, writes results and caches models — from flags, then the environment, then
documented defaults (never guessed from where the package happens to be installed).

| setting | flag | environment | default |
|---|---|---|---|
| data directory | ``--data-dir`` | ``IDIOMKIT_DATA_DIR`` | ``../shared/data`` (beside the working directory) |
| results directory | ``--results-dir`` | ``IDIOMKIT_RESULTS_DIR`` | ``benchmarks/results`` |
| model cache | | ``IDIOMKIT_CACHE`` | ``$XDG_CACHE_HOME/idiomkit`` or ``~/.cache/idiomkit`` |
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = Path("..") / "shared" / "data"
DEFAULT_RESULTS_DIR = Path("benchmarks") / "results"


@dataclass(frozen=True)
class Setting:
    """One resolved location and where its value came from (``flag``, ``env NAME`` or ``default``)."""

    name: str
    path: Path
    source: str


def _resolve(name: str, flag: str | Path | None, env: str, default: Path) -> Setting:
    if flag:
        return Setting(name, Path(flag), "flag")
    if value := os.environ.get(env):
        return Setting(name, Path(value), f"env {env}")
    return Setting(name, default, "default")


def settings(data_dir: str | Path | None = None, results_dir: str | Path | None = None) -> list[Setting]:
    """The data directory, results directory and model cache in force, each with its source."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    cache_default = (Path(xdg) if xdg else Path.home() / ".cache") / "idiomkit"
    return [
        _resolve("data directory", data_dir, "IDIOMKIT_DATA_DIR", (Path.cwd() / DEFAULT_DATA_DIR).resolve()),
        _resolve("results directory", results_dir, "IDIOMKIT_RESULTS_DIR", DEFAULT_RESULTS_DIR),
        _resolve("model cache", None, "IDIOMKIT_CACHE", cache_default),
    ]


def default_data_dir() -> Path:
    """``$IDIOMKIT_DATA_DIR``, else ``../shared/data`` beside the working directory."""
    return settings()[0].path


def run_data_dir(data_dir: str | Path | None) -> Path:
    """A configured data directory, or the default one."""
    return Path(data_dir) if data_dir else default_data_dir()


def default_results_dir() -> Path:
    """``$IDIOMKIT_RESULTS_DIR``, else ``benchmarks/results``."""
    return settings()[1].path


def default_cache_dir() -> Path:
    """``$IDIOMKIT_CACHE``, else ``$XDG_CACHE_HOME/idiomkit`` or ``~/.cache/idiomkit``."""
    return settings()[2].path


def seed_everything(seed: int) -> None:
    """Seed python, numpy and torch (CPU determinism for evaluation and training)."""
    import random

    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
