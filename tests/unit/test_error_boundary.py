"""The CLI's error boundary is narrow: input, environment and disk failures are one line and exit code 2; a bug
(a plain ValueError, a bare KeyError, TypeError...) inside a command keeps its traceback."""

from __future__ import annotations

import sys

import pytest
from helpers import runner

import idiomkit.settings
from idiomkit.cli import app, main
from idiomkit.data.errors import DataError
from idiomkit.errors import InputError, OptionError, UnknownName, api_errors, user_error_message


def broken_settings(error: Exception):
    def settings(*args, **kwargs):
        raise error

    return settings


@pytest.mark.parametrize(
    "error",
    [
        KeyError("data_dir"),
        TypeError("settings() got an unexpected keyword"),
        ValueError("too many values to unpack (expected 2)"),
    ],
)
def test_a_bug_inside_a_command_keeps_its_traceback(monkeypatch, error):
    monkeypatch.setattr(idiomkit.settings, "settings", broken_settings(error))
    result = runner.invoke(app, ["settings"])
    assert result.exit_code != 2 and result.exception is error
    assert "error:" not in result.output


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (OptionError("batch-size must be at least 1, got 0"), "error: batch-size must be at least 1, got 0"),
        (
            DataError("dev.csv", 4, "Label", "'x' is not 0 or 1"),
            "error: dev.csv: row 4: field 'Label': 'x' is not 0 or 1",
        ),
    ],
)
def test_a_typed_input_error_inside_a_command_is_one_line_and_exit_2(monkeypatch, error, line):
    """The same place in the same command: a typed error (a ValueError too) is one line, a plain one is not."""
    monkeypatch.setattr(idiomkit.settings, "settings", broken_settings(error))
    result = runner.invoke(app, ["settings"])
    assert result.exit_code == 2 and result.exception.__class__ is SystemExit
    assert result.output.strip() == line


def test_the_console_entry_point_lets_a_bug_through(monkeypatch):
    """``idiomkit`` itself (cli.main): the KeyError leaves main(), so Python prints its traceback."""
    monkeypatch.setattr(idiomkit.settings, "settings", broken_settings(KeyError("data_dir")))
    monkeypatch.setattr(sys, "argv", ["idiomkit", "settings"])
    with pytest.raises(KeyError, match="data_dir"):
        main()


def test_a_missing_file_inside_a_command_is_one_line(monkeypatch, tmp_path):
    missing = tmp_path / "gone.tsv"
    monkeypatch.setattr(idiomkit.settings, "settings", broken_settings(FileNotFoundError(2, "No such file", missing)))
    result = runner.invoke(app, ["settings"])
    assert result.exit_code == 2 and result.exception.__class__ is SystemExit
    assert result.output.strip() == f"error: {missing}: file not found"


def test_a_bad_data_file_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "bad.toml").write_text('benchmark = "semeval2b-dev"\n[train]\nrecipe = "mnrl"\nmodel = 3\n')
    result = runner.invoke(app, ["reproduce", "--dry-run", "--experiments", str(tmp_path), "--data-dir", "."])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "bad.toml: field 'train.model': expected string, got 3" in lines[0]
    assert "Traceback" not in result.output


def test_only_typed_errors_and_os_errors_have_a_user_message():
    assert user_error_message(KeyError("data_dir")) is None
    assert user_error_message(ValueError("math domain error")) is None
    assert user_error_message(OptionError("unknown pooling 'max'")) == "unknown pooling 'max'"
    assert user_error_message(TypeError("bad call")) is None
    assert user_error_message(AttributeError("x")) is None
    unknown = UnknownName("unknown task 'nope' (expected one of semeval2b)")
    assert isinstance(unknown, KeyError)  # a lookup of an unknown name is still a KeyError to API callers
    assert user_error_message(unknown) == "unknown task 'nope' (expected one of semeval2b)"
    assert user_error_message(PermissionError(13, "Permission denied", "out.json")) == (
        "out.json: permission denied (not writable or not readable)"
    )


def test_the_api_boundary_lets_a_bug_through_and_types_bad_input():
    @api_errors
    def entry(error: Exception) -> None:
        raise error

    bug = KeyError("data_dir")
    with pytest.raises(KeyError) as info:
        entry(bug)
    assert info.value is bug  # not turned into an InputError
    plain = ValueError("math domain error")
    with pytest.raises(ValueError) as info:
        entry(plain)
    assert info.value is plain  # a plain ValueError is a bug too: not turned into an InputError
    with pytest.raises(InputError, match=r"^not valid utf-8 text \(byte 0xff at offset 0\)$"):
        entry(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"))
    unknown = UnknownName("unknown task 'nope'")
    with pytest.raises(UnknownName) as typed:
        entry(unknown)
    assert typed.value is unknown
