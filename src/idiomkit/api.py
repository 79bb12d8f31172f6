"""Python API mirroring the CLI: ``models()``, ``embed()``, ``evaluate()``."""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from idiomkit.config import default_data_dir, default_results_dir, seed_everything
from idiomkit.encoding import encode_texts
from idiomkit.models import DEFAULT_MODEL, REGISTRY, load_model, resolve_name
from idiomkit.pooling import pooling_of
from idiomkit.results import ResultRecord, sha256_files, write_prediction, write_result
from idiomkit.tasks import get_task


@dataclass
class Evaluation:
    """The outcome of :func:`evaluate`: the result record, its file (if written) and a printable table."""

    record: ResultRecord
    path: Path | None
    table: list[list[str]]


def models() -> list[dict[str, Any]]:
    """Registry entries with their install state."""
    return [
        {
            "name": s.name,
            "title": s.title,
            "params": s.params,
            "languages": ", ".join(s.languages),
            "package": s.package,
            "installed": s.installed(),
            "install": s.install,
        }
        for s in REGISTRY.values()
    ]


def auto_prompt_name(model, prompt_name: str | None) -> str | None:
    """``auto`` -> the model's ``query`` prompt when it defines a non-empty one (e5), else no prompt."""
    if prompt_name != "auto":
        return prompt_name or None
    return "query" if model.prompts.get("query") else None


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
    from idiomkit.pooling import encode_spans

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
    """Recipe, epochs, steps, training seconds and validation best of a model directory made by ``train``."""
    path = Path(model) / "training.json" if isinstance(model, str | Path) else None
    if path is None or not path.is_file():
        return None
    from idiomkit.training.recipes import run_label

    info = json.loads(path.read_text(encoding="utf-8"))
    cfg = info.get("config", {})
    keys = ("model", "epochs", "batch_size", "lr", "max_seq_length", "mwe_tokens", "lora_rank", "pooling", "seed")
    return {
        "label": info.get("label")
        or run_label(info.get("recipe", "?"), bool(cfg.get("mwe_tokens")), cfg.get("lora_rank")),
        "config": {k: cfg.get(k) for k in keys},
        "steps": info.get("steps"),
        "epochs_done": info.get("epochs_done"),
        "train_s": info.get("train_s"),
        "best": info.get("best"),
        "data_sha256": info.get("data_sha256"),
    }


BUDGET_EPOCHS = 2  # the epoch budget of the 2B recipe comparison; other budgets are tagged in result names


def epoch_tag(training: dict[str, Any] | None) -> str | None:
    """``<E>ep`` for a 2B-trained model whose epoch budget differs from the comparison's (else None)."""
    if not training or str(training.get("label", "")).startswith("idiolink-"):
        return None
    epochs = training["config"].get("epochs")
    return f"{epochs}ep" if epochs and epochs != BUDGET_EPOCHS else None


def evaluate(
    task: str,
    model: str = DEFAULT_MODEL,
    *,
    pooling: str = "mean",
    prompt_name: str | None = "auto",
    recipe: str = "zero-shot",
    seed: int = 0,
    data_dir: str | Path | None = None,
    results_dir: str | Path | None = None,
    write: bool = True,
    model_name: str | None = None,
    show_progress_bar: bool = True,
    batch_size: int = 64,
    variant: str | None = None,
    command: str | None = None,
    **options: Any,
) -> Evaluation:
    """Evaluate ``model`` on ``task`` and (by default) write the result JSON + raw predictions.

    Args:
        task: registered task name (``semeval2b``, ...).
        model: registry name, model directory or hub id.
        pooling: ``mean`` or ``last2``.
        prompt_name: a prompt of the model, ``auto`` (``query`` for e5-style models) or None.
        recipe: how the model was made (``zero-shot`` for untrained models).
        model_name: name used in the result file (default: registry name or directory name).
        command: the command line that produced the result (default: the ``idiomkit`` command being run).

    A model directory made by ``idiomkit train`` adds its training summary (recipe, epochs, steps, training
    seconds, validation best) to ``params.training``; its pooling is part of the model, so the result file name
    carries no pooling prefix.
    """
    seed_everything(seed)
    task_obj = get_task(task)
    training = training_summary(model)
    if training and recipe == "zero-shot":  # a directory made by `idiomkit train`: name it by its recipe
        recipe = training["label"]
    if training and model_name is None:
        model_name = Path(training["config"]["model"]).name
    data_dir = Path(data_dir) if data_dir else default_data_dir()
    start = time.perf_counter()
    lexical = model in getattr(task_obj, "lexical_models", ())  # e.g. bm25: no neural model to load
    st = model if lexical else load_model(model, pooling=pooling)
    name = None if lexical else auto_prompt_name(st, prompt_name)
    out = task_obj.evaluate(
        st,
        data_dir=data_dir,
        prompt_name=name,
        batch_size=batch_size,
        show_progress_bar=show_progress_bar,
        seed=seed,  # tasks that draw splits (semeval2a's by-MWE validation) follow the run's seed
        **options,
    )
    wall = time.perf_counter() - start
    params = {
        "pooling": pooling if lexical else pooling_of(st),
        "prompt_name": name,
        "batch_size": batch_size,
        **out.params,
        "command": command or current_command(),
    }
    if training:
        params["training"] = training
    record = ResultRecord(
        task=task_obj.result_task,
        model=model_name or resolve_name(model),
        recipe=recipe,
        seed=seed,
        metrics=out.metrics,
        params=params,
        data_sha256=sha256_files(out.data_files),
        wall_s=wall,
    )
    path = None
    if write:
        # a task may name its own variant (e.g. idiolink's query mode); a non-default pooling is prefixed
        parts = [
            pooling if pooling != "mean" and not lexical and not training else None,
            epoch_tag(training),
            out.params.get("variant"),
        ]
        variant = variant or "-".join(p for p in parts if p) or None
        path = write_result(record, results_dir or default_results_dir(), variant=variant)
        for suffix, text in out.predictions.items():
            write_prediction(path.with_suffix("." + suffix), text)
    return Evaluation(record, path, task_obj.summary_table(out.metrics))
