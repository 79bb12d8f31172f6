"""Reliability sweep: malformed inputs across every loader and the CLI.

Each case builds a small data tree with one defect, runs the loader (expects a one-line ``DataError`` naming
file, row and field) and, where a command reads that file, the CLI (exit code 2, one ``error:`` line, no
traceback). Valid inputs with awkward-but-legal content must load completely (nothing silently dropped).
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import B_DEV_HEADER, B_GOLD_HEADER, B_TRAIN_HEADER, TINY_DEV, TINY_GOLD, write_semeval_tree
from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.data.errors import DataError
from idiomkit.data.idiolink import load_idiolink, load_triplets
from idiomkit.data.semeval2022 import load_subtask_a, load_subtask_b, load_train_pairs
from idiomkit.data.sts import load_sts
from idiomkit.io import read_texts
from idiomkit.models import ModelNotAvailable, load_model
from idiomkit.tasks.semeval2b import read_2b_submission

runner = CliRunner()

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
    return {"id": id, "sentence": sentence, "idiom": idiom, "span": span, "subject": "S", "usage": usage,
            "is_gold": is_gold}  # fmt: skip


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
TRIPLET = {"query": "He broke the ice.", "positive": "He eased the tension.", "negatives": ["He broke a glass."],
           "query_idiom": "break the ice", "query_usage": "idiomatic", "query_span": "broke the ice"}  # fmt: skip


# --- tree builders (each returns the data root) ------------------------------------------------------------


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


# --- loaders and CLI commands per kind -----------------------------------------------------------------------

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
        return ["train", "--recipe", recipe, "--epochs", "1", "--limit-groups", "2", "--batch-size", "4",
                "--output", str(root / "run"), "--data-dir", str(root), *extra]  # fmt: skip

    return args


def embed_cli(root: Path) -> list[str]:
    return ["embed", "--input", str(root / EMBED_FILE), "--pooling", "span"]


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
    Case("dev-missing-column", lambda r: semeval(r, dev=TINY_DEV.replace(",sentence2\n", "\n", 1)), DEV_LOAD,
         "dev.csv", 0, "sentence2", "missing column", score_cli),
    Case("dev-short-row", lambda r: semeval(r, dev=lines_of(TINY_DEV, 3, "3,EN,big fish,None,He is.")), DEV_LOAD,
         "dev.csv", 3, "sentence2", "missing value", score_cli),
    Case("dev-extra-value", lambda r: semeval(r, dev=lines_of(TINY_DEV, 2, "2,EN,big fish,None,a,b,c")), DEV_LOAD,
         "dev.csv", 2, None, "has 7 values, header has 6 columns", score_cli),
    Case("dev-empty-text", lambda r: semeval(r, dev=lines_of(TINY_DEV, 4, "4,EN,night owl,None,  ,She stays.")),
         DEV_LOAD, "dev.csv", 4, "sentence1", "is empty", score_cli),
    Case("dev-unknown-language", lambda r: semeval(r, dev=lines_of(TINY_DEV, 5, "5,FR,pão duro,None,a,b")), DEV_LOAD,
         "dev.csv", 5, "Language", "unknown language 'FR'", score_cli),
    Case("dev-duplicate-id", lambda r: semeval(r, dev=lines_of(TINY_DEV, 6, "5,PT,pão duro,None,a,b")), DEV_LOAD,
         "dev.csv", 6, "ID", "duplicate '5' (first at row 5)", score_cli),
    Case("dev-empty-file", lambda r: semeval(r, dev="\n"), DEV_LOAD, "dev.csv", None, None, "file is empty",
         score_cli),
    Case("dev-latin1", lambda r: write(semeval(r) / "semeval2022_task2/SubTaskB/EvaluationData/dev.csv",
                                       TINY_DEV.encode("latin-1")) and r,
         DEV_LOAD, "dev.csv", 5, "MWE1", "not valid UTF-8", score_cli),
    Case("gold-nan", lambda r: semeval(r, gold=NAN_GOLD), DEV_LOAD, "dev.gold.csv", 1, "sim", "outside [0, 1]",
         score_cli),
    Case("gold-out-of-range", lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "4,dev.EN.2.1,EN,1.2,")), DEV_LOAD,
         "dev.gold.csv", 3, "sim", "1.2 is outside [0, 1]", score_cli),
    Case("gold-not-a-number", lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "4,dev.EN.2.1,EN,high,")), DEV_LOAD,
         "dev.gold.csv", 3, "sim", "'high' is not a number", score_cli),
    Case("gold-dangling-otherid", lambda r: semeval(r, gold=lines_of(TINY_GOLD, 2, "2,dev.EN.1.2,EN,,99")),
         DEV_LOAD, "dev.gold.csv", 2, "otherID", "'99' points to no pair", score_cli),
    Case("gold-id-not-in-pairs", lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "44,dev.EN.2.1,EN,1,")), DEV_LOAD,
         "dev.gold.csv", 3, "ID", "'44' is not an ID of the pair file", score_cli),
    Case("gold-no-similarity", lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "4,dev.EN.2.1,EN,,")), DEV_LOAD,
         "dev.gold.csv", 3, "sim", "no gold similarity", score_cli),
    Case("gold-duplicate-id", lambda r: semeval(r, gold=lines_of(TINY_GOLD, 3, "1,dev.EN.2.1,EN,1,")), DEV_LOAD,
         "dev.gold.csv", 3, "ID", "duplicate '1'", score_cli),
    # SemEval 2B train (CLI: `train`, once per loader: each run costs ~2 s)
    Case("train-negative-sim", lambda r: semeval(r, train=lines_of(TRAIN, 1, "t1,big fish,None,EN,a,b,-1,,")),
         TRAIN_LOAD, "train_data.csv", 1, "sim", "-1 is outside [0, 1]", train_cli()),
    Case("train-missing-alternative", lambda r: semeval(r, train=lines_of(TRAIN, 2, "t2,big fish,None,EN,a,b,None,,x")),
         TRAIN_LOAD, "train_data.csv", 2, "alternative_1", "is empty"),
    Case("train-unknown-language", lambda r: semeval(r, train=lines_of(TRAIN, 3, "t3,night owl,None,en,a,b,1,,")),
         TRAIN_LOAD, "train_data.csv", 3, "Language", "unknown language 'en'"),
    # SemEval subtask A (loader only)
    Case("subtask-a-bad-label", lambda r: subtask_a(r, A_TRAIN.replace(",0\n", ",2\n")),
         lambda r: load_subtask_a(r, "train_zero_shot"), "train_zero_shot.csv", 1, "Label", "'2' is not 0 or 1"),
    Case("subtask-a-empty-target", lambda r: subtask_a(r, A_TRAIN.replace("He is a big fish.", "")),
         lambda r: load_subtask_a(r, "train_zero_shot"), "train_zero_shot.csv", 1, "Target", "is empty"),
    # STS-B / ASSIN 2 dev (CLI: `train`, which validates on STS dev)
    Case("stsb-out-of-range", lambda r: sts(r, stsb=STSB.replace("4.0", "7")), STS_LOAD, "stsb-en-dev.csv", 1,
         "similarity", "7 is outside [0, 5]", train_cli("cosine", "--val-sts")),
    Case("stsb-missing-score", lambda r: sts(r, stsb=STSB.replace(",0.2", "")), STS_LOAD, "stsb-en-dev.csv", 2,
         "similarity", "missing value"),
    Case("assin-truncated-xml", lambda r: sts(r, assin=ASSIN[:-30]), STS_LOAD, "assin2-dev.xml", 2, None,
         "not well-formed XML"),
    Case("assin-missing-similarity", lambda r: sts(r, assin=ASSIN.replace(' similarity="1.0"', "")), STS_LOAD,
         "assin2-dev.xml", 2, "similarity", "'' is not a number", train_cli("cosine", "--val-sts")),
    # IdioLink test (CLI: `evaluate idiolink -m bm25`, no neural model)
    Case("idiolink-truncated-json", lambda r: idiolink(r, raw_queries=json.dumps(QUERIES)[:-40]), IL_LOAD,
         "queries.json", None, None, "invalid or truncated JSON", idiolink_cli),
    Case("idiolink-span-not-in-sentence", lambda r: idiolink(r, docs=changed(DOCS, 1, span="kick the bucket")),
         IL_LOAD, "indexes.json", 2, "span", "'kick the bucket' does not occur", idiolink_cli),
    Case("idiolink-span-offsets", lambda r: idiolink(r, queries=changed(QUERIES, 1, span=[15, 99])), IL_LOAD,
         "queries.json", 2, "span", "outside the sentence", idiolink_cli),
    Case("idiolink-unknown-usage", lambda r: idiolink(r, docs=changed(DOCS, 2, usage="figurative")), IL_LOAD,
         "indexes.json", 3, "usage", 'unknown usage "figurative"', idiolink_cli),
    Case("idiolink-duplicate-id", lambda r: idiolink(r, docs=changed(DOCS, 3, id="d1")), IL_LOAD, "indexes.json", 4,
         "id", "duplicate 'd1' (first at row 1)", idiolink_cli),
    Case("idiolink-missing-field", lambda r: idiolink(r, queries=changed(QUERIES, 0, subject=...)), IL_LOAD,
         "queries.json", 1, "subject", "missing field", idiolink_cli),
    Case("idiolink-bad-is-gold", lambda r: idiolink(r, docs=changed(DOCS, 0, is_gold="yes")), IL_LOAD,
         "indexes.json", 1, "is_gold", 'must be true or false, got "yes"', idiolink_cli),
    Case("idiolink-query-idiom-without-docs", lambda r: idiolink(r, queries=changed(QUERIES, 1, idiom="spill it")),
         IL_LOAD, "queries.json", 2, "idiom", "'spill it' has no documents", idiolink_cli),
    Case("idiolink-wrong-encoding", lambda r: idiolink(r, raw_docs=json.dumps(DOCS, indent=1).encode("utf-16")),
         IL_LOAD, "indexes.json", None, None, "not valid UTF-8", idiolink_cli),
    Case("idiolink-empty-file", lambda r: idiolink(r, raw_docs="  \n"), IL_LOAD, "indexes.json", None, None,
         "file is empty", idiolink_cli),
    # IdioLink training triplets (CLI: `train --recipe idiolink-infonce`)
    Case("triplets-truncated-line", lambda r: triplets(r, [json.dumps(TRIPLET), json.dumps(TRIPLET)[:-12]]),
         TRIPLET_LOAD, "triplets_train_span.jsonl", 2, None, "invalid or truncated JSON",
         train_cli("idiolink-infonce")),
    Case("triplets-no-negatives", lambda r: triplets(r, [json.dumps({**TRIPLET, "negatives": []})]), TRIPLET_LOAD,
         "triplets_train_span.jsonl", 1, "negatives", "non-empty list"),
    Case("triplets-span-not-in-query", lambda r: triplets(r, [json.dumps(TRIPLET), json.dumps({**TRIPLET,
         "query_span": "spill"})]), TRIPLET_LOAD, "triplets_train_span.jsonl", 2, "query_span",
         "'spill' does not occur"),  # fmt: skip
    # `idiomkit embed --input` files
    Case("embed-span-outside-text", lambda r: write(r / EMBED_FILE, '{"text": "a b", "span": [0, 3]}\n'
         '{"text": "he died", "span": [3, 70]}\n') and r, lambda r: read_texts(r / EMBED_FILE), EMBED_FILE, 2, "span",
         "is not [start, end] inside the text", embed_cli),  # fmt: skip
    Case("embed-missing-text", lambda r: write(r / EMBED_FILE, '{"txt": "he died"}\n') and r,
         lambda r: read_texts(r / EMBED_FILE), EMBED_FILE, 1, "text", "missing or empty", embed_cli),
    # submission CSV for `score`
    Case("submission-not-a-number",
         lambda r: write(semeval(r) / "sub.csv", "ID,Language,Setting,Sim\n1,EN,pre_train,0.5\n2,EN,pre_train,x\n")
         and r, lambda r: read_2b_submission(r / "sub.csv"), "sub.csv", 2, "Sim", "'x' is not a number",
         lambda r: ["score", str(r / "sub.csv"), "--data-dir", str(r)]),  # fmt: skip
]  # fmt: skip


def expected_location(case: Case) -> str:
    parts = [case.file] + ([f"row {case.row}"] if case.row is not None else [])
    return ": ".join(parts + ([f"field '{case.field}'"] if case.field else []))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_loader_names_file_row_and_field(case, tmp_path):
    root = case.build(tmp_path)
    with pytest.raises(DataError) as info:
        case.load(root)
    message = str(info.value)
    assert "\n" not in message
    assert Path(info.value.path).name == case.file
    assert (info.value.row, info.value.field) == (case.row, case.field), message
    assert expected_location(case) + ": " in message and case.problem in message, message


CLI_CASES = [c for c in CASES if c.cli]


@pytest.fixture
def no_model_load(monkeypatch, minilm):
    """`train` loads the model before its data: hand it a copy of the session model instead of re-loading."""
    monkeypatch.setattr("idiomkit.training.trainer.load_model", lambda *a, **k: copy.deepcopy(minilm))


def assert_one_line_error(result, *fragments: str) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and len(lines) == 1, result.output
    assert lines[0].startswith("error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("case", CLI_CASES, ids=[c.id for c in CLI_CASES])
def test_cli_one_line_exit_2(case, tmp_path, no_model_load):
    root = case.build(tmp_path)
    result = runner.invoke(app, case.cli(root))
    assert_one_line_error(result, expected_location(case), case.problem)


def test_model_errors_are_one_line(tmp_path, tiny_data):
    (tmp_path / "empty-model").mkdir()
    (tmp_path / "empty-model" / "config.json").write_text("{}")
    for model, fragment in [
        ("no-such-model", "unknown model 'no-such-model': not a registry name"),
        (str(tmp_path / "empty-model"), "empty-model: not a model directory (no weights and no modules.json)"),
    ]:
        with pytest.raises(ModelNotAvailable, match="not a"):
            load_model(model)
        result = runner.invoke(app, ["evaluate", "semeval2b", "-m", model, "--no-write", "--data-dir", str(tiny_data)])
        assert_one_line_error(result, fragment)


def test_cli_usage_errors_are_one_line(tmp_path, tiny_data):
    result = runner.invoke(app, ["evaluate", "semeval9", "--no-write", "--data-dir", str(tiny_data)])
    assert_one_line_error(result, "unknown task 'semeval9'")
    result = runner.invoke(app, ["embed", "--input", str(tmp_path / "missing.txt")])
    assert_one_line_error(result, "missing.txt: file not found")
    result = runner.invoke(app, ["score", str(tmp_path / "none.csv"), "--data-dir", str(tiny_data)])
    assert_one_line_error(result, "none.csv: file not found")


# --- nothing valid is silently dropped ------------------------------------------------------------------------


def test_awkward_but_valid_csv_loads_every_row(tmp_path):
    """BOM, CRLF, quoted commas and newlines, non-ASCII, blank lines: every row kept, text unchanged."""
    body = B_DEV_HEADER + (
        '1,EN,big fish,None,"He is, they say, a big fish.","He is\nimportant."\n'
        "\n"
        "2,PT,pão duro,None,Ele é um pão duro.,Ele é avarento.\n"
        '3,GL,"a, b",None,x,"y ""quoted"""\n'
    )
    gold = B_GOLD_HEADER + "1,dev.EN.1.1,EN,1,\n2,dev.PT.1.1,PT,0,\n3,dev.GL.sts.1,GL,0.5,\n"
    raw = ("\ufeff" + body).replace("\n", "\r\n").encode("utf-8")
    root = write_semeval_tree(tmp_path, gold=gold)
    write(root / "semeval2022_task2/SubTaskB/EvaluationData/dev.csv", raw)
    split = load_subtask_b(root, "dev")
    assert [p.id for p in split.pairs] == ["1", "2", "3"] and len(split.gold) == 3
    assert split.pairs[0].sentence1 == "He is, they say, a big fish."
    assert split.pairs[0].sentence2 == "He is\r\nimportant."  # a quoted newline stays inside the field
    assert split.pairs[2].mwe1 == "a, b" and split.pairs[2].sentence2 == 'y "quoted"'
    assert split.languages == ["EN", "PT", "GL"]


