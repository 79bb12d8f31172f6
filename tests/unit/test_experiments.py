"""Experiment files are declarative: typed run tables, no shell, no format strings, data inside the data directory."""

import dataclasses
import shutil
import sys
import typing
from pathlib import Path

import pytest
from typer.testing import CliRunner

import idiomkit
from idiomkit.cli import app
from idiomkit.data.errors import DataError
from idiomkit.options import cli_fields, command_args, option_flags, parse_options
from idiomkit.reproduce.experiments import load_experiment, load_experiments
from idiomkit.reproduce.jobs import code_hash, data_hash, job_argv, sha256_tree
from idiomkit.reproduce.schema import (
    EVALUATE_JOB_SUPPLIED,
    RUN_TYPES,
    TASK_OPTIONS,
    EvaluateRun,
    TrainRun,
    evaluate_schema,
    task_options,
)
from idiomkit.run_options import RunOptions
from idiomkit.tasks import TASKS, SemEval2BOptions
from idiomkit.tasks.semeval2a import SemEval2ATask
from idiomkit.tasks.semeval2b_task import SemEval2BTask

ROOT = Path(__file__).resolve().parents[2]


runner = CliRunner()


HEAD = 'benchmark = "toy"\nseeds = [0]\n'


def experiment_file(tmp_path: Path, body: str, name: str = "toy") -> Path:
    """``tmp_path/benchmarks/experiments/<name>.toml`` beside a benchmark script ``benchmarks/hit.py``."""
    folder = tmp_path / "benchmarks" / "experiments"
    folder.mkdir(parents=True, exist_ok=True)
    (tmp_path / "benchmarks" / "hit.py").write_text("import sys\nprint(sys.argv)\n")
    path = folder / f"{name}.toml"
    path.write_text(HEAD + body)
    return path


def refused(path: Path, *fragments: str) -> str:
    with pytest.raises(DataError) as info:
        load_experiment(path)
    message = str(info.value)
    assert message.startswith(str(path)) and "\n" not in message
    for fragment in fragments:
        assert fragment in message
    return message


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        ('[command]\nrun = "sh -c id"\n', ("field 'command'", "unknown run table", "train, evaluate, method")),
        ('[shell]\nrun = "id"\n', ("field 'shell'", "unknown run table")),
        ('[train]\nrecipe = "r"\nmodel = "m"\n[method]\nscript = "hit"\n', ("exactly one run table", "train")),
        ("[quick]\ninclude = false\n", ("exactly one run table is needed, found []",)),
        ('extra = 1\n[method]\nscript = "hit"\n', ("field 'extra'", "unknown field")),
        ('[train]\nrecipe = "r"\nmodel = "m"\nepochz = 2\n', ("field 'train.epochz'", "unknown field")),
        ('[evaluate]\ntask = "t"\nmodel = "m"\nrun = "x"\n', ("field 'evaluate.run'", "unknown field")),
        ('[method]\nscript = "hit"\nrun = "id"\n', ("field 'method.run'", "unknown field")),
        (
            '[method]\nscript = "hit"\npositional = [{ inject = "seed", shell = "id" }]\n',
            ("field 'method.positional[0].shell'", "unknown field"),
        ),
        ('[train]\nrecipe = "r"\nmodel = "m"\n[quick]\nmax_stepz = 3\n', ("field 'quick.max_stepz'", "unknown field")),
        ('[method]\nscript = "hit"\n[quick]\nrun = "id"\n', ("field 'quick.run'", "known: include, seeds, args")),
    ],
)
def test_unknown_kinds_and_fields_are_refused_by_name(tmp_path, body, fragments):
    refused(experiment_file(tmp_path, body), *fragments)


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        ('[train]\nrecipe = "r"\nmodel = "m"\nepochs = "2"\n', ("field 'train.epochs'", "expected integer, got '2'")),
        ('[train]\nrecipe = "r"\nmodel = "m"\nepochs = true\n', ("field 'train.epochs'", "expected integer")),
        ('[train]\nrecipe = "r"\nmodel = "m"\nlr = "fast"\n', ("field 'train.lr'", "expected number")),
        (
            '[train]\nrecipe = "r"\nmodel = "m"\nevaluate = "semeval2b"\n',
            ("field 'train.evaluate'", "expected list of strings"),
        ),
        ('[train]\nrecipe = 3\nmodel = "m"\n', ("field 'train.recipe'", "expected string")),
        (
            '[evaluate]\ntask = "t"\nmodel = "m"\nusage_rerank = 1\n',
            ("field 'evaluate.usage_rerank'", "expected boolean"),
        ),
        ('[train]\nrecipe = "r"\nmodel = "m"\n[quick]\nmax_steps = 2.5\n', ("field 'quick.max_steps'", "integer")),
        ('[train]\nrecipe = "r"\nmodel = "m"\n[quick]\ninclude = "no"\n', ("field 'quick.include'", "boolean")),
        ("[method]\nscript = 3\n", ("field 'method.script'", "expected string")),
        ('[method]\nscript = "hit"\npositional = "x"\n', ("field 'method.positional'", "expected a list")),
        ('[method]\nscript = "hit"\npositional = [true]\n', ("field 'method.positional[0]'", "expected string")),
        ('[method]\nscript = "hit"\nargs = [1]\n', ("field 'method.args'", "table of option = value")),
        ('[method]\nscript = "hit"\n[method.args]\nx = 2024-01-01\n', ("field 'method.args.x'", "expected string")),
        (
            '[method]\nscript = "hit"\n[method.args]\nx = { inject = "env" }\n',
            ("field 'method.args.x.inject'", "seed, results, output, run"),
        ),
        (
            '[method]\nscript = "hit"\n[method.args]\nx = { inject = "results", prefix = "a" }\n',
            ("field 'method.args.x.prefix'", 'only with inject = "seed"'),
        ),
        ('[method]\nscript = "hit"\n[method.args]\nx = { inject = "run" }\n', ("field 'method.args.x.experiment'",)),
        (
            '[method]\nscript = "hit"\n[method.args]\nx = { inject = "output", file = "../../etc" }\n',
            ("field 'method.args.x.file'", "inside the output folder"),
        ),
    ],
)
def test_a_field_of_the_wrong_type_names_file_field_and_expected_type(tmp_path, body, fragments):
    refused(experiment_file(tmp_path, body), *fragments)


