"""Result files: one JSON envelope per evaluation, written atomically, plus the raw predictions beside it.

Order: the predictions are written first, then the envelope (each atomically, under a lock file beside the result),
so a result JSON on disk always has its predictions and a second concurrent writer of the same result is refused.

Envelope (checked by ``shared/tools/check_results.py``)::

    {"key", "task", "model", "recipe", "seed", "commit", "data_sha256", "params", "metrics", "wall_s", "created"}

A result is named by its :class:`ResultKey` (stored as ``"key"``): :meth:`ResultKey.path` is the one place a result
path is made, ``<results_dir>/<task>/<model>__<recipe>[__<variant>]__seed<N>.json``, and readers take the key from
the stored fields (:meth:`ResultKey.from_record`), never from the file name. See ``docs/results-format.md``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import gzip
import hashlib
import json
import logging
import math
import os
import re
import subprocess
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from idiomkit.data.csvio import read_json
from idiomkit.data.errors import DataError
from idiomkit.errors import FileSystemError, OutputClash, check_choice

log = logging.getLogger(__name__)

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

    @classmethod
    def timed(
        cls,
        task: str,
        model: str,
        recipe: str,
        seed: int,
        *,
        metrics: dict[str, Any],
        params: dict[str, Any],
        files: Iterable[str | Path],
        start: float,
    ) -> ResultRecord:
        """The record of a run that read the data ``files`` (their sha256 is stored) and began at ``start`` (a
        ``time.perf_counter()`` reading; the wall time runs to now)."""
        return cls(
            task=task,
            model=model,
            recipe=recipe,
            seed=seed,
            metrics=metrics,
            params=params,
            data_sha256=sha256_files(files),
            wall_s=time.perf_counter() - start,
        )


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_umask()  # what open() would give a new file (mkstemp's own is 0600)


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (a unique temp file + rename): a kill or a full disk mid-write leaves the
    previous file intact, and concurrent writers never interleave bytes. The file gets the mode a plain write would
    (the umask's). An OSError names ``path``."""
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.chmod(tmp, FILE_MODE)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename is None:
            exc.filename = str(path)
        raise
    return path


_TEMP_TAIL = re.compile(r"\.[a-z0-9_]{8}\.tmp")  # what tempfile.mkstemp puts after the prefix of atomic_write_bytes


def remove_stale_temps(path: str | Path) -> int:
    """Remove the temp files that writes of ``path`` killed mid-way left beside it (``.<name>.<random>.tmp``, see
    :func:`atomic_write_bytes`); returns (and logs) how many. Only for a caller that holds the path's
    :func:`output_lock`: then no other writer of it is in flight, and any such file is a dead one's."""
    path = Path(path)
    prefix, stale = f".{path.name}", 0
    for tmp in path.parent.iterdir() if path.parent.is_dir() else ():
        if tmp.name.startswith(prefix) and _TEMP_TAIL.fullmatch(tmp.name[len(prefix) :]):
            tmp.unlink(missing_ok=True)
            stale += 1
    if stale:
        log.info("%s: removed %d temp file(s) left by an interrupted write", path, stale)
    return stale


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
    """The text of a file written by :func:`write_prediction` (gzip-decompressed when the name ends in ``.gz``); a
    damaged or truncated gzip file is a one-line DataError naming it."""
    data = Path(path).read_bytes()
    try:
        return (gzip.decompress(data) if str(path).endswith(".gz") else data).decode("utf-8")
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise DataError(path, None, None, f"not a readable gzip file ({exc or type(exc).__name__})") from None


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


Track = Literal["plain", "marked"]
TRACKS: tuple[Track, ...] = ("plain", "marked")
# Words in an input-naming option that mean the system is shown where the idiom is (a gold span): a span query or
# feature, the compound marked with separator tokens, an instruction that quotes the span.
GOLD_SPAN_WORDS = frozenset({"span", "marked", "instruction"})
# Options (in ``params``, or in ``params.training.config`` for a trained classifier) that name what the system reads.
INPUT_OPTIONS = ("query_mode", "features", "pool", "classifier")


