"""``idiomkit run TASK --method M``: flags generated from the method's options dataclass, one-line refusals, and real
runs on tiny slices whose result files are named and filled as the old benchmark scripts named and filled them."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from idiomkit.cli import app
from idiomkit.errors import OptionError
from idiomkit.methods import METHODS, RUNNABLE
from idiomkit.methods.idiolink.runs import TwinsOptions, run_twins
from idiomkit.methods.runner import RunContext, describe_options, option_args, option_flags, parse_options

runner = CliRunner()
A = "semeval2022_task2/SubTaskA/Data"


def one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def test_unknown_method_is_one_line_listing_the_runnable_methods():
    line = one_error_line(runner.invoke(app, ["run", "semeval2a", "--method", "nope"]))
    assert "unknown method 'semeval2a/nope'" in line and "semeval2a/classifier" in line and "idiolink/twins" in line


def test_unknown_option_is_one_line_naming_it_and_the_methods_options(tmp_path):
    argv = ["run", "semeval2a", "--method", "classifier", "--train-layer", "4", "--results-dir", str(tmp_path)]
    line = one_error_line(runner.invoke(app, argv))
    assert "semeval2a/classifier: no option '--train-layer'" in line and "--train-layers" in line
    assert list(tmp_path.iterdir()) == []  # refused before anything ran


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--epochs", "two"], "option '--epochs': expected int, got 'two'"),
        (["--setting", "few_shot"], "option '--setting': 'few_shot' is not one of zero_shot, one_shot"),
        (["--train-layers"], "option '--train-layers' needs a value"),
    ],
)
def test_bad_option_values_are_one_line(argv, message):
    line = one_error_line(runner.invoke(app, ["run", "semeval2a", "--method", "classifier", *argv]))
    assert message in line


def test_an_option_of_another_method_is_refused():
    line = one_error_line(runner.invoke(app, ["run", "semeval2a", "--method", "sense-matcher", "--smooth"]))
    assert "semeval2a/sense-matcher: no option '--smooth'" in line


def test_a_setting_the_method_cannot_run_is_one_line(tmp_path):
    argv = ["run", "semeval2a", "--method", "sense-matcher", "--setting", "zero_shot", "--results-dir", str(tmp_path)]
    line = one_error_line(runner.invoke(app, argv))
    assert line.endswith("sense-matcher: one_shot only (zero-shot dev MWEs have no shots)")
    argv = ["run", "semeval2a", "--method", "classifier", "--setting", "one_shot", "--smooth", "--results-dir", "."]
    assert one_error_line(runner.invoke(app, argv)).endswith("--smooth: zero_shot setting without --extra-train only")


def test_help_options_lists_every_field_of_the_dataclass():
    result = runner.invoke(app, ["run", "admire", "--method", "structured", "--help-options"])
    assert result.exit_code == 0
    for flag in ("-m, --model", "--l2", "--stack", "--type-classifier", "--signals", "--threads"):
        assert flag in result.output
    assert "--c " not in result.output  # the feature ranker's option, not this one's


def test_every_runnable_method_is_a_registered_method():
    assert set(RUNNABLE) <= set(METHODS)
    assert {"semeval2a/classifier", "semeval2a/sense-matcher", "semeval2a/probe", "admire/query-encoder",
            "admire/features", "admire/structured", "idiolink/twins"} == set(RUNNABLE)  # fmt: skip


@dataclass
class Toy:
    model: list[str] = field(default_factory=lambda: ["minilm"], metadata={"positional": True, "short": "m"})
    seeds: list[int] = field(default_factory=lambda: [0])
    train_layers: int | None = None
    lr: float = 5e-5
    smooth: bool = False


@dataclass
class ToyPlus(Toy):
    warmup_ratio: float = 0.1


def test_flags_are_generated_from_the_dataclass_fields():
    assert "--warmup-ratio" not in option_flags(Toy)
    assert option_flags(ToyPlus)["--warmup-ratio"] == "warmup_ratio"  # a field added is a flag
    assert parse_options(ToyPlus, ["--warmup-ratio", "0.3"]).warmup_ratio == 0.3
    assert any(line.startswith("--warmup-ratio") for line in describe_options(ToyPlus))
    with pytest.raises(OptionError, match="no option '--warmup-ratio'"):
        parse_options(Toy, ["--warmup-ratio", "0.3"], "toy")


def test_lists_bools_positional_and_short_flags_parse_as_the_scripts_did():
    got = parse_options(Toy, ["a", "-m", "b", "--seeds", "0", "1", "--seeds", "2", "--smooth", "--lr", "-1e-4"])
    assert got == Toy(model=["a", "b"], seeds=[0, 1, 2], smooth=True, lr=-1e-4)
    assert parse_options(Toy, []) == Toy()
    assert parse_options(Toy, ["--train-layers=4"]).train_layers == 4
    assert parse_options(Toy, option_args(got)) == got  # option_args is the inverse


def test_twins_scores_each_run_and_mode_as_the_old_script_did(tmp_path):
    """benchmarks/idiolink_twins.py called evaluate("idiolink", run, pooling="last2", recipe=<label>, seed=<seed>,
    model_name=<base model dir name>, ..., query_mode=<mode>, twin_expansion=..., usage_rerank=...)."""
    run = tmp_path / "infonce-seed1"
    run.mkdir()
    info = {"label": "idiolink-infonce", "config": {"seed": 1, "model": "/m/minilm"}}
    (run / "training.json").write_text(json.dumps(info))
    calls = []

    class Done:
        record = type("R", (), {"model": "minilm", "recipe": "idiolink-infonce"})()
        table = [["a", "b"]]
        path = tmp_path / "x.json"

    def fake_evaluate(task, model, **kwargs):
        calls.append((task, model, kwargs))
        return Done()

    ctx = RunContext(tmp_path, tmp_path / "res", command="idiomkit run ...", evaluate=fake_evaluate)
    options = parse_options(TwinsOptions, [str(run), "--modes", "span", "--usage-classifier"], "idiolink/twins")
    assert run_twins(options, ctx) == [tmp_path / "x.json"]
    ((task, model, kwargs),) = calls
    assert (task, model) == ("idiolink", str(run))
    assert kwargs == {"pooling": "last2", "recipe": "idiolink-infonce", "seed": 1, "model_name": "minilm",
                      "data_dir": tmp_path, "results_dir": tmp_path / "res", "show_progress_bar": False,
                      "command": "idiomkit run ...", "query_mode": "span", "twin_expansion": True,
                      "usage_rerank": "classifier"}  # fmt: skip
    with pytest.raises(OptionError, match="at most one of"):
        run_twins(parse_options(TwinsOptions, [str(run), "--usage-rerank", "--usage-classifier"]), ctx)


def tiny_2a(data_dir: Path, out: Path, per_language: int = 2, dev_rows: int = 10, train_rows: int = 80) -> Path:
    """A few MWEs per language of the real 2A files (dev with gold; zero-shot train)."""
    import csv

    def rows(name):
        with open(data_dir / A / name, newline="", encoding="utf-8") as f:
            table = list(csv.reader(f))
        return table[0], table[1:]

    def write(name, head, body):
        (out / A).mkdir(parents=True, exist_ok=True)
        with open(out / A / name, "w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows([head, *body])

    head, dev = rows("dev.csv")
    gold_head, gold = rows("dev_gold.csv")
    keep = [i for lang in ("EN", "PT") for i in [j for j, r in enumerate(dev) if r[1] == lang][:dev_rows]]
    write("dev.csv", head, [dev[i] for i in keep])
    write("dev_gold.csv", gold_head, [gold[i] for i in keep])
    zero_head, zero = rows("train_zero_shot.csv")
    mwes = {lang: list(dict.fromkeys(r[2] for r in zero if r[1] == lang))[: per_language * 3] for lang in ("EN", "PT")}
    write("train_zero_shot.csv", zero_head, [r for r in zero if r[2] in mwes[r[1]]][:train_rows])
    one_head, one = rows("train_one_shot.csv")
    write("train_one_shot.csv", one_head, one[:4])
    return out


def test_classifier_run_writes_the_result_the_script_wrote(data_dir, tmp_path, monkeypatch):
    """Golden: ``benchmarks/semeval2a.py classifier -m minilm --setting zero_shot --epochs 1 --train-layers 1`` wrote
    ``semeval2a-dev/minilm__classifier-sep-span-mean-top1__zero_shot-1ep__seed0.json`` with these params keys."""
    data = tiny_2a(data_dir, tmp_path / "data")
    argv = ["run", "semeval2a", "--method", "classifier", "-m", "minilm", "--setting", "zero_shot", "--epochs", "1",
            "--train-layers", "1", "--seeds", "0", "--threads", "1", "--data-dir", str(data),
            "--results-dir", str(tmp_path / "res")]  # fmt: skip
    monkeypatch.setattr(sys, "argv", ["/x/bin/idiomkit", *argv])
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    path = tmp_path / "res/semeval2a-dev/minilm__classifier-sep-span-mean-top1__zero_shot-1ep__seed0.json"
    record = json.loads(path.read_text())
    assert (record["task"], record["model"], record["recipe"], record["seed"]) == (
        "semeval2a-dev", "minilm", "classifier-sep-span+mean-top1", 0)  # fmt: skip
    assert list(record["params"]) == ["split", "setting", "classifier", "threshold", "selected_epoch", "training",
                                      "threads", "command"]  # fmt: skip
    assert record["params"]["classifier"] == "fine-tuned encoder + linear head"
    assert record["params"]["command"] == "idiomkit " + " ".join(argv)
    assert path.with_suffix(".submission.csv").is_file() and set(record["metrics"]) == {"ALL", "EN", "PT"}
    again = runner.invoke(app, argv)  # resumable: the existing result is skipped
    assert again.exit_code == 0 and "skip (exists)" in again.output and "0 result file(s)" in again.output


def test_admire_zero_shot_run_writes_the_results_the_script_wrote(data_dir, tmp_path, monkeypatch):
    """Golden: ``benchmarks/admire_cv.py --variant zero-shot --query-mode span --folds 3`` wrote
    ``admire/minilm__zero-shot__{cv,test}-span__seed0.json`` (+ predictions, + submission_xe for test)."""
    out = tmp_path / "data/admire/en"
    out.mkdir(parents=True)
    for split, n in [("train", 8), ("dev", 4), ("test", 3), ("xe", 3)]:
        lines = (data_dir / f"admire/en/subtask_a_{split}.tsv").read_text(encoding="utf-8").splitlines(keepends=True)
        (out / f"subtask_a_{split}.tsv").write_text("".join(lines[: n + 1]), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the caption cache goes to runs/admire-cache here
    argv = ["run", "admire", "--method", "query-encoder", "--variant", "zero-shot", "--query-mode", "span",
            "--folds", "3", "--data-dir", str(tmp_path / "data"), "--results-dir", str(tmp_path / "res")]  # fmt: skip
    monkeypatch.setattr(sys, "argv", ["idiomkit", *argv])
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    res = tmp_path / "res/admire"
    assert sorted(p.name for p in res.iterdir()) == [
        "minilm__zero-shot__cv-span__seed0.json", "minilm__zero-shot__cv-span__seed0.predictions.tsv",
        "minilm__zero-shot__test-span__seed0.json", "minilm__zero-shot__test-span__seed0.predictions.tsv",
        "minilm__zero-shot__test-span__seed0.submission_xe.tsv",
    ]  # fmt: skip
    cv = json.loads((res / "minilm__zero-shot__cv-span__seed0.json").read_text())
    assert list(cv["params"]) == ["query_mode", "variant", "folds", "fold_seed", "config", "caption_tower", "command",
                                  "split", "train_s", "trainable_params", "n_items"]  # fmt: skip
    assert cv["params"]["variant"] == "cv-span" and cv["params"]["n_items"] == 12 and len(cv["metrics"]["folds"]) == 3
    assert cv["params"]["command"] == "idiomkit " + " ".join(argv)


def test_every_run_experiment_parses_against_its_methods_options():
    """Each ``idiomkit run`` experiment job (full and quick) names a runnable method and only options it takes."""
    import typer

    from idiomkit.reproduce import job_argv, load_experiments

    root = Path(__file__).resolve().parents[1]
    command = typer.main.get_command(app).commands["run"]
    jobs = 0
    for exp in load_experiments(root / "benchmarks/experiments"):
        for quick in (False, True):
            argv = job_argv(exp, 0, quick, Path("runs/x"), Path("results"))
            if Path(argv[0]).name != "idiomkit" or argv[1] != "run":
                continue
            ctx = command.make_context("run", argv[2:])
            name = f"{ctx.params['task']}/{ctx.params['method']}"
            parse_options(RUNNABLE[name].options, ctx.args, name)
            jobs += 1
    assert jobs >= 60  # 30 experiments, full and quick
