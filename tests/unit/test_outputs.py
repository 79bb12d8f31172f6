"""Outputs you can trust: predictions before the result JSON (each atomic), a lock against concurrent writers of one
result, ``embed -o`` atomic and exact about its path, and the one error boundary of the CLI and the API."""

from __future__ import annotations

import csv
import errno
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import runner
from helpers.bad_inputs import assert_one_line_error, idiolink

from idiomkit import results
from idiomkit.cli import app
from idiomkit.errors import (
    FileSystemError,
    IdiomkitError,
    InputError,
    OptionError,
    OutputClash,
    UnknownName,
    user_error_message,
)
from idiomkit.results import ResultRecord, lock_path, output_lock, result_path, write_result

PREDICTIONS = {"submission.csv": "ID,Sim\n1,0.5\n", "run.trec.gz": "q1 Q0 d1 1 0.9 x\n"}


def record(**metrics: float) -> ResultRecord:
    return ResultRecord(task="t", model="m", recipe="r", seed=0, metrics=metrics or {"score": 1.0}, commit="c")


def written(tmp_path: Path) -> Path:
    return result_path(tmp_path, "t", "m", "r", 0)


class Killed(BaseException):
    """A kill between two writes (BaseException: nothing may swallow it)."""


def fail_on(monkeypatch, suffix: str, exc: BaseException) -> list[str]:
    """Make the atomic write of the file ending in ``suffix`` raise ``exc``; returns the names written, in order."""
    order: list[str] = []
    original = results.atomic_write_bytes

    def writer(path, data):
        if str(path).endswith(suffix):
            raise exc
        order.append(Path(path).name)
        return original(path, data)

    monkeypatch.setattr(results, "atomic_write_bytes", writer)
    return order


def test_predictions_are_written_before_the_result_json(tmp_path, monkeypatch):
    order = fail_on(monkeypatch, ".never", RuntimeError())
    path = write_result(record(), tmp_path, predictions=PREDICTIONS)
    assert order == ["m__r__seed0.submission.csv", "m__r__seed0.run.trec.gz", "m__r__seed0.json"]
    assert json.loads(path.read_text())["metrics"] == {"score": 1.0}
    assert not lock_path(path).exists() and not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("exc", [Killed(), OSError(errno.ENOSPC, "No space left on device")], ids=["kill", "enospc"])
def test_a_failure_between_predictions_and_result_leaves_no_result_json(tmp_path, monkeypatch, exc):
    write_result(record(score=0.1), tmp_path, predictions=PREDICTIONS)  # an older result at the same path
    fail_on(monkeypatch, ".json", exc)
    with pytest.raises(type(exc)):
        write_result(record(score=0.9), tmp_path, predictions={"submission.csv": "ID,Sim\n1,0.9\n"})
    path = written(tmp_path)
    assert not path.exists()  # the old headline number is gone with its overwritten predictions
    assert path.with_suffix(".submission.csv").read_text() == "ID,Sim\n1,0.9\n"
    assert not lock_path(path).exists()


def test_a_failed_prediction_write_leaves_no_result_json(tmp_path, monkeypatch):
    write_result(record(score=0.1), tmp_path, predictions=PREDICTIONS)
    fail_on(monkeypatch, ".run.trec.gz", OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(OSError):
        write_result(record(score=0.9), tmp_path, predictions=PREDICTIONS)
    assert not written(tmp_path).exists()


def test_a_result_without_predictions_replaces_the_old_one_atomically(tmp_path, monkeypatch):
    path = write_result(record(score=0.1), tmp_path)
    fail_on(monkeypatch, ".json", Killed())
    with pytest.raises(Killed):
        write_result(record(score=0.9), tmp_path)
    assert json.loads(path.read_text())["metrics"] == {"score": 0.1}  # nothing to pair with: the old file stays


def test_a_second_writer_of_one_result_is_refused_with_one_line(tmp_path):
    path = written(tmp_path)
    with output_lock(path), pytest.raises(OutputClash, match="another process is writing this result") as info:
        write_result(record(), tmp_path, predictions=PREDICTIONS)
    assert "\n" not in str(info.value) and str(path) in str(info.value)
    assert not path.exists() and not path.with_suffix(".submission.csv").exists()  # the refused writer wrote nothing
    assert write_result(record(), tmp_path) == path  # the lock is released (and its file removed) afterwards
    assert not lock_path(path).exists()


def test_a_writer_in_another_process_is_refused(tmp_path):
    path = written(tmp_path)
    code = (
        "import sys; from idiomkit.results import ResultRecord, write_result; from idiomkit.errors import OutputClash\n"
        "try: write_result(ResultRecord('t', 'm', 'r', 0, {'score': 2.0}, commit='c'), sys.argv[1])\n"
        "except OutputClash as exc: print(exc); sys.exit(3)\n"
    )
    with output_lock(path):
        child = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True)
    assert child.returncode == 3 and "another process is writing this result" in child.stdout, child.stderr
    assert not path.exists()


