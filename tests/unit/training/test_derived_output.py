"""No verb writes over a run it did not make: ``center`` and ``interpolate`` never write into the run they read, nor
into a folder holding another run or model (each refused in one line, exit 2, every file of both left byte for byte
as it was); their own earlier output is written over; one writer at a time, training included (the run lock)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.data.errors import DataError
from idiomkit.training.center import center_run
from idiomkit.training.checkpoints import RunDirError
from idiomkit.training.config import TrainConfig
from idiomkit.training.interpolate import interpolate_run
from idiomkit.training.run_dir import (
    MADE_BY,
    RUN_CONFIG,
    check_derived_output,
    derived_output,
    made_by,
    run_lock,
)

runner = CliRunner()


def one_line_error(result) -> str:
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def fake_run(out: Path, recipe: str = "adaptive-triplet", **info) -> Path:
    """A finished run's folder as ``idiomkit train`` leaves it (weights are bytes: every refusal comes before any
    model loads, so a load would fail loudly)."""
    cfg = TrainConfig(output_dir=str(out), recipe=recipe).record()
    record = {
        "recipe": recipe,
        "label": recipe,
        "config": cfg,
        "steps": 3,
        "data_sha256": "abc",
        "counts": {},
        "best": {"metric": "val_idiom", "value": 0.5, "step": 3},
        "validation": [],
        **info,
    }
    (out / "best").mkdir(parents=True)
    (out / "best" / "model.safetensors").write_bytes(b"best weights")
    (out / "training.json").write_text(json.dumps(record), encoding="utf-8")
    (out / RUN_CONFIG).write_text(json.dumps({"config": cfg}), encoding="utf-8")
    (out / "train.log").write_text("step 1\nstep 2\n", encoding="utf-8")
    (out / "modules.json").write_text('[{"idx": 0, "name": "0", "path": "", "type": "x"}]', encoding="utf-8")
    (out / "model.safetensors").write_bytes(b"fine-tuned weights")
    return out


def hashes(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` (its whole tree), by relative path."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def verb(command: str, run: Path, out: Path, data_dir: Path | None = None) -> list[str]:
    return [command, str(run), "-o", str(out)] + (["--data-dir", str(data_dir)] if data_dir else [])


@pytest.mark.parametrize("command", ["center", "interpolate"])
def test_a_verb_never_writes_into_the_run_it_reads(tmp_path, command):
    run = fake_run(tmp_path / "run")
    before = hashes(run)
    line = one_line_error(runner.invoke(app, verb(command, run, run, tmp_path)))
    assert line == (
        f"error: {run}: is the run `idiomkit {command}` reads ({run}); it is never written over: choose another "
        "--output"
    )
    assert hashes(run) == before and len(before) == 6
    line = one_line_error(runner.invoke(app, verb(command, run, run / "sub", tmp_path)))
    assert f"{run / 'sub'}: is inside the run `idiomkit {command}` reads" in line
    assert hashes(run) == before and not (run / "sub").exists()


def test_the_interpolation_curve_is_never_written_into_the_run(tmp_path):
    run = fake_run(tmp_path / "run")
    before = hashes(run)
    args = [*verb("interpolate", run, tmp_path / "mix"), "--curve", str(run / "training.json")]
    line = one_line_error(runner.invoke(app, args))
    assert line == f"error: --curve: {run / 'training.json'} is inside the run {run}, which is never written over"
    assert hashes(run) == before and not (tmp_path / "mix").exists()


@pytest.mark.parametrize("command", ["center", "interpolate"])
def test_a_verb_never_writes_into_a_folder_holding_another_run(tmp_path, command):
    run, other = fake_run(tmp_path / "a"), fake_run(tmp_path / "b", recipe="mnrl")
    before, other_before = hashes(run), hashes(other)
    line = one_line_error(runner.invoke(app, verb(command, run, other, tmp_path)))
    assert line.startswith(
        f"error: {other}: holds another run or model (best); `idiomkit {command}` writes only into a new"
    )
    assert hashes(run) == before and hashes(other) == other_before
    model_only = tmp_path / "model"  # a plain model folder (no training.json) is another model too
    model_only.mkdir()
    (model_only / "config.json").write_text("{}", encoding="utf-8")
    assert "holds another run or model (config.json)" in one_line_error(
        runner.invoke(app, verb(command, run, model_only))
    )
    assert [p.name for p in model_only.iterdir()] == ["config.json"]


def test_a_verb_writes_over_its_own_output_from_the_same_run_only(tmp_path):
    run, other = fake_run(tmp_path / "run"), fake_run(tmp_path / "other")
    out = tmp_path / "out"
    out.mkdir()
    check_derived_output(run, out, "center")  # empty: fine
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    check_derived_output(run, out, "center")  # files that are no run or model: fine
    (out / "training.json").write_text(json.dumps({MADE_BY: made_by("center", run)}), encoding="utf-8")
    check_derived_output(run, out, "center")  # its own output: written over
    check_derived_output(tmp_path / "." / "run", out, "center")  # the same run, however spelled
    for command, source in (("interpolate", run), ("center", other)):  # another verb's, another run's
        with pytest.raises(RunDirError, match="holds another run or model"):
            check_derived_output(source, out, command)
    (out / "training.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(RunDirError, match="holds another run or model"):
        check_derived_output(run, out, "center")


@pytest.mark.parametrize("command", ["center", "interpolate"])
def test_a_second_writer_into_one_output_is_refused_by_the_run_lock(tmp_path, data_dir, command):
    run, out = fake_run(tmp_path / "run"), tmp_path / "out"
    out.mkdir()
    with run_lock(out):  # a training run, or another center / interpolate, is writing there
        line = one_line_error(runner.invoke(app, verb(command, run, out, data_dir)))
    assert line == (
        f"error: {out}: another run (train, center or interpolate) is writing here (lock {out / '.lock'} is held); "
        "wait for it or use another --output"
    )
    assert [p.name for p in out.iterdir()] == [".lock"]  # nothing written


def test_training_into_an_output_a_verb_is_writing_is_refused(tmp_path):
    run, out = fake_run(tmp_path / "run"), tmp_path / "out"
    with derived_output(run, out, "center"):
        result = runner.invoke(app, ["train", "--epochs", "1", "--output", str(out)])
        assert "another training run is writing here" in one_line_error(result)
        refused = pytest.raises(RunDirError, match="another run .train, center or interpolate. is writing here")
        with refused, derived_output(run, out, "interpolate"):
            pass
    assert not (out / RUN_CONFIG).exists()


@pytest.mark.parametrize(
    "change, field",
    [
        ({"recipe": "bogus"}, "field 'recipe': unknown recipe 'bogus'"),
        ({"recipe": None}, "field 'recipe': unknown recipe None"),
        ({"data_sha256": ...}, "field 'data_sha256': missing"),
        ({"steps": ...}, "field 'steps': missing"),
    ],
)
@pytest.mark.parametrize("command", ["center", "interpolate"])
def test_a_run_record_the_verb_cannot_finish_is_refused_before_any_work(tmp_path, command, change, field):
    """An unknown recipe or a record the model card needs a field of: refused before anything is written (it used
    to fail after the model was saved, leaving it without its training.json)."""
    run = fake_run(tmp_path / "run")
    record = json.loads((run / "training.json").read_text())
    record.update(change)
    record = {k: v for k, v in record.items() if v is not ...}
    (run / "training.json").write_text(json.dumps(record), encoding="utf-8")
    line = one_line_error(runner.invoke(app, verb(command, run, tmp_path / "out", tmp_path)))
    assert line.startswith(f"error: {run / 'training.json'}: {field}")
    assert not (tmp_path / "out").exists()


def test_interpolate_refuses_a_config_recipe_it_cannot_rebuild(tmp_path):
    run = fake_run(tmp_path / "run")
    record = json.loads((run / "training.json").read_text())
    record["config"]["recipe"] = "retired-recipe"
    (run / "training.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(DataError, match="field 'config.recipe': unknown recipe 'retired-recipe'"):
        interpolate_run(run, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_center_refuses_a_record_without_its_base_model_before_reading_the_reference(tmp_path):
    run = fake_run(tmp_path / "run")
    record = json.loads((run / "training.json").read_text())
    del record["config"]["model"]
    (run / "training.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(DataError, match="field 'config.model': missing or not a string"):
        center_run(run, tmp_path / "out", tmp_path / "no-data")
    assert not (tmp_path / "out").exists()


def test_architecture_difference_names_the_weights_not_the_mwe_rows():
    import torch

    from idiomkit.training.interpolate import architecture_difference

    def model(rows: int, width: int = 4, extra: bool = False):
        parts = {"word_embeddings": torch.nn.Embedding(rows, width), "dense": torch.nn.Linear(width, width)}
        return torch.nn.ModuleDict(parts | ({"more": torch.nn.Linear(width, 2)} if extra else {}))

    assert architecture_difference(model(10), model(12)) is None  # MWE tokens add word-embedding rows only
    assert architecture_difference(model(10), model(10, width=8)) == (
        "word_embeddings.weight is (10, 4) in the start model, (10, 8) in the tuned one"
    )
    assert architecture_difference(model(10), model(10, extra=True)) == (
        "0 weight(s) only in the start model, 2 only in the tuned one (more.bias)"
    )


def test_interpolate_with_a_start_model_of_another_architecture_says_so(tmp_path, monkeypatch):
    """A run whose training.json names a base model of another architecture than its weights: the architectures
    differ (it used to blame the MWE tokens)."""
    import shutil

    from idiomkit.models import load_model
    from idiomkit.models.registry import registry_model_path
    from idiomkit.training import interpolate

    run = tmp_path / "run"
    shutil.copytree(registry_model_path("minilm"), run)
    fake = json.loads(fake_run(tmp_path / "record", recipe="cosine").joinpath("training.json").read_text())
    fake["config"] |= {"model": "minilm", "limit_groups": 4, "mwe_tokens": False}
    (run / "training.json").write_text(json.dumps(fake), encoding="utf-8")

    def shallower(cfg, groups):  # the start model: minilm with one layer fewer (another base model)
        model = load_model("minilm", device="cpu")
        model[0].auto_model.encoder.layer = model[0].auto_model.encoder.layer[:5]
        return model

    monkeypatch.setattr(interpolate, "start_model", shallower)
    before = hashes(run)
    with pytest.raises(interpolate.InputError) as err:
        interpolate_run(run, tmp_path / "mix", alphas=(0.0, 1.0))
    assert str(err.value).startswith(
        f"{run}: its architecture differs from its start model 'minilm' (training.json's config.model): 0 weight(s) "
        "only in the start model, 16 only in the tuned one"
    )
    assert "MWE" not in str(err.value) and hashes(run) == before