@pytest.mark.parametrize(
    ("script", "fragment"),
    [
        ("sh", "'sh' is not a known script"),
        ("python", "'python' is not"),
        ("../hit", "'../hit' is not"),
        ("/bin/sh", "'/bin/sh' is not"),
        ("hit.py", "'hit.py' is not"),
    ],
)
def test_a_script_outside_the_allow_list_is_refused(tmp_path, script, fragment):
    message = refused(experiment_file(tmp_path, f'[method]\nscript = "{script}"\n'), "field 'method.script'", fragment)
    assert "hit, idiomkit" in message  # the allow-list: the scripts beside the experiments folder + idiomkit


def test_idiomkit_entry_needs_one_of_its_own_commands(tmp_path):
    refused(
        experiment_file(tmp_path, '[method]\nscript = "idiomkit"\nsubcommand = "rm"\n'),
        "field 'method.subcommand'",
        "expected an idiomkit command",
    )
    refused(experiment_file(tmp_path, '[method]\nscript = "idiomkit"\n'), "field 'method.subcommand'")


@pytest.mark.parametrize("item", ["/etc", "../secret", "epie/../../secret", ""])
def test_data_paths_outside_the_data_directory_are_refused_on_load(tmp_path, item):
    path = experiment_file(tmp_path, "")
    path.write_text(HEAD.replace("seeds", f'data = ["{item}"]\nseeds') + '[method]\nscript = "hit"\n')
    refused(path, "field 'data'", "not a path inside the data directory")