def option_words(value: Any) -> set[str]:
    """The lower-case words of an option value (``"sentence+span"`` -> {sentence, span})."""
    return set(re.findall(r"[a-z]+", value.lower())) if isinstance(value, str) else set()


def gold_inputs(params: Mapping[str, Any]) -> list[str]:
    """The gold annotations (which a user of the system does not have) that a result's system is given, named by
    the options in its ``params``: MWE tokens (``mwe_tokens``), gold spans (an input option of
    :data:`INPUT_OPTIONS` with a word of :data:`GOLD_SPAN_WORDS`), gold sentence types (``oracle``)."""
    found = ["mwe_tokens"] if params.get("mwe_tokens") else []
    training = params.get("training")
    config = training.get("config") if isinstance(training, Mapping) else None
    for where, options in (("", params), ("training.config.", config if isinstance(config, Mapping) else {})):
        found += [f"{where}{name}" for name in INPUT_OPTIONS if option_words(options.get(name)) & GOLD_SPAN_WORDS]
    if params.get("oracle"):
        found.append("oracle")
    return found


def result_track(params: Mapping[str, Any]) -> Track:
    """The track ``params`` names (``params.track``, as every scorecard does); else ``marked`` when the system is
    given any gold annotation (:func:`gold_inputs`), else ``plain`` (it sees only the ordinary text a user has).
    The one place a track is decided."""
    if params.get("track") in TRACKS:  # a scorecard names its track itself
        return params["track"]
    return "marked" if gold_inputs(params) else "plain"


@dataclass(frozen=True)
class ResultKey:
    """What names one result: task, model, recipe, variant (the configuration beyond model and recipe, in its
    file-name form), track (:func:`result_track`; stored, not in the file name) and seed."""

    task: str
    model: str
    recipe: str
    variant: str = ""
    track: Track = "plain"
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", slug(self.variant) if self.variant else "")
        check_choice("track", self.track, TRACKS)

    @classmethod
    def of(cls, record: ResultRecord, variant: str | None = None) -> ResultKey:
        """The key of ``record`` with ``variant``; its track from the record's params."""
        return cls(record.task, record.model, record.recipe, variant or "", result_track(record.params), record.seed)

    @classmethod
    def from_record(cls, record: Mapping[str, Any], source: str | Path | None = None) -> ResultKey:
        """The key stored in a result JSON (its ``"key"`` object); a record without one (hand-written) gets its key
        from its top-level fields, ``params.variant`` and the track rule. Never read from a file name; a malformed
        key is a one-line :class:`~idiomkit.data.errors.DataError` naming ``source``."""
        stored = record.get("key")
        if stored is None:
            params = record.get("params") if isinstance(record.get("params"), Mapping) else {}
            stored = {
                "task": record.get("task", ""),
                "model": record.get("model", ""),
                "recipe": record.get("recipe", ""),
                "variant": params.get("variant") or "",
                "track": result_track(params),
                "seed": record.get("seed", 0),
            }
        return cls.from_json(stored, source)

    @classmethod
    def from_json(cls, data: Any, source: str | Path | None = None) -> ResultKey:
        """A key from its JSON object (each field present and of its type)."""
        where = source or "result"
        if not isinstance(data, Mapping):
            raise DataError(where, None, "key", f"must be an object, got {type(data).__name__}")
        for name in ("task", "model", "recipe", "variant", "track", "seed"):
            kind = int if name == "seed" else str
            if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
                raise DataError(where, None, f"key.{name}", f"must be {kind.__name__}, got {data.get(name)!r}")
        if data["track"] not in TRACKS:
            raise DataError(where, None, "key.track", f"unknown track '{data['track']}' (expected plain or marked)")
        return cls(data["task"], data["model"], data["recipe"], data["variant"], data["track"], data["seed"])

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def config(self) -> tuple[str, str, str, str, str]:
        """The key without its seed: the runs of one configuration share it."""
        return self.task, self.model, self.recipe, self.variant, self.track

    @property
    def config_name(self) -> str:
        """``<model>__<recipe>[__<variant>]``: the file name without seed and suffix (orders a configuration)."""
        return "__".join([slug(self.model), slug(self.recipe)] + ([self.variant] if self.variant else []))

    def path(self, results_dir: str | Path) -> Path:
        """``<results_dir>/<task>/<model>__<recipe>[__<variant>]__seed<N>.json``: the one place a result path is
        made."""
        return Path(results_dir) / self.task / f"{self.config_name}__seed{self.seed}.json"