def test_lenient_mode_keeps_every_valid_row_and_logs_the_rest(tmp_path, caplog):
    dev = TINY_DEV + "12,FR,x,None,a,b\n13,EN,x,None,,b\n"
    root = write_semeval_tree(tmp_path, dev=dev, gold=TINY_GOLD)
    with caplog.at_level(logging.WARNING):
        split = load_subtask_b(root, "dev", strict=False)
    assert [p.id for p in split.pairs] == [str(i) for i in range(1, 12)]
    assert "skipped 2 bad row(s); first: " in caplog.text and "row 12: field 'Language'" in caplog.text


def test_valid_files_of_every_other_loader_load_completely(tmp_path):
    root = sts(idiolink(tmp_path))
    assert [len(load_sts(root, "dev", (s,))) for s in ("stsb-en", "assin2")] == [2, 2]
    split = load_idiolink(root, "test")
    assert [d.id for d in split.documents] == ["d1", "d2", "d3", "d4"] and [q.id for q in split.queries] == ["q1", "q2"]
    assert split.queries[1].span_text == "break the ice"
    triplets(root, [json.dumps(TRIPLET), "", json.dumps(TRIPLET)])
    assert len(TRIPLET_LOAD(root)) == 2
    assert len(TRAIN_LOAD(root)) == 4 and len(load_subtask_a(subtask_a(root, A_TRAIN), "train_zero_shot")) == 1


