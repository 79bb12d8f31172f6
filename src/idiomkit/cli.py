"""The ``idiomkit`` command line (typer + rich). Bad input -> one red line and exit code 2, no traceback."""

from __future__ import annotations

import functools
import inspect
import json
import logging
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.exceptions import TyperException  # typer's click exceptions (UsageError, ...) derive from it

os.environ.setdefault("HF_HUB_OFFLINE", "1") if os.environ.get("IDIOMKIT_ONLINE") != "1" else None

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Train and measure idiom-aware sentence embeddings.")
console = Console()
err_console = Console(stderr=True)

DataDir = Annotated[Path | None, typer.Option("--data-dir", help="Benchmark data root (default ../shared/data).")]
ResultsDir = Annotated[
    Path | None, typer.Option("--results-dir", help="Where result JSONs go (default benchmarks/results).")
]


def user_errors(func):
    """The CLI's error boundary: a failure of input, environment or disk (:func:`idiomkit.errors.user_error_message`:
    bad data, options, OSError family, csv/JSON/UTF-8/safetensors errors...) is one line on stderr and exit code 2;
    anything else (a bug) keeps its traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from idiomkit.errors import user_error_message

        try:
            return func(*args, **kwargs)
        except Exception as exc:
            message = user_error_message(exc)
            if message is None:
                raise
            text = escape(message)  # messages hold brackets ("[start, end]"): not markup
            err_console.print(f"[bold red]error:[/] {text}", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper


def print_options(owner: str, options: type) -> None:
    """``--help-options``: the flags generated from a task's or method's options dataclass, one per line."""
    from idiomkit.options import describe_options

    console.print(f"{owner} options:", highlight=False)
    for line in describe_options(options):
        console.print("  " + escape(line), highlight=False, soft_wrap=True)


def print_table(rows: list[list[str]], title: str | None = None) -> None:
    table = Table(title=title)
    for col in rows[0]:
        table.add_column(col)
    for row in rows[1:]:
        table.add_row(*row)
    console.print(table)


@app.callback()
def global_options(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log progress details.")] = False,
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    if not verbose:
        quiet_transformers()


def quiet_transformers() -> None:
    """transformers' warnings and progress bars off: through the environment variables it reads when first imported
    (importing it here would cost every verb a second), or directly when something imported it already."""
    if "transformers" in sys.modules:
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
        return
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


DOCS_RESULTS = Path("docs/results")  # where `idiomkit report` writes the results pages


@app.command()
@user_errors
def models(as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False) -> None:
    """List registry models: name, parameters, languages, source package, installed or not."""
    from idiomkit.models.registry import registry_entries

    entries = registry_entries()
    if as_json:
        console.print_json(json.dumps(entries))
        return
    rows = [["name", "params", "languages", "package", "ready"]]
    rows += [[e["name"], e["params"], e["languages"], e["package"], "yes" if e["installed"] else "no"] for e in entries]
    print_table(rows, "idiomkit models")
    for e in entries:
        if not e["installed"]:
            console.print(f"{e['name']}: {e['install']}", highlight=False, soft_wrap=True)


@app.command()
@user_errors
def embed(
    texts: Annotated[list[str] | None, typer.Argument(help="Texts to embed (or use --input).")] = None,
    input: Annotated[
        Path | None,
        typer.Option(
            "--input",
            "-i",
            help="A .txt file (one text a line) or .jsonl with 'text' and optional 'span' [start, end].",
        ),
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write embeddings to this .npy file.")] = None,
    model: Annotated[str, typer.Option("--model", "-m")] = "minilm",
    pooling: Annotated[str, typer.Option(help="mean | last2 | span (span needs .jsonl spans)")] = "mean",
    prompt_name: Annotated[str, typer.Option(help="Model prompt name, 'auto' or 'none'.")] = "auto",
    batch_size: int = 64,
) -> None:
    """Embed texts and print their shape (and save them with --output)."""
    from idiomkit.errors import check_at_least, check_choice
    from idiomkit.io import check_output_file, read_texts, save_embeddings

    check_at_least("--batch-size", batch_size, 1)
    check_choice("pooling", pooling, ("mean", "last2", "span"))
    if output:
        check_output_file(output)
    from idiomkit.api import embed as embed_texts

    items, spans = read_texts(input, spans_required=pooling == "span") if input else (list(texts or []), None)
    if not items:
        raise ValueError("nothing to embed: give texts or --input")
    if pooling == "span" and spans is None:
        raise ValueError("--pooling span needs a .jsonl --input with a 'span' for every text")
    emb = embed_texts(
        items,
        model,
        pooling="mean" if pooling == "span" else pooling,
        spans=spans if pooling == "span" else None,
        prompt_name=None if prompt_name == "none" else prompt_name,
        batch_size=batch_size,
        show_progress_bar=len(items) > 256,
    )
    if output:
        save_embeddings(output, emb)  # exactly this path (np.save would add .npy), atomically
    console.print(f"{emb.shape[0]} embeddings of dimension {emb.shape[1]}" + (f" -> {output}" if output else ""))


@app.command("read")
@user_errors
def read_texts_verb(
    texts: Annotated[list[str], typer.Argument(help="Texts to read.")],
    mode: Annotated[str, typer.Option(help="mark | gloss | replace")] = "replace",
    lexicon: Annotated[
        Path | None, typer.Option("--lexicon", help="An idiom lexicon TSV (idiom, language, meaning, source).")
    ] = None,
    sense: Annotated[
        str, typer.Option(help="'default' (the shipped sense check), 'none' (every match figurative) or a JSON file.")
    ] = "default",
    language: Annotated[str | None, typer.Option(help="Only idioms of EN or PT (default: both).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Find the idioms in texts, judge each literal or figurative, and show the rewritten text (no model needed)."""
    from idiomkit.errors import check_choice

    check_choice("mode", mode, ("mark", "gloss", "replace"))
    check_choice("language", language, (None, "EN", "PT"))
    from idiomkit.reading import read, reading_json, reading_rows

    readings = [read(t, mode=mode, lexicon=lexicon, sense=sense, language=language) for t in texts]
    if as_json:
        console.print_json(json.dumps(reading_json(readings), ensure_ascii=False))
        return
    for reading in readings:
        rows = reading_rows(reading)
        if len(rows) > 1:
            print_table([[escape(cell) for cell in row] for row in rows], escape(reading.text))
        else:
            console.print(f"no idiom found in: {escape(reading.text)}", highlight=False, soft_wrap=True)
        console.print(f"{mode}: {escape(reading.rewritten)}", highlight=False, soft_wrap=True)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
