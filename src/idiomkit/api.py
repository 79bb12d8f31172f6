"""Python API mirroring the CLI: ``models()``, ``embed()``, ``evaluate()``."""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Any

import numpy as np

from idiomkit.embedding.encode import encode_texts, query_prompt_name
from idiomkit.embedding.pooling import POOLINGS, pooling_of
from idiomkit.embedding.spans import encode_spans
from idiomkit.errors import OptionError, api_errors, check_at_least, check_choice
from idiomkit.methods import get_runnable
from idiomkit.methods.idiolink.rerank import rerank_from_options
from idiomkit.methods.runner import RunContext
from idiomkit.models import DEFAULT_MODEL, load_model, resolve_name
from idiomkit.models.registry import registry_entries
from idiomkit.results import ResultKey, ResultRecord, check_writable_dir, read_json_object, sha256_files, write_result
from idiomkit.run_options import RunOptions, check_run_options, split_run_options, with_seed_of
from idiomkit.settings import default_data_dir, default_results_dir, seed_everything
from idiomkit.tasks import EvalContext, IdioLinkOptions, Task, get_task
from idiomkit.training.recipes import run_label


@dataclass
class Evaluation:
    """The outcome of :func:`evaluate`: the result record, its file (if written), a printable table and its key."""

    record: ResultRecord
    path: Path | None
    table: list[list[str]]
    key: ResultKey | None = None


@api_errors
def list_models() -> list[dict[str, Any]]:
    """The registry's models, one dict each with its install state (what ``idiomkit models`` lists)."""
    return registry_entries()


def auto_prompt_name(model, prompt_name: str | None) -> str | None:
    """``auto`` -> the model's ``query`` prompt when it defines a non-empty one (e5), else no prompt; a name the model
    does not define is an :class:`~idiomkit.errors.OptionError` (before anything is encoded)."""
    if prompt_name != "auto":
        if prompt_name and prompt_name not in model.prompts:
            known = ", ".join([*model.prompts, "auto", "none"])
            raise OptionError(f"unknown prompt name '{prompt_name}' (this model's prompts: {known})")
        return prompt_name or None
    return query_prompt_name(model)


def semeval2b_dev_metrics(model, *, data_dir: str | Path | None = None, mwe_tokens: bool = False) -> dict[str, Any]:
    """2B dev metrics (``{"ALL": …, "EN": …, "PT": …}``) of an in-memory model, scored as ``idiomkit evaluate
    semeval2b`` and ``train --evaluate semeval2b`` score a model (its own prompt, ``auto``: ``query: `` for e5), so
    that report-only curves (epochs, interpolation ratios) and result rows measure the same thing."""
    return (
        get_task("semeval2b")
        .evaluate(
            model,
            data_dir=data_dir or default_data_dir(),
            prompt_name=auto_prompt_name(model, "auto"),
            show_progress_bar=False,
            mwe_tokens=mwe_tokens,
        )
        .metrics
    )


EMBED_POOLINGS = POOLINGS  # span pooling is asked for with ``spans``


@api_errors
def embed(
    texts: Sequence[str],
    model: str | Any = DEFAULT_MODEL,
    *,
    pooling: str = "mean",
    spans: Sequence[tuple[int, int]] | None = None,
    prompt_name: str | None = "auto",
    batch_size: int = 64,
    show_progress_bar: bool = False,
) -> np.ndarray:
    """Embed ``texts``; with ``spans`` (character offsets) pool only the span's tokens (late chunking)."""
    check_at_least("batch size", batch_size, 1)
    check_choice("pooling", pooling, EMBED_POOLINGS)
    if spans is not None and len(spans) != len(texts):
        raise OptionError(f"{len(spans)} spans for {len(texts)} texts (give one span per text)")
    st = load_model(model, pooling=pooling) if isinstance(model, str) else model
    name = auto_prompt_name(st, prompt_name)
    if spans is not None:
        prompt = st.prompts.get(name, "") if name else None
        return encode_spans(
            st, list(texts), list(spans), prompt=prompt, batch_size=batch_size, show_progress_bar=show_progress_bar
        )
    return encode_texts(st, list(texts), prompt_name=name, batch_size=batch_size, show_progress_bar=show_progress_bar)