# --- options, output paths and environment failures: one line, exit 2, refused before any model loads ---------------


@pytest.fixture
def no_model(monkeypatch):
    """A model load would be a traceback (AssertionError is no user error): proves the refusal came first."""

    def refuse(*args, **kwargs):
        raise AssertionError("a model was loaded before the option was checked")

    monkeypatch.setattr("idiomkit.api.load_model", refuse)


def a_file(root: Path) -> Path:
    return write(root / "plain-file", "not a directory\n")


def evaluate_cli(task: str, *extra: str) -> Callable[[Path], list[str]]:
    def args(root: Path) -> list[str]:
        return ["evaluate", task, "--data-dir", str(root), "--results-dir", str(root / "results"), *extra]

    return args


def report_cli(root: Path) -> list[str]:
    """``report`` writing into ``root`` only (its README option names a file that does not exist: left alone)."""
    return ["report", "--output", str(root / "pages"), "--readme", str(root / "README.md")]


def cli_args(*args: str) -> Callable[[Path], list[str]]:
    return lambda root: [a.replace("{root}", str(root)) for a in args]


OPTION_CASES = [
    ("evaluate-batch-size-0", evaluate_cli("semeval2b", "--batch-size", "0"), "batch size must be at least 1, got 0"),
    ("evaluate-batch-size-negative", evaluate_cli("semeval2b", "--batch-size", "-3"), "at least 1, got -3"),
    ("evaluate-pooling-unknown", evaluate_cli("semeval2b", "--pooling", "max"),
     "unknown pooling 'max' (expected one of mean, last2)"),
    ("evaluate-pooling-span", evaluate_cli("idiolink", "--pooling", "span"), "unknown pooling 'span'"),
    ("semeval2a-setting-bogus", evaluate_cli("semeval2a", "--setting", "bogus"),
     "unknown semeval2a setting 'bogus' (expected one of zero_shot, one_shot)"),
    ("semeval2b-setting-of-2a", evaluate_cli("semeval2b", "--setting", "zero_shot"),
     "unknown semeval2b setting 'zero_shot' (expected one of pre_train, fine_tune)"),
    ("semeval2b-query-mode", evaluate_cli("semeval2b", "--query-mode", "span"),
     "task 'semeval2b' takes no option query_mode (--query-mode); its options: "),
    ("semeval2b-features", evaluate_cli("semeval2b", "--features", "span"), "takes no option features (--features)"),
    ("semeval2b-usage-rerank", evaluate_cli("semeval2b", "--usage-rerank"), "takes no option usage_rerank"),
    ("semeval2b-twin-expansion", evaluate_cli("semeval2b", "--twin-expansion"), "takes no option twin_expansion"),
    ("semeval2a-query-mode", evaluate_cli("semeval2a", "--query-mode", "span"),
     "task 'semeval2a' takes no option query_mode"),
    ("semeval2a-mwe-tokens", evaluate_cli("semeval2a", "--mwe-tokens"), "task 'semeval2a' takes no option mwe_tokens"),
    ("semeval2a-features-unknown", evaluate_cli("semeval2a", "--features", "tokens"),
     "unknown probe features 'tokens' (expected span, sentence, span+sentence"),
    ("semeval2a-features-rule-without-shots", evaluate_cli("semeval2a", "--features", "span+rule"),
     "unknown probe features 'span+rule'"),
    ("semeval2a-shots-zero-shot", evaluate_cli("semeval2a", "--features", "span+shots"),
     "probe features 'span+shots' need --setting one_shot"),
    ("idiolink-query-mode-unknown", evaluate_cli("idiolink", "--query-mode", "tokens"),
     "unknown idiolink query mode 'tokens' (expected one of sentence, span, instruction"),
    ("idiolink-bm25-instruction", evaluate_cli("idiolink", "-m", "bm25", "--query-mode", "instruction"),
     "unknown idiolink query mode 'instruction' (expected one of sentence, span)"),
    ("idiolink-setting", evaluate_cli("idiolink", "--setting", "one_shot"), "task 'idiolink' takes no option setting"),
    ("idiolink-mwe-tokens", evaluate_cli("idiolink", "--mwe-tokens"), "task 'idiolink' takes no option mwe_tokens"),
    ("idiolink-two-rerankers", evaluate_cli("idiolink", "--usage-rerank", "--usage-classifier"),
     "give one of --usage-rerank, --usage-classifier"),
    ("admire-query-mode", evaluate_cli("admire", "--query-mode", "sentence+span"),
     "unknown admire query mode 'sentence+span' (expected one of sentence, span, marked, marked+span)"),
    ("admire-setting", evaluate_cli("admire", "--setting", "one_shot"), "task 'admire' takes no option setting"),
    ("xiao-pairs-query-mode", evaluate_cli("xiao-pairs", "--query-mode", "span"), "takes no option query_mode"),
    ("evaluate-results-dir-is-a-file", lambda r: evaluate_cli("semeval2b", "--results-dir", str(a_file(r)))(r),
     "plain-file: results directory is a file, not a directory"),
    ("evaluate-results-dir-under-a-file",
     lambda r: evaluate_cli("semeval2b", "--results-dir", str(a_file(r) / "results"))(r),
     "results directory cannot be created: ", ),
    ("embed-batch-size-0", cli_args("embed", "hi", "--batch-size", "0"), "--batch-size must be at least 1, got 0"),
    ("embed-pooling-unknown", cli_args("embed", "hi", "--pooling", "cls"),
     "unknown pooling 'cls' (expected one of mean, last2, span)"),
    ("embed-output-is-a-directory", cli_args("embed", "hi", "-o", "{root}"), ": is a directory; give a file name"),
    ("embed-output-under-a-file", lambda r: ["embed", "hi", "-o", str(a_file(r) / "emb.npy")],
     "plain-file: output directory is a file, not a directory"),
    ("embed-nothing", cli_args("embed"), "nothing to embed: give texts or --input"),
    ("embed-span-without-spans", cli_args("embed", "hi", "--pooling", "span"),
     "--pooling span needs a .jsonl --input with a 'span' for every text"),
    ("score-setting-unknown", cli_args("score", "{root}/sub.csv", "--setting", "zero_shot"),
     "unknown setting 'zero_shot' (expected one of pre_train, fine_tune)"),
    ("mteb-batch-size-0", cli_args("mteb", "--batch-size", "0"), "--batch-size must be at least 1, got 0"),
    ("mteb-pooling-span", cli_args("mteb", "--pooling", "span"), "unknown pooling 'span' (expected one of mean, last2"),
    ("export-onnx-pooling", cli_args("export-onnx", "minilm", "-o", "{root}/onnx", "--pooling", "max"),
     "unknown pooling 'max'"),
    ("export-onnx-output-is-a-file", lambda r: ["export-onnx", "minilm", "-o", str(a_file(r))],
     "plain-file: output directory is a file, not a directory"),
    ("report-results-dir-is-a-file", lambda r: [*report_cli(r), "--results-dir", str(a_file(r))],
     "plain-file: results directory is a file"),
    ("report-results-dir-missing", lambda r: [*report_cli(r), "--results-dir", str(r / "none")],
     "none: results directory not found"),
    ("report-output-is-a-file", lambda r: [*report_cli(r), "--results-dir", str(r), "--output", str(a_file(r))],
     "plain-file: is a file; give the folder for the results pages"),
]  # fmt: skip


