"""Extra idiom datasets (idiomkit.data.extra): exact records from tiny copies of each real layout, and one-line
DataErrors naming file, row and field. The real files: tests/integration/data/test_idioms_extra_real.py."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from idiomkit.data.errors import DataError
from idiomkit.data.extra import (
    ClueUnit,
    CompoundSenses,
    FigQaItem,
    IdiomMeaning,
    IdiomUsage,
    LidiomsEntry,
    MiqaItem,
    NcsCompound,
    OverlapRow,
    PieParaphrase,
    load_astitch,
    load_clue,
    load_figqa,
    load_itu,
    load_lidioms,
    load_miqa,
    load_mt_meanings,
    load_mt_triples,
    load_ncs,
    load_overlap,
    load_overlap_rows,
    load_pie,
)

EXTRA = "idioms_extra"


def write(root: Path, rel: str, text: str) -> Path:
    path = root / EXTRA / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error_of(load: Callable[[], object]) -> str:
    """The one-line message of the DataError ``load`` raises."""
    with pytest.raises(DataError) as info:
        load()
    message = str(info.value)
    assert "\n" not in message
    return message


# --- PIE -------------------------------------------------------------------------------------------------------

PIE_HEADER = "Idiom,Sense,Idiomatic_Sent,Literal_Sent,Idiomatic_Label,Literal_Label\n"
PIE_ROWS = {
    "train": PIE_HEADER + 'run out of steam,"to no longer have energy ",The project ran out of steam .,'
    "The project stalled .,O O B I I I O,O O B O\n"
    "pull leg,to joke,He is pulling my leg .,He is pulling my leg .,O O B O I O,O O B O I O\n",
    "valid": PIE_HEADER + "lie low,,He lay low .,He hid .,O B I O,O B O\n",
    "test": PIE_HEADER + "old hat,dated,That is old hat .,That is dated .,O O B I O,O O B O\n",
}


def pie_tree(root: Path, **rows: str) -> Path:
    for split, body in (PIE_ROWS | rows).items():
        write(root, f"pie_zhou2021/ISP/{split}.csv", body)
    return root


def test_pie_records_and_skipped_identical_paraphrase(tmp_path, caplog):
    with caplog.at_level(logging.INFO):
        items = load_pie(pie_tree(tmp_path))
    assert items == [
        PieParaphrase(
            "run out of steam",
            "EN",
            "train",
            "The project ran out of steam .",
            "The project stalled .",
            "to no longer have energy",
            ("O", "O", "B", "I", "I", "I", "O"),
        ),
        PieParaphrase("lie low", "EN", "valid", "He lay low .", "He hid .", None, ("O", "B", "I", "O")),
        PieParaphrase(
            "old hat", "EN", "test", "That is old hat .", "That is dated .", "dated", ("O", "O", "B", "I", "O")
        ),
    ]
    assert "train.csv: skipped 1 row(s) whose Literal_Sent equals Idiomatic_Sent" in caplog.text
    assert [p.split for p in load_pie(tmp_path, splits=("test",))] == ["test"]


def test_pie_empty_sentence_and_missing_file(tmp_path):
    pie_tree(tmp_path, train=PIE_HEADER + "lie low,,,He hid .,O,O\n")
    path = tmp_path / EXTRA / "pie_zhou2021/ISP/train.csv"
    assert error_of(lambda: load_pie(tmp_path)) == f"{path}: row 1: field 'Idiomatic_Sent': is empty"
    path.unlink()
    assert error_of(lambda: load_pie(tmp_path)) == f"{path}: file not found"


# --- AStitch ---------------------------------------------------------------------------------------------------

AST_DIR = "astitch_nc_senses/Dataset/Extended_Noun_Compound_Senses_Dataset"
AST_HEADER = (
    "Multiword Expression,Literal Meaning,Non-Literal Meaning 1,Non-Literal Meaning 2,Non-Literal Meaning 3,"
    "Data Split\n"
)
AST_EN = AST_HEADER + "elbow room,joint room,space,freedom ,None,train\nmailing list,address list,None,None,None,test\n"
AST_PT = AST_HEADER + "cheiro-verde,odor esverdeado,tempero,None,None,dev\n"


def astitch_tree(root: Path, en: str = AST_EN, pt: str = AST_PT) -> Path:
    write(root, f"{AST_DIR}/EN_Extended_Noun_Compound_Senses_Dataset.csv", en)
    write(root, f"{AST_DIR}/PT_Extended_Noun_Compound_Senses_Dataset.csv", pt)
    return root


def test_astitch_records_keep_their_split(tmp_path):
    astitch_tree(tmp_path)
    assert load_astitch(tmp_path) == [
        CompoundSenses("elbow room", "EN", "train", "joint room", ("space", "freedom")),
        CompoundSenses("mailing list", "EN", "test", "address list", ()),
        CompoundSenses("cheiro-verde", "PT", "dev", "odor esverdeado", ("tempero",)),
    ]
    assert [c.idiom for c in load_astitch(tmp_path, splits=("train",))] == ["elbow room"]
    assert [c.idiom for c in load_astitch(tmp_path, languages=("PT",))] == ["cheiro-verde"]


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("elbow room,joint room,space,None,None,eval\n", "row 1: field 'Data Split': 'eval' is not one of train"),
        ("elbow room,None,space,None,None,train\n", "row 1: field 'Literal Meaning': is 'None'"),
        ("elbow room,joint room,,None,None,train\n", "row 1: field 'Non-Literal Meaning 1': is empty"),
        ("elbow room,joint room,space,None,None\n", "row 1: field 'Data Split': missing value (5 values, 6 columns)"),
    ],
)
def test_astitch_bad_rows(tmp_path, row, expected):
    astitch_tree(tmp_path, en=AST_HEADER + row)
    path = tmp_path / EXTRA / AST_DIR / "EN_Extended_Noun_Compound_Senses_Dataset.csv"
    assert error_of(lambda: load_astitch(tmp_path)).startswith(f"{path}: {expected}")


def test_astitch_duplicate_compound(tmp_path):
    astitch_tree(tmp_path, pt=AST_PT + AST_PT.splitlines()[1] + "\n")
    assert error_of(lambda: load_astitch(tmp_path)).endswith(
        "PT_Extended_Noun_Compound_Senses_Dataset.csv: row 2: field 'Multiword Expression': "
        "duplicate 'cheiro-verde' (first at row 1)"
    )


# --- NCS -------------------------------------------------------------------------------------------------------

NCS_EN = {
    "dataset/en/neutral/P1_sents.csv": '"compound","neutral sentence","mwe synonym"\n'
    '"black operation","This is a black operation","This is a secret operation"\n'
    '"wedding day","This is a wedding day","This is a marriage date"\n',
    "dataset/en/neutral/P2_sents.csv": '"compound","neutral sentence","head only","modifier only"\n'
    '"black operation","This is a black operation","This is an operation","This is a black"\n'
    '"wedding day","This is a wedding day","This is a day","This is a wedding"\n',
    "dataset/en/neutral/P3_sents.csv": '"compound","neutral sentence","both synonyms"\n'
    '"black operation","This is a black operation","This is a dark action "\n'
    '"wedding day","This is a wedding day","This is a marriage date"\n',
    "input/sentids_en.csv": '"compound","compositionality","sentence1","sentence2","sentence3"\n'
    '"wedding day","5","a b","c d","e f"\n'
    '"black operation","1,39","future black operations .","sent2: (\'""http://x""\', 140)","a black operation ."\n',
}
NCS_PT = {
    "dataset/pt/neutral/P1_sents.csv": '"compound","neutral sentence","mwe synonym"\n'
    '"abalo sísmico","Este é um abalo sísmico .","Este é um tremor de terra ."\n',
    "dataset/pt/neutral/P2_sents.csv": '"compound","neutral sentence","head only","modifier only"\n'
    '"abalo sísmico","Este é um abalo sísmico .","Este é um abalo .","Este é um sísmico ."\n',
    "dataset/pt/neutral/P3_sents.csv": '"compound","neutral sentence","both synonyms"\n'
    '"abalo sísmico","Este é um abalo sísmico .","Esta é uma trepidação enérgica ."\n',
    "input/sentids_pt.csv": '"compound","compositionality","sentence1","sentence2","sentence3"\n'
    '"abalo sísmico","4.4242","Grandes abalos sísmicos .","sent2: ([], 293)","sent3: ([], 75)"\n',
}


def ncs_tree(root: Path, **changes: str) -> Path:
    for rel, body in (NCS_EN | NCS_PT | {k.replace("__", "/"): v for k, v in changes.items()}).items():
        write(root, f"ncs_garcia2021/{rel}", body)
    return root


def test_ncs_joins_the_four_files(tmp_path, caplog):
    with caplog.at_level(logging.INFO):
        items = load_ncs(ncs_tree(tmp_path))
    assert items == [
        NcsCompound(
            "black operation",
            "EN",
            "This is a black operation",
            "This is a secret operation",
            "This is a dark action",
            "This is an operation",
            "This is a black",
            1.39,
            ("future black operations .", "a black operation ."),
        ),
        NcsCompound(
            "abalo sísmico",
            "PT",
            "Este é um abalo sísmico .",
            "Este é um tremor de terra .",
            "Esta é uma trepidação enérgica .",
            "Este é um abalo .",
            "Este é um sísmico .",
            4.4242,
            ("Grandes abalos sísmicos .",),
        ),
    ]
    assert "P3_sents.csv: skipped 1 compound(s) whose P3 rewrite equals the P1 rewrite" in caplog.text
    assert "sentids_en.csv: left out 1 corpus sentence pointer(s)" in caplog.text
    assert "sentids_pt.csv: left out 2 corpus sentence pointer(s)" in caplog.text


P3_EN = "dataset/en/neutral/P3_sents.csv"
SENTIDS_EN = "input/sentids_en.csv"


@pytest.mark.parametrize(
    ("rel", "body", "expected"),
    [
        (
            P3_EN,
            '"compound","neutral sentence","both synonyms"\n"black operation","This is a black operation",""\n',
            "P1_sents.csv: row 2: field 'compound': 'wedding day' has no row in P3_sents.csv",
        ),
        (
            P3_EN,
            '"compound","neutral sentence","both synonyms"\n"black operation","This is black","x"\n'
            '"wedding day","This is a wedding day","y"\n',
            "P3_sents.csv: row 1: field 'neutral sentence': differs from P1_sents.csv row 1",
        ),
        (
            P3_EN,
            NCS_EN[P3_EN] + '"red tape","This is a red tape","This is a crimson ribbon"\n',
            "P3_sents.csv: row 3: field 'compound': 'red tape' has no row in P1_sents.csv",
        ),
        (
            SENTIDS_EN,
            '"compound","compositionality","sentence1","sentence2","sentence3"\n'
            '"wedding day","high","a","b","c"\n"black operation","1","a","b","c"\n',
            "sentids_en.csv: row 1: field 'compositionality': 'high' is not a number",
        ),
        (
            SENTIDS_EN,
            '"compound","compositionality","sentence1","sentence2","sentence3"\n'
            '"wedding day","5","a","b","c"\n"black operation","7,5","a","b","c"\n',
            "sentids_en.csv: row 2: field 'compositionality': 7,5 is outside [0, 5]",
        ),
        (
            SENTIDS_EN,
            '"compound","compositionality","sentence1","sentence2","sentence3"\n'
            '"wedding day","5","a","b","c"\n"black operation","1","a","","c"\n',
            "sentids_en.csv: row 2: field 'sentence2': is empty",
        ),
    ],
)
def test_ncs_bad_files(tmp_path, rel, body, expected):
    ncs_tree(tmp_path, **{rel.replace("/", "__"): body})
    assert error_of(lambda: load_ncs(tmp_path)).endswith(expected)


# --- LIdioms ---------------------------------------------------------------------------------------------------

TTL_PREFIXES = """@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ontolex: <http://www.w3.org/ns/lemon/ontolex#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix lid: <http://lid.aksw.org/x/> .
"""


def ttl_entry(name: str, label: str, definition: str | None, tag: str, iri: str | None = None) -> str:
    subject = iri or f"lid:{name}"
    text = f"""
{subject} a ontolex:LexicalEntry , ontolex:MultiwordExpression ;
\tontolex:sense lid:{name}_sense ;
\trdfs:label "{label}"@{tag} .