@user_errors
def evaluate(
    ctx: typer.Context,
    task: Annotated[
        str, typer.Argument(help="Benchmark: semeval2b | idiolink | semeval2a | admire | xiao-pairs, or all")
    ],
    model: Annotated[str, typer.Option("--model", "-m", help="Registry name, model directory or hub id.")] = "minilm",
    pooling: Annotated[str, typer.Option(help="mean | last2")] = "mean",
    prompt_name: Annotated[str, typer.Option(help="Model prompt name, 'auto' (query for e5) or 'none'.")] = "auto",
    recipe: Annotated[str, typer.Option(help="Recipe label for the result file.")] = "zero-shot",
    seed: int = 0,
    batch_size: int = 64,
    data_dir: DataDir = None,
    results_dir: ResultsDir = None,
    no_write: Annotated[bool, typer.Option("--no-write", help="Print only; write no result file.")] = False,
    help_options: Annotated[bool, typer.Option("--help-options", help="List the task's options and exit.")] = False,
) -> None:
    """Evaluate a model on a benchmark, print the table, write the result JSON and raw predictions. The task's own
    options follow (``--help-options`` lists them), e.g. ``idiomkit evaluate idiolink --query-mode span``."""
    if task == "all":
        scorecard_verb(
            ctx.args,
            model=model,
            pooling=pooling,
            prompt_name=prompt_name,
            recipe=recipe,
            seed=seed,
            batch_size=batch_size,
            data_dir=data_dir,
            results_dir=results_dir,
            write=not no_write,
            help_options=help_options,
        )
        return
    from idiomkit.api import evaluate as run_evaluation
    from idiomkit.tasks import get_task, parse_task_options

    task_obj = get_task(task)
    if help_options:
        print_options(task, task_obj.Options)
        return
    options = parse_task_options(task_obj, ctx.args, lexical=model in task_obj.lexical_models)
    result = run_evaluation(
        task,
        model,
        pooling=pooling,
        prompt_name=None if prompt_name == "none" else prompt_name,
        recipe=recipe,
        seed=seed,
        data_dir=data_dir,
        results_dir=results_dir,
        write=not no_write,
        batch_size=batch_size,
        options=options,
    )
    rec = result.record
    print_table(
        result.table,
        f"{rec.task}: {rec.model} ({rec.recipe}, pooling={pooling}, "
        f"prompt={rec.params.get('prompt_name')}) — {rec.wall_s:.1f} s",
    )
    if result.path:
        console.print(f"result: {result.path}")