@pytest.mark.parametrize("args, fragment", [c[1:] for c in OPTION_CASES], ids=[c[0] for c in OPTION_CASES])
def test_option_refused_before_any_model_loads(args, fragment, tmp_path, no_model):
    result = runner.invoke(app, args(tmp_path))
    assert_one_line_error(result, fragment)
    assert not (tmp_path / "results").exists()  # nothing was written
    assert not list(tmp_path.rglob("*.npy")) and not (tmp_path / "pages").exists()


def result_json(records: object) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        write(root / "results" / "semeval2b-dev" / "a__zero-shot__seed0.json",
              records if isinstance(records, str) else json.dumps(records))  # fmt: skip
        return root

    return build


@pytest.mark.parametrize(
    "content, fragment",
    [
        ([{"task": "semeval2b-dev"}], "a__zero-shot__seed0.json: a result file must be a JSON object, got list"),
        ('{"task": "semeval2b-dev", "metrics": ', "a__zero-shot__seed0.json: invalid or truncated JSON (line 1"),
        ('"just a string"', "a result file must be a JSON object, got str"),
    ],
    ids=["list", "truncated", "string"],
)
def test_report_names_a_broken_result_file(content, fragment, tmp_path):
    root = result_json(content)(tmp_path)
    result = runner.invoke(app, [*report_cli(root), "--results-dir", str(root / "results")])
    assert_one_line_error(result, fragment)
    assert not (root / "pages").exists()