def test_a_data_link_leading_out_of_the_data_directory_is_refused_before_hashing(tmp_path):
    data_dir, outside = tmp_path / "data", tmp_path / "outside"
    data_dir.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    (data_dir / "inner").mkdir()
    (data_dir / "inner" / "rows.csv").write_text("a\n")
    (data_dir / "escape").symlink_to(outside)
    path = experiment_file(tmp_path, "")
    path.write_text(HEAD.replace("seeds", 'data = ["escape"]\nseeds') + '[method]\nscript = "hit"\n')
    with pytest.raises(DataError, match="'escape' leads outside the data directory"):
        data_hash(load_experiment(path), data_dir)
    path.write_text(HEAD.replace("seeds", 'data = ["inner"]\nseeds') + '[method]\nscript = "hit"\n')
    assert len(data_hash(load_experiment(path), data_dir)) == 64


def test_braces_in_values_are_passed_through_literally_never_formatted(tmp_path):
    body = (
        '[method]\nscript = "hit"\npositional = ["{seed.__class__.__init__.__globals__}", "{results}"]\n'
        '[method.args]\nname = "{0}{seed}"\nseed = { inject = "seed" }\n'
    )
    exp = load_experiment(experiment_file(tmp_path, body))
    argv = job_argv(exp, 7, False, Path("runs/r"), Path("res"))
    assert argv[2:] == ["{seed.__class__.__init__.__globals__}", "{results}", "--name", "{0}{seed}", "--seed", "7"]


def test_method_argv_is_built_by_code_in_file_order(tmp_path):
    body = (
        '[method]\nscript = "hit"\nsubcommand = "run"\npositional = [{ inject = "seed", prefix = "cfg@" }, '
        '{ inject = "run", experiment = "toy" }]\n[method.args]\nm = "minilm"\nseed = { inject = "seed" }\n'
        'flag = true\noff = false\ntag = ["a", 2]\nratio = 0.3\nout = { inject = "output", file = "c.json" }\n'
        'results-dir = { inject = "results" }\n[quick]\n[quick.args]\nratio = 0.5\nextra = true\n'
    )
    path = experiment_file(tmp_path, body)
    (exp,) = load_experiments(path.parent)
    argv = job_argv(exp, 3, False, Path("runs/r"), Path("res"))
    assert argv[0] == sys.executable and Path(argv[1]) == (tmp_path / "benchmarks/hit.py").resolve()
    assert argv[2:] == [
        "run",
        "cfg@3",
        "runs/r/toy-seed3",
        "-m",
        "minilm",
        "--seed",
        "3",
        "--flag",
        "--tag",
        "a",
        "--tag",
        "2",
        "--ratio",
        "0.3",
        "--out",
        "runs/r/toy-seed3/c.json",
        "--results-dir",
        "res",
    ]
    quick = job_argv(exp, 3, True, Path("runs/q"), Path("qres"))
    assert quick[quick.index("--ratio") + 1] == "0.5" and quick[-1] == "--extra"


def test_inject_run_must_name_an_experiment_of_the_folder(tmp_path):
    path = experiment_file(
        tmp_path, '[method]\nscript = "hit"\npositional = [{ inject = "run", experiment = "nope" }]\n'
    )
    with pytest.raises(DataError, match="no experiment 'nope'") as info:
        load_experiments(path.parent)
    assert str(path) in str(info.value)


def test_several_seeds_need_an_injected_seed(tmp_path):
    path = experiment_file(tmp_path, "")
    path.write_text(HEAD.replace("[0]", "[0, 1]") + '[method]\nscript = "hit"\n[method.args]\nseed = 0\n')
    refused(path, "field 'seeds'", "2 seeds, but [method] injects no seed")
    path.write_text(HEAD + '[method]\nscript = "hit"\n[quick]\nseeds = [4, 5, 6]\n')
    refused(path, "field 'seeds'", "3 seeds")
    path.write_text(HEAD.replace("[0]", "[0, 1]") + '[method]\nscript = "hit"\npositional = [{ inject = "seed" }]\n')
    exp = load_experiment(path)
    assert job_argv(exp, 0, False, Path("r"), Path("s")) != job_argv(exp, 1, False, Path("r"), Path("s"))


