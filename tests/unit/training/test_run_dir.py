"""Run directories you can trust: tied to their config, one writer at a time, checkpoints that cannot run code,
options refused at parse time (issue #31, items 1, 2 and 4 for ``train`` / ``interpolate``)."""

from __future__ import annotations

import json
import os
import pickle
import random
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.training import train
from idiomkit.training.checkpoints import CHECKPOINT, RunDirError, load_checkpoint, rng_states, set_rng_states
from idiomkit.training.config import TrainConfig
from idiomkit.training.interpolate import interpolate_run
from idiomkit.training.run_dir import RUN_CONFIG, check_same_config, config_differences, open_run, run_lock

runner = CliRunner()


def one_line_error(result, exit_code: int = 2) -> str:
    """The CLI's single error line (asserting the exit code and that there is exactly one line, no traceback)."""
    assert result.exit_code == exit_code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def write_config(out: Path, *names: str, **changes) -> None:
    """A run directory whose ``names`` (default: run_config.json and training.json, a finished run) hold a config."""
    out.mkdir(parents=True, exist_ok=True)
    cfg = TrainConfig(output_dir=str(out), **changes).record()
    for name in names or (RUN_CONFIG, "training.json"):
        (out / name).write_text(json.dumps({"config": cfg}), encoding="utf-8")