def current_command() -> str | None:
    """The ``idiomkit ...`` command line being run, if any."""
    if Path(sys.argv[0]).name != "idiomkit":
        return None
    return "idiomkit " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def training_summary(model) -> dict[str, Any] | None:
    """Recipe, epochs, steps, training seconds, the idiom reader's version it trained with, validation best and
    validation history (the training curve: one entry per evaluation, numbers to 4 decimals) of a model directory
    made by ``train``."""
    path = Path(model) / "training.json" if isinstance(model, str | Path) else None
    if path is None or not path.is_file():
        return None
    info = read_json_object(path, "training.json")
    cfg = info.get("config", {})
    keys = ("model", "epochs", "batch_size", "lr", "max_seq_length", "mwe_tokens", "lora_rank", "pooling", "seed")
    return {
        "label": info.get("label") or run_label(info.get("recipe", "?"), cfg),
        "config": {k: cfg.get(k) for k in keys},
        "reads_max_seq_length": info.get("reads_max_seq_length"),  # None: saved at its training length (an older run)
        # the idiom reader the model trained with (absent: trained before the field; null: no reader)
        **{key: info[key] for key in ("reader_version", "reader_digest") if key in info},
        # the core test whose held-out split the training streams were filtered by (absent: before version 3)
        **{key: info[key] for key in ("core_test_version",) if key in info},
        "steps": info.get("steps"),
        "epochs_done": info.get("epochs_done"),
        "train_s": info.get("train_s"),
        "best": info.get("best"),
        "data_sha256": info.get("data_sha256"),
        "validation": [rounded(entry) for entry in info.get("validation") or []],
    }


def rounded(entry: dict[str, Any]) -> dict[str, Any]:
    """A validation entry with its float numbers to 4 decimals (a result file carries the curve, not the noise)."""
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in entry.items()}


BUDGET_EPOCHS = 2  # the epoch budget of the 2B recipe comparison; other budgets are tagged in result names


def epoch_tag(training: dict[str, Any] | None) -> str | None:
    """``<E>ep`` for a 2B-trained model whose epoch budget differs from the comparison's (else None)."""
    if not training or str(training.get("label", "")).startswith("idiolink-"):
        return None
    epochs = training["config"].get("epochs")
    return f"{epochs}ep" if epochs and epochs != BUDGET_EPOCHS else None


def result_variant(
    pooling: str | None, training: dict[str, Any] | None, task_variant: str | None, quick: bool = False
) -> str:
    """A result's variant: the pooling (when not ``mean`` and not part of a trained model; None for a lexical
    model), the epoch tag (:func:`epoch_tag`), the task's own variant (e.g. idiolink's query mode) and ``quick``
    (a result on the task's quick slice), in order."""
    parts = [pooling if pooling and pooling != "mean" and not training else None, epoch_tag(training), task_variant]
    parts.append("quick" if quick else None)
    return "-".join(p for p in parts if p)


def task_options(task_obj: Task, options: Any, values: Mapping[str, Any], *, lexical: bool) -> Any:
    """The task's options object: ``options`` (one instance of the task's options dataclass) or built from keyword
    ``values``; an option the task does not take or a value outside its choices is an OptionError, raised before
    any model loads. ``usage_rerank`` / ``twin_expansion`` become ``rerank``, the method that applies them."""
    if options is None:
        options = task_obj.make_options(**values)
    elif values:
        raise OptionError(f"task '{task_obj.name}': give one {task_obj.Options.__name__} or keyword values, not both")
    task_obj.check_options(options, lexical=lexical)
    if isinstance(options, IdioLinkOptions) and options.rerank is None:
        stages = rerank_from_options({"usage_rerank": options.usage_rerank, "twin_expansion": options.twin_expansion})
        options = dataclass_replace(options, rerank=stages.get("rerank"))
    return options


@dataclass(frozen=True)
class Made:
    """How a model was made: its training summary (None: not trained by idiomkit), recipe and result name."""

    training: dict[str, Any] | None
    recipe: str
    model_name: str | None


def made_by(model, recipe: str, model_name: str | None) -> Made:
    """A directory made by ``idiomkit train`` is named by its recipe and its base model's name; a shipped idiom-aware
    model (:data:`~idiomkit.models.shipped.SHIPPED`) by ``shipped`` (its trained delta, if any, and reader are its
    own: it is no zero-shot model)."""
    from idiomkit.models.shipped import SHIPPED

    training = training_summary(model)
    if training and recipe == "zero-shot":
        recipe = training["label"]
    elif isinstance(model, str) and model in SHIPPED and recipe == "zero-shot":
        recipe = "shipped"
    if training and model_name is None:
        model_name = Path(training["config"]["model"]).name
    return Made(training, recipe, model_name)


def result_params(out, pooling: str, prompt_name, batch_size: int, command: str | None, training) -> dict[str, Any]:
    """The parameters of a task's result: pooling, prompt, batch size, the task's own, the command, the training."""
    params = {
        "pooling": pooling,
        "prompt_name": prompt_name,
        "batch_size": batch_size,
        **out.params,
        "command": command or current_command(),
    }
    return params | {"training": training} if training else params