@pytest.mark.parametrize(
    ("args", "field", "shown"),
    [
        ('results-dir = "/tmp/elsewhere"', "method.args.results-dir", "'/tmp/elsewhere'"),
        ('results-dir = "../../results"', "method.args.results-dir", "'../../results'"),
        ('o = "models/x"', "method.args.o", "'models/x'"),
        ('results_dir = ["res", { inject = "results" }]', "method.args.results_dir", "'res'"),
        ('output = { inject = "seed", prefix = "/tmp/run" }', "method.args.output", "{ inject = 'seed' }"),
        (
            'results-dir = { inject = "results" }\n[quick.args]\nresults-dir = "/tmp/q"',
            "quick.args.results-dir",
            "'/tmp/q'",
        ),
    ],
)
def test_a_method_writing_outside_the_run_folders_is_refused_before_any_job(tmp_path, monkeypatch, args, field, shown):
    """Issue #42.2: a literal --results-dir (or -o ...) of a [method] wrote the job's JSON wherever it pointed."""
    monkeypatch.chdir(tmp_path)
    path = experiment_file(tmp_path, f'[method]\nscript = "hit"\n[method.args]\n{args}\n')
    (tmp_path / "benchmarks" / "hit.py").write_text("import pathlib\npathlib.Path('hit-ran').touch()\n")
    refused(path, f"field '{field}': {shown} would write outside the run's folders; use {{ inject = \"results\" }}")
    result = runner.invoke(app, ["reproduce", "--quick", "--experiments", str(path.parent), "--data-dir", "."])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and f"field '{field}'" in lines[0] and str(path) in lines[0], lines
    assert not (tmp_path / "runs").exists() and not (tmp_path / "hit-ran").exists()  # no job ran


def test_write_options_may_take_the_jobs_own_places(tmp_path):
    body = (
        '[method]\nscript = "hit"\n[method.args]\nresults-dir = { inject = "results" }\n'
        'o = { inject = "output" }\ncurve = { inject = "output", file = "c.json" }\n'
        'out = { inject = "run", experiment = "toy" }\njson = true\n'
    )
    exp = load_experiment(experiment_file(tmp_path, body))
    argv = job_argv(exp, 2, False, Path("runs/r"), Path("res"))
    assert argv[2:] == [
        "--results-dir",
        "res",
        "-o",
        "runs/r/toy-seed2",
        "--curve",
        "runs/r/toy-seed2/c.json",
        "--out",
        "runs/r/toy-seed2",
        "--json",
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "2a-classifier-minilm-zero-shot-context",
            "run semeval2a --method classifier -m minilm --setting zero_shot "
            "--epochs 2 --train-layers 4 --threads 2 --context --seeds 1 --results-dir RES",
        ),
        (
            "admire-structured-lora-2a-epie-type-minilm",
            "run admire --method structured --stack "
            "lora-ranked-triplet --type-classifier --type-epie --signals proxy --seed 1 --threads 2 --results-dir RES",
        ),
        (
            "idiolink-twins-usageclf-infonce-minilm",
            "run idiolink runs/reproduce/idiolink-infonce-minilm-seed1 --method twins --modes span --usage-classifier",
        ),
        (
            "2b-interp-adaptive-triplet-mwe-minilm-6ep",
            "interpolate runs/reproduce/2b-adaptive-triplet-mwe-minilm-6ep-seed1"
            " -o runs/reproduce/2b-interp-adaptive-triplet-mwe-minilm-6ep-seed1 --curve "
            "runs/reproduce/2b-interp-adaptive-triplet-mwe-minilm-6ep-seed1/curve.json --evaluate semeval2b",
        ),
    ],
)
def test_converted_experiments_build_the_command_their_run_string_did(monkeypatch, name, expected):
    """The old ``[command] run`` strings, shlex-split after formatting, for seed 1 (same argv → same job key)."""
    monkeypatch.chdir(ROOT)
    exp = next(e for e in load_experiments("benchmarks/experiments") if e.name == name)
    argv = job_argv(exp, 1, False, Path("runs/reproduce"), Path("RES"))
    assert argv[1:] == expected.split()


