"""Running one mteb task on a model, with nothing fetched and no result cache."""

from __future__ import annotations


def run_mteb(model, task, *, batch_size: int = 64, show_progress_bar: bool = False) -> dict[str, float]:
    """Run one mteb task on a SentenceTransformer with ``mteb.evaluate`` (no result cache, nothing fetched);
    returns the scores of its only split and subset, ``main_score`` included."""
    import mteb
    from datasets.utils import logging as ds_logging

    quiet = not show_progress_bar and ds_logging.is_progress_bar_enabled()
    if quiet:
        ds_logging.disable_progress_bar()  # mteb's dataset maps would draw bars
    try:
        result = mteb.evaluate(
            model,
            tasks=[task],
            cache=None,
            overwrite_strategy="always",
            show_progress_bar=show_progress_bar,
            encode_kwargs={"batch_size": batch_size, "show_progress_bar": show_progress_bar},
        )
    finally:
        if quiet:
            ds_logging.enable_progress_bar()
    (task_result,) = result.task_results
    (split,) = task_result.scores.values()
    (scores,) = split
    return dict(scores)