@api_errors
def evaluate(
    task: str,
    model: str = DEFAULT_MODEL,
    *,
    run: RunOptions | None = None,
    show_progress_bar: bool = True,
    variant: str | None = None,
    command: str | None = None,
    quick: bool = False,
    options: Any = None,
    **values: Any,
) -> Evaluation:
    """Evaluate ``model`` (registry name, model directory or hub id) on ``task`` and (by default) write the result
    JSON + raw predictions. ``run``: the :class:`~idiomkit.run_options.RunOptions` (pooling, ``prompt_name``: a
    prompt of the model, ``auto`` (``query`` for e5) or None; ``recipe``: how the model was made; seed, folders,
    ``write``, ``batch_size``; ``model_name``: its name in the result file), or its fields as keyword ``values``;
    ``command``: the command line recorded; ``quick``: the task's fixed small slice; ``options``: the task's options
    (e.g. :class:`~idiomkit.tasks.IdioLinkOptions`), or its fields as keyword ``values``. A model made by ``idiomkit
    train`` adds its training summary to ``params.training`` (its pooling is part of the model)."""
    run, values = split_run_options(run, values, f"evaluate {task}")
    check_run_options(run, f"evaluate {task}")  # before anything is read, as evaluate_all
    made = made_by(model, run.recipe, run.model_name)
    run = with_seed_of(run, made.training)
    seed_everything(run.seed)
    task_obj = get_task(task)
    lexical = model in getattr(task_obj, "lexical_models", ())  # e.g. bm25: no neural model to load
    options = task_options(task_obj, options, values, lexical=lexical)
    results_dir = Path(run.results_dir or default_results_dir())
    if run.write:
        check_writable_dir(results_dir, "results directory")
        check_writable_dir(results_dir / task_obj.result_task, "results directory")
    start = time.perf_counter()
    st = model if lexical else load_model(model, pooling=run.pooling)
    name = None if lexical else auto_prompt_name(st, run.prompt_name)
    data = Path(run.data_dir) if run.data_dir else default_data_dir()
    context = EvalContext(data, name, run.batch_size, show_progress_bar, run.seed, quick)  # seed: 2A's by-MWE split
    out = task_obj.run(st, options, context)
    params = result_params(
        out, run.pooling if lexical else pooling_of(st), name, run.batch_size, command, made.training
    )
    record = ResultRecord(
        task_obj.result_task,
        made.model_name or resolve_name(model),
        made.recipe,
        run.seed,
        out.metrics,
        params,
        sha256_files(out.data_files),
        wall_s=time.perf_counter() - start,
    )
    pooling = None if lexical else run.pooling  # a lexical model has none
    key = ResultKey.of(record, variant or result_variant(pooling, made.training, out.params.get("variant"), quick))
    path = write_result(record, results_dir, predictions=out.predictions, key=key) if run.write else None  # preds 1st
    return Evaluation(record, path, task_obj.summary_table(out.metrics), key)


def method_key(task: str, method: str) -> str:
    """``("semeval2a", "classifier")`` -> ``"semeval2a/classifier"`` (a full ``task/method`` name is kept)."""
    return method if "/" in method else f"{task}/{method}"


@api_errors
def run_method(
    task: str,
    method: str,
    options: Any = None,
    *,
    data_dir: str | Path | None = None,
    results_dir: str | Path | None = None,
    command: str | None = None,
    **values: Any,
) -> list[Path]:
    """Run a registered method end to end (``idiomkit run TASK --method M``) and return the result files written.

    Args:
        task: the task (``semeval2a``, ``admire``, ``idiolink``).
        method: the name of a runnable method of :data:`idiomkit.methods.METHODS` without the task (``classifier``).
        options: an instance of the method's options dataclass (e.g. ``ClassifierOptions``); or give its fields
            as keyword ``values``.
        command: the command line recorded in ``params.command`` (default: the ``idiomkit`` command being run).
    """
    name = method_key(task, method)
    runnable = get_runnable(name)
    if not name.startswith(task + "/"):
        raise OptionError(f"method '{name}' does not belong to task '{task}'")
    if options is None:
        known = {f.name for f in dataclass_fields(runnable.options)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise OptionError(f"{name}: no option '{unknown[0]}' (options: {', '.join(sorted(known))})")
        options = runnable.options(**values)
    elif values or not isinstance(options, runnable.options):
        raise OptionError(f"{name}: options must be one {runnable.options.__name__} (or keyword values, not both)")
    results = Path(results_dir or default_results_dir())
    check_writable_dir(results, "results directory")
    context = RunContext(
        data_dir=Path(data_dir) if data_dir else default_data_dir(),
        results_dir=results,
        command=command or current_command(),
        evaluate=evaluate,
    )
    return runnable.run(options, context)
