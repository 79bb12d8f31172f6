"""Usage-aware re-ranking for IdioLink: a literal/figurative probe moves same-usage documents up.

A document is relevant to a query only if it has the query's PIE *and* its usage (literal vs idiomatic /
simplification / sense). Dense encoders find the PIE well but confuse the usage (``benchmarks/idiolink_errors.py``:
a third of a figurative query's top 10 are literal uses of its PIE). The re-ranker adds

    score'(q, d) = cos(q, d) + weight * u(q) * u(d),     u(x) = 2 * P(figurative | x) - 1

where ``P`` is a logistic-regression probe on the model's frozen sentence embeddings (queries in ``sentence`` mode,
documents as indexed), trained on the IdioLink **train** split (queries and documents; literal = 0, every other
usage = 1). The probe's C and the weight are chosen on the **val** split by nDCG@10 (weight 0 is in the grid, so
the re-ranker can only be kept where val says it helps); test is scored once with that choice.

Usage::

    from idiomkit.tasks.idiolink_usage import UsageReranker
    reranker = UsageReranker.fit(model, data_dir, query_mode="sentence+span")   # train probe, pick C/weight on val
    scores = reranker.rerank(model, test_split, scores)                          # test scores, same shape
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from idiomkit.data.idiolink import IdioLinkSplit, load_idiolink

log = logging.getLogger(__name__)

C_GRID = (0.1, 1.0, 10.0)
WEIGHT_GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)


def figurative_labels(records) -> np.ndarray:
    """1 for every usage but ``literal`` (idiomatic queries; idiomatic, simplification and sense documents)."""
    return np.array([r.usage != "literal" for r in records], dtype=np.int64)


def usage_rerank(scores: np.ndarray, p_query: np.ndarray, p_doc: np.ndarray, weight: float) -> np.ndarray:
    """``scores + weight * (2 p_q - 1)(2 p_d - 1)``: agreeing usages gain up to ``weight``, disagreeing lose it."""
    return scores + weight * np.outer(2.0 * p_query - 1.0, 2.0 * p_doc - 1.0)


def _features(model, split: IdioLinkSplit, *, prompt_name: str | None, batch_size: int, data_file=None):
    """(query features, document features): sentence-mode query embeddings and the documents' index embeddings."""
    from idiomkit.tasks.idiolink import document_embeddings, query_embeddings

    queries = query_embeddings(model, split.queries, "sentence", prompt_name=prompt_name, batch_size=batch_size)
    docs = document_embeddings(model, split.documents, data_file=data_file, batch_size=batch_size)
    return queries, docs


@dataclass
class UsageReranker:
    """A fitted probe (``predict_proba`` over sentence embeddings) and the re-ranking weight chosen on val."""

    probe: Any
    weight: float
    C: float
    prompt_name: str | None = None
    batch_size: int = 64
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fit(
        cls,
        model,
        data_dir: str | Path,
        *,
        query_mode: str,
        prompt_name: str | None = None,
        batch_size: int = 64,
        c_grid: tuple[float, ...] = C_GRID,
        weight_grid: tuple[float, ...] = WEIGHT_GRID,
    ) -> UsageReranker:
        """Train the probe on IdioLink train; choose (C, weight) by val nDCG@10 of ``query_mode`` retrieval."""
        from sklearn.linear_model import LogisticRegression

        from idiomkit.tasks.idiolink import dense_scores, make_run, retrieval_metrics

        def features(split: IdioLinkSplit):
            data_file = split.files[0] if split.files else None
            return _features(model, split, prompt_name=prompt_name, batch_size=batch_size, data_file=data_file)

        train, val = load_idiolink(data_dir, "train"), load_idiolink(data_dir, "val")
        x_train = np.vstack(features(train))
        y_train = np.concatenate([figurative_labels(train.queries), figurative_labels(train.documents)])
        val_q, val_d = features(val)
        val_scores = dense_scores(model, val, query_mode, prompt_name=prompt_name, batch_size=batch_size)
        qrels = val.qrels()
        grid: dict[str, float] = {}
        best: tuple[float, float, float, Any] | None = None  # (ndcg, -weight, -C, probe): ties -> smaller weight, C
        accuracy: dict[str, dict[str, float]] = {}
        for c in c_grid:
            probe = LogisticRegression(C=c, max_iter=5000).fit(x_train, y_train)
            p_q, p_d = probe.predict_proba(val_q)[:, 1], probe.predict_proba(val_d)[:, 1]
            accuracy[str(c)] = {
                "queries": round(float(((p_q > 0.5) == figurative_labels(val.queries)).mean()), 4),
                "documents": round(float(((p_d > 0.5) == figurative_labels(val.documents)).mean()), 4),
            }
            for w in weight_grid:
                run = make_run(val.queries, val.documents, usage_rerank(val_scores, p_q, p_d, w))
                ndcg = retrieval_metrics(qrels, run)["ndcg@10"]
                grid[f"C={c},weight={w}"] = ndcg
                if best is None or (ndcg, -w, -c) > best[:3]:
                    best = (ndcg, -w, -c, probe)
        assert best is not None
        ndcg, neg_w, neg_c, probe = best
        info = {
            "probe": "sklearn LogisticRegression on sentence embeddings (literal=0, figurative=1)",
            "train_examples": int(len(y_train)),
            "train_split": "train",
            "selection_split": "val",
            "C": -neg_c,
            "weight": -neg_w,
            "val_ndcg@10": ndcg,
            "val_ndcg@10_without": grid[f"C={-neg_c},weight=0.0"] if 0.0 in weight_grid else None,
            "val_accuracy": accuracy[str(-neg_c)],
            "val_grid": grid,
        }
        log.info("usage re-ranker: C=%s weight=%s (val nDCG@10 %.2f)", -neg_c, -neg_w, ndcg)
        return cls(probe, -neg_w, -neg_c, prompt_name, batch_size, info)

    def rerank(self, model, split: IdioLinkSplit, scores: np.ndarray) -> np.ndarray:
        """Re-ranked copy of ``scores`` (queries x documents of ``split``)."""
        if self.weight == 0.0:
            return scores
        data_file = split.files[0] if split.files else None
        q, d = _features(model, split, prompt_name=self.prompt_name, batch_size=self.batch_size, data_file=data_file)
        return usage_rerank(scores, self.probe.predict_proba(q)[:, 1], self.probe.predict_proba(d)[:, 1], self.weight)