def scorecard_verb(argv: list[str], *, model: str, help_options: bool, write: bool, **common) -> None:
    """``idiomkit evaluate all``: the scorecard of one model (flags from :class:`ScorecardOptions`), its table
    beside the untrained encoder and the published rows, the markdown table and the PNG beside the result JSON."""
    from idiomkit.options import parse_options
    from idiomkit.scorecard import ScorecardOptions, evaluate_all
    from idiomkit.scorecard.card import transposed
    from idiomkit.scorecard.run import comparison_rows, published_cards, write_figure, write_table

    if help_options:
        print_options("evaluate all", ScorecardOptions)
        return
    options = parse_options(ScorecardOptions, argv, "evaluate all")
    common["prompt_name"] = None if common["prompt_name"] == "none" else common["prompt_name"]
    cards = evaluate_all(
        model,
        track=options.track,
        quick=options.quick,
        only=options.only or None,
        write=write,
        reader=options.reader,
        **common,
    )
    published = published_cards(common["results_dir"])
    for card in cards:
        rows = comparison_rows(card, published)
        rec = card.record
        print_table(transposed(rows[:4]), f"{rec.model} {rec.recipe}: {rec.params['track']} track ({rec.wall_s:.0f} s)")
        for path in (card.path, write_table(card, rows), write_figure(card, rows)):
            if path:
                console.print(f"wrote {path}", highlight=False, markup=False)


@app.command("nearest")
@user_errors
def nearest(
    models: Annotated[
        list[str], typer.Option("--model", "-m", help="Registry name or model directory (repeatable).")
    ] = None,  # type: ignore[assignment]
    pooling: Annotated[str, typer.Option(help="mean | last2 (a trained model keeps its own)")] = "mean",
    reader: Annotated[
        str | None, typer.Option(help="Also show each model with the idiom reader in front (mark | gloss | replace).")
    ] = None,
) -> None:
    """For five English and three Portuguese idiomatic sentences, which of {figurative paraphrase, literal
    misreading, unrelated} each model puts nearest (✓: the figurative paraphrase)."""
    from idiomkit.models import load_model
    from idiomkit.reading import add_reader
    from idiomkit.scorecard.nearest import nearest_table

    loaded = {}
    for name in models or ["minilm"]:
        loaded[name] = load_model(name, pooling=pooling)
        if reader:
            loaded[f"{name} + reader"] = add_reader(load_model(name, pooling=pooling), mode=reader, sense="default")
    print_table(nearest_table(loaded), "nearest meaning by cosine")


@app.command("score")
@user_errors
def score(
    submission: Annotated[Path, typer.Argument(help="A subtask B submission CSV (ID, Language, Setting, Sim).")],
    setting: Annotated[str, typer.Option(help="pre_train | fine_tune")] = "pre_train",
    data_dir: DataDir = None,
) -> None:
    """Rescore a SemEval 2B dev submission CSV with the organisers' rules."""
    from idiomkit.config import default_data_dir
    from idiomkit.data.semeval2022 import load_subtask_b
    from idiomkit.errors import check_choice
    from idiomkit.tasks.semeval2b import SETTINGS, score_submission

    check_choice("setting", setting, SETTINGS)

    split = load_subtask_b(data_dir or default_data_dir(), "dev")
    metrics = score_submission(submission, split.gold or [], setting, split.pairs)
    rows = [["language", "idiom", "sts", "all"]]
    rows += [[lang] + [f"{b[k]:.4f}" for k in ("idiom", "sts", "all")] for lang, b in metrics.items()]
    print_table(rows, f"{submission} ({setting})")


