"""``idiomkit evaluate`` (one task, or ``all``: the scorecard), ``run`` (a method end to end), ``score``,
``compare``, ``mteb`` and ``report``: measuring models and turning the result files into pages."""

from __future__ import annotations

import dataclasses
import functools
import inspect
from pathlib import Path
from typing import Annotated, Any

import typer

from idiomkit.cli.common import (
    DOCS_RESULTS,
    DataDir,
    ResultsDir,
    app,
    console,
    print_options,
    print_table,
    publish_report,
    user_errors,
)
from idiomkit.options import typer_parameters
from idiomkit.run_options import RunOptions, check_run_options

# the task registry's names (idiomkit.tasks.TASKS, which imports the benchmarks: not at --help; a test keeps them equal)
TASK_NAMES = ("semeval2b", "idiolink", "semeval2a", "admire", "xiao-pairs", "meaning-triples", "sts-guard")

EVALUATE_OWN_OPTIONS = {  # the parameters of ``idiomkit evaluate`` that are not RunOptions fields
    "task": (
        Annotated[
            str,
            typer.Argument(help=f"Benchmark: {' | '.join(TASK_NAMES)}, or all (the scorecard: every one at once)"),
        ],
        inspect.Parameter.empty,
    ),
    "model": (
        Annotated[str, typer.Option("--model", "-m", help="Registry name, model directory or hub id.")],
        "minilm",
    ),
    "help_options": (
        Annotated[bool, typer.Option("--help-options", help="List the task's options and exit.")],
        False,
    ),
}


def evaluate_signature(run_options: type = RunOptions) -> inspect.Signature:
    """``idiomkit evaluate``'s parameters: the context, the task, ``--model``, every command-line field of
    :class:`~idiomkit.run_options.RunOptions` (``--data-dir`` and ``--results-dir`` shared with the other
    commands), ``--help-options``."""
    context = inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)
    own = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=default)
        for name, (hint, default) in EVALUATE_OWN_OPTIONS.items()
    ]
    shared = {"data_dir": DataDir, "results_dir": ResultsDir}
    run = typer_parameters(run_options, shared, ranges_at_parse=False)  # check_run_options' one-line errors
    return inspect.Signature([context, *own[:2], *run, *own[2:]], return_annotation=None)  # --help-options last


@user_errors
def evaluate(ctx: typer.Context, *, task: str, model: str, help_options: bool, **run: Any) -> None:
    """Evaluate a model on a benchmark, print the table, write the result JSON and raw predictions. The task's own
    options follow (``--help-options`` lists them), e.g. ``idiomkit evaluate idiolink --query-mode span``."""
    options = RunOptions(**run)
    if options.prompt_name == "none":
        options = dataclasses.replace(options, prompt_name=None)
    verb = scorecard_verb if task == "all" else functools.partial(task_verb, task)
    verb(ctx.args, model=model, help_options=help_options, run=options)


evaluate.__signature__ = evaluate_signature()  # typer reads the parameters from here
app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(evaluate)


def task_verb(task: str, argv: list[str], *, model: str, help_options: bool, run: RunOptions) -> None:
    """``idiomkit evaluate <task>``: the task's options parsed from ``argv``, the evaluation run, its table and
    result path printed."""
    from idiomkit.api import evaluate as run_evaluation
    from idiomkit.tasks import get_task, parse_task_options

    task_obj = get_task(task)
    if help_options:
        print_options(task, task_obj.Options)
        return
    options = parse_task_options(task_obj, argv, lexical=model in task_obj.lexical_models)
    result = run_evaluation(task, model, run=run, options=options)
    rec = result.record
    print_table(
        result.table,
        f"{rec.task}: {rec.model} ({rec.recipe}, pooling={run.pooling}, "
        f"prompt={rec.params.get('prompt_name')}) — {rec.wall_s:.1f} s",
    )
    if result.path:
        console.print(f"result: {result.path}")


def scorecard_verb(argv: list[str], *, model: str, help_options: bool, run: RunOptions) -> None:
    """``idiomkit evaluate all``: the scorecard of one model (flags from :class:`ScorecardOptions`), its table
    beside the untrained encoder and the published rows, the markdown table and the PNG beside the result JSON."""
    from idiomkit.options import parse_options
    from idiomkit.scorecard import ScorecardOptions, evaluate_all

    if help_options:
        print_options("evaluate all", ScorecardOptions)
        return
    options = parse_options(ScorecardOptions, argv, "evaluate all")
    show_scorecards(evaluate_all(model, options, run=run), run.results_dir)


def show_scorecards(cards, results_dir) -> None:
    """Each scorecard's table beside the untrained encoder and the published rows; its markdown table and PNG written
    beside its result JSON, and the paths printed."""
    from idiomkit.report.core_test import control_rule, controls_rows
    from idiomkit.report.scorecard import CORE_BLOCK
    from idiomkit.scorecard.result import transposed
    from idiomkit.scorecard.run import comparison_rows, published_scorecards, write_figure, write_table

    published = published_scorecards(results_dir)
    for card in cards:
        rows = comparison_rows(card, published)
        rec = card.record
        print_table(transposed(rows[:4]), f"{rec.model} {rec.recipe}: {rec.params['track']} track ({rec.wall_s:.0f} s)")
        core = controls_rows(rec.metrics.get(CORE_BLOCK) or {}, control_rule(rec.params))
        if core:
            print_table(core, "the core test, with its shortcut controls (a headline while both stay <= .55)")
        for path in (card.path, write_table(card, rows), write_figure(card, rows)):
            if path:
                console.print(f"wrote {path}", highlight=False, markup=False)


