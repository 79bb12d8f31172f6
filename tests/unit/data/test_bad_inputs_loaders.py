"""Bad-input sweep, loader side: every loader under ``idiomkit.data`` against one defect at a time.

Each refusal is a one-line :class:`DataError` naming file, row and field (checked with the ``Case`` record and
``expected_location`` of ``test_bad_inputs``); each awkward-but-legal file (BOM, CRLF, quotes, unicode, empty
optional fields) loads every valid row; lenient mode keeps every valid row and counts the rest in the log.
"""

from __future__ import annotations

import csv
import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import B_DEV_HEADER, B_GOLD_HEADER, B_TRAIN_HEADER, TINY_DEV, TINY_GOLD, write_semeval_tree
from helpers.bad_inputs import (
    A_HEADER,
    ASSIN,
    DOCS,
    QUERIES,
    STSB,
    TRAIN,
    TRIPLET,
    Case,
    changed,
    expected_location,
    idiolink,
    lines_of,
    semeval,
    sts,
    subtask_a,
    triplets,
    write,
)
from helpers.definitions import write_tree

from idiomkit.data import semeval2a
from idiomkit.data.admire import COLUMNS, load_admire
from idiomkit.data.definitions import load_baiango, load_epie_usages, load_idiom_data, load_wiktionary
from idiomkit.data.errors import DataError
from idiomkit.data.idiolink import load_idiolink, load_triplets
from idiomkit.data.semeval2022 import load_eval_pairs, load_subtask_a, load_subtask_b, load_train_pairs
from idiomkit.data.sts import load_sts

BIG = "x" * 200 * 1024  # a 200 KiB field: over the csv module's 128 KiB limit


UTF16_NO_BOM = "utf-16-le"


BINARY = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"


A_DEV = "ID,Language,MWE,Previous,Target,Next\n1,EN,big fish,Before.,He is a big fish.,After.\n" + (
    "2,PT,pão duro,,Ele é um pão duro.,\n"
)


A_GOLD = "ID,DataID,Language,Label\n1,dev.EN.1,EN,0\n2,dev.PT.1,PT,1\n"


A_ROW = "a.2,EN,night owl,zero_shot,,She is a night owl.,,1"


IDIOMS = Path("definitions/wiktionary_idiom_dataset/wiktionary.csv")


BAIANGO = Path("definitions/baiango_english_idioms/idioms.csv")


EPIE = Path("epie")


FORMAL = EPIE / "Formal_Idioms_Corpus"


STATIC = EPIE / "Static_Idioms_Corpus"


def admire_row(**overrides: str) -> str:
    row = {
        "compound": "bad apple",
        "subset": "Dev",
        "sentence_type": "idiomatic",
        "sentence": "He is the bad apple of the team.",
        "expected_order": str([f"{i}.png" for i in range(5)]),
    }
    row |= {f"image{i + 1}_name": f"{i}.png" for i in range(5)} | {f"image{i + 1}_caption": f"c {i}" for i in range(5)}
    row |= overrides
    return "\t".join(row[c] for c in COLUMNS)


def admire(root: Path, *rows: str, header: str = "\t".join(COLUMNS), newline: str = "\r\n") -> Path:
    write(root / "admire/en/subtask_a_dev.tsv", newline.join([header, *rows]) + newline)
    return root


def a_dev(root: Path, dev: str | bytes = A_DEV, gold: str | bytes = A_GOLD) -> Path:
    base = root / "semeval2022_task2/SubTaskA/Data"
    write(base / "dev.csv", dev)
    write(base / "dev_gold.csv", gold)
    return root


def a_train(root: Path, body: str | bytes) -> Path:
    write(root / "semeval2022_task2/SubTaskA/Data/train_zero_shot.csv", body)
    return root


def epie(root: Path, **files: str) -> Path:
    """The tiny definitions tree of test_definitions with some files replaced (keyword = path under the root,
    ``/`` written as ``__``)."""
    write_tree(root)
    for rel, body in files.items():
        write(root / rel.replace("__", "/"), body)
    return root


def dev_file(root: Path, body: str | bytes) -> Path:
    write(semeval(root) / "semeval2022_task2/SubTaskB/EvaluationData/dev.csv", body)
    return root


def gold_file(root: Path, body: str | bytes) -> Path:
    write(semeval(root) / "semeval2022_task2/SubTaskB/EvaluationData/dev.gold.csv", body)
    return root


DEV_LOAD = lambda root: load_subtask_b(root, "dev")  # noqa: E731


A_DEV_LOAD = lambda root: load_subtask_a(root, "dev")  # noqa: E731


A_TRAIN_LOAD = lambda root: load_subtask_a(root, "train_zero_shot")  # noqa: E731


A_PATHS = lambda root: semeval2a.data_paths(root)  # noqa: E731


SA_TRAIN_LOAD = lambda root: semeval2a.load_train(A_PATHS(root)["train_zero_shot"], "zero_shot")  # noqa: E731


SA_DEV_LOAD = lambda root: semeval2a.load_dev(A_PATHS(root)["dev"], A_PATHS(root)["dev_gold"])  # noqa: E731


STS_LOAD = lambda root: load_sts(root, "dev")  # noqa: E731


IL_LOAD = lambda root: load_idiolink(root, "test")  # noqa: E731


TRIPLET_LOAD = lambda root: load_triplets(root / "idiolink/train/triplets_train_span.jsonl")  # noqa: E731


ADMIRE_LOAD = lambda root: load_admire(root, "dev").items  # noqa: E731


WIKI = lambda body: lambda root: epie(root, **{str(IDIOMS).replace("/", "__"): body})  # noqa: E731


PAIRS = lambda root: [p for i in load_idiom_data(root).idioms.values() for p in i.pairs]  # noqa: E731


STSB_FILE = lambda body: lambda root: write(sts(root) / "sts/stsb_multi_mt/stsb-en-dev.csv", body) and root  # noqa: E731


ASSIN_FILE = lambda body: lambda root: sts(root, assin=body)  # noqa: E731


