"""The run directory: tied to its config (``run_config.json``; another config is refused unless ``force_new``, which
clears the old run), held by one writer at a time (``.lock``). A model derived from a run (``center``,
``interpolate``) goes to a folder of its own: never the run itself, nor a folder holding another run or model."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from idiomkit.results import atomic_write_text
from idiomkit.training.checkpoints import CHECKPOINT, RunDirError, load_checkpoint
from idiomkit.training.config import TrainConfig

log = logging.getLogger("idiomkit.training")

RUN_CONFIG = "run_config.json"
LOCK = ".lock"
# config fields that may change when a run resumes: where things are (the data's hashes are in training.json), how
# often a checkpoint is written, CPU threads, and whether epoch models are kept. Every other field shapes the run.
RESUME_SAFE = frozenset({"output_dir", "data_dir", "checkpoint_every", "threads", "keep_epochs"})
RUN_ARTIFACTS = ("best", "best.tmp", CHECKPOINT, CHECKPOINT + ".tmp", "training.json", RUN_CONFIG)


def stored_config(out: Path, blob: dict[str, Any] | None) -> tuple[dict[str, Any], Path] | None:
    """The config ``out`` was trained with and the file that says so: ``run_config.json`` (written at the start of
    every run), else a finished run's ``training.json``, else the checkpoint's; None for a fresh directory."""
    for name in (RUN_CONFIG, "training.json"):
        path = out / name
        if path.exists():
            try:
                config = json.loads(path.read_text(encoding="utf-8")).get("config")
            except (UnicodeDecodeError, json.JSONDecodeError, AttributeError, RecursionError) as exc:
                raise RunDirError(f"{path}: not a run config ({exc}); use --force-new to start over") from None
            if not isinstance(config, dict):
                raise RunDirError(f"{path}: has no 'config' object; use --force-new to start over")
            return config, path
    if blob is not None and isinstance(blob.get("config"), dict):
        return blob["config"], out / CHECKPOINT
    return None


def config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The fields (outside :data:`RESUME_SAFE`, present in both) whose values differ, in config order."""
    return [k for k in new if k in old and k not in RESUME_SAFE and old[k] != new[k]]


def has_progress(out: Path) -> bool:
    """Whether ``out`` holds a run to continue or a finished one (a checkpoint or ``training.json``); a run that
    stopped before its first checkpoint left nothing another config could mix with."""
    return (out / CHECKPOINT).exists() or (out / "training.json").exists()


def check_same_config(out: Path, cfg: TrainConfig, blob: dict[str, Any] | None) -> None:
    """Refuse to continue a run in ``out`` that was trained with another config (one line naming the fields)."""
    found = stored_config(out, blob) if has_progress(out) else None
    if found is None:
        return
    old, _ = found
    new = cfg.record()
    diffs = config_differences(old, new)
    if diffs:
        was = ", ".join(f"{k}={old[k]}" for k in diffs)
        now = ", ".join(f"{k}={new[k]}" for k in diffs)
        raise RunDirError(f"{out}: was trained with {was}; now {now}; use --force-new to start over")


def run_artifacts(out: Path) -> list[Path]:
    """What a run leaves in ``out`` that belongs to that run: best/, epoch-*/, checkpoints, training.json and the
    run config (the saved model files are overwritten by the next run's final model)."""
    found = [out / name for name in RUN_ARTIFACTS if (out / name).exists()]
    return found + sorted(p for p in out.glob("epoch-*") if p.is_dir())


def clear_run(out: Path) -> int:
    """Remove :func:`run_artifacts` from ``out``; returns how many were removed (logged)."""
    artifacts = run_artifacts(out)
    for path in artifacts:
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    if artifacts:
        log.info("--force-new: removed %d old run file(s)/dir(s): %s", len(artifacts), [p.name for p in artifacts])
    return len(artifacts)


def write_run_config(out: Path, cfg: TrainConfig) -> Path:
    """Tie ``out`` to ``cfg``: ``run_config.json`` written before the first step."""
    return atomic_write_text(out / RUN_CONFIG, json.dumps({"config": cfg.record()}, indent=2) + "\n")