@app.command("mteb")
@user_errors
def mteb_run(
    task: Annotated[str, typer.Option("--task", "-t", help="semeval2b | idiolink | admire")] = "semeval2b",
    model: Annotated[str, typer.Option("--model", "-m", help="Registry name, model directory or hub id.")] = "minilm",
    pooling: Annotated[str, typer.Option(help="mean | last2")] = "mean",
    batch_size: Annotated[int, typer.Option(help="Encoding batch size.")] = 64,
    data_dir: DataDir = None,
) -> None:
    """Run a benchmark as an mteb task (local data, no result cache) and print its main score."""
    from idiomkit.errors import check_at_least, check_choice

    check_at_least("--batch-size", batch_size, 1)
    check_choice("pooling", pooling, ("mean", "last2"))
    try:
        from idiomkit.mteb_tasks import get_mteb_task, run_mteb
    except ImportError as exc:
        raise ValueError(f"mteb is not installed ({exc}); install the 'mteb' extra") from None
    from idiomkit.models import load_model

    mteb_task = get_mteb_task(task, data_dir)
    scores = run_mteb(load_model(model, pooling=pooling), mteb_task, batch_size=batch_size)
    name = mteb_task.metadata.main_score
    console.print(f"{mteb_task.metadata.name} {name} = {scores['main_score']:.6f}")


@app.command()
@user_errors
def report(
    results_dir: ResultsDir = None,
    output: Annotated[Path, typer.Option(help="Folder for the results pages.")] = DOCS_RESULTS,
    readme: Annotated[
        Path | None,
        typer.Option(
            help="README whose marked results table is refreshed too (default: README.md when the pages go to "
            "docs/results; no README is touched for another --output)."
        ),
    ] = None,
) -> None:
    """Regenerate the results pages (docs/results/*.md) from the result JSON files."""
    from idiomkit.config import default_results_dir
    from idiomkit.errors import FileSystemError
    from idiomkit.report import update_readme, write_report
    from idiomkit.results import check_writable_dir

    source = Path(results_dir or default_results_dir())
    if not source.is_dir():
        raise FileSystemError(f"{source}: results directory " + ("is a file" if source.exists() else "not found"))
    if output.exists() and not output.is_dir():
        raise FileSystemError(f"{output}: is a file; give the folder for the results pages")
    check_writable_dir(output, "output directory")
    path = write_report(source, output)
    console.print(f"wrote {path}")
    readme = readme or (Path("README.md") if output == DOCS_RESULTS else None)
    if readme and readme.is_file() and update_readme(readme, source):
        console.print(f"updated the results table of {readme}")


