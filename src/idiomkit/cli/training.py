"""``idiomkit train``, ``interpolate`` and ``center``: training runs (flags generated from
:class:`~idiomkit.training.config.TrainConfig`) and the evaluations that follow them."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Annotated

import typer

from idiomkit.cli.common import DataDir, app, console, print_table, user_errors
from idiomkit.errors import OptionError

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
                "idiolink (test, sentence and span queries), xiao-pairs (held-out idioms), scorecard (every "
                "benchmark, plain track: what `idiomkit evaluate all -m OUTPUT` writes).",
            ),
        ],
        None,
    ),
    "evaluate_quick": (
        Annotated[
            bool,
            typer.Option(
                "--evaluate-quick",
                help="With --evaluate: score each task's fixed small slice (a smoke test in minutes; the result "
                "file's name says quick).",
            ),
        ],
        False,
    ),
}


def train_signature(config: type | None = None) -> inspect.Signature:
    """``idiomkit train``'s parameters: every command-line field of :class:`~idiomkit.training.config.TrainConfig`
    and of the recipes' own options (:func:`~idiomkit.training.recipe_options.train_options`; flags, help, bounds
    and defaults from their metadata; ``--data-dir`` shared with the other commands), then
    :data:`TRAIN_RUN_OPTIONS`."""
    from idiomkit.options import typer_parameters
    from idiomkit.training.config import TrainConfig
    from idiomkit.training.recipe_options import train_options

    fields = typer_parameters(train_options(config or TrainConfig), shared={"data_dir": DataDir})
    extra = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=default)
        for name, (hint, default) in TRAIN_RUN_OPTIONS.items()
    ]
    return inspect.Signature([*fields, *extra], return_annotation=None)


@user_errors
def train(
    *,
    force_new: bool = False,
    resume: bool = True,
    evaluate_on: list[str] | None = None,
    evaluate_quick: bool = False,
    **config,
) -> None:
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
    evaluate_trained(output, info, evaluate_on or [], data_dir, quick=evaluate_quick)


train.__signature__ = train_signature()  # typer reads the parameters from here
app.command()(train)


SCORECARD = "scorecard"
EVALUATE_TASKS = ("semeval2b", "idiolink", "xiao-pairs", SCORECARD)


def check_evaluate_tasks(tasks: list[str]) -> None:
    """Reject an unknown ``--evaluate`` task before any training starts."""
    for task_name in tasks:
        if task_name not in EVALUATE_TASKS:
            raise OptionError(f"--evaluate: unknown task '{task_name}' (expected {' or '.join(EVALUATE_TASKS)})")


def trained_evaluation_jobs(tasks: list[str], config: dict) -> list[tuple[str, dict]]:
    """(task, options) evaluated after training: 2B dev (MWE tokens the model knows, setting fine_tune), IdioLink
    test (sentence, span and fused sentence+span queries; the last two also usage re-ranked, twin-expanded and
    both) and/or the Xiao et al. pairs of held-out idioms."""
    jobs: list[tuple[str, dict]] = []
    for task_name in tasks:
        if task_name == SCORECARD:
            continue  # not one task: evaluate_trained runs the whole scorecard
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


def evaluate_trained(
    output: Path, info: dict, tasks: list[str], data_dir, jobs=None, command=None, quick: bool = False
) -> None:
    """Evaluate a trained model directory (its ``training.json`` is ``info``) on :func:`trained_evaluation_jobs`
    (or the given ``jobs``) with the model's own pooling; result files carry the recipe label and base model (and
    ``command``, when the caller is not the ``idiomkit`` CLI); ``quick``: each task's fixed small slice. With
    ``scorecard`` among ``tasks``, then the model's plain-track scorecard (named by the recipe label, as
    ``idiomkit evaluate all -m OUTPUT`` names it; a scorecard killed part-way resumes at its first unfinished block)."""
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
            quick=quick,
            **options,
        )
        print_table(evaluation.table, f"{task_name}: {evaluation.record.model} {evaluation.record.recipe}")
        console.print(f"result: {evaluation.path}")
    if SCORECARD in tasks:
        from idiomkit.cli.evaluation import show_scorecards
        from idiomkit.scorecard import evaluate_all

        show_scorecards(evaluate_all(str(output), track="plain", quick=quick, data_dir=data_dir), None)


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


TrainedRun = Annotated[Path, typer.Argument(help="A model directory made by `idiomkit train`.")]
EvaluateAfter = Annotated[
    list[str] | None,
    typer.Option("--evaluate", help="Then evaluate the saved model on (repeatable): " + ", ".join(EVALUATE_TASKS)),
]


@app.command()
@user_errors
def interpolate(
    run: TrainedRun,
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to save the interpolated model.")],
    alphas: Annotated[
        str, typer.Option(callback=ratio_list, help="Comma-separated ratios to try (0 = start, 1 = tuned), in [0, 1].")
    ] = ",".join(str(a) for a in (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)),
    max_sts_drop: Annotated[float, typer.Option(min=0, help="Allowed STS dev drop vs the start model.")] = 0.03,
    curve: Annotated[
        Path | None, typer.Option(help="Also score 2B dev at every ratio (report only) and write the curve JSON.")
    ] = None,
    evaluate_on: EvaluateAfter = None,
    data_dir: DataDir = None,
) -> None:
    """Interpolate start and fine-tuned weights; choose the ratio on validation carved from training data (2B and
    IdioLink recipes: 2B idiom + STS dev; the flagship family: its own val_mean), never on a benchmark."""
    check_evaluate_tasks(evaluate_on or [])
    if curve and run.resolve() in curve.resolve().parents:
        raise OptionError(f"--curve: {curve} is inside the run {run}, which is never written over")
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
    mix = info["interpolation"]
    rows = [[f"{p['alpha']:.2f}", f"{p[mix['primary']]:.4f}", f"{p[mix['sts']]:.4f}"] for p in mix["sweep"]]
    print_table([["alpha", mix["primary"], mix["sts"]], *rows], "interpolation sweep (validation)")
    console.print(f"chosen alpha {info['interpolation']['alpha']} -> {output}")
    if curve:
        for point, p in zip(points, mix["sweep"], strict=True):
            point["val"] = {k: v for k, v in p.items() if k != "alpha"}
        from idiomkit.results import atomic_write_text

        payload = {"name": info["label"], "kind": "interpolation", "run": str(run), "prompt": "auto", "points": points}
        atomic_write_text(curve, json.dumps(payload, indent=2) + "\n")
    evaluate_trained(output, info, evaluate_on or [], data_dir)


@app.command()
@user_errors
def center(
    run: TrainedRun,
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to save the centred model.")],
    sentences: Annotated[
        int, typer.Option(min=1, help="Reference sentences (STS train, the base model's languages) for the mean.")
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Which reference sentences are drawn.")] = 0,
    evaluate_on: EvaluateAfter = None,
    data_dir: DataDir = None,
) -> None:
    """Centre a trained model: subtract the mean embedding of ordinary training text, then rescale to unit length
    (undoes the common direction fine-tuning adds; saved as sentence-transformers' own modules)."""
    check_evaluate_tasks(evaluate_on or [])
    from idiomkit.settings import run_data_dir
    from idiomkit.training.center import center_run

    info = center_run(run, output, run_data_dir(data_dir), sentences=sentences, seed=seed)
    done = info["centering"]
    console.print(f"centred on {done['sentences']} sentences of {', '.join(done['reference'])} -> {output}")
    evaluate_trained(output, info, evaluate_on or [], data_dir)
