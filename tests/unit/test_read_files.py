"""Reading many texts: ``idiomkit.read`` on a list (one batched pass of the sense check) and ``idiomkit read
--input FILE --output FILE.jsonl`` (batches, blank lines counted, one JSON line per text, one-line errors)."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest
from helpers import runner
from helpers.bad_inputs import assert_one_line_error

import idiomkit.cli.texts as texts_cli
from idiomkit.cli import app
from idiomkit.idioms import Lexicon
from idiomkit.reader_api import read

LEX = Lexicon.from_pairs([("kick the bucket", "to die"), ("spill the beans", "to reveal a secret")])
TEXTS = [
    "She finally kicked the bucket.",
    "Nothing here.",
    "He spilled the beans at lunch.",
    "The boy kicked the bucket over.",
    "They spilled the beans again.",
]


class Batched:
    """A sense check that scores in batches: every ``prefetch`` call is recorded; literal where the text says
    "over"."""

    threshold = 0.5

    def __init__(self) -> None:
        self.batches: list[list[tuple[str, int, int]]] = []

    def prefetch(self, items) -> None:
        self.batches.append(list(items))

    def figurative_probability(self, sentence, match) -> float:
        return 0.1 if "over" in sentence else 0.9


def test_read_on_a_list_reads_each_text_as_read_on_one_and_scores_every_match_in_one_pass():
    sense = Batched()
    readings = read(TEXTS, lexicon=LEX, sense=sense)
    assert [r.rewritten for r in readings] == [read(t, lexicon=LEX, sense=Batched()).rewritten for t in TEXTS]
    assert [r.rewritten for r in readings] == [
        "She finally died.",
        "Nothing here.",
        "He revealed a secret at lunch.",
        "The boy kicked the bucket over.",
        "They revealed a secret again.",
    ]
    (batch,) = sense.batches  # one pass over the four matches of the five texts
    assert [(TEXTS.index(t), t[a:b]) for t, a, b in batch] == [
        (0, "kicked the bucket"),
        (2, "spilled the beans"),
        (3, "kicked the bucket"),
        (4, "spilled the beans"),
    ]


@pytest.fixture
def lexicon_file(tmp_path):
    path = tmp_path / "lex.tsv"
    LEX.to_tsv(path)
    return path


def test_read_a_file_in_batches_into_json_lines(tmp_path, lexicon_file, monkeypatch, caplog):
    source = tmp_path / "texts.txt"
    source.write_text("\n".join(TEXTS[:2] + ["", "   "] + TEXTS[2:]) + "\n", encoding="utf-8")
    out = tmp_path / "readings.jsonl"
    monkeypatch.setattr(texts_cli, "READ_BATCH", 2)  # three batches: order kept across them
    with caplog.at_level(logging.WARNING, logger="idiomkit.io"):
        args = ["read", "-i", str(source), "-o", str(out), "--lexicon", str(lexicon_file), "--sense", "none"]
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["text"] for r in records] == TEXTS
    assert records[3]["rewritten"] == "The boy died over."  # no sense check: every match figurative
    assert [len(r["found"]) for r in records] == [1, 0, 1, 1, 1]
    assert records[2]["found"][0]["idiom"] == "spill the beans" and records[2]["found"][0]["replacement"]
    assert f"5 texts read: 4 with an idiom, 4 rewritten (replace) -> {out}" in " ".join(result.output.split())
    assert "2 blank line(s) skipped, 5 text(s) read" in caplog.text


def test_read_a_jsonl_file_prints_what_the_texts_would(tmp_path, lexicon_file):
    source = tmp_path / "texts.jsonl"
    source.write_text("".join(json.dumps({"text": t}) + "\n" for t in TEXTS[:2]), encoding="utf-8")
    common = ["--lexicon", str(lexicon_file), "--sense", "none", "--json"]
    from_file = runner.invoke(app, ["read", "-i", str(source), *common])
    from_args = runner.invoke(app, ["read", *TEXTS[:2], *common])
    assert from_file.exit_code == 0, from_file.output
    assert json.loads(from_file.output) == json.loads(from_args.output)
    assert json.loads(from_file.output)[0]["rewritten"] == "She finally died."


def test_read_files_errors_are_one_line(tmp_path):
    source = tmp_path / "texts.txt"
    source.write_text("She kicked the bucket.\n", encoding="utf-8")
    for verb in ("read", "embed"):  # the texts would be dropped unsaid
        both = runner.invoke(app, [verb, "-i", str(source), "another text"])
        assert_one_line_error(both, "give texts or --input, not both")
    assert_one_line_error(runner.invoke(app, ["read"]), "nothing to read")
    folder = runner.invoke(app, ["read", "x", "-o", str(tmp_path)])
    assert_one_line_error(folder, f"{tmp_path}: is a directory", "readings.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "fine"}\n{"txt": "oops"}\n', encoding="utf-8")
    assert_one_line_error(runner.invoke(app, ["read", "-i", str(bad)]), "bad.jsonl", "row 2", "text")
    assert not (tmp_path / "readings.jsonl").exists()
    for verb in ("read", "embed"):  # the output file may not be the input: it would be destroyed
        same = runner.invoke(app, [verb, "-i", str(source), "-o", str(tmp_path / "." / "texts.txt")])
        assert_one_line_error(same, "is the --input file")
        assert source.read_text(encoding="utf-8") == "She kicked the bucket.\n"


def test_output_writes_only_over_a_file_of_its_own(tmp_path, lexicon_file):
    """``read -o`` and ``embed -o`` write over a readings / embeddings file (a re-run) or an empty one, never over
    another file, a link, a pipe; a new file gets the umask's mode, not the temp file's 0600."""
    import os
    import stat

    from idiomkit.io import EMBEDDINGS, check_output_file
    from idiomkit.results import FILE_MODE

    out = tmp_path / "readings.jsonl"
    args = ["read", "She kicked the bucket.", "--lexicon", str(lexicon_file), "--sense", "none", "-o", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == FILE_MODE
    again = runner.invoke(app, [*args[:-1], str(out)])  # its own file: written again
    assert again.exit_code == 0, again.output
    precious = tmp_path / "notes.txt"
    precious.write_text("precious\n", encoding="utf-8")
    refused = runner.invoke(app, [*args[:-1], str(precious)])
    assert_one_line_error(refused, "notes.txt: exists and is not a readings file")
    assert precious.read_text(encoding="utf-8") == "precious\n"
    empty = tmp_path / "empty.jsonl"
    empty.touch()
    assert runner.invoke(app, [*args[:-1], str(empty)]).exit_code == 0 and empty.stat().st_size
    link = tmp_path / "link.jsonl"
    link.symlink_to(out)
    assert_one_line_error(runner.invoke(app, [*args[:-1], str(link)]), "link.jsonl: not a regular file")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert_one_line_error(runner.invoke(app, [*args[:-1], str(fifo)]), "pipe: not a regular file")
    embedded = runner.invoke(app, ["embed", "some text", "-o", str(precious)])  # refused before any model loads
    assert_one_line_error(embedded, "notes.txt: exists and is not an embeddings file")
    npy = tmp_path / "emb.npy"
    np.save(npy, np.zeros((1, 2)))
    assert check_output_file(npy, EMBEDDINGS) == npy  # an embeddings file: embed may write over it


def test_read_takes_a_language_in_either_case_and_names_the_sense_checks_it_knows(lexicon_file):
    common = ["read", "She kicked the bucket.", "--lexicon", str(lexicon_file)]
    lower = runner.invoke(app, [*common, "--sense", "none", "--language", "en", "--json"])
    assert lower.exit_code == 0 and json.loads(lower.output)[0]["rewritten"] == "She died."
    assert_one_line_error(
        runner.invoke(app, [*common, "--language", "fr"]), "unknown language 'FR' (expected one of EN, PT)"
    )
    typo = runner.invoke(app, [*common, "--sense", "featurs"])
    assert_one_line_error(typo, "unknown sense check 'featurs': expected one of default, encoder, features, none")


def test_an_error_under_a_missing_data_directory_says_how_to_give_one(tmp_path, monkeypatch):
    submission = tmp_path / "sub.csv"
    submission.write_text("ID,Language,Setting,Sim\n", encoding="utf-8")
    monkeypatch.setenv("IDIOMKIT_DATA_DIR", str(tmp_path / "nowhere"))
    result = runner.invoke(app, ["score", str(submission)])
    line = assert_one_line_error(result, str(tmp_path / "nowhere"))
    assert (
        line.endswith("does not exist: give --data-dir or set IDIOMKIT_DATA_DIR)") and "env IDIOMKIT_DATA_DIR" in line
    )
