"""``idiomkit evaluate all``: one frozen model on every benchmark, one result file per (model, recipe, track, seed).

Writes ``<results>/scorecard/<model>__<recipe>__<track>__seed<N>.json`` (the result envelope; ``metrics`` holds one
block per benchmark, ``params.track`` names the track), every block's raw predictions beside it first, and a
markdown table (:func:`idiomkit.report.markdown_table`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from idiomkit.errors import OptionError, UnknownName
from idiomkit.report import HEADLINE, dig, headline, markdown_table, transposed
from idiomkit.results import ResultKey, ResultRecord, sha256_files, write_result
from idiomkit.scorecard.blocks import BLOCKS, TRACKS, BlockOutput, Track, run_block
from idiomkit.scorecard.partial import BlockStore
from idiomkit.tasks import EvalContext

log = logging.getLogger(__name__)

TASK = "scorecard"
TRACK_CHOICES = (*TRACKS, "both")


@dataclass
class Scorecard:
    """One scorecard: its result record, the file written (None when not written) and the seconds each block took."""

    record: ResultRecord
    path: Path | None
    seconds: dict[str, float]


def tracks_of(track: str) -> list[Track]:
    """``both`` -> plain then marked."""
    return ["plain", "marked"] if track == "both" else [track]  # type: ignore[list-item]


def selected_blocks(only: Sequence[str] | None, quick: bool) -> list[str]:
    """The blocks to run: ``only`` (each a registered block), else all (quick: those quick mode runs). A block
    without a quick slice asked for in quick mode is an OptionError: it would run whole on a scorecard labelled
    quick."""
    unknown = [name for name in only or () if name not in BLOCKS]
    if unknown:
        raise UnknownName(f"unknown scorecard block '{unknown[0]}' (expected one of {', '.join(BLOCKS)})")
    whole = [name for name in only or () if quick and not BLOCKS[name].quick]
    if whole:
        raise OptionError(
            f"--only {whole[0]}: the {whole[0]} block has no quick slice (it runs whole, minutes, on a "
            "scorecard labelled quick); drop --quick for it, or leave it out of --only"
        )
    if only:
        return list(only)
    return [name for name, block in BLOCKS.items() if block.quick or not quick]


def run_blocks(
    model,
    ctx: EvalContext,
    track: Track,
    blocks: Sequence[str],
    *,
    trained: bool = False,
    shared: dict[str, BlockOutput] | None = None,
    store: BlockStore | None = None,
) -> tuple[dict, dict, list[Path], dict, dict]:
    """Run ``blocks`` in ``track``: (metrics, predictions, data files, block params, seconds per block). ``shared``
    keeps the outputs of blocks that read the same in both tracks, so a second track reuses them; ``store`` keeps
    each finished block on disk and gives back those an interrupted run of the same scorecard finished."""
    metrics, predictions, params, seconds = {}, {}, {}, {}
    files: list[Path] = []
    shared = {} if shared is None else shared
    store = store or BlockStore(None)
    for name in blocks:
        start = time.perf_counter()
        log.info("scorecard: %s (%s track%s)", name, track, ", quick" if ctx.quick else "")
        if BLOCKS[name].by_track or name not in shared:
            kept_as = track if BLOCKS[name].by_track else "all"
            if (out := store.get(name, kept_as)) is None:
                out = run_block(model, name, ctx, track, trained)
                store.put(name, kept_as, out)
            shared[name] = out
        out = shared[name]
        seconds[name] = round(time.perf_counter() - start, 3)
        metrics[name], params[name] = out.metrics, out.params
        predictions.update(out.predictions)
        files += out.data_files
    return metrics, predictions, files, params, seconds


@dataclass(frozen=True)
class ScorecardSpec:
    """What names a scorecard and where it goes: model, recipe, track, the blocks, the results directory (None: compute
    only), whether the model was trained by idiomkit and the parameters recorded beside the blocks'."""

    model_name: str
    recipe: str
    track: Track
    blocks: Sequence[str]
    results_dir: Path | None
    trained: bool = False
    extra_params: dict[str, Any] = field(default_factory=dict)


def write_scorecard(
    model,
    ctx: EvalContext,
    spec: ScorecardSpec,
    shared: dict[str, BlockOutput] | None = None,
    store: BlockStore | None = None,
) -> Scorecard:
    """Run the blocks and write the scorecard (predictions first); ``spec.results_dir`` None: compute only; ``store``:
    the finished blocks kept on disk (:mod:`~idiomkit.scorecard.partial`)."""
    start = time.perf_counter()
    metrics, predictions, files, block_params, seconds = run_blocks(
        model, ctx, spec.track, spec.blocks, trained=spec.trained, shared=shared, store=store
    )
    params = {
        "track": spec.track,
        "quick": ctx.quick,
        "blocks": block_params,
        "seconds": seconds,
        "prompt_name": ctx.prompt_name,
        "batch_size": ctx.batch_size,
        **spec.extra_params,
    }
    record = ResultRecord(
        TASK,
        spec.model_name,
        spec.recipe,
        ctx.seed,
        metrics,
        params,
        sha256_files(sorted(set(files))),
        wall_s=time.perf_counter() - start,
    )
    variant = spec.track + ("-quick" if ctx.quick else "")
    key = ResultKey(TASK, spec.model_name, spec.recipe, variant, spec.track, ctx.seed)
    path = write_result(record, spec.results_dir, predictions=predictions, key=key) if spec.results_dir else None
    return Scorecard(record, path, seconds)


__all__ = [
    "HEADLINE",
    "TASK",
    "ScorecardSpec",
    "Scorecard",
    "dig",
    "headline",
    "markdown_table",
    "selected_blocks",
    "tracks_of",
    "transposed",
    "write_scorecard",
]
