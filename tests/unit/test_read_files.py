"""Reading many texts: ``idiomkit.read`` on a list (one batched pass of the sense check) and ``idiomkit read
--input FILE --output FILE.jsonl`` (batches, blank lines counted, one JSON line per text, one-line errors)."""

from __future__ import annotations

import json
import logging

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
    both = runner.invoke(app, ["read", "-i", str(source), "another text"])
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