def result_path(
    results_dir: str | Path, task: str, model: str, recipe: str, seed: int, variant: str | None = None
) -> Path:
    """The path of a result (:meth:`ResultKey.path`; the track does not change it)."""
    return ResultKey(task, model, recipe, variant or "", seed=seed).path(results_dir)


def nearest_existing(path: Path) -> Path:
    """``path`` or its closest ancestor that exists."""
    path = Path(os.path.abspath(path))
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def reader_recipe(recipe: str, mode: str) -> str:
    """The recipe label of a model scored with the idiom reader in ``mode`` in front: ``<recipe>+reader-<mode>``."""
    return f"{recipe}+reader-{mode}"


def check_writable_dir(path: str | Path, what: str = "output directory") -> Path:
    """Refuse, before any compute, a ``path`` that cannot become a writable directory: a file, a path under a file,
    or a read-only place (probed by creating and removing a temp file in the closest existing directory)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise FileSystemError(f"{path}: {what} is a file, not a directory")
    base = nearest_existing(path)
    if not base.is_dir():
        raise FileSystemError(f"{path}: {what} cannot be created: {base} is a file, not a directory")
    try:
        fd, probe = tempfile.mkstemp(dir=base, prefix=".idiomkit-write-check.")
    except OSError as exc:
        problem = "read-only file system" if exc.errno == errno.EROFS else exc.strerror or str(exc)
        raise FileSystemError(f"{path}: {what} is not writable ({base}: {problem})") from exc
    os.close(fd)
    os.unlink(probe)
    return path


def lock_path(path: str | Path) -> Path:
    """The lock file that guards writes of ``path`` (hidden, beside it; removed after each write)."""
    path = Path(path)
    return path.with_name(f".{path.name}.lock")


@contextlib.contextmanager
def output_lock(path: str | Path) -> Iterator[Path]:
    """Hold an exclusive lock on ``path``'s lock file while writing it; a second writer (another process, or another
    handle in this one) gets a one-line :class:`~idiomkit.errors.OutputClash` instead of waiting or interleaving."""
    lock = lock_path(path)
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a+b") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            same = lock.exists() and os.fstat(fh.fileno()).st_ino == lock.stat().st_ino
        except BlockingIOError:
            same = False
        if not same:  # held, or removed by a writer that just finished (its lock file is gone)
            raise OutputClash(
                f"{path}: another process is writing this result right now (lock {lock}); wait for "
                "it to finish or write to another results directory"
            )
        try:
            yield lock
        finally:
            lock.unlink(missing_ok=True)


def write_result(
    record: ResultRecord,
    results_dir: str | Path = DEFAULT_RESULTS_DIR,
    variant: str | None = None,
    predictions: Mapping[str, str] | None = None,
    *,
    key: ResultKey | None = None,
) -> Path:
    """Fill commit/created if empty and write the envelope, its ``key`` first, atomically to ``key.path``; returns
    the path. Without ``key`` it is ``ResultKey.of(record, variant)``; a key that names another task, model,
    recipe or seed than the record is a ValueError.

    ``predictions`` (file suffix -> text, e.g. ``{"submission.csv": ...}``) are written first, beside the result,
    and the envelope last; an older result JSON at the same path is removed before them, so a kill or a full disk
    in between leaves no result JSON rather than one whose predictions are not on disk. All of it happens under
    :func:`output_lock`: a concurrent writer of the same result is refused. The hidden temp files a killed earlier
    write of these files left are removed first (:func:`remove_stale_temps`)."""
    record.commit = record.commit or git_commit()
    record.created = record.created or dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
    record.wall_s = round(float(record.wall_s), 3)
    key = key or ResultKey.of(record, variant)
    if (key.task, key.model, key.recipe, key.seed) != (record.task, record.model, record.recipe, record.seed):
        raise ValueError(
            f"result key {key} does not name this record ({record.task}, {record.model}, "
            f"{record.recipe}, seed {record.seed})"
        )
    path = key.path(results_dir)
    text = json.dumps({"key": key.to_json(), **record.to_json()}, indent=2, ensure_ascii=False) + "\n"
    with output_lock(path):
        for target in [path, *(path.with_suffix("." + suffix) for suffix in predictions or {})]:
            remove_stale_temps(target)
        if predictions:
            path.unlink(missing_ok=True)
        for suffix, prediction in (predictions or {}).items():
            write_prediction(path.with_suffix("." + suffix), prediction)
        atomic_write_text(path, text)
    return path


def read_json_object(path: str | Path, what: str = "result file") -> dict[str, Any]:
    """A JSON object file (a BOM is accepted); broken JSON or anything but an object is a one-line DataError
    naming the file."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, dict):
        raise DataError(path, None, None, f"a {what} must be a JSON object, got {type(data).__name__}")
    return data