def test_read_only_results_dir_is_refused_before_the_evaluation(tmp_path, no_model, monkeypatch):
    """Root ignores permission bits, so a read-only place is simulated: creating any file there fails (EROFS)."""
    import errno
    import tempfile

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", kwargs.get("dir"))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    result = runner.invoke(app, evaluate_cli("semeval2b")(tmp_path))
    assert_one_line_error(result, "results directory is not writable (", "read-only file system")


def test_permission_denied_output_is_one_line(tmp_path, monkeypatch, minilm):
    import tempfile

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied", kwargs.get("dir"))

    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: minilm)
    monkeypatch.setattr(tempfile, "mkstemp", denied)
    result = runner.invoke(app, ["embed", "he died", "-o", str(tmp_path / "emb.npy")])
    assert_one_line_error(result, "output directory is not writable (", "Permission denied")
    assert not (tmp_path / "emb.npy").exists()


def garbage_model(root: Path, weights: bytes) -> Path:
    """A copy of minilm's small files with ``weights`` as its model.safetensors."""
    import shutil

    from idiomkit.models import model_path

    source, target = Path(model_path("minilm")), root / "broken-model"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.safetensors", "*.bin", "*.onnx"))
    (target / "model.safetensors").write_bytes(weights)
    return target


@pytest.mark.parametrize("weights", [b"garbage!", b"\x10\x00\x00\x00\x00\x00\x00\x00{}" + b"\x00" * 6],
                         ids=["garbage", "truncated"])  # fmt: skip
