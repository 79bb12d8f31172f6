"""Is a trained scorecard's difference from its base + reader beyond chance? A paired bootstrap per headline column.

Both scorecards' raw predictions (written beside every result) are read item by item and matched by key; each resample
draws the column's clusters with replacement (an idiom for the core test and 2A, a compound for AdMIRe, a query's
expression for IdioLink, an item elsewhere) and scores both scorecards on the same draw
(:mod:`idiomkit.metrics.bootstrap`). The interval is the 95 % percentile interval of (trained - base); for a
trained row with several seeds, of (mean over its seeds - base).

Before any resample, each scorecard's statistic on its items as they are must equal the number its scorecard reports (to
:data:`TOLERANCE`): a column whose files do not reproduce it (older files, another protocol) gets no interval, and
the log says so. 2B, 2A and IdioLink read their gold from ``data_dir``; without it those columns get none either.

:data:`PAIRED` is the registry: headline column -> how to read its items and score them.
"""

from __future__ import annotations

import ast
import csv
import io
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from idiomkit.data.errors import DataError
from idiomkit.data.idiolink import Query, load_idiolink
from idiomkit.data.meaning_triples import Triple
from idiomkit.data.semeval2022 import GoldRow, SubtaskAExample, load_subtask_a, load_subtask_b
from idiomkit.metrics.bootstrap import (
    RESAMPLES,
    cluster_weights,
    percentile_interval,
    weighted_macro_f1,
    weighted_mean,
    weighted_spearman,
)
from idiomkit.metrics.ranking import item_metrics
from idiomkit.metrics.retrieval import query_metrics, relevant_documents
from idiomkit.results import read_prediction
from idiomkit.tasks.core_controls import CONTROLS, balancing_weights, fitted_controls

log = logging.getLogger(__name__)

TOLERANCE = 1e-4  # a scorecard's statistic on its own items must equal its reported number this closely (the prediction
# files round cosines to 6 decimals and STS gold to 4)


