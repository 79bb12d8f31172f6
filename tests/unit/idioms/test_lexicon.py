"""The idiom lexicon: merging on the normalised key, held-out removal, TSV round trip and strict TSV errors."""

from __future__ import annotations

import logging

import pytest

from idiomkit.data.errors import DataError
from idiomkit.data.heldout import HeldOut, normalise_idiom
from idiomkit.idioms import Entry, Lexicon

HEADER = "idiom\tlanguage\tmeaning\tsource\n"


def small() -> Lexicon:
    lex = Lexicon()
    lex.add("kick the bucket", "EN", "to die", "epie")
    lex.add("keep an eye on", "EN", "to watch", "epie")
    lex.add("keep [pron] eye on", "EN", "to look after", "user")
    lex.add("bater as botas", "pt", "morrer", "user")
    return lex


def test_add_merges_on_the_normalised_key():
    lex = small()
    assert len(lex) == 3
    entry = lex.get("keep your eye on")
    assert entry == Entry("keep an eye on", "EN", ("to watch", "to look after"), ("epie", "user"))
    assert "keep one's eye on" in lex and "Bater as  Botas" in lex and "spill the beans" not in lex
    assert lex.get("bater as botas", language="EN") is None
    assert lex.get("bater as botas").language == "PT"


def test_the_same_sense_twice_is_kept_once():
    lex = Lexicon()
    lex.add("kick the bucket", "EN", "to die", "epie")
    entry = lex.add("Kick  the bucket", "EN", "to  die", "epie")
    assert entry.meanings == ("to die",) and entry.sources == ("epie",)


