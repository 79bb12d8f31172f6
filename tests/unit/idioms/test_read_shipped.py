"""`idiomkit read` with the shipped (full) lexicon: common idioms that benchmarks hold out are found, each match
names its lexicon source, and a Portuguese idiom with only an English meaning is labelled as an English gloss."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.idioms import Lexicon
from idiomkit.reader_api import read, reading_rows

TEXTS = ["She spilled the beans.", "He has been under the weather all week.", "We had to bite the bullet."]


def test_read_finds_common_idioms_with_the_shipped_lexicon():
    result = CliRunner().invoke(app, ["read", *TEXTS, "--sense", "none", "--json"])
    assert result.exit_code == 0, result.output
    found = [r["found"] for r in json.loads(result.output)]
    assert [f[0]["idiom"] for f in found] == ["spill the beans", "under the weather", "bite the bullet"]
    assert all(f[0]["sources"] for f in found)


def test_read_table_has_a_source_column():
    result = CliRunner().invoke(app, ["read", TEXTS[0], "--sense", "none"])
    assert result.exit_code == 0, result.output
    assert "source" in result.output and "spilled the beans" in result.output
    rows = reading_rows(read(TEXTS[0], sense="none"))
    assert rows[0][-1] == "source" and rows[1][-1].split()[0] in {"clue", "epie", "mt_ambiguity", "theidioms"}


def test_an_english_meaning_of_a_portuguese_idiom_is_labelled_a_gloss():
    lex = Lexicon()
    lex.add("pisar na bola", "PT", "to blunder", "freedict", meaning_language="EN")
    rows = reading_rows(read("Ele pisou na bola.", lexicon=lex, sense="none"))
    assert rows[1][5] == "to blunder (EN gloss)" and rows[1][6] == "freedict"
