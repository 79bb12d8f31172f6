"""Reliability sweep: malformed inputs across every loader and the CLI.

Each case builds a small data tree with one defect, runs the loader (expects a one-line ``DataError`` naming
file, row and field) and, where a command reads that file, the CLI (exit code 2, one ``error:`` line, no
traceback). Valid inputs with awkward-but-legal content must load completely (nothing silently dropped).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import B_DEV_HEADER, B_GOLD_HEADER, TINY_DEV, TINY_GOLD, runner, write_semeval_tree
from helpers.bad_inputs import (
    A_TRAIN,
    CASES,
    TRAIN_LOAD,
    TRIPLET,
    TRIPLET_LOAD,
    assert_one_line_error,
    expected_location,
    idiolink,
    lines_of,
    no_space,
    score_cli,
    semeval,
    sts,
    subtask_a,
    triplets,
    write,
)

from idiomkit.cli import app
from idiomkit.data.errors import DataError
from idiomkit.data.idiolink import load_idiolink
from idiomkit.data.semeval2022 import load_subtask_a, load_subtask_b
from idiomkit.data.sts import load_sts
from idiomkit.models import ModelNotAvailable, load_model


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


MODULES = '[{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}]'


NO_MODEL_CLI = [c for c in CASES if c.cli and not c.cli.__qualname__.startswith("train_cli")]  # train loads one


@pytest.mark.parametrize("case", NO_MODEL_CLI, ids=[c.id for c in NO_MODEL_CLI])
def test_cli_names_file_row_and_field_in_one_line(case, tmp_path, no_model):
    """The commands that read the file before any model (score, evaluate -m bm25, embed --input): one line, exit 2."""
    result = runner.invoke(app, case.cli(case.build(tmp_path)))
    assert_one_line_error(result, expected_location(case) + ": ", case.problem)


def test_model_errors_are_one_line(tmp_path, tiny_data):
    (tmp_path / "empty-model").mkdir()
    (tmp_path / "empty-model" / "config.json").write_text("{}")
    write(tmp_path / "no-weights" / "modules.json", MODULES)  # a model copied without its weights
    write(tmp_path / "no-weights" / "config.json", '{"model_type": "bert"}')
    write(tmp_path / "module-weights-only" / "modules.json", MODULES)  # weights one folder down, none at the top
    write(tmp_path / "module-weights-only" / "config.json", '{"model_type": "bert"}')
    write(tmp_path / "module-weights-only" / "2_Dense" / "model.safetensors", b"")
    for model, fragment in [
        ("no-such-model", "unknown model 'no-such-model': not a registry name"),
        (str(tmp_path / "empty-model"), "empty-model: not a model directory (no weights and no modules.json)"),
        (
            str(tmp_path / "no-weights"),
            "no-weights: not a complete model directory (no weights: no *.safetensors or *.bin file)",
        ),
        (str(tmp_path / "module-weights-only"), "module-weights-only: cannot load the model in this directory ("),
    ]:
        with pytest.raises(ModelNotAvailable, match=fragment.split(":")[0]) as info:
            load_model(model)
        assert "not a local directory" not in str(info.value) or model == "no-such-model", info.value
        result = runner.invoke(app, ["evaluate", "semeval2b", "-m", model, "--no-write", "--data-dir", str(tiny_data)])
        assert_one_line_error(result, fragment)


def test_cli_usage_errors_are_one_line(tmp_path, tiny_data):
    result = runner.invoke(app, ["evaluate", "semeval9", "--no-write", "--data-dir", str(tiny_data)])
    assert_one_line_error(result, "unknown task 'semeval9'")
    result = runner.invoke(app, ["embed", "--input", str(tmp_path / "missing.txt")])
    assert_one_line_error(result, "missing.txt: file not found")
    result = runner.invoke(app, ["score", str(tmp_path / "none.csv"), "--data-dir", str(tiny_data)])
    assert_one_line_error(result, "none.csv: file not found")


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
    ("evaluate-batch-size-0", evaluate_cli("semeval2b", "--batch-size", "0"), "batch-size must be >= 1, got 0"),
    ("evaluate-batch-size-negative", evaluate_cli("semeval2b", "--batch-size", "-3"), "must be >= 1, got -3"),
    (
        "evaluate-pooling-unknown",
        evaluate_cli("semeval2b", "--pooling", "max"),
        "evaluate semeval2b: option '--pooling': 'max' is not one of mean, last2",
    ),
    ("evaluate-pooling-span", evaluate_cli("idiolink", "--pooling", "span"), "'span' is not one of mean, last2"),
    (
        "semeval2a-setting-bogus",
        evaluate_cli("semeval2a", "--setting", "bogus"),
        "unknown semeval2a setting 'bogus' (expected one of zero_shot, one_shot)",
    ),
    (
        "semeval2b-setting-of-2a",
        evaluate_cli("semeval2b", "--setting", "zero_shot"),
        "unknown semeval2b setting 'zero_shot' (expected one of pre_train, fine_tune)",
    ),
    (
        "semeval2b-query-mode",
        evaluate_cli("semeval2b", "--query-mode", "span"),
        "task 'semeval2b' takes no option query_mode (--query-mode); its options: ",
    ),
    ("semeval2b-features", evaluate_cli("semeval2b", "--features", "span"), "takes no option features (--features)"),
    ("semeval2b-usage-rerank", evaluate_cli("semeval2b", "--usage-rerank"), "takes no option usage_rerank"),
    ("semeval2b-twin-expansion", evaluate_cli("semeval2b", "--twin-expansion"), "takes no option twin_expansion"),
    (
        "semeval2a-query-mode",
        evaluate_cli("semeval2a", "--query-mode", "span"),
        "task 'semeval2a' takes no option query_mode",
    ),
    ("semeval2a-mwe-tokens", evaluate_cli("semeval2a", "--mwe-tokens"), "task 'semeval2a' takes no option mwe_tokens"),
    (
        "semeval2a-features-unknown",
        evaluate_cli("semeval2a", "--features", "tokens"),
        "unknown probe features 'tokens' (expected span, sentence, span+sentence",
    ),
    (
        "semeval2a-features-rule-without-shots",
        evaluate_cli("semeval2a", "--features", "span+rule"),
        "unknown probe features 'span+rule'",
    ),
    (
        "semeval2a-shots-zero-shot",
        evaluate_cli("semeval2a", "--features", "span+shots"),
        "probe features 'span+shots' need --setting one_shot",
    ),
    (
        "idiolink-query-mode-unknown",
        evaluate_cli("idiolink", "--query-mode", "tokens"),
        "unknown idiolink query mode 'tokens' (expected one of sentence, span, instruction",
    ),
    (
        "idiolink-bm25-instruction",
        evaluate_cli("idiolink", "-m", "bm25", "--query-mode", "instruction"),
        "unknown idiolink query mode 'instruction' (expected one of sentence, span)",
    ),
    ("idiolink-setting", evaluate_cli("idiolink", "--setting", "one_shot"), "task 'idiolink' takes no option setting"),
    ("idiolink-mwe-tokens", evaluate_cli("idiolink", "--mwe-tokens"), "task 'idiolink' takes no option mwe_tokens"),
    (
        "idiolink-two-rerankers",
        evaluate_cli("idiolink", "--usage-rerank", "--usage-classifier"),
        "give one of --usage-rerank, --usage-classifier",
    ),
    (
        "admire-query-mode",
        evaluate_cli("admire", "--query-mode", "sentence+span"),
        "unknown admire query mode 'sentence+span' (expected one of sentence, span, marked, marked+span)",
    ),
    ("admire-setting", evaluate_cli("admire", "--setting", "one_shot"), "task 'admire' takes no option setting"),
    ("xiao-pairs-query-mode", evaluate_cli("xiao-pairs", "--query-mode", "span"), "takes no option query_mode"),
    (
        "evaluate-results-dir-is-a-file",
        lambda r: evaluate_cli("semeval2b", "--results-dir", str(a_file(r)))(r),
        "plain-file: results directory is a file, not a directory",
    ),
    (
        "evaluate-results-dir-under-a-file",
        lambda r: evaluate_cli("semeval2b", "--results-dir", str(a_file(r) / "results"))(r),
        "results directory cannot be created: ",
    ),
    ("embed-batch-size-0", cli_args("embed", "hi", "--batch-size", "0"), "--batch-size must be at least 1, got 0"),
    (
        "embed-pooling-unknown",
        cli_args("embed", "hi", "--pooling", "cls"),
        "unknown pooling 'cls' (expected one of mean, last2, span)",
    ),
    ("embed-output-is-a-directory", cli_args("embed", "hi", "-o", "{root}"), ": is a directory; give a file name"),
    (
        "embed-output-under-a-file",
        lambda r: ["embed", "hi", "-o", str(a_file(r) / "emb.npy")],
        "plain-file: output directory is a file, not a directory",
    ),
    ("embed-nothing", cli_args("embed"), "nothing to embed: give texts or --input"),
    (
        "embed-span-without-spans",
        cli_args("embed", "hi", "--pooling", "span"),
        "--pooling span needs a .jsonl --input with a 'span' for every text",
    ),
    (
        "embed-span-plain-text-input",
        lambda r: ["embed", "--input", str(write(r / "in.txt", "a b\n")), "--pooling", "span"],
        "in.txt is plain text (one text a line, no spans)",
    ),
    (
        "score-setting-unknown",
        cli_args("score", "{root}/sub.csv", "--setting", "zero_shot"),
        "unknown setting 'zero_shot' (expected one of pre_train, fine_tune)",
    ),
    ("mteb-batch-size-0", cli_args("mteb", "--batch-size", "0"), "batch-size must be >= 1, got 0"),
    ("mteb-pooling-span", cli_args("mteb", "--pooling", "span"), "mteb: option '--pooling': 'span' is not one of"),
    (
        "export-onnx-pooling",
        cli_args("export-onnx", "minilm", "-o", "{root}/onnx", "--pooling", "max"),
        "unknown pooling 'max'",
    ),
    (
        "export-onnx-output-is-a-file",
        lambda r: ["export-onnx", "minilm", "-o", str(a_file(r))],
        "plain-file: output directory is a file, not a directory",
    ),
    (
        "report-results-dir-is-a-file",
        lambda r: [*report_cli(r), "--results-dir", str(a_file(r))],
        "plain-file: results directory is a file",
    ),
    (
        "report-results-dir-missing",
        lambda r: [*report_cli(r), "--results-dir", str(r / "none")],
        "none: results directory not found",
    ),
    (
        "report-output-is-a-file",
        lambda r: [*report_cli(r), "--results-dir", str(r), "--output", str(a_file(r))],
        "plain-file: is a file; give the folder for the results pages",
    ),
]


@pytest.mark.parametrize("args, fragment", [c[1:] for c in OPTION_CASES], ids=[c[0] for c in OPTION_CASES])
def test_option_refused_before_any_model_loads(args, fragment, tmp_path, no_model):
    result = runner.invoke(app, args(tmp_path))
    assert_one_line_error(result, fragment)
    assert not (tmp_path / "results").exists()  # nothing was written
    assert not list(tmp_path.rglob("*.npy")) and not (tmp_path / "pages").exists()


def result_json(records: object) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        write(
            root / "results" / "semeval2b-dev" / "a__zero-shot__seed0.json",
            records if isinstance(records, str) else json.dumps(records),
        )
        return root

    return build


@pytest.mark.parametrize(
    "content, fragment",
    [
        ([{"task": "semeval2b-dev"}], "a__zero-shot__seed0.json: a result file must be a JSON object, got list"),
        ('{"task": "semeval2b-dev", "metrics": ', "a__zero-shot__seed0.json: invalid or truncated JSON (line 1"),
        ('"just a string"', "a result file must be a JSON object, got str"),
        ({"metrics": {"ALL": {"idiom": 0.5}}}, "a__zero-shot__seed0.json: field 'task': missing or not a name"),
        ({"task": "semeval2b-dev"}, "a__zero-shot__seed0.json: field 'metrics': missing or not an object"),
        (
            '{"task": "semeval2b-dev", "metrics": {"ALL": {"idiom": NaN, "sts": 0.8}}}',
            "a__zero-shot__seed0.json: field 'metrics.ALL.idiom': not a finite number (NaN or infinity)",
        ),
        (
            '{"task": "semeval2b-dev", "metrics": {"ALL": {"ci95": [0.1, Infinity]}}}',
            "a__zero-shot__seed0.json: field 'metrics.ALL.ci95.1': not a finite number",
        ),
        ("[" * 100_000 + "]" * 100_000, "a__zero-shot__seed0.json: JSON nested too deeply to read"),
    ],
    ids=["list", "truncated", "string", "no-task", "no-metrics", "nan-metric", "infinite-interval", "deep"],
)
def test_report_names_a_broken_result_file(content, fragment, tmp_path):
    root = result_json(content)(tmp_path)
    result = runner.invoke(app, [*report_cli(root), "--results-dir", str(root / "results")])
    assert_one_line_error(result, fragment)
    assert not (root / "pages").exists()


def test_a_stray_folder_in_the_results_dir_is_named_in_one_line(tmp_path):
    """Every ``<results>/<folder>/*.json`` is read as a result file: another JSON file there (a stray folder's) is
    refused naming it, not skipped; a folder named ``*.json`` is no file and is skipped."""
    root = tmp_path
    write(root / "results" / "notes" / "settings.json", '{"theme": "dark"}')
    (root / "results" / "semeval2b-dev" / "old.json").mkdir(parents=True)
    result = runner.invoke(app, [*report_cli(root), "--results-dir", str(root / "results")])
    assert_one_line_error(result, "notes/settings.json: field 'task': missing or not a name: not a result file")
    (root / "results" / "notes" / "settings.json").unlink()
    result = runner.invoke(app, [*report_cli(root), "--results-dir", str(root / "results")])
    assert result.exit_code == 0, result.output


def test_read_only_results_dir_is_refused_before_the_evaluation(tmp_path, no_model, monkeypatch):
    """Root ignores permission bits, so a read-only place is simulated: creating any file there fails (EROFS)."""
    import errno
    import tempfile

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", kwargs.get("dir"))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    result = runner.invoke(app, evaluate_cli("semeval2b")(tmp_path))
    assert_one_line_error(result, "results directory is not writable (", "read-only file system")


BIG_FIELD = "x" * (200 * 1024)


@pytest.mark.parametrize(
    "build, args, fragment",
    [
        (
            lambda r: write(semeval(r) / "sub.csv", f"ID,Language,Setting,Sim\n1,EN,pre_train,{BIG_FIELD}\n") and r,
            lambda r: ["score", str(r / "sub.csv"), "--data-dir", str(r)],
            "sub.csv: row 1",
        ),
        (
            lambda r: semeval(r, dev=lines_of(TINY_DEV, 2, f'2,EN,big fish,None,"{BIG_FIELD}",b')),
            score_cli,
            "dev.csv: row 2",
        ),
    ],
    ids=["submission", "dev-pairs"],
)
def test_a_200_kib_csv_field_is_one_line(build, args, fragment, tmp_path):
    root = build(tmp_path)
    assert_one_line_error(runner.invoke(app, args(root)), fragment)


def test_disk_full_during_the_result_write_is_one_line_and_leaves_no_result(tmp_path, monkeypatch):
    root = idiolink(tmp_path)
    monkeypatch.setattr("idiomkit.results.os.fsync", no_space)
    args = ["evaluate", "idiolink", "-m", "bm25", "--data-dir", str(root), "--results-dir", str(root / "res")]
    result = runner.invoke(app, args)
    line = assert_one_line_error(result, ": no space left on device")
    assert "bm25__zero-shot__sentence__seed0.run.trec" in line  # the first file written: the predictions
    assert not list((root / "res").rglob("*.json")) and not list((root / "res").rglob("*.tmp"))


def test_disk_full_while_saving_the_best_model_is_one_line_and_leaves_no_tmp(tmp_path):
    """safetensors reports a failed write as its own error: it read "corrupt or truncated safetensors weights" and
    left ``best.tmp`` behind; now it is the OSError it is, naming the directory, and the old ``best`` stays."""
    from types import SimpleNamespace

    from safetensors import SafetensorError

    from idiomkit.errors import user_error_message
    from idiomkit.training.checkpoints import save_model_dir

    class Model(list):  # what save_model_dir touches of a SentenceTransformer: model[0].model and save()
        def save(self, path: str) -> None:
            write(Path(path) / "config.json", "{}")
            raise SafetensorError(
                "Error while serializing: IoError(Os { code: 28, kind: StorageFull, message: "
                '"No space left on device" })'
            )

    write(tmp_path / "best" / "model.safetensors", b"old")
    with pytest.raises(OSError) as info:
        save_model_dir(Model([SimpleNamespace(model=object())]), tmp_path / "best")
    assert user_error_message(info.value) == f"{tmp_path / 'best'}: no space left on device"
    assert not (tmp_path / "best.tmp").exists() and (tmp_path / "best" / "model.safetensors").read_bytes() == b"old"


def test_a_bug_keeps_its_traceback(tmp_path, monkeypatch):
    """The boundary catches user errors only: a programming error is not turned into a tidy line."""
    monkeypatch.setattr("idiomkit.api.get_task", lambda name: 1 / 0)
    result = runner.invoke(app, evaluate_cli("semeval2b")(tmp_path))
    assert result.exit_code == 1 and isinstance(result.exception, ZeroDivisionError)