@contextmanager
def run_lock(out: Path, writer: str = "training run"):
    """Hold ``out/.lock`` (``flock``, non-blocking) for the run: a second writer (a training run, ``center`` or
    ``interpolate``: they share the lock) is refused with one line saying that ``writer`` is writing there."""
    path = out / LOCK
    try:
        fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the whole run
    except OSError as exc:
        raise RunDirError(f"{out}: cannot write the run directory ({exc.strerror or exc})") from None
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirError(
                f"{out}: another {writer} is writing here (lock {path} is held); wait for it or use another --output"
            ) from None
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        yield path
    finally:
        fh.close()  # closing releases the lock


def open_run(out: Path, cfg: TrainConfig, force_new: bool, main: bool) -> dict[str, Any] | None:
    """Check ``out`` against ``cfg`` and tie it to ``cfg``; returns the checkpoint to resume from (or None).

    ``force_new`` clears the old run first. Only the main process of a distributed run checks and writes."""
    if not main:
        return None if force_new else load_checkpoint(out)
    if force_new:
        clear_run(out)
        blob = None
    else:
        blob = load_checkpoint(out)
        check_same_config(out, cfg, blob)
    write_run_config(out, cfg)
    return blob


MADE_BY = "made_by"  # training.json of a derived model: {"command": "center" | "interpolate", "from": <run, resolved>}
# what a run or a model leaves in its folder (a derived model is written only where none of these is, or over its own)
RUN_MARKERS = (*RUN_ARTIFACTS, "train.log", "modules.json", "config.json", "config_sentence_transformers.json")


def made_by(command: str, source: Path) -> dict[str, str]:
    """The :data:`MADE_BY` record of a model ``command`` derived from the run ``source``."""
    return {"command": command, "from": str(source.resolve())}


def run_markers(out: Path) -> list[str]:
    """The names in ``out`` that say a run or a model lives there (:data:`RUN_MARKERS`, weights files)."""
    found = [name for name in RUN_MARKERS if (out / name).exists()]
    return found + sorted(p.name for p in out.glob("*.safetensors")) + sorted(p.name for p in out.glob("*.bin"))


def own_output(out: Path, command: str, source: Path) -> bool:
    """Whether ``out``'s ``training.json`` says ``command`` made it from ``source`` (its :data:`MADE_BY`)."""
    try:
        info = json.loads((out / "training.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(info, dict) and info.get(MADE_BY) == made_by(command, source)


def check_derived_output(source: Path, out: Path, command: str) -> None:
    """Refuse (one line) to write the model ``command`` derives from the run ``source`` into ``out`` when ``out`` is
    ``source`` or inside it, or holds a run or model (:func:`run_markers`) that ``command`` did not make from
    ``source``: no verb writes over a run it did not make. Its own earlier output is written over."""
    if out.resolve() == source.resolve() or source.resolve() in out.resolve().parents:
        where = "is" if out.resolve() == source.resolve() else "is inside"
        raise RunDirError(
            f"{out}: {where} the run `idiomkit {command}` reads ({source}); it is never written over: choose "
            "another --output"
        )
    markers = run_markers(out) if out.is_dir() else []
    if markers and not own_output(out, command, source):
        raise RunDirError(
            f"{out}: holds another run or model ({markers[0]}); `idiomkit {command}` writes only into a new or "
            f"empty folder, or over its own output from {source}: choose another --output or remove that folder"
        )


@contextmanager
def derived_output(source: Path, out: Path, command: str):
    """Check ``out`` (:func:`check_derived_output`), create it and hold its lock (:func:`run_lock`, shared with
    training: a second writer is refused) while ``command`` writes its model there; checked again under the lock."""
    check_derived_output(source, out, command)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunDirError(f"{out}: cannot create the output directory ({exc.strerror or exc})") from None
    with run_lock(out, "run (train, center or interpolate)") as lock:
        check_derived_output(source, out, command)
        yield lock
