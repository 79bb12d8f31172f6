"""``idiomkit evaluate all``: one frozen model on every benchmark, one result file per (model, recipe, track, seed).

Writes ``<results>/scorecard/<model>__<recipe>__<track>__seed<N>.json`` (the result envelope; ``metrics`` holds one
block per benchmark, ``params.track`` names the track), every block's raw predictions beside it first, and a
markdown table. :func:`headline` flattens a card into the numbers a table shows.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from idiomkit.results import ResultKey, ResultRecord, sha256_files, write_result
from idiomkit.scorecard.blocks import BLOCKS, BlockContext, Track

log = logging.getLogger(__name__)

TASK = "scorecard"
TRACK_CHOICES = ("plain", "marked", "both")
# (column, block, path into the block's metrics): the headline numbers of a card, in table order
HEADLINE: list[tuple[str, str, tuple[str, ...]]] = [
    ("2B idiom ρ", "semeval2b", ("ALL", "idiom")),
    ("2B STS ρ", "semeval2b", ("ALL", "sts")),
    ("2B all ρ", "semeval2b", ("ALL", "all")),
    ("IdioLink nDCG@10", "idiolink", ("sentence", "ndcg@10")),
    ("2A F1 (probe)", "semeval2a", ("ALL", "macro_f1")),
    ("AdMIRe ρ (pool)", "admire", ("pool", "spearman")),
    ("AdMIRe top-1 (pool)", "admire", ("pool", "top1")),
    ("Xiao I/D margin", "xiao", ("id_margin",)),
    ("Xiao MRR", "xiao", ("mrr",)),
    ("core acc (held-out)", "meaning-triples", ("heldout", "accuracy")),
    ("core acc (seen)", "meaning-triples", ("seen", "accuracy")),
    ("STS-B test ρ", "sts-guard", ("stsb-en",)),
    ("ASSIN 2 test ρ", "sts-guard", ("assin2",)),
]


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
    """The blocks to run: ``only`` (each a registered block), else all (quick: those quick mode runs)."""
    unknown = [name for name in only or () if name not in BLOCKS]
    if unknown:
        raise KeyError(f"unknown scorecard block '{unknown[0]}' (expected one of {', '.join(BLOCKS)})")
    if only:
        return list(only)
    return [name for name, block in BLOCKS.items() if block.quick or not quick]


def run_card(model, ctx: BlockContext, blocks: Sequence[str]) -> tuple[dict, dict, list[Path], dict, dict]:
    """Run ``blocks``: (metrics, predictions, data files, block params, seconds per block)."""
    metrics, predictions, params, seconds = {}, {}, {}, {}
    files: list[Path] = []
    for name in blocks:
        start = time.perf_counter()
        log.info("scorecard: %s (%s track%s)", name, ctx.track, ", quick" if ctx.quick else "")
        out = BLOCKS[name].run(model, ctx)
        seconds[name] = round(time.perf_counter() - start, 3)
        metrics[name], params[name] = out.metrics, out.params
        predictions.update(out.predictions)
        files += out.data_files
    return metrics, predictions, files, params, seconds


def write_card(
    model, ctx: BlockContext, *, model_name: str, recipe: str, blocks: Sequence[str], results_dir: Path | None,
    extra_params: dict[str, Any],
) -> Scorecard:  # fmt: skip
    """Run the blocks and write the card (predictions first); ``results_dir`` None: compute only."""
    start = time.perf_counter()
    metrics, predictions, files, block_params, seconds = run_card(model, ctx, blocks)
    params = {"track": ctx.track, "quick": ctx.quick, "blocks": block_params, "seconds": seconds,
              "prompt_name": ctx.prompt_name, "batch_size": ctx.batch_size, **extra_params}  # fmt: skip
    record = ResultRecord(TASK, model_name, recipe, ctx.seed, metrics, params, sha256_files(sorted(set(files))),
                          wall_s=time.perf_counter() - start)  # fmt: skip
    variant = ctx.track + ("-quick" if ctx.quick else "")
    key = ResultKey(TASK, model_name, recipe, variant, ctx.track, ctx.seed)
    path = write_result(record, results_dir, predictions=predictions, key=key) if results_dir else None
    return Scorecard(record, path, seconds)


def dig(metrics: dict[str, Any], block: str, path: tuple[str, ...]) -> float | None:
    """The number at ``metrics[block][path...]`` (None when the block or key is absent)."""
    value: Any = metrics.get(block)
    for part in path:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return float(value) if isinstance(value, int | float) else None


def headline(metrics: dict[str, Any]) -> dict[str, float | None]:
    """``{column: number}`` of :data:`HEADLINE` for one card's metrics."""
    return {column: dig(metrics, block, path) for column, block, path in HEADLINE}


def markdown_table(rows: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """A markdown table: one row per (label, metrics) with the :data:`HEADLINE` columns present in any row."""
    flat = [(label, headline(metrics)) for label, metrics in rows]
    columns = [c for c, _, _ in HEADLINE if any(values[c] is not None for _, values in flat)]
    lines = ["| model | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for label, values in flat:
        cells = ["" if values[c] is None else _fmt(c, values[c]) for c in columns]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def transposed(rows: Sequence[tuple[str, dict[str, Any]]]) -> list[list[str]]:
    """The same numbers as :func:`markdown_table`, one line per headline number and one column per model (reads
    at 80 columns)."""
    flat = [(label, headline(metrics)) for label, metrics in rows]
    out = [["", *(label for label, _ in flat)]]
    for column, _, _ in HEADLINE:
        if any(values[column] is not None for _, values in flat):
            out.append([column, *("" if v[column] is None else _fmt(column, v[column]) for _, v in flat)])
    return out


def _fmt(column: str, value: float) -> str:
    return f"{value:.2f}" if "nDCG" in column else f"{value:.3f}"