def test_xiao_experiments_train_as_the_recorded_script_did(monkeypatch):
    """The deleted ``benchmarks/xiao_pairs.py`` trained 1 epoch at batch 48, lr 5e-5, 64 tokens, no STS validation,
    one thread, torch's dropout sampler and padded layers, then scored xiao-pairs (and 2B / IdioLink for the transfer
    rows); the ``[train]`` files say the same through ``idiomkit train``."""
    monkeypatch.chdir(ROOT)
    exps = {e.name: e for e in load_experiments("benchmarks/experiments") if e.benchmark == "xiao-pairs"}
    trained = (
        "train --recipe pairs-triplet-id --model minilm --epochs 1 --batch-size 48 --lr 5e-05 --max-seq-length 64"
        " --no-val-sts --threads 1 --no-fast-dropout --no-unpad --evaluate xiao-pairs --evaluate semeval2b"
        " --evaluate idiolink --seed 1 --output runs/reproduce/xiao-pairs-triplet-id-seed1"
    )
    zero_shot = "evaluate xiao-pairs --model minilm --seed 0"
    assert job_argv(exps["xiao-pairs-triplet-id"], 1, False, Path("runs/reproduce"), Path("RES"))[1:] == trained.split()
    assert job_argv(exps["xiao-zero-shot"], 0, False, Path("r"), Path("RES"))[1:] == zero_shot.split()
    runs = [e for e in exps.values() if e.kind == "train"]
    assert len(runs) == 15 and all(e.spec["recipe"] == e.name.removeprefix("xiao-") for e in runs)
    assert all("xiao-pairs" in e.spec["evaluate"] for e in runs)


def test_every_trained_scorecard_experiment_cards_its_model(monkeypatch):
    """An experiment that feeds the scorecard and trains a model ends its job with the model's plain-track card
    (``--evaluate scorecard``), so ``reproduce --full --only NAME`` makes the row it describes, not only a model."""
    monkeypatch.chdir(ROOT)
    runs = [e for e in load_experiments("benchmarks/experiments") if e.benchmark == "scorecard" and e.kind == "train"]
    assert len(runs) >= 30
    for exp in runs:
        argv = job_argv(exp, 0, False, Path("runs/reproduce"), Path("RES"))
        assert "--evaluate" in argv and argv[argv.index("--evaluate") + 1] == "scorecard", exp.name