def non_finite(value: Any, where: str) -> str | None:
    """The dotted place (from ``where``) of the first NaN or infinite number in ``value`` (nested objects and
    lists), or None when every number is finite."""
    if isinstance(value, float) and not math.isfinite(value):
        return where
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return next((found for key, item in items if (found := non_finite(item, f"{where}.{key}"))), None)


def check_result_record(path: Path, rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` when it is a result record a report can publish: a ``task`` name and a ``metrics`` object whose every
    number is finite; else a one-line DataError naming the file and the field (a NaN is never published)."""
    if not isinstance(rec.get("task"), str) or not rec["task"]:
        raise DataError(path, None, "task", "missing or not a name: not a result file")
    if not isinstance(rec.get("metrics"), dict):
        raise DataError(path, None, "metrics", "missing or not an object: not a result file")
    if found := non_finite(rec["metrics"], "metrics"):
        raise DataError(path, None, found, "not a finite number (NaN or infinity): refused rather than published")
    return rec


def read_result(path: str | Path, what: str = "result file") -> dict[str, Any]:
    """A result file (:func:`read_json_object`) checked by :func:`check_result_record`."""
    return check_result_record(Path(path), read_json_object(path, what))


def load_results(results_dir: str | Path = DEFAULT_RESULTS_DIR) -> list[tuple[Path, dict[str, Any]]]:
    """Every result JSON under ``results_dir`` (``<results_dir>/<folder>/*.json``) with its path, sorted by path.

    Each is read as a result file: a results dir that is a file, broken JSON, a non-object, a file without a
    ``task`` or ``metrics`` (e.g. another JSON file in a stray folder) or with a NaN or infinite metric is a one-line
    error naming the file and field (nothing skipped silently). A folder whose name ends in ``.json`` is no file:
    skipped, with a count in the log."""
    results_dir = Path(results_dir)
    if results_dir.exists() and not results_dir.is_dir():
        raise FileSystemError(f"{results_dir}: results directory is a file, not a directory")
    found = sorted(results_dir.glob("*/*.json"))
    files = [path for path in found if not path.is_dir()]
    if len(files) < len(found):
        log.warning("%s: skipped %d folder(s) named *.json (not result files)", results_dir, len(found) - len(files))
    return [(path, read_result(path)) for path in files]