@pytest.mark.parametrize("verb", ["evaluate", "embed", "mteb"])
def test_corrupt_safetensors_is_one_line_naming_the_file(verb, weights, tmp_path, tiny_data):
    model = garbage_model(tmp_path, weights)
    args = {
        "evaluate": ["evaluate", "semeval2b", "-m", str(model), "--no-write", "--data-dir", str(tiny_data)],
        "embed": ["embed", "he died", "-m", str(model)],
        "mteb": ["mteb", "-m", str(model), "--data-dir", str(tiny_data)],
    }[verb]
    result = runner.invoke(app, args)
    assert_one_line_error(result, "broken-model/model.safetensors: corrupt or truncated model weights (")


def test_corrupt_safetensors_from_the_api_is_a_typed_one_line_error(tmp_path):
    from idiomkit.api import embed
    from idiomkit.errors import IdiomkitError

    model = garbage_model(tmp_path, b"garbage!")
    with pytest.raises(IdiomkitError, match="model.safetensors: corrupt or truncated model weights") as info:
        embed(["he died"], str(model))
    assert "\n" not in str(info.value) and type(info.value.__cause__).__name__ == "SafetensorError"


BIG_FIELD = "x" * (200 * 1024)


@pytest.mark.parametrize(
    "build, args, fragment",
    [
        (lambda r: write(semeval(r) / "sub.csv", f"ID,Language,Setting,Sim\n1,EN,pre_train,{BIG_FIELD}\n") and r,
         lambda r: ["score", str(r / "sub.csv"), "--data-dir", str(r)], "sub.csv: row 1"),
        (lambda r: semeval(r, dev=lines_of(TINY_DEV, 2, f'2,EN,big fish,None,"{BIG_FIELD}",b')),
         score_cli, "dev.csv: row 2"),
    ],
    ids=["submission", "dev-pairs"],
)  # fmt: skip
def test_a_200_kib_csv_field_is_one_line(build, args, fragment, tmp_path):
    root = build(tmp_path)
    assert_one_line_error(runner.invoke(app, args(root)), fragment)