@app.command()
@user_errors
def reproduce(
    quick: Annotated[
        bool, typer.Option("--quick/--full", help="--quick: tiny slices (minutes); --full: the real runs (days).")
    ] = True,
    only: Annotated[
        list[str] | None, typer.Option("--only", help="Only this benchmark (e.g. semeval2b-dev) or experiment.")
    ] = None,
    seed: Annotated[
        list[int] | None, typer.Option("--seed", help="Only this seed of each selected experiment (repeatable).")
    ] = None,
    experiments: Annotated[Path, typer.Option(help="Folder of experiment files.")] = Path("benchmarks/experiments"),
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List the jobs and whether they would run.")] = False,
    data_dir: DataDir = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Re-run the selected --full jobs into a temporary folder and compare each "
            "result with the recorded one (metrics, raw predictions); exit 1 on a difference.",
        ),
    ] = False,
    check_json: Annotated[Path, typer.Option("--check-json", help="Where --check writes its table.")] = Path(
        "benchmarks/reproduce_check.json"
    ),
    keep: Annotated[
        bool,
        typer.Option(
            "--keep",
            help="--check: keep the re-run results (in runs/reproduce-check/kept/) to look "
            "into a difference, instead of a temporary folder.",
        ),
    ] = False,
) -> None:
    """Run the experiments behind every table (skipping jobs whose command + code + data are unchanged), then
    regenerate the report: --quick → runs/reproduce-quick/report/, --full → docs/results/. With --check: re-run
    them as recorded and compare (benchmarks/results is never written)."""
    import time

    from idiomkit.config import default_data_dir, default_results_dir
    from idiomkit.report import write_report
    from idiomkit.reproduce import load_experiments, plan, run_job

    data = Path(data_dir or os.environ.get("IDIOMKIT_DATA_DIR") or default_data_dir()).resolve()
    if check:
        scratch = Path("runs/reproduce-check/kept") if keep else None
        reproduce_check(load_experiments(experiments), only, seed, data, check_json, dry_run, scratch)
        return
    root = Path("runs/reproduce-quick" if quick else "runs/reproduce")
    results_dir = root / "results" if quick else default_results_dir()
    jobs = plan(
        load_experiments(experiments),
        quick=quick,
        run_root=root,
        results_dir=results_dir,
        data_dir=data,
        only=only,
        seeds=seed,
    )
    if not jobs:
        raise ValueError(f"{selection_text(only, seed)}: no experiment in {experiments} matches")
    rows = [["experiment", "seed", "benchmark", "status", "s"]]
    failed = 0
    for i, job in enumerate(jobs, 1):
        status, seconds = ("up to date", "") if job.done() else ("to run", "")
        if not dry_run and status == "to run":
            console.print(
                f"[{i}/{len(jobs)}] {job.experiment.name} seed {job.seed}: {job.command}", highlight=False, markup=False
            )  # a command's brackets are text ("a[os]b"), not rich markup
            tick = time.perf_counter()
            code = run_job(job, results_dir=results_dir, data_dir=data, log_dir=root / "logs")
            status, seconds = ("ran" if code == 0 else f"FAILED ({code})"), f"{time.perf_counter() - tick:.0f}"
            failed += code != 0
        rows.append([job.experiment.name, str(job.seed), job.experiment.benchmark, status, seconds])
    print_table(rows, f"reproduce ({'quick' if quick else 'full'}): {len(jobs)} jobs")
    if dry_run:
        for job in jobs:
            console.print(job.command, highlight=False, soft_wrap=True, markup=False)
        return
    if results_dir.exists():
        output = root / "report" if quick else DOCS_RESULTS
        console.print(f"wrote {write_report(results_dir, output)}")
    if failed:
        console.print(f"{failed} job(s) failed: logs in {root / 'logs'}")
        raise typer.Exit(1)


def selection_text(only: list[str] | None, seeds: list[int] | None) -> str:
    """The ``--only`` / ``--seed`` selection as typed, for messages."""
    return " ".join([*(f"--only {o}" for o in only or []), *(f"--seed {s}" for s in seeds or [])]) or "all"


def reproduce_check(
    experiments: list,
    only: list[str] | None,
    seeds: list[int] | None,
    data: Path,
    check_json: Path,
    dry_run: bool,
    kept: Path | None = None,
) -> None:
    """``reproduce --check``: each selected job re-run into a temporary results folder (``kept``, when given) and
    compared with benchmarks/results (the table printed and written to ``check_json``); exit 1 when a result
    differs beyond its experiment's documented tolerance, fails, or has no recorded counterpart."""
    import contextlib
    import tempfile

    from idiomkit.config import default_results_dir
    from idiomkit.reproduce import check_jobs, check_lines, failed_checks, run_check, write_check_json

    recorded = default_results_dir()
    log_dir = Path("runs/reproduce-check/logs")
    folder = contextlib.nullcontext(kept) if kept else tempfile.TemporaryDirectory(prefix="idiomkit-check-")
    with folder as scratch:
        jobs = check_jobs(
            experiments,
            only=only,
            scratch=Path(scratch),
            models_root=Path("runs/reproduce"),
            recorded_dir=recorded,
            seeds=seeds,
        )
        if not jobs:
            raise ValueError(f"{selection_text(only, seeds)}: no experiment matches")
        if dry_run:
            trained_here = {job.trains for job in jobs if job.trains}
            for job in jobs:
                later = job.missing and set(job.missing) <= trained_here
                state = "not checkable: " + job.recreate if job.missing and not later else "to check"
                console.print(
                    f"{job.experiment.name} seed {job.seed} ({state}): {job.command}", highlight=False, markup=False
                )
            return
        rows = []
        for i, job in enumerate(jobs, 1):
            console.print(
                f"[{i}/{len(jobs)}] {job.experiment.name} seed {job.seed}: {job.command}", highlight=False, markup=False
            )
            rows += run_check(job, recorded_dir=recorded, data_dir=data, log_dir=log_dir)
    console.print(f"reproduce --check: {len(jobs)} jobs against {recorded}", highlight=False)
    for line in check_lines(rows):
        console.print(line, highlight=False, soft_wrap=True)
    console.print(f"wrote {write_check_json(check_json, rows, only=only, seeds=seeds, against=recorded)}")
    failed = failed_checks(rows)
    if failed:
        console.print(
            f"{len(failed)} result(s) not reproduced: "
            + "; ".join(f"{r.experiment} seed {r.seed}: {r.status} {r.detail}".strip() for r in failed[:5]),
            highlight=False,
        )
        raise typer.Exit(1)