@app.command("score")
@user_errors
def score(
    submission: Annotated[Path, typer.Argument(help="A subtask B submission CSV (ID, Language, Setting, Sim).")],
    setting: Annotated[str, typer.Option(help="pre_train | fine_tune")] = "pre_train",
    data_dir: DataDir = None,
) -> None:
    """Rescore a SemEval 2B dev submission CSV with the organisers' rules."""
    from idiomkit.data.semeval2022 import load_subtask_b
    from idiomkit.errors import check_choice
    from idiomkit.settings import default_data_dir
    from idiomkit.tasks.semeval2b import SETTINGS, score_submission

    check_choice("setting", setting, SETTINGS)

    split = load_subtask_b(data_dir or default_data_dir(), "dev")
    metrics = score_submission(submission, split.gold or [], setting, split.pairs)
    rows = [["language", "idiom", "sts", "all"]]
    rows += [[lang] + [f"{b[k]:.4f}" for k in ("idiom", "sts", "all")] for lang, b in metrics.items()]
    print_table(rows, f"{submission} ({setting})")


RUN_FLAGS = {name: p.annotation for name, p in evaluate.__signature__.parameters.items()}  # as evaluate declares
Pooling, BatchSize = RUN_FLAGS["pooling"], RUN_FLAGS["batch_size"]  # ``idiomkit mteb`` shares these two


@app.command("mteb")
@user_errors
def mteb_run(
    task: Annotated[str, typer.Option("--task", "-t", help="semeval2b | idiolink | admire")] = "semeval2b",
    model: Annotated[str, typer.Option("--model", "-m", help="Registry name, model directory or hub id.")] = "minilm",
    pooling: Pooling = RunOptions.pooling,
    batch_size: BatchSize = RunOptions.batch_size,
    data_dir: DataDir = None,
) -> None:
    """Run a benchmark as an mteb task (local data, no result cache) and print its main score."""
    from idiomkit.errors import IdiomkitError

    check_run_options(RunOptions(pooling=pooling, batch_size=batch_size), "mteb")  # evaluate's checks and messages
    try:
        from idiomkit.mteb_tasks import get_mteb_task, run_mteb
    except ImportError as exc:
        raise IdiomkitError(f"mteb is not installed ({exc}); install the 'mteb' extra") from None
    from idiomkit.models import load_model

    mteb_task = get_mteb_task(task, data_dir)
    scores = run_mteb(load_model(model, pooling=pooling), mteb_task, batch_size=batch_size)
    name = mteb_task.metadata.main_score
    console.print(f"{mteb_task.metadata.name} {name} = {scores['main_score']:.6f}")


@app.command()
@user_errors
def report(
    results_dir: ResultsDir = None,
    data_dir: DataDir = None,
    output: Annotated[Path, typer.Option(help="Folder for the results pages.")] = DOCS_RESULTS,
    readme: Annotated[
        Path | None,
        typer.Option(
            help="README whose marked results table is refreshed too (default: README.md when the pages go to "
            "docs/results; no README is touched for another --output)."
        ),
    ] = None,
) -> None:
    """Regenerate the results pages (docs/results/*.md) from the result JSON files (the benchmarks' gold, from the
    data directory, gives the paired intervals of the 2B, 2A and IdioLink columns)."""
    from idiomkit.errors import FileSystemError
    from idiomkit.results import check_writable_dir
    from idiomkit.settings import default_results_dir, run_data_dir

    source = Path(results_dir or default_results_dir())
    if not source.is_dir():
        raise FileSystemError(f"{source}: results directory " + ("is a file" if source.exists() else "not found"))
    if output.exists() and not output.is_dir():
        raise FileSystemError(f"{output}: is a file; give the folder for the results pages")
    check_writable_dir(output, "output directory")
    publish_report(source, output, run_data_dir(data_dir), readme)


@app.command()
@user_errors
def compare(
    first: Annotated[Path, typer.Argument(help="A scorecard (result JSON of `idiomkit evaluate all`).")],
    second: Annotated[Path, typer.Argument(help="The scorecard it is set against (its raw predictions beside it).")],
    data_dir: DataDir = None,
) -> None:
    """Two scorecards column by column: the difference (first - second) and its 95 % paired bootstrap
    interval over the same items; ▲ / ▼ when the whole interval lies above / below 0."""
    from idiomkit.report.compare import compare_rows
    from idiomkit.settings import run_data_dir

    rows = compare_rows(first, second, run_data_dir(data_dir))
    print_table(rows, title=f"A = {first.stem}\nB = {second.stem}\n(paired bootstrap, 1,000 resamples)")


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