def no_space(*args, **kwargs):
    import errno

    raise OSError(errno.ENOSPC, "No space left on device")


def test_disk_full_during_the_result_write_is_one_line_and_leaves_no_result(tmp_path, monkeypatch):
    root = idiolink(tmp_path)
    monkeypatch.setattr("idiomkit.results.os.fsync", no_space)
    args = ["evaluate", "idiolink", "-m", "bm25", "--data-dir", str(root), "--results-dir", str(root / "res")]
    result = runner.invoke(app, args)
    line = assert_one_line_error(result, ": no space left on device")
    assert "bm25__zero-shot__sentence__seed0.run.trec" in line  # the first file written: the predictions
    assert not list((root / "res").rglob("*.json")) and not list((root / "res").rglob("*.tmp"))


def test_disk_full_during_embed_output_is_one_line_and_writes_nothing(tmp_path, monkeypatch, minilm):
    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: minilm)
    monkeypatch.setattr("idiomkit.results.os.fsync", no_space)
    result = runner.invoke(app, ["embed", "he died", "-o", str(tmp_path / "emb.npy")])
    assert_one_line_error(result, "emb.npy: no space left on device")
    assert list(tmp_path.iterdir()) == []


def test_unknown_prompt_name_is_refused_before_encoding(tmp_path, monkeypatch, minilm):
    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: minilm)
    monkeypatch.setattr("idiomkit.api.encode_texts", lambda *a, **k: pytest.fail("encoded"))
    result = runner.invoke(app, ["embed", "he died", "--prompt-name", "passage-x"])
    assert_one_line_error(result, "unknown prompt name 'passage-x' (this model's prompts: ")


def test_a_bug_keeps_its_traceback(tmp_path, monkeypatch):
    """The boundary catches user errors only: a programming error is not turned into a tidy line."""
    monkeypatch.setattr("idiomkit.api.get_task", lambda name: 1 / 0)
    result = runner.invoke(app, evaluate_cli("semeval2b")(tmp_path))
    assert result.exit_code == 1 and isinstance(result.exception, ZeroDivisionError)
