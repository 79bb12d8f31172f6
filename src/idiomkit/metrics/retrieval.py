"""Retrieval metrics: R-Precision and nDCG@10 of a ranked run (checked against ranx), MRR and recall@k from the
rank of one true document per query, and the top-k selection that turns a score matrix into rankings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from idiomkit.errors import InputError
from idiomkit.metrics.trec import Run

RUN_METRICS = ("r_precision", "ndcg@10")


def query_metrics(relevant: set[str], ranking: Sequence[str]) -> dict[str, float]:
    """R-Precision and nDCG@10 (binary gains, DCG = sum of 1 / log2(rank + 1)) of one ranked list, as fractions."""
    hits = [doc in relevant for doc in ranking]
    r = len(relevant)
    dcg = sum(1.0 / math.log2(rank + 2) for rank, hit in enumerate(hits[:10]) if hit)
    ideal = sum(1.0 / math.log2(rank + 2) for rank in range(min(r, 10)))
    return {"r_precision": sum(hits[:r]) / r, "ndcg@10": dcg / ideal}


def relevant_documents(qrels: dict[str, dict[str, int]]) -> dict[str, set[str]]:
    """Each query's documents judged relevant (grade above 0)."""
    return {q: {doc for doc, rel in docs.items() if rel > 0} for q, docs in qrels.items()}


def r_precision_and_ndcg10(
    qrels: dict[str, dict[str, int]], run: Run, usage_of: dict[str, str] | None = None
) -> dict[str, Any]:
    """R-Precision and nDCG@10 (binary gains) in percent, macro over the queries of ``qrels``; a query with
    nothing retrieved scores 0. The ranking order of ``run`` is authoritative (ties already broken). The same
    numbers as ranx's ``r-precision`` and ``ndcg@10`` (tested against it), without its numba compilation, which
    costs 20 s to a minute in every fresh process. With ``usage_of`` (query id -> usage), the metrics are also
    given per usage (``{"literal": {...}, ...}``).
    """
    relevant = relevant_documents(qrels)
    missing = [q for q in qrels if not relevant[q]]
    if missing:
        raise InputError(f"query '{missing[0]}' has no relevant documents")
    per_query = {q: query_metrics(relevant[q], [doc for doc, _ in run.get(q, ())]) for q in qrels}

    def block(ids: Sequence[str]) -> dict[str, float]:
        return {m: round(100.0 * float(np.mean([per_query[q][m] for q in ids])), 4) for m in RUN_METRICS}

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