def LATIN1(records: list[dict]) -> bytes:  # noqa: N802 - reads as the encoding's name
    return json.dumps(records, ensure_ascii=False).encode("latin-1")


def at(rel: Path | str) -> str:
    return str(rel).replace("/", "__")


A_BODY = A_HEADER + "a.1,EN,big fish,zero_shot,Before.,He is a big fish.,After.,0\n" + A_ROW + "\n"


CASES = [
    # SemEval-2022 2B dev + gold: encodings, binary, oversized field, header, directory
    Case(
        "dev-utf16-bom",
        lambda r: dev_file(r, TINY_DEV.encode("utf-16")),
        DEV_LOAD,
        "dev.csv",
        None,
        None,
        "encoded as UTF-16 (byte-order mark)",
    ),
    Case(
        "dev-utf16-no-bom",
        lambda r: dev_file(r, TINY_DEV.encode(UTF16_NO_BOM)),
        DEV_LOAD,
        "dev.csv",
        None,
        None,
        "looks like UTF-16 text without a byte-order mark",
    ),
    Case(
        "dev-utf32-bom",
        lambda r: dev_file(r, TINY_DEV.encode("utf-32")),
        DEV_LOAD,
        "dev.csv",
        None,
        None,
        "encoded as UTF-32",
    ),
    Case("dev-binary", lambda r: dev_file(r, BINARY), DEV_LOAD, "dev.csv", None, None, "looks like a binary file"),
    Case(
        "dev-200kib-field",
        lambda r: dev_file(r, lines_of(TINY_DEV, 3, f"3,EN,big fish,None,{BIG},b")),
        DEV_LOAD,
        "dev.csv",
        3,
        "sentence1",
        "204800 characters, longer than the CSV field limit (131072 characters)",
    ),
    Case(
        "dev-200kib-quoted-last-field",
        lambda r: dev_file(r, lines_of(TINY_DEV, 11, f'11,PT,sts,None,a,"{BIG}"')),
        DEV_LOAD,
        "dev.csv",
        11,
        "sentence2",
        "longer than the CSV field limit",
    ),
    Case(
        "dev-repeated-column",
        lambda r: dev_file(r, TINY_DEV.replace("sentence2\n", "sentence2,MWE1\n", 1)),
        DEV_LOAD,
        "dev.csv",
        0,
        "MWE1",
        "column appears twice in the header",
    ),
    Case(
        "dev-is-a-directory",
        lambda r: (
            (semeval(r) / "semeval2022_task2/SubTaskB/EvaluationData/dev.csv").unlink()
            or (r / "semeval2022_task2/SubTaskB/EvaluationData/dev.csv").mkdir()
            or r
        ),
        DEV_LOAD,
        "dev.csv",
        None,
        None,
        "not a regular file",
    ),
    Case(
        "dev-missing-file",
        lambda r: write_semeval_tree(r, gold=TINY_GOLD),
        DEV_LOAD,
        "dev.csv",
        None,
        None,
        "file not found",
    ),
    Case(
        "dev-id-empty-duplicate",
        lambda r: dev_file(r, lines_of(TINY_DEV, 2, "1,EN,big fish,None,a,b")),
        DEV_LOAD,
        "dev.csv",
        2,
        "ID",
        "duplicate '1' (first at row 1)",
    ),
    Case(
        "gold-utf16",
        lambda r: gold_file(r, TINY_GOLD.encode("utf-16")),
        DEV_LOAD,
        "dev.gold.csv",
        None,
        None,
        "encoded as UTF-16",
    ),
    Case(
        "gold-200kib-dataid",
        lambda r: gold_file(r, lines_of(TINY_GOLD, 2, f"2,{BIG},EN,,3")),
        DEV_LOAD,
        "dev.gold.csv",
        2,
        "DataID",
        "longer than the CSV field limit",
    ),
    Case(
        "gold-missing-otherid-column",
        lambda r: gold_file(r, "ID,DataID,Language,sim\n1,d,EN,1\n"),
        DEV_LOAD,
        "dev.gold.csv",
        0,
        "otherID",
        "missing column",
    ),
    Case(
        "gold-empty-dataid",
        lambda r: gold_file(r, lines_of(TINY_GOLD, 4, "5,  ,PT,1,")),
        DEV_LOAD,
        "dev.gold.csv",
        4,
        "DataID",
        "is empty",
    ),
    Case(
        "eval-pairs-header-only",
        lambda r: write(r / "test.csv", B_DEV_HEADER) and r,
        lambda r: load_eval_pairs(r / "test.csv"),
        "test.csv",
        None,
        "ID",
        "no rows (the file has a header only)",
    ),
    Case(
        "gold-header-only",
        lambda r: gold_file(r, B_GOLD_HEADER),
        DEV_LOAD,
        "dev.gold.csv",
        None,
        "ID",
        "no rows (the file has a header only)",
    ),
    Case(
        "gold-latin1-byte",
        lambda r: gold_file(r, TINY_GOLD.encode() + "12,dev.PT.é,PT,1,\n".encode("latin-1")),
        DEV_LOAD,
        "dev.gold.csv",
        10,
        "DataID",
        "not valid UTF-8 (byte 0xe9",
    ),
    # SemEval-2022 2B train
    Case(
        "train-200kib-field",
        lambda r: semeval(r, train=lines_of(TRAIN, 1, f"t1,big fish,None,EN,a,{BIG},1,,")),
        lambda r: load_train_pairs(r),
        "train_data.csv",
        1,
        "sentence_2",
        "longer than the CSV field limit",
    ),
    Case(
        "train-duplicate-id",
        lambda r: semeval(r, train=lines_of(TRAIN, 3, "t1,night owl,None,EN,a,b,1,,")),
        lambda r: load_train_pairs(r),
        "train_data.csv",
        3,
        "ID",
        "duplicate 't1' (first at row 1)",
    ),
    Case(
        "train-sim-not-a-number",
        lambda r: semeval(r, train=lines_of(TRAIN, 1, "t1,big fish,None,EN,a,b,high,,")),
        lambda r: load_train_pairs(r),
        "train_data.csv",
        1,
        "sim",
        "'high' is not a number",
    ),
    Case(
        "train-empty-mwe1",
        lambda r: semeval(r, train=lines_of(TRAIN, 4, "t4, ,None,EN,a,b,1,,")),
        lambda r: load_train_pairs(r),
        "train_data.csv",
        4,
        "MWE1",
        "is empty",
    ),
    Case(
        "train-latin1",
        lambda r: (
            write(
                semeval(r) / "semeval2022_task2/SubTaskB/TrainData/train_data.csv",
                TRAIN.replace("He is a big fish.", "Él es pez.").encode("latin-1"),
            )
            and r
        ),
        lambda r: load_train_pairs(r),
        "train_data.csv",
        1,
        "sentence_1",
        "not valid UTF-8 (byte 0xc9",
    ),
    Case(
        "train-short-row",
        lambda r: semeval(r, train=lines_of(TRAIN, 2, "t2,big fish,None,EN")),
        lambda r: load_train_pairs(r),
        "train_data.csv",
        2,
        "sentence_1",
        "missing value (4 values, 9 columns)",
    ),
    # SemEval-2022 2A through semeval2022.load_subtask_a
    Case(
        "a-dev-id-without-gold",
        lambda r: a_dev(r, gold=lines_of(A_GOLD, 2, "")),
        A_DEV_LOAD,
        "dev.csv",
        2,
        "ID",
        "'2' has no row in dev_gold.csv",
    ),
    Case(
        "a-gold-duplicate-id",
        lambda r: a_dev(r, gold=A_GOLD + "1,dev.EN.9,EN,1\n"),
        A_DEV_LOAD,
        "dev_gold.csv",
        3,
        "ID",
        "duplicate '1' (first at row 1)",
    ),
    Case(
        "a-gold-id-not-in-dev",
        lambda r: a_dev(r, gold=A_GOLD + "7,dev.EN.7,EN,1\n"),
        A_DEV_LOAD,
        "dev_gold.csv",
        3,
        "ID",
        "'7' is not an ID of dev.csv",
    ),
    Case(
        "a-gold-bad-label",
        lambda r: a_dev(r, gold=lines_of(A_GOLD, 1, "1,dev.EN.1,EN,idiomatic")),
        A_DEV_LOAD,
        "dev_gold.csv",
        1,
        "Label",
        "'idiomatic' is not 0 or 1",
    ),
    Case(
        "a-dev-empty-mwe",
        lambda r: a_dev(r, dev=lines_of(A_DEV, 2, "2,PT,,,Ele é.,")),
        A_DEV_LOAD,
        "dev.csv",
        2,
        "MWE",
        "is empty",
    ),
    Case(
        "a-train-unknown-language",
        lambda r: subtask_a(r, A_BODY.replace(",EN,night", ",XX,night")),
        A_TRAIN_LOAD,
        "train_zero_shot.csv",
        2,
        "Language",
        "unknown language 'XX'",
    ),
    Case(
        "a-train-duplicate-dataid",
        lambda r: subtask_a(r, A_BODY.replace("a.2,", "a.1,")),
        A_TRAIN_LOAD,
        "train_zero_shot.csv",
        2,
        "DataID",
        "duplicate 'a.1' (first at row 1)",
    ),
    Case(
        "a-train-utf16",
        lambda r: a_train(r, A_BODY.encode("utf-16")),
        A_TRAIN_LOAD,
        "train_zero_shot.csv",
        None,
        None,
        "encoded as UTF-16",
    ),
    Case(
        "a-train-one-shot-row",
        lambda r: subtask_a(r, A_BODY.replace("night owl,zero_shot", "night owl,one_shot")),
        A_TRAIN_LOAD,
        "train_zero_shot.csv",
        2,
        "Setting",
        "'one_shot' (expected 'zero_shot' in this file)",
    ),
    Case(
        "a-train-no-setting-column",
        lambda r: subtask_a(r, A_BODY.replace(",Setting,", ",Mode,", 1)),
        A_TRAIN_LOAD,
        "train_zero_shot.csv",
        0,
        "Setting",
        "missing column",
    ),
    # SemEval-2022 2A through the strict semeval2a module
    Case(
        "2a-train-wrong-setting",
        lambda r: a_train(r, A_BODY.replace("night owl,zero_shot", "night owl,one_shot")),
        SA_TRAIN_LOAD,
        "train_zero_shot.csv",
        2,
        "Setting",
        "'one_shot' (expected 'zero_shot' in this file)",
    ),
    Case(
        "2a-train-bad-label",
        lambda r: a_train(r, A_BODY.replace("After.,0", "After.,x")),
        SA_TRAIN_LOAD,
        "train_zero_shot.csv",
        1,
        "Label",
        "'x' is not 0 (idiomatic) or 1 (non-idiomatic)",
    ),
    Case(
        "2a-train-200kib-target",
        lambda r: a_train(r, A_BODY.replace("She is a night owl.", BIG)),
        SA_TRAIN_LOAD,
        "train_zero_shot.csv",
        2,
        "Target",
        "longer than the CSV field limit",
    ),
    Case(
        "2a-train-binary", lambda r: a_train(r, BINARY), SA_TRAIN_LOAD, "train_zero_shot.csv", None, None, "binary file"
    ),
    Case(
        "2a-dev-language-mismatch",
        lambda r: a_dev(r, gold=lines_of(A_GOLD, 2, "2,dev.PT.1,EN,1")),
        SA_DEV_LOAD,
        "dev_gold.csv",
        2,
        "Language",
        "'EN' but dev.csv says 'PT'",
    ),
    Case(
        "2a-gold-duplicate-id",
        lambda r: a_dev(r, gold=lines_of(A_GOLD, 2, "1,dev.PT.1,PT,1")),
        SA_DEV_LOAD,
        "dev_gold.csv",
        2,
        "ID",
        "duplicate '1' (first at row 1)",
    ),
    Case(
        "2a-dev-id-without-gold",
        lambda r: a_dev(r, dev=A_DEV + "3,EN,x,,x y,\n"),
        SA_DEV_LOAD,
        "dev.csv",
        3,
        "ID",
        "'3' has no row in dev_gold.csv",
    ),
    Case(
        "2a-gold-empty-dataid",
        lambda r: a_dev(r, gold=lines_of(A_GOLD, 1, "1,,EN,0")),
        SA_DEV_LOAD,
        "dev_gold.csv",
        1,
        "DataID",
        "is empty",
    ),
    # STS-B (no header) and ASSIN 2 (XML)
    Case(
        "stsb-not-a-number",
        STSB_FILE(STSB.replace("0.2", "low")),
        STS_LOAD,
        "stsb-en-dev.csv",
        2,
        "similarity",
        "'low' is not a number",
    ),
    Case(
        "stsb-extra-value",
        STSB_FILE(STSB.replace(",4.0", ",4.0,x")),
        STS_LOAD,
        "stsb-en-dev.csv",
        1,
        None,
        "has 4 values, expected 3",
    ),
    Case(
        "stsb-empty-sentence",
        STSB_FILE(STSB.replace("Stocks fell.", " ")),
        STS_LOAD,
        "stsb-en-dev.csv",
        2,
        "sentence2",
        "is empty",
    ),
    Case(
        "stsb-200kib-field",
        STSB_FILE(STSB + f"{BIG},b,1.0\n"),
        STS_LOAD,
        "stsb-en-dev.csv",
        3,
        "sentence1",
        "204800 characters, longer than the CSV field limit",
    ),
    Case("stsb-utf16", STSB_FILE(STSB.encode("utf-16")), STS_LOAD, "stsb-en-dev.csv", None, None, "encoded as UTF-16"),
    Case(
        "stsb-latin1",
        STSB_FILE(STSB.replace("Stocks", "Açoes").encode("latin-1")),
        STS_LOAD,
        "stsb-en-dev.csv",
        2,
        "sentence2",
        "not valid UTF-8 (byte 0xe7",
    ),
    Case(
        "assin-empty-h",
        ASSIN_FILE(ASSIN.replace("<h>Uma pessoa toca.</h>", "<h> </h>")),
        STS_LOAD,
        "assin2-dev.xml",
        1,
        "h",
        "is empty",
    ),
    Case(
        "assin-similarity-out-of-range",
        ASSIN_FILE(ASSIN.replace('"1.0"', '"6"')),
        STS_LOAD,
        "assin2-dev.xml",
        2,
        "similarity",
        "6 is outside [1, 5]",
    ),
    Case(
        "assin-no-pairs",
        ASSIN_FILE("<entailment-corpus></entailment-corpus>\n"),
        STS_LOAD,
        "assin2-dev.xml",
        None,
        "pair",
        "no <pair> elements",
    ),
    Case(
        "assin-utf16", ASSIN_FILE(ASSIN.encode("utf-16")), STS_LOAD, "assin2-dev.xml", None, None, "encoded as UTF-16"
    ),
    # IdioLink documents and queries (JSON lists)
    Case(
        "idiolink-top-level-object",
        lambda r: idiolink(r, raw_docs=json.dumps({"docs": DOCS})),
        IL_LOAD,
        "indexes.json",
        None,
        None,
        "top level must be a JSON list of records, got dict",
    ),
    Case(
        "idiolink-record-not-object",
        lambda r: idiolink(r, raw_docs=json.dumps([DOCS[0], ["d2"]])),
        IL_LOAD,
        "indexes.json",
        2,
        None,
        "must be a JSON object, got list",
    ),
    Case(
        "idiolink-id-not-a-string",
        lambda r: idiolink(r, docs=changed(DOCS, 2, id=3)),
        IL_LOAD,
        "indexes.json",
        3,
        "id",
        "must be a string, got int",
    ),
    Case(
        "idiolink-empty-sentence",
        lambda r: idiolink(r, queries=changed(QUERIES, 0, sentence=" ")),
        IL_LOAD,
        "queries.json",
        1,
        "sentence",
        "is empty",
    ),
    Case(
        "idiolink-span-wrong-type",
        lambda r: idiolink(r, docs=changed(DOCS, 0, span=5)),
        IL_LOAD,
        "indexes.json",
        1,
        "span",
        "must be a string or [start, end] offsets, got 5",
    ),
    Case(
        "idiolink-span-bool-offsets",
        lambda r: idiolink(r, queries=changed(QUERIES, 1, span=[True, 3])),
        IL_LOAD,
        "queries.json",
        2,
        "span",
        "must be a string or [start, end] offsets",
    ),
    Case(
        "idiolink-query-usage-sense",
        lambda r: idiolink(r, queries=changed(QUERIES, 0, usage="sense")),
        IL_LOAD,
        "queries.json",
        1,
        "usage",
        'unknown usage "sense" (expected one of literal, idiomatic)',
    ),
    Case(
        "idiolink-utf16-no-bom",
        lambda r: idiolink(r, raw_queries=json.dumps(QUERIES).encode(UTF16_NO_BOM)),
        IL_LOAD,
        "queries.json",
        None,
        None,
        "looks like UTF-16 text without a byte-order mark",
    ),
    Case("idiolink-binary", lambda r: idiolink(r, raw_docs=BINARY), IL_LOAD, "indexes.json", None, None, "binary file"),
    Case(
        "idiolink-empty-list",
        lambda r: idiolink(r, raw_docs="[]"),
        IL_LOAD,
        "indexes.json",
        None,
        None,
        "has no records",
    ),
    Case(
        "idiolink-subject-null",
        lambda r: idiolink(r, docs=changed(DOCS, 1, subject=None)),
        IL_LOAD,
        "indexes.json",
        2,
        "subject",
        "must be a string, got null",
    ),
    Case(
        "idiolink-latin1-in-a-list",
        lambda r: idiolink(r, raw_queries=LATIN1([{**QUERIES[0], "notes": ["café"]}])),
        IL_LOAD,
        "queries.json",
        1,
        "notes",
        "not valid UTF-8 (byte 0xe9 in '[\"caf",
    ),
    Case(
        "idiolink-latin1-in-a-key",
        lambda r: idiolink(r, raw_queries=LATIN1([QUERIES[0], {**QUERIES[1], "é": 1}])),
        IL_LOAD,
        "queries.json",
        None,
        None,
        "not valid UTF-8 (byte 0xe9 at line 1, offset ",
    ),
    Case(
        "idiolink-empty-idiom",
        lambda r: idiolink(r, docs=changed(DOCS, 3, idiom="")),
        IL_LOAD,
        "indexes.json",
        4,
        "idiom",
        "is empty",
    ),
    # IdioLink triplets (JSON lines)
    Case(
        "triplets-missing-usage",
        lambda r: triplets(
            r, [json.dumps({**TRIPLET, "query_usage": ...}, default=str).replace(', "query_usage": "Ellipsis"', "")]
        ),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        1,
        "query_usage",
        "missing field",
    ),
    Case(
        "triplets-negatives-not-strings",
        lambda r: triplets(r, [json.dumps({**TRIPLET, "negatives": [1]})]),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        1,
        "negatives",
        "must be a non-empty list of strings",
    ),
    Case(
        "triplets-unknown-usage",
        lambda r: triplets(r, [json.dumps(TRIPLET), json.dumps({**TRIPLET, "query_usage": "sense"})]),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        2,
        "query_usage",
        'unknown usage "sense"',
    ),
    Case(
        "triplets-line-not-object",
        lambda r: triplets(r, [json.dumps(TRIPLET), "[1, 2]"]),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        2,
        None,
        "must be a JSON object, got list",
    ),
    Case(
        "triplets-empty-positive",
        lambda r: triplets(r, [json.dumps({**TRIPLET, "positive": ""})]),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        1,
        "positive",
        "is empty",
    ),
    Case(
        "triplets-span-offsets-outside",
        lambda r: triplets(r, [json.dumps({**TRIPLET, "query_span": [3, 99]})]),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        1,
        "query_span",
        "outside the sentence",
    ),
    Case(
        "triplets-utf16",
        lambda r: write(r / "idiolink/train/triplets_train_span.jsonl", json.dumps(TRIPLET).encode("utf-16")) and r,
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        None,
        None,
        "encoded as UTF-16",
    ),
    # AdMIRe subtask A (TSV)
    Case(
        "admire-ragged-row",
        lambda r: admire(r, admire_row()[: admire_row().rindex("\t")]),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        1,
        "image5_caption",
        "missing value (14 values, 15 columns)",
    ),
    Case(
        "admire-extra-value",
        lambda r: admire(r, admire_row() + "\tx"),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        1,
        None,
        "has 16 values, header has 15 columns",
    ),
    Case(
        "admire-image-names-repeat",
        lambda r: admire(r, admire_row(image2_name="0.png")),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        1,
        "image1_name",
        "image names are not distinct",
    ),
    Case(
        "admire-empty-compound",
        lambda r: admire(r, admire_row(), admire_row(compound=" ")),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        2,
        "compound",
        "is empty",
    ),
    Case(
        "admire-order-not-a-list",
        lambda r: admire(r, admire_row(expected_order="{'0.png'}")),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        1,
        "expected_order",
        "must be a list of image file names",
    ),
    Case(
        "admire-missing-gold",
        lambda r: admire(r, admire_row(expected_order="")),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        1,
        "expected_order",
        "is empty (this split needs gold)",
    ),
    Case(
        "admire-missing-column",
        lambda r: admire(r, admire_row(), header="\t".join(COLUMNS[:-1] + ["caption5"])),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        0,
        "image5_caption",
        "missing column",
    ),
    Case(
        "admire-repeated-column",
        lambda r: admire(r, admire_row() + "\tx", header="\t".join(COLUMNS + ["subset"])),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        0,
        "subset",
        "column appears twice in the header",
    ),
    Case(
        "admire-utf16",
        lambda r: (
            write(r / "admire/en/subtask_a_dev.tsv", ("\t".join(COLUMNS) + "\n" + admire_row()).encode("utf-16")) and r
        ),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        None,
        None,
        "encoded as UTF-16",
    ),
    Case(
        "admire-200kib-sentence",
        lambda r: admire(r, admire_row(), admire_row(sentence=f"a bad apple {BIG}")),
        ADMIRE_LOAD,
        "subtask_a_dev.tsv",
        2,
        "sentence",
        "longer than the CSV field limit",
    ),
    # EPIE (aligned text files) and the definition lists
    Case(
        "epie-formal-untagged-row-non-bio",
        lambda r: epie(r, **{at(FORMAL / "Formal_Idioms_Tags.txt"): "O O O O O O O\nO O O O O O O\nO O X O O\n"}),
        lambda r: load_epie_usages(r),
        "Formal_Idioms_Tags.txt",
        3,
        "tags",
        "unknown tag 'X' (expected O, B-IDIOM, I-IDIOM)",
    ),
    Case(
        "epie-static-non-bio",
        lambda r: epie(
            r,
            **{
                at(
                    STATIC / "Static_Idioms_Tags.txt"
                ): "O O B-IDIOM I-IDIOM I-IDIOM O\nO B-IDIOM I-IDIOM I-IDIOM O I-MWE\n"
            },
        ),
        lambda r: load_idiom_data(r),
        "Static_Idioms_Tags.txt",
        2,
        "tags",
        "unknown tag 'I-MWE'",
    ),
    Case(
        "epie-static-lowercase-tag",
        lambda r: epie(
            r,
            **{at(STATIC / "Static_Idioms_Tags.txt"): "o o b-idiom i-idiom i-idiom o\nO B-IDIOM I-IDIOM I-IDIOM O O\n"},
        ),
        lambda r: load_idiom_data(r),
        "Static_Idioms_Tags.txt",
        1,
        "tags",
        "unknown tag 'o'",
    ),
    Case(
        "epie-static-tag-count",
        lambda r: epie(r, **{at(STATIC / "Static_Idioms_Tags.txt"): "O O B-IDIOM\nO B-IDIOM I-IDIOM I-IDIOM O O\n"}),
        lambda r: load_idiom_data(r),
        "Static_Idioms_Tags.txt",
        1,
        "tags",
        "3 tags for 6 tokens",
    ),
    Case(
        "epie-empty-idiom-line",
        lambda r: epie(r, **{at(EPIE / "Static_idioms.txt"): "just in case\n  \n"}),
        lambda r: load_idiom_data(r),
        "Static_idioms.txt",
        2,
        "idiom",
        "is empty",
    ),
    Case(
        "epie-formal-label",
        lambda r: epie(r, **{at(FORMAL / "Formal_Idioms_Labels.txt"): "1\n2\n1\n"}),
        lambda r: load_idiom_data(r),
        "Formal_Idioms_Labels.txt",
        2,
        "label",
        "'2' is not 0 or 1",
    ),
    Case(
        "epie-meanings-short",
        lambda r: epie(r, **{at(EPIE / "Static_idioms_meanings.txt"): "[]\n"}),
        lambda r: load_idiom_data(r),
        "Static_idioms_meanings.txt",
        None,
        None,
        "has 1 lines, Static_idioms.txt has 2",
    ),
    Case(
        "epie-translations-short",
        lambda r: epie(r, **{at(FORMAL / "translated_sentences.txt"): "x\n"}),
        lambda r: load_idiom_data(r),
        "translated_sentences.txt",
        None,
        None,
        "has 1 lines for 3 sentences",
    ),
    Case(
        "epie-tags-utf16",
        lambda r: (
            epie(r, **{at(STATIC / "Static_Idioms_Tags.txt"): ""})
            and write(r / STATIC / "Static_Idioms_Tags.txt", "O O O O O O\nO O O O O O\n".encode("utf-16"))
            and r
        ),
        lambda r: load_idiom_data(r),
        "Static_Idioms_Tags.txt",
        None,
        None,
        "encoded as UTF-16",
    ),
    Case(
        "baiango-malformed-line",
        lambda r: epie(r, **{at(BAIANGO): '"{Break a leg}>>{Good luck!}"\nKeep: watch\n'}),
        lambda r: load_baiango(r),
        "idioms.csv",
        2,
        "idiom",
        "expected one '{idiom}>>{definition}' value",
    ),
    Case(
        "baiango-empty-definition",
        lambda r: epie(r, **{at(BAIANGO): '"{Break a leg}>>{ }"\n'}),
        lambda r: load_baiango(r),
        "idioms.csv",
        1,
        "definition",
        "is empty",
    ),
    Case(
        "baiango-200kib-line",
        lambda r: epie(r, **{at(BAIANGO): f'"{{Break a leg}}>>{{{BIG}}}"\n'}),
        lambda r: load_baiango(r),
        "idioms.csv",
        1,
        "idiom",
        "longer than the CSV field limit",
    ),
    Case(
        "wiktionary-empty-definition",
        WIKI("idiom,definition\nkick the bucket,\n"),
        lambda r: load_wiktionary(r),
        "wiktionary.csv",
        1,
        "definition",
        "is empty",
    ),
    Case(
        "wiktionary-missing-column",
        WIKI("idiom,meaning\nkick the bucket,die\n"),
        lambda r: load_wiktionary(r),
        "wiktionary.csv",
        0,
        "definition",
        "missing column",
    ),
    Case(
        "wiktionary-utf16",
        lambda r: WIKI("")(r) and write(r / IDIOMS, "idiom,definition\na,b\n".encode("utf-16")) and r,
        lambda r: load_wiktionary(r),
        "wiktionary.csv",
        None,
        None,
        "encoded as UTF-16",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_loader_refuses_with_one_line_naming_file_row_field(case, tmp_path):
    root = case.build(tmp_path)
    with pytest.raises(DataError) as info:
        case.load(root)
    message = str(info.value)
    assert "\n" not in message and len(message) < 400, message
    assert Path(info.value.path).name == case.file, message
    assert (info.value.row, info.value.field) == (case.row, case.field), message
    assert expected_location(case) + ": " in message and case.problem in message, message


def test_ids_are_unique_and_the_sweep_is_wide():
    assert len({c.id for c in CASES}) == len(CASES) >= 60


def test_field_limit_is_restored_after_an_oversized_field(tmp_path):
    limit = csv.field_size_limit()
    with pytest.raises(DataError, match="longer than the CSV field limit"):
        load_sts(STSB_FILE(f"{BIG},b,1.0\n")(tmp_path), "dev")
    assert csv.field_size_limit() == limit


BOM = "\ufeff"


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


TRAIN_AWKWARD = B_TRAIN_HEADER + (
    't1,"big, fish",,EN,"He said ""hi"", a big fish.",Él es importante.,1,,\n'
    "t2,pão duro,None,PT,Ele é um pão duro.,Ele é avarento.,None,Ele é avarento.,Ele é um pão velho.\n"
    "\n"
    "t3,night owl,night owls,EN,She's a night owl 🦉.,She stays up late.,0.5,,\n"
)


DOCS_AWKWARD = [{**DOCS[0], "sentence": "A “hammer” can break the ice — on the pond.\u2028Yes."}, *DOCS[1:]]


TRIPLET_LINES = [
    json.dumps(TRIPLET),
    "",
    json.dumps({**TRIPLET, "positive": "He eased\u2028the tension."}, ensure_ascii=False),
    "   ",
    json.dumps({**TRIPLET, "query_span": None}),
]


VALID: list[tuple[str, Callable[[Path], Path], Callable[[Path], object], int]] = [
    ("dev-bom-crlf", lambda r: dev_file(r, (BOM + crlf(TINY_DEV)).encode()), lambda r: DEV_LOAD(r).pairs, 11),
    (
        "gold-bom-crlf-trailing-blank-lines",
        lambda r: gold_file(r, BOM + crlf(TINY_GOLD) + "\r\n\r\n"),
        lambda r: DEV_LOAD(r).gold,
        9,
    ),
    (
        "dev-quoted-newline-and-commas",
        lambda r: dev_file(r, TINY_DEV + '12,EN,"a, b",None,"x\ny","z, ""w"""\n'),
        lambda r: DEV_LOAD(r).pairs,
        12,
    ),
    (
        "dev-199kib-field-is-legal",
        lambda r: dev_file(r, TINY_DEV + f"12,EN,x,None,{'y' * 120_000},z\n"),
        lambda r: DEV_LOAD(r).pairs,
        12,
    ),
    ("train-quotes-unicode-empty-mwe2", lambda r: semeval(r, train=TRAIN_AWKWARD), lambda r: load_train_pairs(r), 3),
    ("train-bom-crlf", lambda r: semeval(r, train=BOM + crlf(TRAIN)), lambda r: load_train_pairs(r), 4),
    ("a-dev-bom-empty-context", lambda r: a_dev(r, dev=BOM + crlf(A_DEV), gold=BOM + A_GOLD), A_DEV_LOAD, 2),
    ("a-train-empty-previous-next", lambda r: subtask_a(r, crlf(A_BODY)), A_TRAIN_LOAD, 2),
    ("2a-train-bom", lambda r: a_train(r, BOM + A_BODY), SA_TRAIN_LOAD, 2),
    ("2a-dev-gold-crlf", lambda r: a_dev(r, dev=crlf(A_DEV), gold=crlf(A_GOLD)), SA_DEV_LOAD, 2),
    ("stsb-bom-crlf-quotes", STSB_FILE(BOM + crlf(STSB) + '"Um, dois",“três”,5\n'), STS_LOAD, 5),  # 3 + assin's 2
    ("assin-bom", ASSIN_FILE(BOM + ASSIN), STS_LOAD, 4),
    ("idiolink-docs-bom", lambda r: idiolink(r, raw_docs=BOM + json.dumps(DOCS)), lambda r: IL_LOAD(r).documents, 4),
    (
        "idiolink-queries-bom-crlf-indent",
        lambda r: idiolink(r, raw_queries=BOM + crlf(json.dumps(QUERIES, indent=2))),
        lambda r: IL_LOAD(r).queries,
        2,
    ),
    (
        "idiolink-unicode-u2028",
        lambda r: idiolink(r, raw_docs=json.dumps(DOCS_AWKWARD, ensure_ascii=False)),
        lambda r: IL_LOAD(r).documents,
        4,
    ),
    (
        "triplets-bom-blank-lines-u2028",
        lambda r: (
            write(r / "idiolink/train/triplets_train_span.jsonl", BOM + crlf("\n".join(TRIPLET_LINES) + "\n")) and r
        ),
        TRIPLET_LOAD,
        3,
    ),
    (
        "admire-lf-empty-optional-fields",
        lambda r: admire(
            r,
            admire_row(sentence_type="", subset=""),
            admire_row(compound="hen party", sentence="Hen parties are loud."),
            "",
            newline="\n",
        ),
        ADMIRE_LOAD,
        2,
    ),
    (
        "admire-bom-quoted-caption",
        lambda r: admire(r, admire_row(image1_caption='"a ""red"" apple"'), header=BOM + "\t".join(COLUMNS)),
        ADMIRE_LOAD,
        1,
    ),
    (
        "epie-crlf",
        lambda r: epie(
            r, **{at(STATIC / "Static_Idioms_Words.txt"): "Bring it just in case .\r\nA rule of thumb helps .\r\n"}
        ),
        lambda r: PAIRS(r),
        3,
    ),  # = with LF endings
    (
        "baiango-bom-crlf",
        lambda r: epie(
            r, **{at(BAIANGO): BOM + '"{Break a leg}>>{Good, luck!}"\r\n\r\n"{Hit the sack}>>{Go to bed.}"\r\n'}
        ),
        lambda r: load_baiango(r)[0],
        2,
    ),
    (
        "wiktionary-quoted-comma-unicode",
        WIKI('idiom,definition\n"cold feet","nervous, afraid"\ncafé au lait,“x”\n'),
        lambda r: load_wiktionary(r)[0],
        2,
    ),
]


@pytest.mark.parametrize("build,load,count", [v[1:] for v in VALID], ids=[v[0] for v in VALID])
def test_awkward_but_legal_files_load_every_row(build, load, count, tmp_path, caplog):
    root = build(tmp_path)
    with caplog.at_level(logging.WARNING, logger="idiomkit.data"):
        loaded = load(root)
    assert len(loaded) == count
    assert "skipped" not in caplog.text, caplog.text


def test_bom_json_keeps_the_first_record_intact(tmp_path):
    docs = IL_LOAD(idiolink(tmp_path, raw_docs=(BOM + json.dumps(DOCS)).encode())).documents
    assert docs[0].id == "d1" and docs[0].span_text == "break the ice"


def test_triplet_line_with_u2028_is_one_record(tmp_path):
    root = triplets(tmp_path, [json.dumps({**TRIPLET, "positive": "a\u2028b"}, ensure_ascii=False)])
    assert [t.positive for t in TRIPLET_LOAD(root)] == ["a\u2028b"]


def lenient_dev(tmp_path, extra: str):
    root = write_semeval_tree(tmp_path, dev=TINY_DEV + extra, gold=TINY_GOLD)
    return load_subtask_b(root, "dev", strict=False)


def test_lenient_bad_row_does_not_take_a_later_valid_row_with_its_id(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        split = lenient_dev(tmp_path, "12,FR,x,None,a,b\n12,EN,x,None,a,b\n")
    assert [p.id for p in split.pairs][-1] == "12" and split.pairs[-1].language == "EN"
    assert "skipped 1 bad row(s); first: " in caplog.text and "row 12: field 'Language'" in caplog.text


def test_lenient_bad_row_after_a_valid_row_with_its_id_keeps_the_first(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        split = lenient_dev(tmp_path, "12,EN,x,None,a,b\n12,EN,x,None,,b\n")
    assert len(split.pairs) == 12 and split.pairs[-1].sentence1 == "a"
    assert "skipped 1 bad row(s)" in caplog.text and "row 13: field 'sentence1': is empty" in caplog.text


def test_lenient_second_valid_row_with_a_kept_id_is_counted(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        split = lenient_dev(tmp_path, "12,EN,x,None,a,b\n12,PT,y,None,c,d\n")
    assert [p.mwe1 for p in split.pairs if p.id == "12"] == ["x"]
    assert "skipped 1 bad row(s)" in caplog.text and "duplicate '12' (first at row 12)" in caplog.text


def test_lenient_ragged_row_is_skipped_and_counted_not_fatal(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        split = lenient_dev(tmp_path, "12,EN,x\n13,EN,x,None,a,b,c\n14,EN,x,None,a,b\n")
    assert [p.id for p in split.pairs][-1] == "14" and len(split.pairs) == 12
    assert "skipped 2 bad row(s)" in caplog.text


def test_lenient_2a_dev_counts_ids_without_gold_and_keeps_the_first_gold_row(tmp_path, caplog):
    root = a_dev(tmp_path, dev=A_DEV + "3,EN,x,,x y,\n", gold=A_GOLD + "1,dev.EN.9,EN,1\n9,dev.EN.9,EN,1\n")
    with caplog.at_level(logging.WARNING):
        dev = load_subtask_a(root, "dev", strict=False)
    assert [(ex.id, ex.label) for ex in dev] == [("1", 0), ("2", 1)]  # the repeated gold row did not overwrite 0
    assert all(ex.label is not None for ex in dev)
    assert "dev_gold.csv: skipped 1 bad row(s)" in caplog.text and "duplicate '1'" in caplog.text
    assert "dev.csv: skipped 1 bad row(s)" in caplog.text and "'3' has no row in dev_gold.csv" in caplog.text
    assert "1 gold row(s) label no loaded dev example" in caplog.text


def test_lenient_admire_skips_and_counts_a_ragged_row(tmp_path, caplog):
    root = admire(tmp_path, admire_row(), "bad apple\tDev", admire_row(compound="hen party", sentence="A hen party."))
    with caplog.at_level(logging.WARNING):
        items = load_admire(root, "dev", strict=False).items
    assert [i.compound for i in items] == ["bad apple", "hen party"]
    assert "skipped 1 bad row(s); first: " in caplog.text
    assert "row 2: field 'sentence_type': missing value" in caplog.text


def test_meaning_line_without_a_sense_block_is_counted(tmp_path, caplog):
    root = epie(tmp_path, **{at(EPIE / "Static_idioms_meanings.txt"): '[<div class="ds-single">Just so.</div>]\n[]\n'})
    with caplog.at_level(logging.INFO, logger="idiomkit.data.definitions"):
        data = load_idiom_data(root, sources=("epie",))
    assert "rule of thumb" not in data.idioms and "just in case" in data.idioms
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]  # an idiom dropped: said aloud
    assert any(
        "Static_idioms_meanings.txt: 1 of 2 meaning lines have no sense block (first: row 2)" in m
        and "left out unless another source defines them" in m
        for m in warned
    ), warned
    assert "EPIE static: 1 of 2 sentences give no sentence pair (1 idiom without a definition)" in caplog.text


def test_the_known_sense_block_gap_is_said_once_at_info_and_a_changed_one_warned(tmp_path, caplog, monkeypatch):
    """Issue #42.6: the shipped EPIE files' known gaps were 2 WARNING lines in every command (4 in a flagship run:
    each file read twice). A known gap: one INFO line however often it is read; another count: a WARNING."""
    from idiomkit.data import definitions

    root = epie(tmp_path, **{at(EPIE / "Static_idioms_meanings.txt"): '[<div class="ds-single">Just so.</div>]\n[]\n'})
    monkeypatch.setattr(definitions, "EPIE_NO_SENSE", {"static": (1, 2), "formal": (0, 2)})
    with caplog.at_level(logging.DEBUG, logger="idiomkit.data.definitions"):
        load_idiom_data(root, sources=("epie",))
        load_idiom_data(root, sources=("epie",))
    said = [(r.levelname, r.getMessage()) for r in caplog.records if "sense block" in r.getMessage()]
    assert [level for level, _ in said] == ["INFO", "DEBUG"], said
    assert said[0][1].startswith(
        f"{root / EPIE / 'Static_idioms_meanings.txt'}: 1 of 2 meaning lines have no sense "
        "block (first: row 2) (the known gap of EPIE); those idioms get no EPIE definition"
    )
    caplog.clear()
    monkeypatch.setattr(definitions, "EPIE_NO_SENSE", {"static": (14, 359), "formal": (61, 358)})
    with caplog.at_level(logging.INFO, logger="idiomkit.data.definitions"):
        load_idiom_data(root, sources=("epie",))
    (warned,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "1 of 2 meaning lines have no sense block (first: row 2) (the shipped file has 14 of 359: it changed)" in (
        warned
    )


def test_untagged_static_sentence_and_literal_formal_sentences_are_counted(tmp_path, caplog):
    root = epie(tmp_path, **{at(STATIC / "Static_Idioms_Tags.txt"): "O O O O O O\nO B-IDIOM I-IDIOM I-IDIOM O O\n"})
    with caplog.at_level(logging.INFO, logger="idiomkit.data.definitions"):
        data = load_idiom_data(root, sources=("epie",))
    assert [p.source for p in data.idioms["rule of thumb"].pairs] == ["epie-static"]
    assert "EPIE static: 1 of 2 sentences give no sentence pair (1 no tagged idiom span)" in caplog.text
    assert "EPIE formal: 2 of 3 sentences give no sentence pair (1 literal, 1 no paraphrase" in caplog.text
