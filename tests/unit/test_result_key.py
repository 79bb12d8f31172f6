"""ResultKey: the one place a result path is made, read back from the stored fields (never the file name), the
plain/marked track rule, the report grouping by key, and every committed result file's key reproducing its path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import runner
from helpers.bad_inputs import assert_one_line_error
from helpers.idiolink import write_split

from idiomkit.cli import app
from idiomkit.data.errors import DataError
from idiomkit.report import matrix_section, render_pages, row_config
from idiomkit.results import ResultKey, ResultRecord, gold_inputs, load_results, result_track, write_result

ROOT = Path(__file__).resolve().parents[2]


def record(model="m", recipe="r", seed=0, task="semeval2b-dev", idiom=0.5, **params) -> ResultRecord:
    metrics = {"ALL": {"idiom": idiom, "sts": 0.8, "all": 0.7}}
    return ResultRecord(task, model, recipe, seed, metrics, params, data_sha256="0", commit="c", created="t")


def test_path_is_made_from_the_key_and_the_stored_key_reads_back(tmp_path):
    rec = record(model="org/model x", recipe="cosent", seed=2, query_mode="sentence+span")
    key = ResultKey.of(rec, "last2-sentence+span")
    assert key.variant == "last2-sentence-span" and key.track == "marked"  # the variant in its file-name form
    path = write_result(rec, tmp_path, key=key)
    assert path == key.path(tmp_path)
    assert path == tmp_path / "semeval2b-dev" / "org-model-x__cosent__last2-sentence-span__seed2.json"
    stored = json.loads(path.read_text())
    assert list(stored)[:2] == ["key", "task"]  # the key first, then the envelope as before
    assert stored["key"] == {
        "task": "semeval2b-dev",
        "model": "org/model x",
        "recipe": "cosent",
        "variant": "last2-sentence-span",
        "track": "marked",
        "seed": 2,
    }
    assert ResultKey.from_record(stored) == key


def test_track_and_a_variant_less_key_leave_the_name_unchanged(tmp_path):
    plain = ResultKey("semeval2b-dev", "minilm", "zero-shot", track="plain")
    marked = ResultKey("semeval2b-dev", "minilm", "zero-shot", track="marked")
    assert plain != marked and plain.path(tmp_path) == marked.path(tmp_path)
    assert plain.path(tmp_path).name == "minilm__zero-shot__seed0.json"
    assert write_result(record("minilm", "zero-shot"), tmp_path) == plain.path(tmp_path)  # key from the record


def test_write_result_refuses_a_key_of_another_record(tmp_path):
    with pytest.raises(ValueError, match="does not name this record"):
        write_result(record(seed=0), tmp_path, key=ResultKey("semeval2b-dev", "m", "r", seed=1))
    assert not list(tmp_path.rglob("*.json"))


def test_unknown_track_is_refused():
    with pytest.raises(ValueError, match="unknown track 'gold'"):
        ResultKey("t", "m", "r", track="gold")  # type: ignore[arg-type]


def test_a_malformed_stored_key_is_one_line_naming_file_and_field(tmp_path):
    path = tmp_path / "semeval2b-dev" / "m__r__seed0.json"
    stored = {"task": "semeval2b-dev", "model": "m", "recipe": "r", "variant": "", "track": "plain", "seed": "0"}
    with pytest.raises(DataError, match=r"m__r__seed0.json: field 'key.seed': must be int, got '0'"):
        ResultKey.from_record({"key": stored}, source=path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({**record().to_json(), "key": {**stored, "seed": 0, "track": "gold"}}))
    args = [
        "report",
        "--results-dir",
        str(tmp_path),
        "--output",
        str(tmp_path / "pages"),
        "--readme",
        str(tmp_path / "README.md"),
    ]
    assert_one_line_error(runner.invoke(app, args), "m__r__seed0.json: field 'key.track': unknown track 'gold'")
    assert not (tmp_path / "pages").exists()


def test_a_record_under_a_wrong_name_is_grouped_by_its_fields(tmp_path):
    results = tmp_path / "results"
    write_result(record(seed=0, idiom=0.2), results, key=ResultKey("semeval2b-dev", "m", "r", "6ep", seed=0))
    moved = write_result(record(seed=1, idiom=0.4), results, key=ResultKey("semeval2b-dev", "m", "r", "6ep", seed=1))
    wrong = moved.with_name("other__names__here__seed7.json")
    moved.rename(wrong)
    (key_a, _), (key_b, _) = [(ResultKey.from_record(rec), p) for p, rec in load_results(results)]
    assert key_a.config == key_b.config and {key_a.seed, key_b.seed} == {0, 1}
    page = render_pages(results)["semeval2b-dev.md"]
    rows = [line for line in page.splitlines() if line.startswith("| m | r |")]
    assert rows == [rows[0]] and rows[0].startswith("| m | r | 6ep | 2 | 0.300 ± 0.141 |")
    assert "other" not in page and "names" not in page


def test_a_keyless_hand_written_record_gets_its_key_from_its_fields():
    rec = {
        "task": "idiolink-test",
        "model": "bm25",
        "recipe": "zero-shot",
        "seed": 3,
        "params": {"variant": "sentence+span", "query_mode": "sentence+span"},
    }
    assert ResultKey.from_record(rec) == ResultKey("idiolink-test", "bm25", "zero-shot", "sentence-span", "marked", 3)


@pytest.mark.parametrize(
    "params, track, named",
    [
        ({}, "plain", []),
        ({"pooling": "last2", "prompt_name": "query", "setting": "pre_train"}, "plain", []),
        ({"mwe_tokens": False}, "plain", []),
        ({"mwe_tokens": True}, "marked", ["mwe_tokens"]),
        ({"query_mode": "sentence"}, "plain", []),
        ({"query_mode": "span"}, "marked", ["query_mode"]),
        ({"query_mode": "sentence+span"}, "marked", ["query_mode"]),
        ({"query_mode": "instruction"}, "marked", ["query_mode"]),  # the instruction quotes the gold span
        ({"query_mode": "marked"}, "marked", ["query_mode"]),
        ({"features": "span+shots+rule"}, "marked", ["features"]),
        ({"classifier": "logistic-regression probe (frozen encoder)"}, "plain", []),
        ({"classifier": "nearest one-shot example (span cosine of a sense matcher)"}, "marked", ["classifier"]),
        ({"training": {"config": {"pool": "span+mean"}}}, "marked", ["training.config.pool"]),
        ({"training": {"config": {"mwe_tokens": True, "pooling": "mean"}}}, "plain", []),  # trained with, fed plain
        ({"training": None, "query_mode": "sentence"}, "plain", []),
        ({"oracle": "reads the gold sentence_type"}, "marked", ["oracle"]),
        (
            {"mwe_tokens": True, "query_mode": "marked+span", "oracle": "x"},
            "marked",
            ["mwe_tokens", "query_mode", "oracle"],
        ),
    ],
)
def test_track_rule(params, track, named):
    assert result_track(params) == track
    assert gold_inputs(params) == named


def test_evaluate_builds_the_key_once_with_its_track(tmp_path):
    from idiomkit.api import evaluate

    write_split(tmp_path / "data")
    for mode, track in (("span", "marked"), ("sentence", "plain")):
        ev = evaluate(
            "idiolink",
            "bm25",
            data_dir=tmp_path / "data",
            results_dir=tmp_path / "res",
            query_mode=mode,
            show_progress_bar=False,
        )
        assert ev.key == ResultKey("idiolink-test", "bm25", "zero-shot", mode, track, 0)
        assert ev.path == ev.key.path(tmp_path / "res")
        assert ResultKey.from_record(json.loads(ev.path.read_text())) == ev.key
    ev = evaluate(
        "idiolink", "bm25", data_dir=tmp_path / "data", write=False, query_mode="span", show_progress_bar=False
    )
    assert ev.path is None and ev.key.track == "marked"


def test_result_variant_composes_pooling_epochs_and_the_task_variant():
    from idiomkit.api import result_variant

    six = {"label": "cosent", "config": {"epochs": 6}}
    assert result_variant("last2", None, "span") == "last2-span"
    assert result_variant("mean", None, None) == ""
    assert result_variant(None, None, "sentence") == "sentence"  # a lexical model: no pooling
    assert result_variant("last2", six, "one_shot-probe-span") == "6ep-one_shot-probe-span"  # pooling is the model's
    assert result_variant("mean", {"label": "idiolink-infonce", "config": {"epochs": 30}}, "span") == "span"


def test_matrix_rows_come_from_key_fields_and_the_variant_config_tokens(tmp_path):
    assert row_config("6ep-sentence-span") == "6ep" and row_config("cv-marked-span") == "marked"
    results = tmp_path / "results"
    b2 = record(idiom=0.4)
    write_result(b2, results, key=ResultKey.of(b2, "6ep"))
    link = ResultRecord("idiolink-test", "m", "r", 0, {"r_precision": 1.0, "ndcg@10": 50.0}, {"query_mode": "span"})
    path = write_result(link, results, key=ResultKey.of(link, "6ep-span"))
    lines = matrix_section(load_results(results))
    assert "| m | r | 6ep | 0.400 | 0.800 |  | 50.00 |" in "\n".join(lines)
    path.rename(path.with_name("m__r__seed0.json"))  # a name without the variant: the stored key still says 6ep
    assert matrix_section(load_results(results)) == lines


def test_every_committed_result_file_has_a_key_that_reproduces_its_path():
    results = ROOT / "benchmarks" / "results"
    entries = load_results(results)
    assert len(entries) > 300
    for path, rec in entries:
        assert "key" in rec, path
        key = ResultKey.from_record(rec, source=path)
        assert key.path(results) == path, path
        assert (key.task, key.model, key.recipe, key.seed) == (rec["task"], rec["model"], rec["recipe"], rec["seed"])
        assert key.track == result_track(rec["params"]), path


def test_a_shipped_model_is_recorded_as_shipped_not_zero_shot():
    """``evaluate -m me5-idioms`` names its result ``shipped``: the model carries a trained delta and a reader; a
    recipe given on the command line and a plain registry model keep theirs."""
    from idiomkit.api import made_by

    assert made_by("me5-idioms", "zero-shot", None).recipe == "shipped"
    assert made_by("mpnet-idioms", "my-label", None).recipe == "my-label"
    assert made_by("minilm", "zero-shot", None).recipe == "zero-shot"