def test_a_stale_lock_file_of_a_killed_writer_does_not_block(tmp_path):
    path = written(tmp_path)
    lock_path(path).parent.mkdir(parents=True)
    lock_path(path).write_text("")  # left behind by a kill: its flock died with the process
    assert write_result(record(), tmp_path) == path and not lock_path(path).exists()


def test_cli_evaluate_clash_is_one_line(tmp_path):
    root = idiolink(tmp_path)
    path = result_path(root / "res", "idiolink-test", "bm25", "zero-shot", 0, "sentence")
    args = ["evaluate", "idiolink", "-m", "bm25", "--data-dir", str(root), "--results-dir", str(root / "res")]
    with output_lock(path):
        assert_one_line_error(runner.invoke(app, args), "bm25__zero-shot__sentence__seed0.json: another process")
    assert not path.exists()
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and path.is_file() and path.with_suffix(".run.trec.gz").is_file()


def test_api_evaluate_kill_after_predictions_leaves_no_result(tmp_path, monkeypatch):
    from idiomkit.api import evaluate

    root = idiolink(tmp_path)
    fail_on(monkeypatch, ".json", Killed())
    with pytest.raises(Killed):
        evaluate("idiolink", "bm25", data_dir=root, results_dir=tmp_path / "res", query_mode="span")
    assert list((tmp_path / "res").rglob("*.json")) == []
    assert len(list((tmp_path / "res").rglob("*.run.trec.gz"))) == 1


def test_api_errors_are_typed_and_one_line(tmp_path, tiny_data, monkeypatch):
    from idiomkit.api import embed, evaluate

    (tmp_path / "file").write_text("x")
    with pytest.raises(FileSystemError, match="results directory is a file") as info:
        evaluate("semeval2b", "minilm", data_dir=tiny_data, results_dir=tmp_path / "file")
    assert isinstance(info.value, OSError) and isinstance(info.value, IdiomkitError)
    with pytest.raises(OptionError, match="batch size must be at least 1, got 0"):
        embed(["he died"], batch_size=0)
    with pytest.raises(OptionError, match="takes no option query_mode"):
        evaluate("semeval2b", "minilm", data_dir=tiny_data, query_mode="span", write=False)
    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: (tmp_path / "file" / "x").read_text())
    with pytest.raises(FileSystemError, match=r"file/x: a part of the path is a file") as info:
        embed(["he died"])
    assert isinstance(info.value.__cause__, NotADirectoryError)