class RunsCode:
    """A pickle payload: unpickling it would create ``marker`` (were the checkpoint loaded with weights_only=False)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def crafted_checkpoint(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    marker = out.parent / "code-ran"
    torch.save({"format": 2, "model": RunsCode(marker)}, out / CHECKPOINT)
    probe = out.parent / "probe"
    pickle.loads(pickle.dumps(RunsCode(probe)))
    assert probe.exists()  # the payload is live: an unsafe load would run it
    probe.unlink()
    return marker


def test_crafted_checkpoint_is_refused_and_its_code_never_runs(tmp_path):
    marker = crafted_checkpoint(tmp_path / "run")
    with pytest.raises(RunDirError) as err:
        load_checkpoint(tmp_path / "run")
    message = str(err.value)
    assert message.startswith(f"{tmp_path / 'run' / CHECKPOINT}: refused to load: not a plain idiomkit checkpoint")
    assert "use --force-new" in message and "\n" not in message
    assert not marker.exists()
    assert "Unsupported global: GLOBAL" in message  # the unpickler's reason, without PyTorch's advice to load unsafely
    assert not any(advice in message for advice in ("weights_only", "safe_globals", "trust", "\x1b["))


def test_crafted_checkpoint_refused_by_the_cli_before_any_model_loads(tmp_path):
    marker = crafted_checkpoint(tmp_path / "run")
    result = runner.invoke(app, ["train", "--epochs", "1", "--output", str(tmp_path / "run")])
    line = one_line_error(result)
    assert "checkpoint.pt: refused to load" in line and not marker.exists()
    assert not (tmp_path / "run" / RUN_CONFIG).exists()  # nothing recorded for a run that never started


@pytest.mark.parametrize(
    "content, why",
    [(b"", "empty"), (b"PK\x03\x04 truncated zip", "truncated"), (b"not a checkpoint at all", "text")],
)
def test_damaged_checkpoint_is_one_line(tmp_path, content, why):
    (tmp_path / CHECKPOINT).write_bytes(content)
    with pytest.raises(RunDirError, match=r"checkpoint\.pt: refused to load") as err:
        load_checkpoint(tmp_path)
    assert "\n" not in str(err.value) and "weights_only" not in str(err.value), why


def test_checkpoint_of_another_format_is_refused(tmp_path):
    torch.save({"model": {}, "state": {}}, tmp_path / CHECKPOINT)  # loads safely, but not format 2
    with pytest.raises(RunDirError, match="not an idiomkit checkpoint of format 2; use --force-new"):
        load_checkpoint(tmp_path)


def test_rng_states_survive_a_weights_only_round_trip(tmp_path):
    random.seed(5), np.random.seed(5), torch.manual_seed(5)
    np.random.standard_normal()  # leaves a cached Gaussian in numpy's legacy state
    torch.save({"rng": rng_states()}, tmp_path / "rng.pt")
    expected = (random.random(), np.random.standard_normal(), np.random.random(), torch.rand(3))
    set_rng_states(torch.load(tmp_path / "rng.pt", weights_only=True)["rng"])
    again = (random.random(), np.random.standard_normal(), np.random.random(), torch.rand(3))
    assert expected[:3] == again[:3] and torch.equal(expected[3], again[3])


def test_another_config_is_refused_naming_the_fields(tmp_path):
    out = tmp_path / "x"
    write_config(out, epochs=2, seed=0)
    with pytest.raises(RunDirError) as err:
        train(epochs=3, seed=1, output_dir=out)
    expected = f"{out}: was trained with epochs=2, seed=0; now epochs=3, seed=1; use --force-new to start over"
    assert str(err.value) == expected


def test_another_config_via_the_cli_is_one_line_and_exit_2(tmp_path):
    out = tmp_path / "x"
    write_config(out, batch_size=64, lr=2e-5)
    result = runner.invoke(app, ["train", "--batch-size", "32", "--lr", "1e-4", "--output", str(out)])
    line = one_line_error(result)
    assert "was trained with batch_size=64, lr=2e-05; now batch_size=32, lr=0.0001; use --force-new" in line
    assert json.loads((out / RUN_CONFIG).read_text())["config"]["batch_size"] == 64  # the old record is kept


@pytest.mark.parametrize("source", ["training.json", "checkpoint"])
def test_config_of_a_run_without_run_config_comes_from_training_json_or_the_checkpoint(tmp_path, source):
    out = tmp_path / "old"
    if source == "training.json":
        write_config(out, "training.json", recipe="cosine")
        blob = None
    else:
        out.mkdir()
        (out / CHECKPOINT).write_bytes(b"")  # there is a checkpoint; its (already loaded) blob holds the config
        blob = {"config": TrainConfig(recipe="cosine").record()}
    with pytest.raises(RunDirError, match="was trained with recipe=cosine; now recipe=mnrl"):
        check_same_config(out, TrainConfig(recipe="mnrl"), blob)


def test_resume_safe_fields_may_change_and_the_rest_may_not():
    old = TrainConfig().record()
    harmless = dict(old, output_dir="elsewhere", data_dir="/data", checkpoint_every=7, threads=1, keep_epochs=True)
    assert config_differences(old, harmless) == []
    shaping = dict(old, model="mpnet", warmup=0.0, max_steps=9, eval_every=3, lora_rank=4)
    assert config_differences(old, shaping) == ["model", "warmup", "lora_rank", "eval_every", "max_steps"]


def test_run_config_without_progress_does_not_block_another_config(tmp_path):
    write_config(tmp_path, RUN_CONFIG, epochs=2)  # a run that failed before its first checkpoint
    assert open_run(tmp_path, TrainConfig(epochs=3), force_new=False, main=True) is None
    assert json.loads((tmp_path / RUN_CONFIG).read_text())["config"]["epochs"] == 3


def test_broken_run_config_is_one_line(tmp_path):
    write_config(tmp_path, "training.json")
    (tmp_path / RUN_CONFIG).write_text("{not json", encoding="utf-8")
    with pytest.raises(RunDirError, match=r"run_config\.json: not a run config .*; use --force-new") as err:
        open_run(tmp_path, TrainConfig(), force_new=False, main=True)
    assert "\n" not in str(err.value)


def test_force_new_clears_the_old_run_and_keeps_other_files(tmp_path):
    out = tmp_path / "run"
    write_config(out, epochs=2)
    for name in ("best", "best.tmp", "epoch-1", "epoch-2"):
        (out / name).mkdir()
        (out / name / "model.safetensors").write_bytes(b"old")
    for name in (CHECKPOINT, CHECKPOINT + ".tmp", "training.json", "notes.txt"):
        (out / name).write_text("old", encoding="utf-8")
    assert open_run(out, TrainConfig(epochs=5, output_dir=str(out)), force_new=True, main=True) is None
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", RUN_CONFIG]
    assert json.loads((out / RUN_CONFIG).read_text())["config"]["epochs"] == 5


def test_same_config_resumes_and_records_itself(tmp_path):
    out = tmp_path / "run"
    cfg = TrainConfig(output_dir=str(out), epochs=2)
    out.mkdir()
    assert open_run(out, cfg, force_new=False, main=True) is None  # fresh: nothing to resume
    again = TrainConfig(output_dir=str(out), epochs=2, checkpoint_every=5)  # a resume-safe change
    assert open_run(out, again, force_new=False, main=True) is None
    assert json.loads((out / RUN_CONFIG).read_text())["config"]["checkpoint_every"] == 5


def test_second_writer_is_refused_by_the_lock(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    with run_lock(out):
        with pytest.raises(RunDirError) as err:
            train(epochs=1, output_dir=out)
        assert str(err.value) == (
            f"{out}: another training run is writing here (lock {out / '.lock'} is held); wait for it or use "
            "another --output"
        )
        assert not (out / RUN_CONFIG).exists()  # the refused run wrote nothing
        result = runner.invoke(app, ["train", "--epochs", "1", "--output", str(out)])
        assert "another training run is writing here" in one_line_error(result)
    with run_lock(out):  # released when the first writer ends
        pass


def test_output_that_cannot_be_a_directory_is_one_line(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["train", "--epochs", "1", "--output", str(tmp_path / "file" / "run")])
    assert f"{tmp_path / 'file' / 'run'}: cannot create the run directory" in one_line_error(result)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_read_only_output_is_one_line(tmp_path):
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o500)
    try:
        result = runner.invoke(app, ["train", "--epochs", "1", "--output", str(out)])
        assert f"{out}: cannot write the run directory" in one_line_error(result)
    finally:
        out.chmod(0o700)


BAD_TRAIN_OPTIONS = [
    (["--epochs", "0"], "--epochs"),
    (["--epochs", "-1"], "--epochs"),
    (["--batch-size", "0"], "--batch-size"),
    (["--warmup", "-5"], "--warmup"),
    (["--lr", "0"], "--lr"),
    (["--lr", "-1e-5"], "--lr"),
    (["--checkpoint-every", "0"], "--checkpoint-every"),
    (["--eval-every", "-1"], "--eval-every"),
    (["--patience", "0"], "--patience"),
    (["--max-steps", "0"], "--max-steps"),
    (["--limit-groups", "0"], "--limit-groups"),
    (["--lora-rank", "0"], "--lora-rank"),
    (["--dropout", "1"], "--dropout"),
    (["--dropout", "-0.1"], "--dropout"),
    (["--max-seq-length", "4"], "--max-seq-length"),
    (["--sts-epochs", "-1"], "--sts-epochs"),
    (["--sts-weight", "-1"], "--sts-weight"),
    (["--recipe", "bogus"], "--recipe"),
    (["--query-mode", "bogus"], "--query-mode"),
    (["--epochs", "two"], "--epochs"),
]


@pytest.mark.parametrize("args, option", BAD_TRAIN_OPTIONS, ids=[" ".join(a) for a, _ in BAD_TRAIN_OPTIONS])
def test_train_option_out_of_range_is_a_usage_error(tmp_path, args, option):
    out = tmp_path / "run"
    result = runner.invoke(app, ["-v", "train", *args, "--output", str(out)])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output
    assert "INFO" not in result.output and "Traceback" not in result.output  # refused before anything ran
    assert not out.exists()


@pytest.mark.parametrize(
    "options, message",
    [
        ({"epochs": 0}, "epochs must be >= 1, got 0"),
        ({"batch_size": 0}, "batch-size must be >= 1, got 0"),
        ({"warmup": -5}, "warmup must be >= 0, got -5"),
        ({"lr": 0.0}, "lr must be > 0, got 0.0"),
        ({"checkpoint_every": 0}, "checkpoint-every must be >= 1, got 0"),
        ({"limit_groups": 0}, "limit-groups must be >= 1, got 0"),
        ({"dropout": 1.0}, "dropout must be >= 0 and < 1, got 1.0"),
        ({"max_steps": "3"}, "max-steps must be >= 1, got '3'"),
        ({"recipe": "bogus"}, "unknown recipe 'bogus'"),
        ({"pooling": "max"}, "unknown pooling 'max' (expected one of mean, last2)"),
        ({"bogus_option": 1}, "unknown training option(s): bogus_option"),
    ],
)
def test_train_api_checks_options_before_touching_the_output(tmp_path, options, message):
    with pytest.raises(ValueError) as err:
        train(output_dir=tmp_path / "run", **options)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--alphas", "5,-2"], "each ratio must be in [0, 1], got 5"),
        (["--alphas", "0,1.5"], "each ratio must be in [0, 1], got 1.5"),
        (["--alphas", "a,b"], "is not a comma-separated list of numbers"),
        (["--alphas", ""], "is not a comma-separated list of numbers"),
        (["--max-sts-drop", "-0.1"], "Invalid value for '--max-sts-drop'"),
    ],
)
def test_interpolate_options_are_refused_at_parse_time(tmp_path, args, message):
    result = runner.invoke(app, ["interpolate", str(tmp_path / "run"), "-o", str(tmp_path / "mix"), *args])
    assert result.exit_code == 2 and message in " ".join(result.output.replace("│", " ").split()), result.output
    assert not (tmp_path / "mix").exists()


@pytest.mark.parametrize(
    "alphas, drop, message",
    [
        ((5.0, -2.0), 0.03, "alphas: each ratio must be in [0, 1], got 5"),
        ((), 0.03, "give at least one ratio"),
        ((0.5,), -1.0, "max-sts-drop must be >= 0, got -1"),
    ],
)
def test_interpolate_api_checks_ratios_before_loading(tmp_path, alphas, drop, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        interpolate_run(tmp_path / "no-run", tmp_path / "mix", alphas, drop)
    assert not (tmp_path / "mix").exists()


def test_interpolate_refuses_a_broken_training_json_in_one_line(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "training.json").write_text("[1, 2]", encoding="utf-8")
    result = runner.invoke(app, ["interpolate", str(tmp_path / "run"), "-o", str(tmp_path / "mix")])
    assert "training.json: has no 'config' object" in one_line_error(result)


def test_a_restored_checkpoint_gives_its_weights_to_the_model_and_drops_its_own_copy(tmp_path):
    """Resuming copies the checkpoint's weights into the model and the RNG states into the generators; the blob
    then no longer holds the weights (a resumed run would otherwise carry a second copy of the model to its end),
    while the optimizer and scheduler states stay for the phase to load."""
    from idiomkit.training.checkpoints import restore_checkpoint, save_checkpoint
    from idiomkit.training.config import TrainState

    torch.manual_seed(1)
    trained = torch.nn.Linear(4, 2)
    optimizer = torch.optim.AdamW(trained.parameters())
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
    save_checkpoint(tmp_path, trained, optimizer, scheduler, TrainState(step=7), TrainConfig())
    expected_draw = torch.rand(3)
    fresh = torch.nn.Linear(4, 2)
    blob = load_checkpoint(tmp_path)
    restore_checkpoint(blob, fresh)
    assert torch.equal(fresh.weight, trained.weight) and torch.equal(fresh.bias, trained.bias)
    assert torch.equal(torch.rand(3), expected_draw)
    assert "model" not in blob and {"optimizer", "scheduler", "state"} <= blob.keys() and blob["state"]["step"] == 7