TRAIN_RUN_OPTIONS = {  # the options of ``idiomkit train`` that are not TrainConfig fields (how to run, not what)
    "force_new": (
        Annotated[
            bool,
            typer.Option(
                "--force-new",
                help="Start over: remove output's old best/, epoch-*/, checkpoints and training.json. "
                "Without it, the same command resumes and another config is refused.",
            ),
        ],
        False,
    ),
    "resume": (
        Annotated[
            bool, typer.Option("--resume/--no-resume", hidden=True, help="Older spelling: --no-resume = --force-new.")
        ],
        True,
    ),
    "evaluate_on": (
        Annotated[
            list[str] | None,
            typer.Option(
                "--evaluate",
                help="After training, evaluate on this task (repeatable): semeval2b (dev), "
                "idiolink (test, sentence and span queries), xiao-pairs (held-out idioms).",
            ),
        ],
        None,
    ),
}


def train_signature(config: type | None = None) -> inspect.Signature:
    """``idiomkit train``'s parameters: every command-line field of :class:`~idiomkit.training.config.TrainConfig`
    (flags, help, bounds and defaults from its metadata; ``--data-dir`` shared with the other commands), then
    :data:`TRAIN_RUN_OPTIONS`."""
    from idiomkit.options import typer_parameters
    from idiomkit.training.config import TrainConfig

    fields = typer_parameters(config or TrainConfig, shared={"data_dir": DataDir})
    extra = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=default)
        for name, (hint, default) in TRAIN_RUN_OPTIONS.items()
    ]
    return inspect.Signature([*fields, *extra], return_annotation=None)


@user_errors
def train(*, force_new: bool = False, resume: bool = True, evaluate_on: list[str] | None = None, **config) -> None:
    """Train a model (e.g. He & Scarton's adaptive triplet loss) with checkpoints; the same command resumes after a
    kill, another config into the same --output is refused (--force-new starts over)."""
    check_evaluate_tasks(evaluate_on or [])
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from idiomkit.training import train as run_training

    output, data_dir = config["output_dir"], config.get("data_dir")
    config["data_dir"] = str(data_dir) if data_dir else None
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,  # an error ends the run with its one line, not a stale progress bar
    ) as bar:
        task = bar.add_task(f"{config['recipe']} on {config['model']}", total=None)

        def progress(state, loss: float) -> None:
            bar.update(task, completed=state.step, description=f"epoch {state.epoch} loss {loss:.4f}")

        result = run_training(**config, progress=progress, force_new=force_new or not resume)
    from idiomkit.training.distributed import env_rank

    if env_rank() != 0:  # torchrun / accelerate launch: process 0 saves and evaluates
        return
    info = json.loads((Path(output) / "training.json").read_text(encoding="utf-8"))
    state = result.state
    console.print(
        f"model: {result.output_dir} (steps {state.step}, best {info['best']['metric']} {state.best} at step "
        f"{state.best_step}, {state.train_s:.0f} s of training steps)"
    )
    evaluate_trained(output, info, evaluate_on or [], data_dir)


train.__signature__ = train_signature()  # typer reads the parameters from here
app.command()(train)


EVALUATE_TASKS = ("semeval2b", "idiolink", "xiao-pairs")


def check_evaluate_tasks(tasks: list[str]) -> None:
    """Reject an unknown ``--evaluate`` task before any training starts."""
    for task_name in tasks:
        if task_name not in EVALUATE_TASKS:
            raise ValueError(f"--evaluate: unknown task '{task_name}' (expected {' or '.join(EVALUATE_TASKS)})")