@dataclass(frozen=True)
class Items:
    """One scorecard's items for one column: a key per item (pairs two scorecards), its cluster (the resampling unit),
    the per-item arrays the column's statistic reads, and ``undecided``: how far the statistic may stand from the
    scorecard's number because the file's rounding hides a decision (two cosines equal to 6 decimals)."""

    keys: list[str]
    clusters: list[str]
    values: dict[str, np.ndarray]
    undecided: float = 0.0

    def aligned(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """The arrays in the order of ``keys``."""
        where = {key: i for i, key in enumerate(self.keys)}
        order = np.array([where[key] for key in keys])
        return {name: array[order] for name, array in self.values.items()}


Statistic = Callable[[dict[str, np.ndarray], np.ndarray], np.ndarray]


@dataclass(frozen=True)
class PairedColumn:
    """How a headline column is bootstrapped: ``read(stem, data_dir)`` gives a scorecard's :class:`Items` (None when
    its files are missing) and ``statistic(values, weights)`` the column's number per weight row."""

    read: Callable[[Path, Path | None], Items | None]
    statistic: Statistic


def _mean(values: dict[str, np.ndarray], weights: np.ndarray) -> np.ndarray:
    return weighted_mean(values["score"], weights)


def _spearman(values: dict[str, np.ndarray], weights: np.ndarray) -> np.ndarray:
    return weighted_spearman(values["gold"], values["predicted"], weights)


def _macro_f1(values: dict[str, np.ndarray], weights: np.ndarray) -> np.ndarray:
    return weighted_macro_f1(values["gold"], values["predicted"], weights)


FILE, LINE = "\0file", "\0line"  # where a prediction row came from, for its one-line error


def _rows(
    path: Path, delimiter: str, columns: Sequence[str] = (), since: str | None = None
) -> list[dict[str, Any]] | None:
    """The rows of a prediction file, each knowing its file and line; None when there is no file, or when its header
    lacks ``since`` (a file written before that column: another protocol). A header without one of ``columns`` is a
    :class:`DataError` naming it."""
    if not path.is_file():
        return None
    reader = csv.DictReader(io.StringIO(read_prediction(path)), delimiter=delimiter)
    header = reader.fieldnames or []
    if since is not None and since not in header:
        return None
    missing = [c for c in columns if c not in header]
    if missing:
        raise DataError(path, 1, missing[0], "missing from the header of this prediction file")
    return [{**row, FILE: path, LINE: reader.line_num} for row in reader]


def _value(row: dict[str, Any], field: str, cast: Callable[[Any], Any] = float) -> Any:
    """``row[field]`` read by ``cast``; a value it cannot read is a :class:`DataError` naming file, row and field."""
    try:
        return cast(row[field])
    except (TypeError, ValueError, SyntaxError, MemoryError, RecursionError):
        raise DataError(row[FILE], row[LINE], field, f"{row[field]!r} is not {WHAT.get(cast, 'valid')}") from None


def _rank(value: str) -> int:
    rank = int(value)
    if rank < 1:
        raise ValueError(value)
    return rank


def _order(value: str) -> list:
    order = ast.literal_eval(value)
    if not isinstance(order, list):
        raise ValueError(value)
    return order


WHAT: dict[Callable[[Any], Any], str] = {
    float: "a number",
    int: "an integer",
    _rank: "a rank (1 or more)",
    _order: "a list (an order of captions)",
}


def _unique(keys: list[str]) -> list[str]:
    """``keys`` with a repeat numbered (``key#2``), so that every item has its own key."""
    seen: dict[str, int] = {}
    out = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return out


@lru_cache(maxsize=4)
def _gold_2b(data_dir: Path) -> list[GoldRow]:
    return load_subtask_b(data_dir, "dev").gold or []


@lru_cache(maxsize=4)
def _dev_2a(data_dir: Path) -> list[SubtaskAExample]:
    return load_subtask_a(data_dir, "dev")


@lru_cache(maxsize=4)
def _idiolink_test(data_dir: Path) -> tuple[list[Query], dict[str, set[str]]]:
    """IdioLink test queries that have judgements, and each one's relevant documents."""
    data = load_idiolink(data_dir, "test")
    qrels = data.qrels()
    relevant = relevant_documents(qrels)
    return [q for q in data.queries if q.id in qrels], relevant


CORE_COLUMNS = ("idiom", "language", "sentence", "paraphrase", "misreading", "cos_paraphrase", "cos_misreading")


def _core_rows(stem: Path, column: str) -> list[dict[str, Any]] | None:
    """The rows of one core-test column in a scorecard's TSV (None: no TSV, or one of an earlier core test)."""
    rows = _rows(Path(f"{stem}.meaning-triples.tsv"), "\t", CORE_COLUMNS, since="column")
    return None if rows is None else [r for r in rows if r["column"] == column]


def _core_items(rows: list[dict[str, Any]]) -> Items:
    """Core-test rows as items: correct when the paraphrase is nearer; clusters are idioms."""
    keys = _unique(["\t".join((r["idiom"], r["sentence"], r["paraphrase"], r["misreading"])) for r in rows])
    pos, neg = (np.array([_value(r, f"cos_{side}") for r in rows]) for side in ("paraphrase", "misreading"))
    undecided = float(np.mean(pos == neg)) if rows else 0.0
    return Items(keys, [r["idiom"] for r in rows], {"score": (pos > neg).astype(float)}, undecided)


def core_items(column: str) -> Callable[[Path, Path | None], Items | None]:
    """The core test's triples of one column (``heldout``: held-out, human-written; ``seen``; the TSV's ``column``):
    correct when the paraphrase is nearer; clusters are idioms. A scorecard on an earlier core test (no ``column``)
    gives none."""

    def read(stem: Path, data_dir: Path | None) -> Items | None:
        rows = _core_rows(stem, column)
        return None if rows is None else _core_items(rows)

    return read


def core_balanced_items(column: str) -> Callable[[Path, Path | None], Items | None]:
    """:func:`core_items` with each triple's score scaled by its control-balancing weight (times the number of
    triples): the mean of the scores is the control-balanced accuracy
    (:func:`~idiomkit.tasks.core_controls.balancing_weights`, the controls fitted on ``data_dir``). The weights are
    the same for both scorecards (the controls know no model) and held fixed across resamples."""

    def read(stem: Path, data_dir: Path | None) -> Items | None:
        rows = _core_rows(stem, column)
        if not rows or data_dir is None:
            return None
        triples = [Triple(r["idiom"], r["language"], r["sentence"], r["paraphrase"], r["misreading"], "") for r in rows]
        correct = fitted_controls(data_dir).correct(triples)
        weights = balancing_weights([correct[c] for c in CONTROLS])
        if not np.isfinite(weights).all():
            return None
        items = _core_items(rows)
        score = items.values["score"] * weights * len(weights)
        return Items(items.keys, items.clusters, {"score": score}, items.undecided)

    return read


def admire_items(metric: str, sentence_type: str | None = None) -> Callable[[Path, Path | None], Items | None]:
    """AdMIRe's pooled items (only those whose sentence uses its compound as ``sentence_type``, ``idiomatic`` or
    ``literal``, when given): each item's ``metric`` (spearman, top1) of its predicted order; clusters are
    compounds."""

    def read(stem: Path, data_dir: Path | None) -> Items | None:
        columns = ("compound", "sentence_type", "predicted_order", "gold_order")
        rows = _rows(Path(f"{stem}.admire-pool.predictions.tsv"), "\t", columns)
        if rows is None:
            return None
        rows = [r for r in rows if sentence_type in (None, r["sentence_type"])]
        scores = [
            item_metrics(_value(r, "predicted_order", _order), _value(r, "gold_order", _order))[metric] for r in rows
        ]
        keys = _unique(["\t".join((r["compound"], r["sentence_type"], r["gold_order"])) for r in rows])
        return Items(keys, [r["compound"] for r in rows], {"score": np.array(scores, dtype=float)})

    return read


def xiao_margin_items(stem: Path, data_dir: Path | None) -> Items | None:
    """Xiao's idiom/definition pairs: each pair's cosine with its definition minus with a wrong one."""
    rows = _rows(Path(f"{stem}.xiao.pairs.csv"), ",", ("key", "kind", "cos_positive", "cos_negative"))
    if rows is None:
        return None
    rows = [r for r in rows if r["kind"] == "id"]
    margin = np.array([_value(r, "cos_positive") - _value(r, "cos_negative") for r in rows])
    keys = _unique([r["key"] for r in rows])
    return Items(keys, [r["key"] for r in rows], {"score": margin})


def xiao_mrr_items(stem: Path, data_dir: Path | None) -> Items | None:
    """Xiao's held-out idioms: the reciprocal rank of each one's definition."""
    rows = _rows(Path(f"{stem}.xiao.ranks.csv"), ",", ("key", "rank"))
    if rows is None:
        return None
    keys = _unique([r["key"] for r in rows])
    return Items(keys, keys, {"score": np.array([1.0 / _value(r, "rank", _rank) for r in rows])})


def sts_items(source: str) -> Callable[[Path, Path | None], Items | None]:
    """One STS guard's pairs (in file order): gold score and cosine."""

    def read(stem: Path, data_dir: Path | None) -> Items | None:
        rows = _rows(Path(f"{stem}.sts-guard.tsv"), "\t", ("source", "score", "cosine"))
        if rows is None:
            return None
        rows = [r for r in rows if r["source"] == source]
        keys = [str(i) for i in range(len(rows))]
        gold = np.array([_value(r, "score") for r in rows])
        return Items(keys, keys, {"gold": gold, "predicted": np.array([_value(r, "cosine") for r in rows])})

    return read


def semeval2b_items(subset: str) -> Callable[[Path, Path | None], Items | None]:
    """2B dev gold rows of ``subset`` (idiom, sts, all) with the scorecard's similarities; a row whose gold is empty
    takes the scorecard's similarity of its ``otherID`` (the organisers' rule)."""

    def read(stem: Path, data_dir: Path | None) -> Items | None:
        rows = _rows(Path(f"{stem}.semeval2b.submission.csv"), ",", ("ID", "Sim"))
        if rows is None or data_dir is None:
            return None
        sims = {r["ID"]: _value(r, "Sim") for r in rows if r["Sim"]}
        gold_rows = _gold_2b(data_dir)
        chosen = [g for g in gold_rows if subset == "all" or g.is_sts == (subset == "sts")]
        if any(g.id not in sims or (g.sim is None and g.other_id not in sims) for g in chosen):
            return None
        gold = np.array([g.sim if g.sim is not None else sims[g.other_id] for g in chosen])
        keys = [g.id for g in chosen]
        return Items(keys, keys, {"gold": gold, "predicted": np.array([sims[g.id] for g in chosen])})

    return read


def semeval2a_items(stem: Path, data_dir: Path | None) -> Items | None:
    """2A dev examples with the scorecard's labels; clusters are MWEs."""
    rows = _rows(Path(f"{stem}.semeval2a.submission.csv"), ",", ("ID", "Label"))
    if rows is None or data_dir is None:
        return None
    labels = {r["ID"]: _value(r, "Label", int) for r in rows if r["Label"] != ""}
    examples = [ex for ex in _dev_2a(data_dir) if ex.id in labels and ex.label is not None]
    gold = np.array([ex.label for ex in examples])
    predicted = np.array([labels[ex.id] for ex in examples])
    return Items([ex.id for ex in examples], [ex.mwe for ex in examples], {"gold": gold, "predicted": predicted})


NDCG_DEPTH = 10


def top_of_run(lines: Iterable[str], depth: int) -> dict[str, list[str]]:
    """Each query's first ``depth`` documents of a TREC run (the lines in any order; ``rank`` decides)."""
    ranked: dict[str, list[tuple[int, str]]] = {}
    for line in lines:
        parts = line.split(None, 4)
        if len(parts) >= 4 and (rank := int(parts[3])) <= depth:
            ranked.setdefault(parts[0], []).append((rank, parts[2]))
    return {query: [doc for _, doc in sorted(docs)] for query, docs in ranked.items()}


def idiolink_items(stem: Path, data_dir: Path | None) -> Items | None:
    """IdioLink test queries (sentence mode): each query's nDCG@10 in percent; clusters are the queries' expressions."""
    path = Path(f"{stem}.idiolink-sentence.run.trec.gz")
    if not path.is_file() or data_dir is None:
        return None
    run = top_of_run(read_prediction(path).splitlines(), NDCG_DEPTH)
    queries, relevant = _idiolink_test(data_dir)
    ndcg = [100.0 * query_metrics(relevant[q.id], run.get(q.id, []))["ndcg@10"] for q in queries]
    return Items([q.id for q in queries], [q.idiom for q in queries], {"score": np.array(ndcg)})


PAIRED: dict[str, PairedColumn] = {
    "2B idiom ρ": PairedColumn(semeval2b_items("idiom"), _spearman),
    "2B STS ρ": PairedColumn(semeval2b_items("sts"), _spearman),
    "2B all ρ": PairedColumn(semeval2b_items("all"), _spearman),
    "IdioLink nDCG@10": PairedColumn(idiolink_items, _mean),
    "2A F1 (probe)": PairedColumn(semeval2a_items, _macro_f1),
    "AdMIRe ρ (pool)": PairedColumn(admire_items("spearman"), _mean),
    "AdMIRe top-1 (pool)": PairedColumn(admire_items("top1"), _mean),
    **{
        f"AdMIRe {name} ({kind})": PairedColumn(admire_items(metric, kind), _mean)
        for kind in ("idiomatic", "literal")
        for name, metric in (("ρ", "spearman"), ("top-1", "top1"))
    },
    "Xiao I/D margin": PairedColumn(xiao_margin_items, _mean),
    "Xiao MRR": PairedColumn(xiao_mrr_items, _mean),
    "core acc (held-out)": PairedColumn(core_items("heldout"), _mean),
    "core acc (held-out, balanced)": PairedColumn(core_balanced_items("heldout"), _mean),
    "core acc (seen)": PairedColumn(core_items("seen"), _mean),
    "STS-B test ρ": PairedColumn(sts_items("stsb-en"), _spearman),
    "ASSIN 2 test ρ": PairedColumn(sts_items("assin2"), _spearman),
}


@dataclass(frozen=True)
class ScorecardHeadline:
    """A scorecard's stem (its result JSON path without ``.json``) and its headline numbers (column -> value)."""

    stem: Path
    headline: dict[str, float | None]
    quick: bool = False  # scored on the fixed small slices (``--quick``): its items differ from a full card's


@lru_cache(maxsize=512)
def items_of(column: str, stem: Path, data_dir: Path | None) -> Items | None:
    """A scorecard's items for ``column`` (read once: a base scorecard stands beside many trained rows)."""
    return PAIRED[column].read(stem, data_dir)


@lru_cache(maxsize=64)
def _weights(clusters: tuple[str, ...], resamples: int) -> np.ndarray:
    return cluster_weights(clusters, resamples=resamples)


def paired_interval(
    column: str,
    trained: Sequence[ScorecardHeadline],
    base: ScorecardHeadline,
    data_dir: Path | None = None,
    *,
    resamples: int = RESAMPLES,
) -> tuple[float, float] | None:
    """The 95 % paired bootstrap interval of (mean of ``trained`` over seeds - ``base``) on ``column``; None when
    the column has no reader, a scorecard's files are missing or do not reproduce its number, or the scorecards' items
    differ."""
    spec = PAIRED.get(column)
    cards = (*trained, base)
    read = [items_of(column, card.stem, data_dir) for card in cards] if spec else [None]
    if spec is None or any(items is None for items in read):
        return None
    found = [items for items in read if items is not None]
    keys = found[-1].keys
    if any(sorted(items.keys) != sorted(keys) for items in found):
        log.warning(
            "%s: the scorecards' items differ (%s); no interval", column, ", ".join(c.stem.name for c in trained)
        )
        return None
    weights = _weights(tuple(found[-1].clusters), resamples)
    scores = []
    for card, items in zip(cards, found, strict=True):
        values = spec.statistic(items.aligned(keys), weights)
        reported = card.headline.get(column)
        if reported is None or not abs(values[0] - reported) <= TOLERANCE + items.undecided:
            log.warning(
                "%s: %s's files give %.6f, its scorecard %s; no interval", column, card.stem.name, values[0], reported
            )
            return None
        scores.append(values)
    difference = np.mean(scores[:-1], axis=0) - scores[-1]
    return percentile_interval(difference[1:])


def interval_mark(interval: tuple[float, float] | None, tolerance: float = 0.0) -> str:
    """``▲`` when the whole interval clears the base (above ``-tolerance``), ``▼`` when the whole interval falls
    short of it, nothing when it straddles (or there is none)."""
    if interval is None:
        return ""
    low, high = interval
    if low > -tolerance:
        return "▲"
    if high < -tolerance:
        return "▼"
    return ""