lid:{name}_sense a ontolex:LexicalSense ;
\tontolex:isLexicalizedSenseOf lid:{name}_concept .
"""
    if definition is not None:
        text += f'\nlid:{name}_concept a ontolex:LexicalConcept ;\n\tskos:definition "{definition}"@en .\n'
    return text


LID_EN = (
    TTL_PREFIXES
    + ttl_entry("short_fuse", "a short fuse", "a quick \u200btemper", "en")
    + ttl_entry("jack", "jack of all trades", 'someone who does \\"many\\" jobs', "en", "<http://lid.aksw.org/x/j++>")
    + ttl_entry("nothing", "no definition", None, "en")
)
LID_PT = (
    TTL_PREFIXES
    + ttl_entry("amarelar", "amarelar", "to be afraid", "pt")
    + ttl_entry("amarelar", "amarelar", "to be afraid", "pt")  # the same entry written twice
    + 'lid:amarelar_concept skos:definition "to back out from fear"@en .\n'
)


def lidioms_tree(root: Path, en: str = LID_EN, pt: str = LID_PT) -> Path:
    write(root, "lidioms/en/english.ttl", en)
    write(root, "lidioms/pt/portuguese.ttl", pt)
    return root


def test_lidioms_entries(tmp_path, caplog):
    with caplog.at_level(logging.INFO):
        items = load_lidioms(lidioms_tree(tmp_path))
    assert items == [
        LidiomsEntry("a short fuse", "EN", "a quick temper"),
        LidiomsEntry("jack of all trades", "EN", 'someone who does "many" jobs'),
        LidiomsEntry("amarelar", "PT", "to be afraid"),
        LidiomsEntry("amarelar", "PT", "to back out from fear"),
    ]
    assert "english.ttl: skipped 1 entry(ies) without a skos:definition" in caplog.text


@pytest.mark.parametrize(
    ("pt", "expected"),
    [
        (
            TTL_PREFIXES + ttl_entry("x", "ficar puto", "angry", "de"),
            "row 8: field 'rdfs:label': language tag '@de', expected '@pt'",
        ),
        (
            TTL_PREFIXES + ttl_entry("x", "ficar puto", "angry", "pt") + ttl_entry("x", "other", "angry", "pt"),
            "row 18: field 'rdfs:label': a second label 'other' (first: 'ficar puto')",
        ),
        (TTL_PREFIXES + ttl_entry("x", " ", "angry", "pt"), "row 8: field 'rdfs:label': is empty"),
        (TTL_PREFIXES + 'lid:x rdfs:label "x"@pt', "row 5: Turtle ends inside a statement"),
        (TTL_PREFIXES + "lid:x rdfs:label ; .\n", "row 5: unexpected ';' in Turtle (expected a object)"),
        (TTL_PREFIXES + 'foo:x rdfs:label "x"@pt .\n', "row 5: undeclared prefix 'foo:'"),
    ],
)
def test_lidioms_bad_turtle(tmp_path, pt, expected):
    lidioms_tree(tmp_path, pt=pt)
    assert error_of(lambda: load_lidioms(tmp_path)) == f"{tmp_path / EXTRA / 'lidioms/pt/portuguese.ttl'}: {expected}"


# --- ITU -------------------------------------------------------------------------------------------------------

ITU_DIR = "itu_llm_idiom_corpus/Datasets/EN"
ITU_HEADER = "submission,category,idiom,type\n"
ITU_LIT = ITU_HEADER + '"He lost his wrench, then tempered the metal.",literal,lose temper,Zero-shot\n'
ITU_FIG = (
    ITU_HEADER + "She lost her temper.,figurative,lose temper,Enhanced-prompting\n"
    "She lost her temper.,figurative,lose temper,Zero-shot\n"
)


def itu_tree(root: Path, lit: str = ITU_LIT, fig: str = ITU_FIG) -> Path:
    write(root, f"{ITU_DIR}/gpt4_en_gerçek.csv", lit)
    write(root, f"{ITU_DIR}/gpt4_en_mecaz.csv", fig)
    return root


def test_itu_usages(tmp_path, caplog):
    with caplog.at_level(logging.INFO):
        items = load_itu(itu_tree(tmp_path))
    assert items == [
        IdiomUsage("lose temper", "EN", "He lost his wrench, then tempered the metal.", "literal", "Zero-shot"),
        IdiomUsage("lose temper", "EN", "She lost her temper.", "figurative", "Enhanced-prompting"),
    ]
    assert "gpt4_en_mecaz.csv: skipped 1 repeated sentence(s)" in caplog.text


@pytest.mark.parametrize(
    ("fig", "expected"),
    [
        (ITU_HEADER + "x.,literal,lose temper,Zero-shot\n", "row 1: field 'category': 'literal' in the figurative"),
        (ITU_HEADER + "x.,figurative,lose temper,Few-shot\n", "row 1: field 'type': 'Few-shot' is not one of"),
        (ITU_HEADER + " ,figurative,lose temper,Zero-shot\n", "row 1: field 'submission': is empty"),
    ],
)
def test_itu_bad_rows(tmp_path, fig, expected):
    itu_tree(tmp_path, fig=fig)
    path = tmp_path / EXTRA / ITU_DIR / "gpt4_en_mecaz.csv"
    assert error_of(lambda: load_itu(tmp_path)).startswith(f"{path}: {expected}")


# --- mt_ambiguity ----------------------------------------------------------------------------------------------

MT_MEANINGS = "mt_ambiguity_idioms/1_english_idioms/3_merge_corpi/idiom_corpus.csv"
MT_TRIPLES = "mt_ambiguity_idioms/3_mturk_sentence_pairs/3_upgrade_sentence_pairs/gen_final_chatgpt.csv"
MEANINGS_HEADER = "idiom,meaning,example,source,dupl,idiom_set\n"
MEANINGS = (
    MEANINGS_HEADER + 'hot potato,a disputed issue ,"Gun control is a ""hot potato"".",dict,0,x\n'
    "fall through the cracks,,,pfbt,0,x\ngot somebody's goat,to annoy someone,,pfbt,0,x\n"
)
TRIPLES_HEADER = (
    "idiom,meaning,intended_ambiguous,intended_figurative,intended_literal,num_reprompt,pron_converted,"
    "intended_ambiguous_old,intended_figurative_old,intended_literal_old,annotations_ambiguous_old,"
    "annotations_figurative_old,annotations_literal_old,well_formed_old,maxvote_id_old,maxvote_ambiguous_old,"
    "maxvote_figurative_old,maxvote_literal_old\n"
)
TRIPLE = (
    "a hard nut to crack,a difficult problem,a hard nut to crack,the case was a hard nut to crack,"
    "the walnut was a hard nut to crack,0,False,He's a hard nut to crack,He's a hard nut to crack and shy,"
    "He's a hard nut to crack with a hammer,[],[],[],False,x,figurative,figurative,literal\n"
)


def test_mt_meanings(tmp_path, caplog):
    write(tmp_path, MT_MEANINGS, MEANINGS)
    with caplog.at_level(logging.INFO):
        items = load_mt_meanings(tmp_path)
    assert items == [
        IdiomMeaning("hot potato", "EN", "a disputed issue", 'Gun control is a "hot potato".', "dict"),
        IdiomMeaning("got somebody's goat", "EN", "to annoy someone", None, "pfbt"),
    ]
    assert "idiom_corpus.csv: skipped 1 idiom(s) without a meaning" in caplog.text


def test_mt_triples(tmp_path):
    write(tmp_path, MT_TRIPLES, TRIPLES_HEADER + TRIPLE)
    (item,) = load_mt_triples(tmp_path)
    assert (item.idiom, item.language, item.meaning) == ("a hard nut to crack", "EN", "a difficult problem")
    assert item.split is None
    assert (item.ambiguous, item.figurative, item.literal) == (
        "a hard nut to crack",
        "the case was a hard nut to crack",
        "the walnut was a hard nut to crack",
    )
    assert item.old_literal == "He's a hard nut to crack with a hammer"
    assert (item.old_well_formed, item.old_votes) == (False, ("figurative", "figurative", "literal"))


@pytest.mark.parametrize(
    ("rel", "body", "expected"),
    [
        (MT_MEANINGS, MEANINGS_HEADER + "hot potato,issue,,web,0,x\n", "row 1: field 'source': 'web' is not one of"),
        (MT_MEANINGS, MEANINGS_HEADER + "a,b,,dict,0,x\na,c,,dict,0,x\n", "row 2: field 'idiom': duplicate 'a'"),
        (
            MT_TRIPLES,
            TRIPLES_HEADER + TRIPLE.replace(",literal\n", ",literally\n"),
            "row 1: field 'maxvote_literal_old': 'literally' is not one of",
        ),
        (
            MT_TRIPLES,
            TRIPLES_HEADER + TRIPLE.replace(",False,x,", ",no,x,"),
            "row 1: field 'well_formed_old': 'no' is not one of True, False",
        ),
        (
            MT_TRIPLES,
            TRIPLES_HEADER + TRIPLE.replace(",the walnut was a hard nut to crack,", ",,"),
            "row 1: field 'intended_literal': is empty",
        ),
        # issue #42.3: a flagship run trained on with 0 of 1,584 meanings (an INFO line only)
        (
            MT_MEANINGS,
            MEANINGS_HEADER + "hot potato, ,,dict,0,x\nfall through,,,pfbt,0,x\n",
            "row 1: field 'meaning': blank in all 2 rows: no idiom has a meaning",
        ),
        (MT_MEANINGS, MEANINGS_HEADER, "field 'meaning': no rows (the file has a header only)"),
    ],
)
def test_mt_bad_rows(tmp_path, rel, body, expected):
    path = write(tmp_path, rel, body)
    load = load_mt_meanings if rel == MT_MEANINGS else load_mt_triples
    assert error_of(lambda: load(tmp_path)).startswith(f"{path}: {expected}")


# --- MiQA, Fig-QA ----------------------------------------------------------------------------------------------

MIQA = "miqa/data/metaphor_inference_qa.tsv"
MIQA_HEADER = "literal_premise\tmetaphorical_premise\tliteral_conclusion\tmetaphorical_conclusion\n"
MIQA_ROW = "I see the bird\tI see what you mean\tmy eyes are working well\tI understand you\n"


def test_miqa(tmp_path):
    write(tmp_path, MIQA, MIQA_HEADER + MIQA_ROW + '"a" plan\ta "plan"\tx\ty\n')
    assert load_miqa(tmp_path) == [
        MiqaItem("I see what you mean", "I understand you", "my eyes are working well", "I see the bird"),
        MiqaItem('a "plan"', "y", "x", '"a" plan'),  # no quoting in the TSV: quotes stay as written
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (MIQA_ROW + "a\t\tb\tc\n", "row 2: field 'metaphorical_premise': is empty"),
        ("a\tb\tc\n", "row 1: field 'metaphorical_conclusion': missing value (3 values, 4 columns)"),
    ],
)
def test_miqa_bad_rows(tmp_path, body, expected):
    path = write(tmp_path, MIQA, MIQA_HEADER + body)
    assert error_of(lambda: load_miqa(tmp_path)) == f"{path}: {expected}"


FIGQA_HEADER = "startphrase,ending1,ending2,labels,valid,qid\n"
FIGQA_TRAIN = (
    FIGQA_HEADER + "Her word had the strength of titanium.,She can be trusted.,She cannot be trusted.,0,1,10\n"
    "Her word had the strength of a wine glass.,She can be trusted.,She cannot be trusted.,1,1,10\n"
    "It was as easy as pie.,It was easy.,It was easy.,0,1,X0\n"
)
FIGQA_DEV = FIGQA_HEADER + '"It was as peaceful as a church.",It was peaceful.,It was not peaceful.,0,1,3\n'


def test_figqa(tmp_path, caplog):
    write(tmp_path, "figqa/data/filtered/train_xl.csv", FIGQA_TRAIN)
    write(tmp_path, "figqa/data/filtered/dev.csv", FIGQA_DEV)
    with caplog.at_level(logging.INFO):
        items = load_figqa(tmp_path)
    assert items == [
        FigQaItem(
            "Her word had the strength of titanium.", "She can be trusted.", "She cannot be trusted.", "10", "train"
        ),
        FigQaItem(
            "Her word had the strength of a wine glass.", "She cannot be trusted.", "She can be trusted.", "10", "train"
        ),
        FigQaItem("It was as peaceful as a church.", "It was peaceful.", "It was not peaceful.", "3", "dev"),
    ]
    assert "train_xl.csv: skipped 1 row(s) marked invalid or with two equal endings" in caplog.text


def test_figqa_bad_label(tmp_path):
    write(tmp_path, "figqa/data/filtered/train_xl.csv", FIGQA_HEADER + "a,b,c,2,1,4\n")
    path = tmp_path / EXTRA / "figqa/data/filtered/train_xl.csv"
    expected = f"{path}: row 1: field 'labels': '2' is not 0 or 1"
    assert error_of(lambda: load_figqa(tmp_path, splits=("train",))) == expected


# --- CLUE ------------------------------------------------------------------------------------------------------


def clue_tree(root: Path, rows: list[tuple]) -> Path:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "EN"
    for row in [("CFU", "Type", "Concept", "Context"), *rows]:
        sheet.append(row)
    path = root / EXTRA / "clue" / "clue_en.xlsx"
    path.parent.mkdir(parents=True)
    book.save(path)
    return path


def test_clue(tmp_path, caplog):
    clue_tree(
        tmp_path,
        [
            ("ace", "simplex", "expert", "He's been our ace."),
            (None, None, None, None),
            ("(to) kick the bucket", "idiom", "to die", " He kicked the bucket. "),
        ],
    )
    with caplog.at_level(logging.INFO):
        items = load_clue(tmp_path)
    assert items == [
        ClueUnit("ace", "EN", "simplex", "expert", "He's been our ace.", "ace"),
        ClueUnit("kick the bucket", "EN", "idiom", "to die", "He kicked the bucket.", "(to) kick the bucket"),
    ]
    assert "clue_en.xlsx: skipped 1 blank row(s)" in caplog.text
    assert [u.idiom for u in load_clue(tmp_path, kinds=("idiom",))] == ["kick the bucket"]


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (("ace", "metaphor", "expert", "x"), "row 1: field 'Type': 'metaphor' is not one of"),
        (("ace", "simplex", "", "x"), "row 1: field 'Concept': is empty"),
        (("ace", "simplex", "expert", "x", "stray"), "row 1: field 'column 5': value 'stray' under no header"),
    ],
)
def test_clue_bad_rows(tmp_path, row, expected):
    path = clue_tree(tmp_path, [row])
    assert error_of(lambda: load_clue(tmp_path)).startswith(f"{path}: {expected}")


def test_clue_not_an_xlsx(tmp_path):
    pytest.importorskip("openpyxl")
    path = write(tmp_path, "clue/clue_en.xlsx", "CFU,Type\n")
    assert error_of(lambda: load_clue(tmp_path)).startswith(f"{path}: not a readable .xlsx file")


# --- overlap ---------------------------------------------------------------------------------------------------

OVERLAP_HEADER = "candidate_idiom\tbenchmark_idiom\tbenchmark_splits\tmatch\n"


def test_overlap_rows_and_set(tmp_path):
    write(
        tmp_path,
        "pie_zhou2021/benchmark_idiom_overlap.tsv",
        OVERLAP_HEADER + "child's play\tchild's play\tidiolink_test\texact\n"
        "chill to the bone\tto the bone\tsemeval_2A_dev_EN,semeval_2B_dev_EN\tcontains\n",
    )
    assert load_overlap_rows(tmp_path, "pie") == [
        OverlapRow("child's play", "child's play", ("idiolink_test",), "exact"),
        OverlapRow("chill to the bone", "to the bone", ("semeval_2A_dev_EN", "semeval_2B_dev_EN"), "contains"),
    ]
    assert load_overlap(tmp_path, "pie_zhou2021") == {"child's play", "chill to the bone"}
    write(tmp_path, "itu_llm_idiom_corpus/benchmark_idiom_overlap.tsv", OVERLAP_HEADER)
    assert load_overlap(tmp_path, "itu") == set()
    assert load_overlap(tmp_path, "miqa") == load_overlap(tmp_path, "figqa") == set()  # no idioms, no file


def test_overlap_bad_inputs(tmp_path):
    body = OVERLAP_HEADER + "a\ta\tidiolink_test\tfuzzy\n"
    path = write(tmp_path, "ncs_garcia2021/benchmark_idiom_overlap.tsv", body)
    expected = f"{path}: row 1: field 'match': 'fuzzy' is not one of exact, contains"
    assert error_of(lambda: load_overlap(tmp_path, "ncs")) == expected
    clue = tmp_path / EXTRA / "clue" / "benchmark_idiom_overlap.tsv"
    assert error_of(lambda: load_overlap(tmp_path, "clue")) == f"{clue}: file not found"
    with pytest.raises(ValueError, match="unknown extra dataset 'impli'"):
        load_overlap(tmp_path, "impli")
