"""``idiomkit evaluate all``: the plain track passes no gold annotation to the model (a recording encoder sees no
``ID…ID`` token and no gold span; the marked track does), and the quick scorecard writes its envelope, raw
predictions, table and figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import idiomkit.tasks.idiolink as idiolink
import idiomkit.tasks.semeval2b as semeval2b
from idiomkit.cli import app
from idiomkit.data.semeval2022 import load_subtask_b
from idiomkit.embedding.mwe import add_mwe_tokens
from idiomkit.models import load_model
from idiomkit.scorecard.blocks import run_block
from idiomkit.tasks import EvalContext

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def mwe_model(data_dir):
    """minilm with one MWE token, as a 2B model trained with MWE tokens has."""
    model = load_model("minilm")
    model.added = add_mwe_tokens(model, [load_subtask_b(data_dir, "dev").pairs[0].mwe1])
    assert model.added
    return model


def recorded_2b_texts(monkeypatch, model, data_dir, track) -> list[str]:
    seen: list[str] = []

    def record(model, texts, **kw):
        seen.extend(texts)
        return np.random.default_rng(0).normal(size=(len(texts), 4))

    monkeypatch.setattr(semeval2b, "encode_texts", record)
    run_block(model, "semeval2b", EvalContext(data_dir, quick=True), track)
    return seen


def test_plain_2b_sees_no_mwe_token_marked_does(monkeypatch, mwe_model, data_dir):
    plain = recorded_2b_texts(monkeypatch, mwe_model, data_dir, "plain")
    marked = recorded_2b_texts(monkeypatch, mwe_model, data_dir, "marked")
    token = mwe_model.added[0]
    assert plain and not any(token in t for t in plain)
    assert any(token in t for t in marked)


class NoPrompts:
    """A stand-in model with no prompts (the recorded scores never reach an encoder)."""

    prompts: dict[str, str] = {}


def test_plain_idiolink_uses_sentence_queries_only(monkeypatch, data_dir):
    modes: list[str] = []

    def record(model, data, mode, **kw):
        modes.append(mode)
        return np.zeros((len(data.queries), len(data.documents)))

    monkeypatch.setattr(idiolink, "dense_scores", record)
    run_block(NoPrompts(), "idiolink", EvalContext(data_dir, quick=True), "plain")
    assert modes == ["sentence"]
    modes.clear()
    run_block(NoPrompts(), "idiolink", EvalContext(data_dir, quick=True), "marked")
    assert modes == ["sentence", "span", "sentence+span"]


def test_quick_scorecard_writes_envelope_predictions_table_figure(tmp_path, data_dir):
    args = [
        "evaluate",
        "all",
        "-m",
        "minilm",
        "--quick",
        "--track",
        "plain",
        "--results-dir",
        str(tmp_path),
        "--only",
        "semeval2b",
        "--only",
        "meaning-triples",
        "--only",
        "sts-guard",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "core acc (held-out, balanced)" in result.output and "STS-B test ρ" in result.output
    for track in ("plain",):
        card = tmp_path / "scorecard" / f"minilm__zero-shot__{track}-quick__seed0.json"
        rec = json.loads(card.read_text())
        assert rec["params"]["track"] == track and rec["key"]["track"] == track
        assert rec["params"]["reader_version"] is None  # no idiom reader in front of plain minilm
        assert set(rec["metrics"]) == {"semeval2b", "meaning-triples", "sts-guard"}
        assert set(rec["metrics"]["semeval2b"]) == {"ALL", "EN", "PT"}
        assert 0 <= rec["metrics"]["meaning-triples"]["all"]["accuracy"] <= 1
        for suffix in ("semeval2b.submission.csv", "meaning-triples.tsv", "sts-guard.tsv", "md", "png"):
            assert card.with_suffix("." + suffix).stat().st_size > 0, suffix
    check = subprocess.run(
        [sys.executable, str(ROOT.parent / "shared" / "tools" / "check_results.py"), str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout


def test_unknown_block_and_track_are_one_line_errors(tmp_path):
    for extra, message in ((["--only", "nope"], "'nope' is not one of"), (["--track", "odd"], "'odd' is not one of")):
        result = CliRunner().invoke(app, ["evaluate", "all", "--results-dir", str(tmp_path), *extra])
        assert result.exit_code == 2 and message in result.output and len(result.output.strip().splitlines()) == 1


def test_a_block_and_evaluate_task_give_the_same_numbers(tmp_path, data_dir):
    """One evaluation path: the quick scorecard's 2B (marked: MWE tokens) and STS-guard blocks give the numbers of
    ``idiomkit evaluate semeval2b --mwe-tokens`` / ``evaluate sts-guard`` on the same quick slice."""
    from idiomkit.api import evaluate
    from idiomkit.scorecard import evaluate_all

    (card,) = evaluate_all("minilm", track="marked", quick=True, only=["semeval2b", "sts-guard"], write=False)
    common = {"data_dir": data_dir, "results_dir": tmp_path, "quick": True, "show_progress_bar": False}
    two_b = evaluate("semeval2b", "minilm", mwe_tokens=True, **common)
    sts = evaluate("sts-guard", "minilm", **common)
    assert card.record.metrics == {"semeval2b": two_b.record.metrics, "sts-guard": sts.record.metrics}
    assert two_b.path.name == "minilm__zero-shot__quick__seed0.json"  # a quick result never passes for a whole one
    assert card.record.params["blocks"]["semeval2b"]["pairs"] == two_b.record.params["pairs"] < 1000
    assert two_b.record.params["mwe_tokens"] and card.record.params["blocks"]["semeval2b"]["mwe_tokens"]
