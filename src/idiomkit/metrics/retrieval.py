"""Retrieval metrics: R-Precision and nDCG@10 of a ranked run (ranx), MRR and recall@k from the rank of one true
document per query, and the top-k selection that turns a score matrix into rankings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from idiomkit.errors import InputError
from idiomkit.metrics.trec import Run

RUN_METRICS = ("r_precision", "ndcg@10")
_RANX_NAMES = {"r_precision": "r-precision", "ndcg@10": "ndcg@10"}


def r_precision_and_ndcg10(
    qrels: dict[str, dict[str, int]], run: Run, usage_of: dict[str, str] | None = None
) -> dict[str, Any]:
    """R-Precision and nDCG@10 (binary gains) in percent, macro over the queries of ``qrels``, computed with ranx.

    The ranking order of ``run`` is authoritative (ties already broken): ranx gets rank-derived scores. With
    ``usage_of`` (query id -> usage), the metrics are also given per usage (``{"literal": {...}, ...}``).
    """
    from ranx import Qrels, evaluate
    from ranx import Run as RanxRun

    missing = [q for q in qrels if not qrels[q]]
    if missing:
        raise InputError(f"query '{missing[0]}' has no relevant documents")
    ranked = {q: {doc: float(len(docs) - i) for i, (doc, _) in enumerate(docs)} for q, docs in run.items()}
    for q in qrels:  # a query with nothing retrieved scores 0 (ranx needs an entry)
        if not ranked.get(q):
            ranked[q] = {"__none__": 1.0}
    ranx_run = RanxRun({q: ranked[q] for q in qrels})
    evaluate(Qrels(qrels), ranx_run, list(_RANX_NAMES.values()), return_mean=False, make_comparable=True)
    per_query = {m: {q: float(v) for q, v in ranx_run.scores[r].items()} for m, r in _RANX_NAMES.items()}

    def block(ids: Sequence[str]) -> dict[str, float]:
        return {m: round(100.0 * float(np.mean([per_query[m][q] for q in ids])), 4) for m in RUN_METRICS}

    out: dict[str, Any] = block(list(qrels))
    if usage_of is not None:
        for usage in ("literal", "idiomatic"):
            ids = [q for q in qrels if usage_of.get(q) == usage]
            if ids:
                out[usage] = block(ids)
    return out


def run_metrics_mean(metrics: dict[str, Any]) -> float:
    """The mean of R-Precision and nDCG@10 (:data:`RUN_METRICS`): what IdioLink's second stages are chosen by."""
    return (metrics["r_precision"] + metrics["ndcg@10"]) / 2


def rank_top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` best columns per row, best first; ties keep index order (stable)."""
    k = min(k, scores.shape[1])
    return np.argsort(-scores, axis=1, kind="stable")[:, :k]


def ranks_of_truth(queries: np.ndarray, documents: np.ndarray) -> np.ndarray:
    """1-based rank of document i for query i by dot product (ties count against the truth)."""
    sims = queries @ documents.T
    truth = np.diag(sims)
    return (sims >= truth[:, None]).sum(1)


def mrr_and_recall(ranks: np.ndarray) -> dict[str, float]:
    """Mean reciprocal rank, recall@1 and recall@10 from the 1-based rank of each query's one true document."""
    return {
        "mrr": float(np.mean(1.0 / ranks)),
        "recall@1": float(np.mean(ranks <= 1)),
        "recall@10": float(np.mean(ranks <= 10)),
    }