def trained_evaluation_jobs(tasks: list[str], config: dict) -> list[tuple[str, dict]]:
    """(task, options) evaluated after training: 2B dev (MWE tokens the model knows, setting fine_tune), IdioLink
    test (sentence, span and fused sentence+span queries; the last two also usage re-ranked, twin-expanded and
    both) and/or the Xiao et al. pairs of held-out idioms."""
    jobs: list[tuple[str, dict]] = []
    for task_name in tasks:
        if task_name == "semeval2b":
            # a model idiomkit trained: its submission is filed under fine_tune, as the scorecard files it
            jobs.append((task_name, {"mwe_tokens": bool(config.get("mwe_tokens")), "setting": "fine_tune"}))
        elif task_name == "xiao-pairs":
            jobs.append((task_name, {}))
        else:
            jobs += [(task_name, {"query_mode": mode}) for mode in ("sentence", "span", "sentence+span")]
            rerankers = (
                {"usage_rerank": True},
                {"twin_expansion": True},
                {"usage_rerank": True, "twin_expansion": True},
            )
            jobs += [(task_name, {"query_mode": mode, **r}) for r in rerankers for mode in ("span", "sentence+span")]
    return jobs


def evaluate_trained(output: Path, info: dict, tasks: list[str], data_dir, jobs=None, command=None) -> None:
    """Evaluate a trained model directory (its ``training.json`` is ``info``) on :func:`trained_evaluation_jobs`
    (or the given ``jobs``) with the model's own pooling; result files carry the recipe label and base model (and
    ``command``, when the caller is not the ``idiomkit`` CLI)."""
    from idiomkit.api import evaluate as run_evaluation

    config = info["config"]
    for task_name, options in jobs if jobs is not None else trained_evaluation_jobs(tasks, config):
        evaluation = run_evaluation(
            task_name,
            str(output),
            pooling="mean",
            recipe=info["label"],
            seed=config["seed"],
            model_name=Path(config["model"]).name,
            data_dir=data_dir,
            show_progress_bar=False,
            command=command,
            **options,
        )
        print_table(evaluation.table, f"{task_name}: {evaluation.record.model} {evaluation.record.recipe}")
        console.print(f"result: {evaluation.path}")


def ratio_list(text: str) -> str:
    """--alphas: comma-separated numbers, each in [0, 1] (refused at parse time, before any model loads)."""
    try:
        ratios = [float(a) for a in text.split(",")]
    except ValueError:
        raise typer.BadParameter(f"'{text}' is not a comma-separated list of numbers") from None
    outside = [a for a in ratios if not 0 <= a <= 1]
    if outside:
        raise typer.BadParameter(f"each ratio must be in [0, 1], got {outside[0]:g}")
    return text


@app.command()
@user_errors
def interpolate(
    run: Annotated[Path, typer.Argument(help="A model directory made by `idiomkit train`.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to save the interpolated model.")],
    alphas: Annotated[
        str, typer.Option(callback=ratio_list, help="Comma-separated ratios to try (0 = start, 1 = tuned), in [0, 1].")
    ] = ",".join(str(a) for a in (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)),
    max_sts_drop: Annotated[float, typer.Option(min=0, help="Allowed STS dev drop vs the start model.")] = 0.03,
    curve: Annotated[
        Path | None, typer.Option(help="Also score 2B dev at every ratio (report only) and write the curve JSON.")
    ] = None,
    evaluate_on: Annotated[
        list[str] | None, typer.Option("--evaluate", help="Evaluate the chosen model on this task: semeval2b.")
    ] = None,
    data_dir: DataDir = None,
) -> None:
    """Interpolate start and fine-tuned weights; choose the ratio on validation (train-carved idiom + STS dev)."""
    check_evaluate_tasks(evaluate_on or [])
    from idiomkit.training.interpolate import interpolate_run

    ratios = tuple(float(a) for a in alphas.split(","))
    points: list[dict] = []
    on_point = None
    if curve:
        from idiomkit.api import semeval2b_dev_metrics

        def on_point(alpha: float, model) -> None:
            dev = semeval2b_dev_metrics(model, data_dir=data_dir, mwe_tokens=True)
            points.append({"x": alpha, "dev": dev["ALL"]})

    info = interpolate_run(run, output, ratios, max_sts_drop, on_point=on_point)
    sweep = info["interpolation"]["sweep"]
    rows = [[f"{p['alpha']:.2f}", f"{p['val_idiom']:.4f}", f"{p['val_sts']:.4f}"] for p in sweep]
    print_table([["alpha", "val idiom", "val STS"], *rows], "interpolation sweep (validation)")
    console.print(f"chosen alpha {info['interpolation']['alpha']} -> {output}")
    if curve:
        for point, p in zip(points, sweep, strict=True):
            point["val"] = {k: v for k, v in p.items() if k != "alpha"}
        from idiomkit.results import atomic_write_text

        payload = {"name": info["label"], "kind": "interpolation", "run": str(run), "prompt": "auto", "points": points}
        atomic_write_text(curve, json.dumps(payload, indent=2) + "\n")
    evaluate_trained(output, info, evaluate_on or [], data_dir)