def test_atomic_write_names_the_file_when_the_os_does_not(tmp_path, monkeypatch):
    monkeypatch.setattr(results.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
    with pytest.raises(OSError) as info:
        results.atomic_write_text(tmp_path / "a.json", "{}")
    assert user_error_message(info.value) == f"{tmp_path / 'a.json'}: no space left on device"
    assert list(tmp_path.iterdir()) == []


def safetensors_error() -> Exception:
    from safetensors import SafetensorError

    return SafetensorError("Error while deserializing header: header too large")


@pytest.mark.parametrize(
    "exc, expected",
    [
        (OSError(errno.ENOSPC, "No space left on device", "/r/a.json"), "/r/a.json: no space left on device"),
        (PermissionError(errno.EACCES, "Permission denied", "/ro"), "/ro: permission denied (not writable"),
        (OSError(errno.EROFS, "Read-only file system", "/ro/x"), "/ro/x: read-only file system"),
        (IsADirectoryError(errno.EISDIR, "Is a directory", "/d"), "/d: is a directory, not a file"),
        (NotADirectoryError(errno.ENOTDIR, "Not a directory", "/f/x"), "/f/x: a part of the path is a file"),
        (FileExistsError(errno.EEXIST, "File exists", "/a", None, "/b"), "/a -> /b: already exists"),
        (FileNotFoundError(errno.ENOENT, "No such file", "/m.txt"), "/m.txt: file not found"),
        (csv.Error("field larger than field limit (131072)"), "unreadable CSV (field larger than field limit"),
        (json.JSONDecodeError("Expecting value", "{\n  ", 4), "invalid or truncated JSON (line 2 column 3: Expecting"),
        (UnicodeDecodeError("utf-8", b"ab\xff", 2, 3, "invalid start byte"), "not valid utf-8 text (byte 0xff at"),
        (UnknownName("unknown task 'x'"), "unknown task 'x'"),
        (OptionError("two\n  lines"), "two lines"),
        (InputError("bad"), "bad"),
        (OutputClash("r.json: another process"), "r.json: another process"),
    ],
    ids=[
        "enospc",
        "eacces",
        "erofs",
        "eisdir",
        "enotdir",
        "eexist",
        "enoent",
        "csv",
        "json",
        "utf8",
        "keyerror",
        "optionerror",
        "inputerror",
        "clash",
    ],
)
def test_user_error_message_is_one_line_naming_the_file(exc, expected):
    message = user_error_message(exc)
    assert message is not None and "\n" not in message and message.startswith(expected), message


def test_safetensors_and_bugs(tmp_path):
    assert user_error_message(safetensors_error()).startswith("corrupt or truncated safetensors weights (")
    for bug in (TypeError("x"), AttributeError("y"), ZeroDivisionError(), RuntimeError("z")):
        assert user_error_message(bug) is None  # a bug keeps its traceback


def test_a_killed_write_leaves_temp_files_the_next_write_of_that_result_removes(tmp_path, caplog):
    """Issue #42.6: a killed evaluation left a hidden ``.<result>.submission.csv.<random>.tmp`` forever."""
    import logging

    code = (
        "import os, signal, sys; from idiomkit.results import ResultRecord, write_result\n"
        "os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)  # killed in the middle of a write\n"
        "write_result(ResultRecord('t', 'm', 'r', 0, {'score': 2.0}, commit='c'), sys.argv[1],"
        " predictions={'submission.csv': 'ID,Sim\\n'})\n"
    )
    child = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True)
    assert child.returncode == -9, child.stderr
    path = written(tmp_path)
    (stale,) = [p for p in path.parent.iterdir() if p.suffix == ".tmp"]
    assert stale.name.startswith(".m__r__seed0.submission.csv."), stale
    (path.parent / ".m__r__seed0.json.k1ll3d_0.tmp").write_text("{")  # the envelope's, killed on another day
    others = [
        path.parent / ".m__r__seed0.submission.csv.notes.tmp",  # not the temp name of an atomic write
        path.parent / ".m2__r__seed0.submission.csv.abcd1234.tmp",
    ]  # another result's
    for other in others:
        other.write_text("x")
    with caplog.at_level(logging.INFO, logger="idiomkit.results"):
        write_result(record(), tmp_path, predictions={"submission.csv": "ID,Sim\n1,0.5\n"})
    assert sorted(p.name for p in path.parent.iterdir() if p.suffix == ".tmp") == sorted(o.name for o in others)
    for target in (path, path.with_suffix(".submission.csv")):
        assert f"{target}: removed 1 temp file(s) left by an interrupted write" in caplog.text
    assert path.with_suffix(".submission.csv").read_text() == "ID,Sim\n1,0.5\n" and path.is_file()
