"""Bad-input sweep: the defect cases and the one-line error check (unit, unit/data, integration/cli)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from helpers import B_DEV_HEADER, B_TRAIN_HEADER, TINY_DEV, TINY_GOLD, write_semeval_tree
from idiomkit.data.idiolink import load_idiolink, load_triplets
from idiomkit.data.semeval2022 import load_subtask_a, load_subtask_b, load_train_pairs
from idiomkit.data.sts import load_sts
from idiomkit.io import read_texts
from idiomkit.tasks.semeval2b import read_2b_submission, score_submission

TRAIN = B_TRAIN_HEADER + (
    "t1,big fish,None,EN,He is a big fish.,He is important.,1,,\n"
    "t2,big fish,None,EN,He is a big fish.,He is a large fish.,None,He is important.,He is a large fish.\n"
    "t3,night owl,None,EN,She is a night owl.,She stays up late.,1,,\n"
    "t4,night owl,None,EN,She is a night owl.,She is an owl.,None,She stays up late.,She is an owl.\n"
)


A_HEADER = "DataID,Language,MWE,Setting,Previous,Target,Next,Label\n"


A_TRAIN = A_HEADER + "a.1,EN,big fish,zero_shot,Before.,He is a big fish.,After.,0\n"


STSB = "A man plays.,A person plays.,4.0\nA cat sleeps.,Stocks fell.,0.2\n"


ASSIN = (
    "<?xml version='1.0' encoding='utf-8'?>\n<entailment-corpus>\n"
    '<pair id="1" similarity="4.5"><t>Um homem toca.</t><h>Uma pessoa toca.</h></pair>\n'
    '<pair id="2" similarity="1.0"><t>Um gato dorme.</t><h>A bolsa caiu.</h></pair>\n'
    "</entailment-corpus>\n"
)


def il(id, sentence, span, usage, idiom="break the ice", is_gold=False):
    return {
        "id": id,
        "sentence": sentence,
        "idiom": idiom,
        "span": span,
        "subject": "S",
        "usage": usage,
        "is_gold": is_gold,
    }


DOCS = [
    il("d1", "A hammer can break the ice on the pond.", "break the ice", "literal"),
    il("d2", "A joke helped break the ice at the meeting.", "break the ice", "idiomatic"),
    il("d3", "A joke helped ease the tension at the meeting.", "ease the tension", "simplification"),
    il("d4", "Games help strangers feel comfortable.", "feel comfortable", "sense"),
]


QUERIES = [
    il("q1", "The ship can break the ice in the harbour.", "break the ice", "literal"),
    il("q2", "Small talk can break the ice with new people.", [15, 28], "idiomatic"),
]


TRIPLET = {
    "query": "He broke the ice.",
    "positive": "He eased the tension.",
    "negatives": ["He broke a glass."],
    "query_idiom": "break the ice",
    "query_usage": "idiomatic",
    "query_span": "broke the ice",
}


def semeval(root: Path, dev: str = TINY_DEV, gold: str = TINY_GOLD, train: str = TRAIN) -> Path:
    return write_semeval_tree(root, dev=dev, gold=gold, train=train)


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def subtask_a(root: Path, body: str) -> Path:
    write(root / "semeval2022_task2/SubTaskA/Data/train_zero_shot.csv", body)
    return root


def sts(root: Path, stsb: str = STSB, assin: str | bytes = ASSIN) -> Path:
    write(root / "sts/stsb_multi_mt/stsb-en-dev.csv", stsb)
    write(root / "sts/assin2/assin2-dev.xml", assin)
    return semeval(root)  # the training CLI reads 2B train before the STS dev files


def idiolink(root: Path, docs=None, queries=None, raw_docs=None, raw_queries=None) -> Path:
    base = root / "idiolink" / "test"
    write(base / "indexes.json", raw_docs if raw_docs is not None else json.dumps(docs or DOCS))
    write(base / "queries.json", raw_queries if raw_queries is not None else json.dumps(queries or QUERIES))
    return root


def triplets(root: Path, lines: list[str]) -> Path:
    write(root / "idiolink/train/triplets_train_span.jsonl", "\n".join(lines) + "\n")
    return root


def changed(records: list[dict], index: int, **fields) -> list[dict]:
    out = copy.deepcopy(records)
    out[index].update(fields)
    return [{k: v for k, v in r.items() if v is not ...} for r in out]


def lines_of(text: str, index: int, new: str) -> str:
    """``text`` with line ``index`` (0 = header) replaced by ``new``."""
    rows = text.splitlines(keepends=True)
    rows[index] = new + "\n"
    return "".join(rows)


DEV_LOAD = lambda root: load_subtask_b(root, "dev")  # noqa: E731


TRAIN_LOAD = lambda root: load_train_pairs(root)  # noqa: E731


IL_LOAD = lambda root: load_idiolink(root, "test")  # noqa: E731


STS_LOAD = lambda root: load_sts(root, "dev")  # noqa: E731


TRIPLET_LOAD = lambda root: load_triplets(root / "idiolink/train/triplets_train_span.jsonl")  # noqa: E731


EMBED_FILE = "input.jsonl"


def score_cli(root: Path) -> list[str]:
    rows = "".join(f"{i},EN,pre_train,0.5\n" for i in range(1, 12))
    sub = write(root / "sub.csv", "ID,Language,Setting,Sim\n" + rows)
    return ["score", str(sub), "--data-dir", str(root)]


def idiolink_cli(root: Path) -> list[str]:
    return ["evaluate", "idiolink", "-m", "bm25", "--query-mode", "sentence", "--no-write", "--data-dir", str(root)]


def train_cli(recipe: str = "cosine", *extra: str) -> Callable[[Path], list[str]]:
    def args(root: Path) -> list[str]:
        return [
            "train",
            "--recipe",
            recipe,
            "--epochs",
            "1",
            "--limit-groups",
            "2",
            "--batch-size",
            "4",
            "--output",
            str(root / "run"),
            "--data-dir",
            str(root),
            *extra,
        ]

    return args


def embed_cli(root: Path) -> list[str]:
    return ["embed", "--input", str(root / EMBED_FILE), "--pooling", "span"]


LANGUAGE = {str(i): "EN" if i in (1, 2, 3, 4, 8, 9) else "PT" for i in range(1, 12)}  # of TINY_DEV's pairs


def submission(root: Path, rows: str) -> Path:
    """A tiny SemEval tree with ``sub.csv`` (``rows`` under the submission header)."""
    write(semeval(root) / "sub.csv", "ID,Language,Setting,Sim\n" + rows)
    return root


def sub_rows(setting: str = "pre_train", skip: tuple[str, ...] = (), sim: str | None = None, **language: str) -> str:
    """One row per TINY_DEV pair (but ``skip``), its language (or ``language[f"id{ID}"]``), Sim = ID / 20 (or
    ``sim``)."""
    return "".join(
        f"{i},{language.get(f'id{i}', LANGUAGE[i])},{setting},{int(i) / 20 if sim is None else sim}\n"
        for i in LANGUAGE
        if i not in skip
    )


def score_file(setting: str = "pre_train") -> Callable[[Path], object]:
    """Score ``sub.csv`` as ``idiomkit score`` does (gold and pairs of the tiny dev split)."""

    def load(root: Path) -> object:
        split = load_subtask_b(root, "dev")
        return score_submission(root / "sub.csv", split.gold or [], setting, split.pairs)

    return load


def score_sub_cli(setting: str = "pre_train") -> Callable[[Path], list[str]]:
    return lambda root: ["score", str(root / "sub.csv"), "--setting", setting, "--data-dir", str(root)]


LATIN1_DOCS = json.dumps(changed(DOCS, 2, subject="Café"), ensure_ascii=False, indent=1).encode("latin-1")


@dataclass(frozen=True)
class Case:
    """One malformed input: how to build it, which loader reads it, what the message must name."""

    id: str
    build: Callable[[Path], Path]
    load: Callable[[Path], object]
    file: str
    row: int | None
    field: str | None
    problem: str
    cli: Callable[[Path], list[str]] | None = None


NAN_GOLD = lines_of(TINY_GOLD, 1, "1,dev.EN.1.1,EN,nan,")


CASES = [
    # SemEval 2B dev pairs + gold (CLI: `score`, which loads both before reading the submission)
    Case(
        "dev-missing-column",
        lambda r: semeval(r, dev=TINY_DEV.replace(",sentence2\n", "\n", 1)),
        DEV_LOAD,
        "dev.csv",
        0,
        "sentence2",
        "missing column",
        score_cli,
    ),
    Case(
        "dev-short-row",
        lambda r: semeval(r, dev=lines_of(TINY_DEV, 3, "3,EN,big fish,None,He is.")),
        DEV_LOAD,
        "dev.csv",
        3,
        "sentence2",
        "missing value",
        score_cli,
    ),
    Case(
        "dev-extra-value",
        lambda r: semeval(r, dev=lines_of(TINY_DEV, 2, "2,EN,big fish,None,a,b,c")),
        DEV_LOAD,
        "dev.csv",
        2,
        None,
        "has 7 values, header has 6 columns",
        score_cli,
    ),
    Case(
        "dev-empty-text",
        lambda r: semeval(r, dev=lines_of(TINY_DEV, 4, "4,EN,night owl,None,  ,She stays.")),
        DEV_LOAD,
        "dev.csv",
        4,
        "sentence1",
        "is empty",
        score_cli,
    ),
    Case(
        "dev-unknown-language",
        lambda r: semeval(r, dev=lines_of(TINY_DEV, 5, "5,FR,pão duro,None,a,b")),
        DEV_LOAD,
        "dev.csv",
        5,
        "Language",
        "unknown language 'FR'",
        score_cli,
    ),
    Case(
        "dev-duplicate-id",
        lambda r: semeval(r, dev=lines_of(TINY_DEV, 6, "5,PT,pão duro,None,a,b")),
        DEV_LOAD,
        "dev.csv",
        6,
        "ID",
        "duplicate '5' (first at row 5)",
        score_cli,
    ),
    Case("dev-empty-file", lambda r: semeval(r, dev="\n"), DEV_LOAD, "dev.csv", None, None, "file is empty", score_cli),
    Case(
        "dev-latin1",
        lambda r: (
            write(semeval(r) / "semeval2022_task2/SubTaskB/EvaluationData/dev.csv", TINY_DEV.encode("latin-1")) and r
        ),
        DEV_LOAD,
        "dev.csv",
        5,
        "MWE1",
        "not valid UTF-8",
        score_cli,
    ),
    Case(
        "gold-nan", lambda r: semeval(r, gold=NAN_GOLD), DEV_LOAD, "dev.gold.csv", 1, "sim", "outside [0, 1]", score_cli
    ),
    Case(
        "gold-out-of-range",
        lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "4,dev.EN.2.1,EN,1.2,")),
        DEV_LOAD,
        "dev.gold.csv",
        3,
        "sim",
        "1.2 is outside [0, 1]",
        score_cli,
    ),
    Case(
        "gold-not-a-number",
        lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "4,dev.EN.2.1,EN,high,")),
        DEV_LOAD,
        "dev.gold.csv",
        3,
        "sim",
        "'high' is not a number",
        score_cli,
    ),
    Case(
        "gold-dangling-otherid",
        lambda r: semeval(r, gold=lines_of(TINY_GOLD, 2, "2,dev.EN.1.2,EN,,99")),
        DEV_LOAD,
        "dev.gold.csv",
        2,
        "otherID",
        "'99' points to no pair",
        score_cli,
    ),
    Case(
        "gold-id-not-in-pairs",
        lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "44,dev.EN.2.1,EN,1,")),
        DEV_LOAD,
        "dev.gold.csv",
        3,
        "ID",
        "'44' is not an ID of the pair file",
        score_cli,
    ),
    Case(
        "gold-no-similarity",
        lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "4,dev.EN.2.1,EN,,")),
        DEV_LOAD,
        "dev.gold.csv",
        3,
        "sim",
        "no gold similarity",
        score_cli,
    ),
    Case(
        "gold-duplicate-id",
        lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "1,dev.EN.2.1,EN,1,")),
        DEV_LOAD,
        "dev.gold.csv",
        3,
        "ID",
        "duplicate '1'",
        score_cli,
    ),
    # SemEval 2B train (CLI: `train`, once per loader: each run costs ~2 s)
    Case(
        "train-negative-sim",
        lambda r: semeval(r, train=lines_of(TRAIN, 1, "t1,big fish,None,EN,a,b,-1,,")),
        TRAIN_LOAD,
        "train_data.csv",
        1,
        "sim",
        "-1 is outside [0, 1]",
        train_cli(),
    ),
    Case(
        "train-missing-alternative",
        lambda r: semeval(r, train=lines_of(TRAIN, 2, "t2,big fish,None,EN,a,b,None,,x")),
        TRAIN_LOAD,
        "train_data.csv",
        2,
        "alternative_1",
        "is empty",
    ),
    Case(
        "train-unknown-language",
        lambda r: semeval(r, train=lines_of(TRAIN, 3, "t3,night owl,None,en,a,b,1,,")),
        TRAIN_LOAD,
        "train_data.csv",
        3,
        "Language",
        "unknown language 'en'",
    ),
    # SemEval subtask A (loader only)
    Case(
        "subtask-a-bad-label",
        lambda r: subtask_a(r, A_TRAIN.replace(",0\n", ",2\n")),
        lambda r: load_subtask_a(r, "train_zero_shot"),
        "train_zero_shot.csv",
        1,
        "Label",
        "'2' is not 0 or 1",
    ),
    Case(
        "subtask-a-empty-target",
        lambda r: subtask_a(r, A_TRAIN.replace("He is a big fish.", "")),
        lambda r: load_subtask_a(r, "train_zero_shot"),
        "train_zero_shot.csv",
        1,
        "Target",
        "is empty",
    ),
    # STS-B / ASSIN 2 dev (CLI: `train`, which validates on STS dev)
    Case(
        "stsb-out-of-range",
        lambda r: sts(r, stsb=STSB.replace("4.0", "7")),
        STS_LOAD,
        "stsb-en-dev.csv",
        1,
        "similarity",
        "7 is outside [0, 5]",
        train_cli("cosine", "--val-sts"),
    ),
    Case(
        "stsb-missing-score",
        lambda r: sts(r, stsb=STSB.replace(",0.2", "")),
        STS_LOAD,
        "stsb-en-dev.csv",
        2,
        "similarity",
        "missing value",
    ),
    Case(
        "assin-truncated-xml",
        lambda r: sts(r, assin=ASSIN[:-30]),
        STS_LOAD,
        "assin2-dev.xml",
        2,
        None,
        "not well-formed XML",
    ),
    Case(
        "assin-missing-similarity",
        lambda r: sts(r, assin=ASSIN.replace(' similarity="1.0"', "")),
        STS_LOAD,
        "assin2-dev.xml",
        2,
        "similarity",
        "'' is not a number",
        train_cli("cosine", "--val-sts"),
    ),
    # IdioLink test (CLI: `evaluate idiolink -m bm25`, no neural model)
    Case(
        "idiolink-truncated-json",
        lambda r: idiolink(r, raw_queries=json.dumps(QUERIES)[:-40]),
        IL_LOAD,
        "queries.json",
        None,
        None,
        "invalid or truncated JSON",
        idiolink_cli,
    ),
    Case(
        "idiolink-span-not-in-sentence",
        lambda r: idiolink(r, docs=changed(DOCS, 1, span="kick the bucket")),
        IL_LOAD,
        "indexes.json",
        2,
        "span",
        "'kick the bucket' does not occur",
        idiolink_cli,
    ),
    Case(
        "idiolink-span-offsets",
        lambda r: idiolink(r, queries=changed(QUERIES, 1, span=[15, 99])),
        IL_LOAD,
        "queries.json",
        2,
        "span",
        "outside the sentence",
        idiolink_cli,
    ),
    Case(
        "idiolink-unknown-usage",
        lambda r: idiolink(r, docs=changed(DOCS, 2, usage="figurative")),
        IL_LOAD,
        "indexes.json",
        3,
        "usage",
        'unknown usage "figurative"',
        idiolink_cli,
    ),
    Case(
        "idiolink-duplicate-id",
        lambda r: idiolink(r, docs=changed(DOCS, 3, id="d1")),
        IL_LOAD,
        "indexes.json",
        4,
        "id",
        "duplicate 'd1' (first at row 1)",
        idiolink_cli,
    ),
    Case(
        "idiolink-missing-field",
        lambda r: idiolink(r, queries=changed(QUERIES, 0, subject=...)),
        IL_LOAD,
        "queries.json",
        1,
        "subject",
        "missing field",
        idiolink_cli,
    ),
    Case(
        "idiolink-bad-is-gold",
        lambda r: idiolink(r, docs=changed(DOCS, 0, is_gold="yes")),
        IL_LOAD,
        "indexes.json",
        1,
        "is_gold",
        'must be true or false, got "yes"',
        idiolink_cli,
    ),
    Case(
        "idiolink-query-idiom-without-docs",
        lambda r: idiolink(r, queries=changed(QUERIES, 1, idiom="spill it")),
        IL_LOAD,
        "queries.json",
        2,
        "idiom",
        "'spill it' has no documents",
        idiolink_cli,
    ),
    Case(
        "idiolink-wrong-encoding",
        lambda r: idiolink(r, raw_docs=json.dumps(DOCS, indent=1).encode("utf-16")),
        IL_LOAD,
        "indexes.json",
        None,
        None,
        "not valid UTF-8",
        idiolink_cli,
    ),
    Case(
        "idiolink-empty-file",
        lambda r: idiolink(r, raw_docs="  \n"),
        IL_LOAD,
        "indexes.json",
        None,
        None,
        "file is empty",
        idiolink_cli,
    ),
    # IdioLink training triplets (CLI: `train --recipe idiolink-infonce`)
    Case(
        "triplets-truncated-line",
        lambda r: triplets(r, [json.dumps(TRIPLET), json.dumps(TRIPLET)[:-12]]),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        2,
        None,
        "invalid or truncated JSON",
        train_cli("idiolink-infonce"),
    ),
    Case(
        "triplets-no-negatives",
        lambda r: triplets(r, [json.dumps({**TRIPLET, "negatives": []})]),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        1,
        "negatives",
        "non-empty list",
    ),
    Case(
        "triplets-span-not-in-query",
        lambda r: triplets(r, [json.dumps(TRIPLET), json.dumps({**TRIPLET, "query_span": "spill"})]),
        TRIPLET_LOAD,
        "triplets_train_span.jsonl",
        2,
        "query_span",
        "'spill' does not occur",
    ),
    # `idiomkit embed --input` files
    Case(
        "embed-span-outside-text",
        lambda r: (
            write(r / EMBED_FILE, '{"text": "a b", "span": [0, 3]}\n{"text": "he died", "span": [3, 70]}\n') and r
        ),
        lambda r: read_texts(r / EMBED_FILE),
        EMBED_FILE,
        2,
        "span",
        "is not [start, end] inside the text",
        embed_cli,
    ),
    Case(
        "embed-missing-text",
        lambda r: write(r / EMBED_FILE, '{"txt": "he died"}\n') and r,
        lambda r: read_texts(r / EMBED_FILE),
        EMBED_FILE,
        1,
        "text",
        "missing",
        embed_cli,
    ),
    Case(
        "embed-text-not-a-string",
        lambda r: write(r / EMBED_FILE, '{"text": "fine", "span": [0, 4]}\n{"text": 5}\n') and r,
        lambda r: read_texts(r / EMBED_FILE),
        EMBED_FILE,
        2,
        "text",
        "expected a string, got int",
        embed_cli,
    ),
    Case(
        "embed-span-of-booleans",
        lambda r: write(r / EMBED_FILE, '{"text": "a b", "span": [true, 2]}\n') and r,
        lambda r: read_texts(r / EMBED_FILE),
        EMBED_FILE,
        1,
        "span",
        "is not [start, end] inside the text",
        embed_cli,
    ),
    Case(
        "embed-span-missing-with-span-pooling",
        lambda r: write(r / EMBED_FILE, '{"text": "a b", "span": [0, 1]}\n{"text": "he died"}\n') and r,
        lambda r: read_texts(r / EMBED_FILE, spans_required=True),
        EMBED_FILE,
        2,
        "span",
        "missing (--pooling span needs a [start, end] span for every text)",
        embed_cli,
    ),
    # issue #39.5: the last bad-input gaps
    Case(
        "dev-header-only",
        lambda r: semeval(r, dev=B_DEV_HEADER),
        DEV_LOAD,
        "dev.csv",
        None,
        "ID",
        "no rows (the file has a header only)",
        score_cli,
    ),
    Case(
        "idiolink-latin1-record",
        lambda r: idiolink(r, raw_docs=LATIN1_DOCS),
        IL_LOAD,
        "indexes.json",
        3,
        "subject",
        "not valid UTF-8 (byte 0xe9 in ",
        idiolink_cli,
    ),
    # submission CSV for `score`
    Case(
        "submission-not-a-number",
        lambda r: (
            write(semeval(r) / "sub.csv", "ID,Language,Setting,Sim\n1,EN,pre_train,0.5\n2,EN,pre_train,x\n") and r
        ),
        lambda r: read_2b_submission(r / "sub.csv"),
        "sub.csv",
        2,
        "Sim",
        "'x' is not a number",
        lambda r: ["score", str(r / "sub.csv"), "--data-dir", str(r)],
    ),
    Case(
        "submission-missing-rows",
        lambda r: submission(r, sub_rows(skip=("11",))),
        score_file(),
        "sub.csv",
        None,
        "ID",
        "no pre_train row for 1 ID(s) the gold data needs (first: 11)",
        score_sub_cli(),
    ),
    Case(
        "submission-fine-tune-sims-empty",
        lambda r: submission(r, sub_rows() + sub_rows("fine_tune", sim="")),
        lambda r: read_2b_submission(r / "sub.csv", "fine_tune"),
        "sub.csv",
        12,
        "Sim",
        "is empty (11 empty row(s) for setting fine_tune; no fine_tune row has a value",
        score_sub_cli("fine_tune"),
    ),
    Case(
        "submission-language-not-the-gold",
        lambda r: submission(r, sub_rows(id5="EN")),
        score_file(),
        "sub.csv",
        5,
        "Language",
        "'EN' for ID '5', but the gold data says 'PT'",
        score_sub_cli(),
    ),
    Case(
        "submission-language-of-an-otherid-pair",
        lambda r: submission(r, sub_rows(id7="GL")),
        score_file(),
        "sub.csv",
        7,
        "Language",
        "'GL' for ID '7', but the pair file says 'PT'",
        score_sub_cli(),
    ),
]


def expected_location(case: Case) -> str:
    parts = [case.file] + ([f"row {case.row}"] if case.row is not None else [])
    return ": ".join(parts + ([f"field '{case.field}'"] if case.field else []))


def assert_one_line_error(result, *fragments: str) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and len(lines) == 1, result.output
    assert lines[0].startswith("error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def no_space(*args, **kwargs):
    import errno

    raise OSError(errno.ENOSPC, "No space left on device")
