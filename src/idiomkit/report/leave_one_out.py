"""The leave-one-out table: each run trained without one part of a recipe, beside the recipe.

A leave-one-out run is found by its label: the recipe's label with one part named in it, ``-no<part>`` (a group of
training streams left out, :data:`~idiomkit.training.recipes.flagship.LEAVE_OUT`) or ``-keep0`` (the
keep-what-you-know term at weight 0); ``flagship-v2-no2b-pool-mean`` is ``flagship-v2-pool-mean`` without the SemEval
2B stream. A ``-keep0`` run is also the row without the keep term of every recipe that differs from it only in its
keep term (``flagship-v2-keep10-keep-cosine-pool-mean``). Both sides are plain-track scorecards of the same base model.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from idiomkit.report.scorecard import (
    HEADLINE,
    column_digits,
    column_means,
    full_scorecards,
    headline,
    number_cell,
    old_reader_mark,
    short_read_mark,
    titled_table,
)
from idiomkit.report.tables import mean_std
from idiomkit.training.recipes.flagship import LEAVE_OUT

_PART = re.compile(rf"-({'|'.join(LEAVE_OUT)}|keep0)(?=-|$)")
_KEEP = re.compile(r"-keep(?:[0-9.]+(?:-keep-[a-z]+)?|-[a-z]+)(?:-rel[0-9.]+)?(?=-|$)")  # the keep term's label part
KEEP_TERM = "the keep term"
NOISE_SDS = 2  # a difference larger than this many standard deviations of the reference's seeds is marked
NOISE_MARK = "*"


def left_out(label: str) -> tuple[str, str] | None:
    """(the reference recipe's label, what was left out) of a leave-one-out run's label; None for another label."""
    found = _PART.search(label)
    if not found:
        return None
    part = found.group(1)
    streams = LEAVE_OUT.get(part, ())
    what = KEEP_TERM if part == "keep0" else " + ".join(streams) + " stream" + "s" * (len(streams) > 1)
    return label[: found.start()] + label[found.end() :], what


def references(label: str, labels: Sequence[str]) -> list[tuple[str, str]]:
    """(reference recipe's label, what was left out) for each recipe among ``labels`` (one model's) that
    ``label`` is a leave-one-out run of: :func:`left_out`'s, and for a ``-keep0`` run every label that differs from
    it only in its keep term (``-keep10-keep-cosine``)."""
    found = left_out(label)
    if found is None:
        return []
    if found[1] != KEEP_TERM:
        return [found] if found[0] in labels else []
    bare = _KEEP.sub("", label)
    return [(other, KEEP_TERM) for other in labels if other != label and _KEEP.sub("", other) == bare]


def _seed_sds(recs: Sequence[dict[str, Any]]) -> dict[str, float]:
    """The standard deviation over seeds of each headline column (columns with fewer than two seeds: none)."""
    heads = [headline(rec["metrics"]) for rec in recs]
    values = {column: [v for head in heads if (v := head[column]) is not None] for column, _, _ in HEADLINE}
    return {column: statistics.stdev(vs) for column, vs in values.items() if len(vs) >= 2}


def _difference(column: str, value: float, mean: float, sd: float | None) -> str:
    """``value (±difference)``, marked when the difference exceeds :data:`NOISE_SDS` seed standard deviations."""
    difference = value - mean
    noisy = sd is None or abs(difference) <= NOISE_SDS * sd
    return f"{number_cell(column, value)} ({difference:+.{column_digits(column)}f}){'' if noisy else NOISE_MARK}"


def leave_one_out_rows(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """One table (header first) of every trained recipe that has leave-one-out scorecards: the recipe's row (mean ± std
    over seeds), then each leave-one-out row (mean over its seeds, difference from the recipe's mean). No lines
    when no leave-one-out scorecard has its recipe's scorecards beside it."""
    cards = full_scorecards(results, "plain")
    ablations: dict[tuple[str, str], list[tuple[str, str, list[dict[str, Any]]]]] = {}
    for (model, recipe), recs in sorted(cards.items()):
        if not recs[0]["params"].get("training"):
            continue
        for reference, what in references(recipe, [label for m, label in cards if m == model]):
            ablations.setdefault((model, reference), []).append((recipe, what, recs))
    if not ablations:
        return []
    involved = [recs for (model, reference), rows in ablations.items() for recs in [cards[(model, reference)]]]
    involved += [recs for rows in ablations.values() for *_, recs in rows]
    columns = [c for c, _, _ in HEADLINE if any(c in column_means(recs) for recs in involved)]
    lines = ["| model | recipe | left out | seeds | " + " | ".join(columns) + " |", "|" + "---|" * (len(columns) + 4)]
    for (model, reference), rows in sorted(ablations.items()):
        refs = cards[(model, reference)]
        means, sds = column_means(refs), _seed_sds(refs)
        heads = [headline(rec["metrics"]) for rec in refs]
        cells = [
            mean_std([v for h in heads if (v := h[c]) is not None], "nDCG" in c) if c in means else "" for c in columns
        ]
        marks = short_read_mark(refs) + old_reader_mark(refs)
        lines.append(f"| {model} | {reference}{marks} | nothing | {len(refs)} | " + " | ".join(cells) + " |")
        for recipe, what, recs in rows:
            own = column_means(recs)
            cells = [_difference(c, own[c], means[c], sds.get(c)) if c in own and c in means else "" for c in columns]
            marks = short_read_mark(recs) + old_reader_mark(recs)
            lines.append(f"| {model} | {recipe}{marks} | {what} | {len(recs)} | " + " | ".join(cells) + " |")
    return lines


def leave_one_out_section(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The leave-one-out table under a heading, with what each cell means."""
    return titled_table(
        "Leave-one-out rows (plain track)",
        leave_one_out_rows(results),
        "Each leave-one-out row is the recipe above it trained without one part (`left out`), otherwise the same: "
        "its number (mean over its seeds) and, in brackets, the difference from the recipe's mean over seeds. "
        f"{NOISE_MARK}: the difference is larger than {NOISE_SDS} standard deviations of the recipe's seeds (an "
        "effect beyond the seed-to-seed spread); a column whose recipe has one seed is never marked.",
    )