def test_no_experiment_file_holds_a_shell_command_or_placeholder():
    for path in sorted((ROOT / "benchmarks/experiments").rglob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert "[command]" not in text and "{seed}" not in text and "{results}" not in text, path.name


def test_bad_experiment_file_is_one_line_and_exit_2_from_the_cli(tmp_path):
    path = experiment_file(tmp_path, '[train]\nrecipe = "r"\nmodel = "m"\nepochs = "two"\n')
    result = runner.invoke(app, ["reproduce", "--dry-run", "--experiments", str(path.parent), "--data-dir", "."])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "field 'train.epochs'" in lines[0] and "Traceback" not in result.output


def test_code_hash_covers_the_installed_package_wherever_it_lives(tmp_path, monkeypatch):
    here = code_hash()
    assert here == sha256_tree([Path(idiomkit.__file__).resolve().parent, ROOT / "pyproject.toml"])
    wheel = tmp_path / "site-packages" / "idiomkit"  # as installed from a wheel: no src/, no pyproject.toml
    shutil.copytree(Path(idiomkit.__file__).parent, wheel, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(idiomkit, "__file__", str(wheel / "__init__.py"))
    installed = code_hash()
    assert installed == sha256_tree([wheel]) and installed != sha256_tree([])
    (wheel / "reproduce" / "jobs.py").write_text("# changed\n")
    assert code_hash() != installed


@pytest.mark.parametrize(("kind", "schema"), [("train", TrainRun), ("evaluate", EvaluateRun)])
def test_every_typed_field_is_an_option_of_the_real_command(kind, schema):
    """TrainRun / EvaluateRun do not drift from the CLI: each field, set, parses as an option of its command."""
    import typer

    command = typer.main.get_command(app).commands[kind]
    samples = {int: 8, float: 0.5, bool: True, list[str]: ["semeval2b"]}
    texts = {
        "recipe": "mnrl",
        "model": "minilm",
        "pooling": "mean",
        "query_mode": "span",
        "setting": "zero_shot",
        "features": "span",
        "split": "test",
        "bm25_method": "lucene",
        "train_pairs": "pairs.jsonl",
        "prompt_name": "auto",
        "keep_distance": "cosine",
        "teacher": "minilm",
        "distill_align": "procrustes",
        "precision": "bf16",
    }
    hints = typing.get_type_hints(schema)
    for f in dataclasses.fields(schema):
        if f.name == "task":
            continue  # evaluate's argument, not an option
        types = [a for a in typing.get_args(hints[f.name]) if a is not type(None)] or [hints[f.name]]
        values = [texts[f.name]] if types[0] is str else [True, False] if types[0] is bool else [samples[types[0]]]
        head = ["semeval2b"] if kind == "evaluate" else []
        for value in values:  # click.UsageError if unknown
            ctx = command.make_context(kind, [*head, *command_args(schema, {f.name: value})])
            if f.name in ctx.params and not f.metadata.get("bare"):
                assert ctx.params[f.name] == value, (f.name, value)  # a false bool is its negative flag


def test_the_evaluate_schema_is_derived_from_run_options():
    """``[evaluate]``: task and model (required), the command-line fields of RunOptions but those the job sets, each
    optional, then the tasks' options."""
    hints = typing.get_type_hints(EvaluateRun)
    run = [f.name for f in cli_fields(RunOptions) if f.name not in EVALUATE_JOB_SUPPLIED]
    assert list(hints) == ["task", "model", *run, *(name for name, _ in TASK_OPTIONS)]
    assert [f.name for f in dataclasses.fields(EvaluateRun) if f.default is dataclasses.MISSING] == ["task", "model"]
    assert hints["pooling"] == str | None and hints["batch_size"] == int | None
    assert {"seed", "data_dir", "results_dir", "write", "model_name"}.isdisjoint(hints)


@dataclasses.dataclass(frozen=True)
class WithKnob(RunOptions):
    knob: int = dataclasses.field(default=1, metadata={"help": "A new run option, declared only here."})
    python_only: float = dataclasses.field(default=0.5, metadata={"cli": False})


def test_a_new_run_options_field_reaches_the_evaluate_schema_and_the_command(tmp_path, monkeypatch):
    schema = evaluate_schema(WithKnob)
    hints = typing.get_type_hints(schema)
    assert hints["knob"] == int | None and "python_only" not in hints
    monkeypatch.setitem(RUN_TYPES, "evaluate", schema)
    path = experiment_file(tmp_path, '[evaluate]\ntask = "semeval2b"\nmodel = "minilm"\nknob = 5\n')
    exp = load_experiment(path)
    assert exp.run.knob == 5 and job_argv(exp, 0, False, tmp_path, tmp_path)[2:] == [
        "semeval2b",
        "--model",
        "minilm",
        "--knob",
        "5",
        "--seed",
        "0",
    ]
    refused(experiment_file(tmp_path, '[evaluate]\ntask = "t"\nmodel = "m"\nknob = "x"\n'), "field 'evaluate.knob'")
    refused(experiment_file(tmp_path, '[evaluate]\ntask = "t"\nmodel = "m"\nseed = 1\n'), "unknown field")


def test_the_task_options_are_the_registered_tasks_flags():
    """TASK_OPTIONS: each long flag of each registered task's Options, with its type; a ``flags`` field's bare flags
    (idiolink's --usage-classifier, ...) are bools, and every one parses as an option of the task that declares it."""
    options = dict(TASK_OPTIONS)
    assert options["top_k"] is int and options["usage_classifier"] is bool and options["usage_rerank"] is bool
    owners = {flag: task for task in TASKS.values() for flag in option_flags(task.Options) if flag.startswith("--")}
    assert sorted(options) == sorted(flag[2:].replace("-", "_") for flag in owners)
    samples = {
        "setting": "zero_shot",
        "query_mode": "span",
        "split": "val",
        "bm25_method": "lucene",
        "features": "span",
    }
    for name, hint in TASK_OPTIONS:
        value = True if hint is bool else 7 if hint is int else samples.get(name, "x")
        argv = command_args(EvaluateRun, {name: value})
        parse_options(owners[argv[0]].Options, argv, name)  # OptionError if the flag or its value is not the task's


@dataclasses.dataclass
class KnobTaskOptions(SemEval2BOptions):
    knob: int = dataclasses.field(default=1, metadata={"help": "A new task option, declared only here."})
    python_only: float = dataclasses.field(default=0.5, metadata={"cli": False})


class KnobTask(SemEval2BTask):
    Options = KnobTaskOptions


def test_a_new_task_options_field_reaches_the_evaluate_schema_and_the_command(tmp_path, monkeypatch):
    schema = evaluate_schema(tasks=[*TASKS.values(), KnobTask])
    hints = typing.get_type_hints(schema)
    assert (
        hints["knob"] == int | None and "python_only" not in hints and "knob" not in typing.get_type_hints(EvaluateRun)
    )
    monkeypatch.setitem(RUN_TYPES, "evaluate", schema)
    path = experiment_file(tmp_path, '[evaluate]\ntask = "semeval2b"\nmodel = "minilm"\nknob = 5\n')
    exp = load_experiment(path)
    argv = job_argv(exp, 0, False, tmp_path, tmp_path)[2:]
    assert exp.run.knob == 5 and argv == ["semeval2b", "--model", "minilm", "--knob", "5", "--seed", "0"]
    assert parse_options(KnobTaskOptions, argv[3:5], "semeval2b").knob == 5
    refused(experiment_file(tmp_path, '[evaluate]\ntask = "t"\nmodel = "m"\nknob = "x"\n'), "field 'evaluate.knob'")


@dataclasses.dataclass
class IntSettingOptions:
    setting: int = 0


class IntSettingTask(SemEval2ATask):
    Options = IntSettingOptions


def test_a_task_option_two_tasks_declare_with_different_types_is_an_error():
    """A name shared by two tasks must mean one type (semeval2a and semeval2b's ``setting`` are both strings)."""
    assert dict(task_options([SemEval2BTask, SemEval2ATask]))["setting"] is str
    with pytest.raises(TypeError, match="task option setting: semeval2b declares <class 'str'>, semeval2a declares"):
        task_options([SemEval2BTask, IntSettingTask])


def test_known_idiomkit_verbs_are_the_cli_commands():
    """reproduce keeps the verb list itself (the CLI sits above it); it must name exactly the CLI's commands."""
    import typer

    from idiomkit.cli import app
    from idiomkit.reproduce.method_runs import IDIOMKIT_VERBS

    assert sorted(IDIOMKIT_VERBS) == sorted(typer.main.get_command(app).commands)


def test_experiment_files_sit_in_the_folder_of_their_benchmark():
    """``benchmarks/experiments/<benchmark>/NAME.toml``: the folder is the file's ``benchmark`` field."""
    experiments = load_experiments(ROOT / "benchmarks/experiments")
    assert len(experiments) >= 100
    misplaced = [e.path for e in experiments if e.path.parent.name != e.benchmark]
    assert misplaced == []
    assert not list((ROOT / "benchmarks/experiments").glob("*.toml"))  # none left at the top


def test_experiments_load_from_sub_folders_with_scripts_beside_the_experiments_folder(tmp_path):
    path = experiment_file(tmp_path, '[method]\nscript = "hit"\n')
    nested = path.parent / "toy" / path.name
    nested.parent.mkdir()
    path.rename(nested)
    (exp,) = load_experiments(path.parent)
    assert exp.name == "toy" and exp.path == nested
    assert exp.scripts_dir == tmp_path / "benchmarks"
    assert load_experiment(nested).scripts_dir == tmp_path / "benchmarks"  # alone: the folder named experiments


def test_two_experiment_files_with_one_name_are_refused(tmp_path):
    path = experiment_file(tmp_path, '[method]\nscript = "hit"\n')
    for benchmark in ("one", "two"):
        (path.parent / benchmark).mkdir()
        (path.parent / benchmark / path.name).write_text(path.read_text())
    path.unlink()
    with pytest.raises(DataError) as info:
        load_experiments(path.parent)
    message = str(info.value)
    assert message.startswith(str(path.parent / "two" / "toy.toml")) and "\n" not in message
    assert "'toy' already used by" in message and str(path.parent / "one" / "toy.toml") in message