@app.command("settings")
@user_errors
def show_settings(data_dir: DataDir = None, results_dir: ResultsDir = None) -> None:
    """Where data is read, results are written and models are cached, and where each setting came from."""
    from idiomkit.config import settings

    rows = [["setting", "path", "from", "exists"]]
    for setting in settings(data_dir, results_dir):
        rows.append([setting.name, str(setting.path), setting.source, "yes" if setting.path.exists() else "no"])
    print_table(rows, "idiomkit settings")


@app.command("export-onnx")
@user_errors
def export_onnx(
    model: Annotated[str, typer.Argument(help="Registry name or model directory (e.g. one made by `train`).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Directory for the model + onnx/ exports.")],
    pooling: Annotated[str, typer.Option(help="mean | last2 (a trained directory keeps its own).")] = "last2",
    quantize: Annotated[bool, typer.Option("--quantize/--no-quantize", help="Also write a dynamic int8 copy.")] = True,
) -> None:
    """Export a model to ONNX (and dynamic int8) for faster CPU encoding; load it with
    ``idiomkit.models.onnx_backend.load_onnx_model(dir, "onnx" | "onnx-int8")``."""
    from idiomkit.errors import check_choice
    from idiomkit.results import check_writable_dir

    check_choice("pooling", pooling, ("mean", "last2"))
    check_writable_dir(output, "output directory")
    from idiomkit.models import load_model
    from idiomkit.models.onnx_backend import export_onnx as run_export

    out = run_export(load_model(model, pooling=pooling, device="cpu"), output, quantize=quantize)
    console.print(f"exported {model} -> {out}/onnx")


@app.command("run", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
@user_errors
def run_method(
    ctx: typer.Context,
    task: Annotated[str, typer.Argument(help="Task: semeval2a | admire | idiolink.")],
    method: Annotated[str, typer.Option("--method", help="A method of the task (see docs/methods.md).")],
    data_dir: DataDir = None,
    results_dir: ResultsDir = None,
    help_options: Annotated[bool, typer.Option("--help-options", help="List the method's options and exit.")] = False,
) -> None:
    """Run a trained system end to end (fit, predict, score; result JSONs + predictions). The method's own options
    follow (``--help-options`` lists them), e.g. ``idiomkit run semeval2a --method classifier --train-layers 4``."""
    from idiomkit.api import method_key
    from idiomkit.api import run_method as run
    from idiomkit.methods import get_runnable
    from idiomkit.options import parse_options

    name = method_key(task, method)
    runnable = get_runnable(name)
    if help_options:
        print_options(name, runnable.options)
        return
    options = parse_options(runnable.options, ctx.args, name)
    written = run(task, method, options, data_dir=data_dir, results_dir=results_dir)
    console.print(f"{len(written)} result file(s) written", highlight=False)


def main() -> None:
    """The ``idiomkit`` console entry point: like ``app()``, but a usage error (bad option value, unknown option,
    missing argument) is one line and exit code 2 too, not click's usage banner and boxed panel."""
    try:
        code = app(standalone_mode=False)
    except typer.Abort:
        err_console.print("aborted")
        raise SystemExit(1) from None
    except TyperException as exc:
        if not hasattr(exc, "format_message"):
            raise
        err_console.print(
            f"[bold red]error:[/] {escape(' '.join(exc.format_message().split()))}", highlight=False, soft_wrap=True
        )
        raise SystemExit(getattr(exc, "exit_code", 2)) from None
    raise SystemExit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
