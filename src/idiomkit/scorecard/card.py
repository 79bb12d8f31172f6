"""``idiomkit evaluate all``: one frozen model on every benchmark, one result file per (model, recipe, track, seed).

Writes ``<results>/scorecard/<model>__<recipe>__<track>__seed<N>.json`` (the result envelope; ``metrics`` holds one
block per benchmark, ``params.track`` names the track), every block's raw predictions beside it first, and a
markdown table (:func:`idiomkit.report.markdown_table`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from idiomkit.errors import OptionError, UnknownName
from idiomkit.report import HEADLINE, dig, headline, markdown_table, transposed
from idiomkit.results import ResultKey, ResultRecord, sha256_files, write_result
from idiomkit.scorecard.blocks import BLOCKS, BlockContext, BlockOutput, Track

log = logging.getLogger(__name__)

TASK = "scorecard"
TRACK_CHOICES = ("plain", "marked", "both")


@dataclass
class Scorecard:
    """One card: its result record, the file written (None when not written) and the seconds each block took."""

    record: ResultRecord
    path: Path | None
    seconds: dict[str, float]


def tracks_of(track: str) -> list[Track]:
    """``both`` -> plain then marked."""
    return ["plain", "marked"] if track == "both" else [track]  # type: ignore[list-item]


def selected_blocks(only: Sequence[str] | None, quick: bool) -> list[str]:
    """The blocks to run: ``only`` (each a registered block), else all (quick: those quick mode runs). A block
    without a quick slice asked for in quick mode is an OptionError: it would run whole on a card labelled quick."""
    unknown = [name for name in only or () if name not in BLOCKS]
    if unknown:
        raise UnknownName(f"unknown scorecard block '{unknown[0]}' (expected one of {', '.join(BLOCKS)})")
    whole = [name for name in only or () if quick and not BLOCKS[name].quick]
    if whole:
        raise OptionError(
            f"--only {whole[0]}: the {whole[0]} block has no quick slice (it runs whole, minutes, on a "
            "card labelled quick); drop --quick for it, or leave it out of --only"
        )
    if only:
        return list(only)
    return [name for name, block in BLOCKS.items() if block.quick or not quick]


def run_card(
    model, ctx: BlockContext, blocks: Sequence[str], shared: dict[str, BlockOutput] | None = None
) -> tuple[dict, dict, list[Path], dict, dict]:
    """Run ``blocks``: (metrics, predictions, data files, block params, seconds per block). ``shared`` keeps the
    outputs of blocks that read the same in both tracks, so a second track reuses them."""
    metrics, predictions, params, seconds = {}, {}, {}, {}
    files: list[Path] = []
    shared = {} if shared is None else shared
    for name in blocks:
        start = time.perf_counter()
        log.info("scorecard: %s (%s track%s)", name, ctx.track, ", quick" if ctx.quick else "")
        if BLOCKS[name].by_track or name not in shared:
            shared[name] = BLOCKS[name].run(model, ctx)
        out = shared[name]
        seconds[name] = round(time.perf_counter() - start, 3)
        metrics[name], params[name] = out.metrics, out.params
        predictions.update(out.predictions)
        files += out.data_files
    return metrics, predictions, files, params, seconds


def write_card(
    model,
    ctx: BlockContext,
    *,
    model_name: str,
    recipe: str,
    blocks: Sequence[str],
    results_dir: Path | None,
    extra_params: dict[str, Any],
    shared: dict[str, BlockOutput] | None = None,
) -> Scorecard:
    """Run the blocks and write the card (predictions first); ``results_dir`` None: compute only."""
    start = time.perf_counter()
    metrics, predictions, files, block_params, seconds = run_card(model, ctx, blocks, shared)
    params = {
        "track": ctx.track,
        "quick": ctx.quick,
        "blocks": block_params,
        "seconds": seconds,
        "prompt_name": ctx.prompt_name,
        "batch_size": ctx.batch_size,
        **extra_params,
    }
    record = ResultRecord(
        TASK,
        model_name,
        recipe,
        ctx.seed,
        metrics,
        params,
        sha256_files(sorted(set(files))),
        wall_s=time.perf_counter() - start,
    )
    variant = ctx.track + ("-quick" if ctx.quick else "")
    key = ResultKey(TASK, model_name, recipe, variant, ctx.track, ctx.seed)
    path = write_result(record, results_dir, predictions=predictions, key=key) if results_dir else None
    return Scorecard(record, path, seconds)


__all__ = [
    "HEADLINE",
    "TASK",
    "Scorecard",
    "dig",
    "headline",
    "markdown_table",
    "selected_blocks",
    "tracks_of",
    "transposed",
    "write_card",
]
