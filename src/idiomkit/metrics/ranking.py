"""Metrics of a predicted order of a few items against a gold order (AdMIRe's five images): top-1, the organisers'
DCG, Spearman's rho and Kendall's tau, per item and averaged."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

ORDER_METRICS = ("top1", "dcg", "spearman", "kendall")
DCG_WEIGHTS = (3, 1, 0, 0, 0)


def dcg(predicted: Sequence[str], gold: Sequence[str]) -> float:
    """The organisers' DCG: ``sum_k w_k / log2(2 + predicted.index(gold[k]))`` with ``w = (3, 1, 0, 0, 0)``."""
    return float(sum(w / math.log2(2 + list(predicted).index(gold[k])) for k, w in enumerate(DCG_WEIGHTS) if w))


def rank_correlations(predicted: Sequence[str], gold: Sequence[str]) -> tuple[float, float]:
    """(Spearman rho, Kendall tau) between predicted and gold ranks of the same distinct items (no ties)."""
    if sorted(predicted) != sorted(gold) or len(set(gold)) != len(gold):
        raise ValueError(f"predicted order {list(predicted)} is not a permutation of {list(gold)}")
    n = len(gold)
    pred_rank = {name: i for i, name in enumerate(predicted)}
    r = [pred_rank[name] for name in gold]  # predicted rank of the gold 0, 1, ... item
    rho = 1.0 - 6.0 * sum((ri - i) ** 2 for i, ri in enumerate(r)) / (n * (n * n - 1))
    concordant = sum(1 if r[j] > r[i] else -1 for i in range(n) for j in range(i + 1, n))
    return rho, concordant / (n * (n - 1) / 2)


def item_metrics(predicted: Sequence[str], gold: Sequence[str]) -> dict[str, float]:
    """:data:`ORDER_METRICS` of one predicted order."""
    rho, tau = rank_correlations(predicted, gold)
    return {"top1": float(predicted[0] == gold[0]), "dcg": dcg(predicted, gold), "spearman": rho, "kendall": tau}


def ranking_metrics(
    predicted: Sequence[Sequence[str]], gold: Sequence[Sequence[str]], types: Sequence[str | None] | None = None
) -> dict[str, Any]:
    """Item metrics averaged over items; with ``types`` also per sentence type (``idiomatic``/``literal``)."""
    if len(predicted) != len(gold) or not gold:
        raise ValueError(f"{len(predicted)} predicted orders for {len(gold)} gold orders")
    per_item = [item_metrics(p, g) for p, g in zip(predicted, gold, strict=True)]

    def block(rows: list[dict[str, float]]) -> dict[str, float]:
        return {m: round(float(np.mean([r[m] for r in rows])), 6) for m in ORDER_METRICS}

    out: dict[str, Any] = block(per_item) | {"n": len(per_item)}
    for kind in ("idiomatic", "literal"):
        rows = [r for r, t in zip(per_item, types or [], strict=False) if t == kind]
        if rows:
            out[kind] = block(rows) | {"n": len(rows)}
    return out