def test_entries_and_sizes():
    lex = small()
    assert [e.idiom for e in lex.entries()] == ["kick the bucket", "keep an eye on", "bater as botas"]
    assert [e.idiom for e in lex.entries("PT")] == ["bater as botas"]
    assert lex.sizes() == {("EN", "epie"): 2, ("EN", "user"): 1, ("PT", "user"): 1}


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (("kick the bucket", "FR", "to die", "x"), "unknown language 'FR' (expected EN or PT)"),
        (("kick the bucket", "EN", " ", "x"), "empty meaning"),
        (("", "EN", "to die", "x"), "empty idiom"),
        (("kick the bucket", "EN", "to die", ""), "empty source"),
    ],
)
def test_add_refuses_bad_fields(args, problem):
    with pytest.raises(ValueError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        Lexicon().add(*args)


def test_from_pairs():
    lex = Lexicon.from_pairs([("pisar na bola", "errar"), ("pão-duro", "avarento")], language="PT")
    assert lex.sizes() == {("PT", "user"): 2}
    assert lex.get("pisar na bola").meanings == ("errar",)


def test_remove_heldout_drops_the_planted_idiom(caplog):
    lex = small()
    index = HeldOut(frozenset(), frozenset({normalise_idiom("kick the bucket")}))
    with caplog.at_level(logging.INFO, logger="idiomkit.idioms.lexicon"):
        assert lex.remove_heldout(index) == 1
    assert "kick the bucket" not in lex and len(lex) == 2
    assert "dropped 1 held-out idioms, 2 entries left" in caplog.text
    assert lex.remove_heldout(index) == 0


def test_tsv_round_trip(tmp_path):
    lex = small()
    lex.add("pão-duro", "PT", "avarento; sovina", "user")
    lex.add("pão-duro", "PT", "stingy", "user", meaning_language="EN")
    path = lex.to_tsv(tmp_path / "out" / "lexicon.tsv")
    assert path.read_text(encoding="utf-8").startswith(HEADER.rstrip("\n") + "\tmeaning_language\n")
    back = Lexicon.from_tsv(path)
    assert back.entries() == lex.entries()
    assert back.sizes() == lex.sizes()
    assert back.get("pão-duro").meaning_languages == ("PT", "EN")
    assert [p.name for p in path.parent.iterdir()] == ["lexicon.tsv"]  # no temp file left behind


def test_gzipped_tsv_round_trip_is_reproducible(tmp_path):
    lex = small()
    first = lex.to_tsv(tmp_path / "a" / "lexicon.tsv.gz").read_bytes()
    assert lex.to_tsv(tmp_path / "b" / "lexicon.tsv.gz").read_bytes() == first  # no time stamp in the gzip header
    assert Lexicon.from_tsv(tmp_path / "a" / "lexicon.tsv.gz").entries() == lex.entries()


def test_a_four_column_tsv_gives_meanings_in_the_idioms_language(tmp_path):
    path = tmp_path / "lex.tsv"
    path.write_text(HEADER + "pisar na bola\tPT\terrar\tuser\n", encoding="utf-8")
    assert Lexicon.from_tsv(path).get("pisar na bola").meaning_language() == "PT"


def test_bad_gzip_and_bad_meaning_language_are_one_line_errors(tmp_path):
    bad = tmp_path / "lex.tsv.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(DataError, match=r"lex.tsv.gz: not a readable gzip file"):
        Lexicon.from_tsv(bad)
    good = Lexicon.from_pairs([("kick the bucket", "to die")] * 50).to_tsv(tmp_path / "good.tsv.gz").read_bytes()
    damaged = good[:20] + bytes(b ^ 0xFF for b in good[20:40]) + good[40:]  # a bad deflate stream: zlib.error
    for broken in (damaged, good[: len(good) // 2]):  # damaged; cut short (EOFError)
        bad.write_bytes(broken)
        with pytest.raises(DataError, match=r"lex.tsv.gz: not a readable gzip file \(\w"):
            Lexicon.from_tsv(bad)
    path = write(tmp_path, HEADER.rstrip("\n") + "\tmeaning_language\nkick the bucket\tEN\tto die\tuser\tFR\n")
    with pytest.raises(DataError) as err:
        Lexicon.from_tsv(path)
    assert str(err.value) == f"{path}: row 1: field 'meaning_language': unknown language 'FR' (expected EN or PT)"


def test_tsv_skips_blank_lines_and_reads_crlf(tmp_path):
    path = tmp_path / "lex.tsv"
    path.write_bytes(b"idiom\tlanguage\tmeaning\tsource\r\n\r\nkick the bucket\ten\tto die\tuser\r\n")
    assert Lexicon.from_tsv(path).get("kick the bucket").language == "EN"


def write(tmp_path, text: str):
    path = tmp_path / "bad.tsv"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            HEADER + "kick the bucket\tFR\tto die\tuser\n",
            "row 1: field 'language': unknown language 'FR' (expected EN or PT)",
        ),
        (HEADER + "kick the bucket\tEN\tto die\tuser\n\tEN\tto die\tuser\n", "row 2: field 'idiom': empty"),
        (HEADER + "kick the bucket\tEN\t \tuser\n", "row 1: field 'meaning': empty"),
        (HEADER + "kick the bucket\tEN\tto die\t\n", "row 1: field 'source': empty"),
        (HEADER + "kick the bucket\tEN\tto die\n", "row 1: field 'source': 3 tab-separated values, expected 4"),
        (
            HEADER + "kick the bucket\tEN\tto die\tuser\tx\n",
            "row 1: field 'column 5': 5 tab-separated values, expected 4",
        ),
        (
            "idiom\tlanguage\tmeaning\tsource\tnote\n",
            "row 0: field 'note': unexpected column 5 (only 'meaning_language' may follow)",
        ),
        (
            "kick the bucket\tEN\tto die\tuser\n",
            "row 0: missing header: the first line must be idiom <TAB> language <TAB> meaning <TAB> source",
        ),
        (
            "idiom\tlang\tmeaning\tsource\n",
            "row 0: field 'language': expected column 2 to be 'language' (header has: idiom, lang, meaning, source)",
        ),
        (
            "idiom\tlanguage\tmeaning\n",
            "row 0: field 'source': expected column 4 to be 'source' (header has: idiom, language, meaning)",
        ),
        ("", "file is empty"),
        (HEADER, "row 1: field 'idiom': no idiom: the file has a header only"),  # issue #42.3: was an empty reader
        (HEADER + "\n  \n", "row 1: field 'idiom': no idiom: every line after the header is blank"),
    ],
)
def test_bad_tsv_names_file_row_and_field(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(DataError) as err:
        Lexicon.from_tsv(path)
    assert str(err.value) == f"{path}: {message}"


def test_missing_file(tmp_path):
    path = tmp_path / "nope.tsv"
    with pytest.raises(DataError) as err:
        Lexicon.from_tsv(path)
    assert str(err.value) == f"{path}: file not found"


def test_read_with_a_header_only_lexicon_is_one_line_and_exit_2(tmp_path):
    """Issue #42.3: ``idiomkit read --lexicon`` with a header-only TSV said "no idiom found" and exited 0."""
    from helpers import runner
    from helpers.bad_inputs import assert_one_line_error

    from idiomkit.cli import app

    path = write(tmp_path, HEADER)
    result = runner.invoke(app, ["read", "She kicked the bucket.", "--lexicon", str(path)])
    assert assert_one_line_error(result) == f"error: {path}: row 1: field 'idiom': no idiom: the file has a header only"
