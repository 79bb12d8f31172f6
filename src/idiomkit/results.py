"""Result files: one JSON envelope per evaluation, written atomically, plus the raw predictions beside it.

Envelope (checked by ``shared/tools/check_results.py``)::

    {"task", "model", "recipe", "seed", "commit", "data_sha256", "params", "metrics", "wall_s", "created"}

File name: ``<results_dir>/<task>/<model>__<recipe>[__<variant>]__seed<N>.json``.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
import os
import re
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_RESULTS_DIR = Path("benchmarks/results")


@dataclass
class ResultRecord:
    task: str
    model: str
    recipe: str
    seed: int
    metrics: dict[str, Any]
    params: dict[str, Any] = field(default_factory=dict)
    data_sha256: str = ""
    commit: str = ""
    wall_s: float = 0.0
    created: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically: a kill mid-write leaves the previous file intact."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8, newlines as given) to ``path`` atomically."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def write_prediction(path: str | Path, text: str) -> Path:
    """Write a raw-prediction file atomically; a ``.gz`` name is gzip-compressed with a zero timestamp, so the
    same predictions give the same bytes (large run files stay small in git)."""
    data = text.encode("utf-8")
    if str(path).endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    return atomic_write_bytes(path, data)


def read_prediction(path: str | Path) -> str:
    """The text of a file written by :func:`write_prediction` (gzip-decompressed when the name ends in ``.gz``)."""
    data = Path(path).read_bytes()
    return (gzip.decompress(data) if str(path).endswith(".gz") else data).decode("utf-8")


def sha256_files(paths: Iterable[str | Path]) -> str:
    """One sha256 over the given files (sorted by name, each contributing name + bytes)."""
    digest = hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def git_commit(cwd: str | Path | None = None) -> str:
    """The current commit (``+dirty`` when tracked files differ), or ``unknown`` outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, check=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def slug(text: str) -> str:
    """A file-name-safe form of a model or recipe name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"


def result_path(
    results_dir: str | Path, task: str, model: str, recipe: str, seed: int, variant: str | None = None
) -> Path:
    parts = [slug(model), slug(recipe)] + ([slug(variant)] if variant else []) + [f"seed{seed}"]
    return Path(results_dir) / task / ("__".join(parts) + ".json")


def write_result(
    record: ResultRecord, results_dir: str | Path = DEFAULT_RESULTS_DIR, variant: str | None = None
) -> Path:
    """Fill commit/created if empty and write the envelope atomically; returns the path."""
    record.commit = record.commit or git_commit()
    record.created = record.created or dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
    record.wall_s = round(float(record.wall_s), 3)
    path = result_path(results_dir, record.task, record.model, record.recipe, record.seed, variant)
    atomic_write_text(path, json.dumps(record.to_json(), indent=2, ensure_ascii=False) + "\n")
    return path


def load_results(results_dir: str | Path = DEFAULT_RESULTS_DIR) -> list[tuple[Path, dict[str, Any]]]:
    """Every result JSON under ``results_dir`` with its path, sorted by path."""
    out = []
    for path in sorted(Path(results_dir).glob("*/*.json")):
        out.append((path, json.loads(path.read_text(encoding="utf-8"))))
    return out
