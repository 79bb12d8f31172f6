"""Twin expansion for IdioLink: near-duplicate score propagation over the document index.

Why: an idiomatic query's relevant set is 20 idiomatic uses of its PIE plus 20 *simplifications* and 20 *sense*
paraphrases that do not contain the PIE. Fine-tuned encoders put the idiomatic uses near the top but leave the
paraphrases hundreds of ranks down (``benchmarks/analysis/idiolink_errors.py``). In this index every simplification
is the sentence of an idiomatic document with the PIE replaced by its meaning, i.e. a lexical near-duplicate ("twin")
of a document the query already finds. Twin expansion is pseudo-relevance feedback along such near-duplicate links:

    score'(q, d) = max(cos(q, d), lam * max{cos(q, d') : d' in top-k(q), J(d', d) >= tau})

where ``J`` is the Jaccard overlap of the two documents' word sets (the BM25 tokenizer of
:func:`idiomkit.tasks.idiolink.tokenize`). One hop, from the first-stage scores only; no labels are used. ``(k, tau,
lam)`` are chosen on the IdioLink **val** split by the mean of R-Precision and nDCG@10 (``k = 0``, no expansion, is
in the grid, so expansion is kept only where val says it helps); test is scored once with that choice.

Caveat, stated wherever its numbers are reported: it exploits how the index was built (paraphrase documents are
near-copies of idiomatic documents), so its rows measure a retrieval *pipeline*, not the embedding alone.

Usage::

    from idiomkit.methods.idiolink.twins import TwinExpansion
    twins = TwinExpansion.fit(model, data_dir, query_mode="span")   # grid on val
    scores = twins.apply(test_split, scores)                         # test scores, same shape
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from scipy import sparse

from idiomkit.data.idiolink import IdioLinkSplit, load_idiolink
from idiomkit.methods.base import Method
from idiomkit.metrics.retrieval import RUN_METRICS, r_precision_and_ndcg10, rank_top_k, run_metrics_mean
from idiomkit.tasks.idiolink import dense_scores, make_run, tokenize

log = logging.getLogger(__name__)

K_GRID = (0, 10, 20, 30, 40)
TAU_GRID = (0.5, 0.6, 0.7)
LAMBDA_GRID = (0.9, 0.95, 0.99)


def jaccard_links(texts: Sequence[str], min_jaccard: float, block: int = 512) -> sparse.csr_matrix:
    """Word-set Jaccard similarity between every two texts, kept where ``>= min_jaccard`` (diagonal excluded);
    a sparse ``(n, n)`` matrix, computed in row blocks so a 7,500-document index needs no dense n x n array."""

    vocab: dict[str, int] = {}
    rows, cols = [], []
    for i, text in enumerate(texts):
        for word in set(tokenize(text)):
            rows.append(i)
            cols.append(vocab.setdefault(word, len(vocab)))
    words = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(texts), len(vocab)))
    sizes = np.asarray(words.sum(axis=1)).ravel()
    out = []
    for start in range(0, len(texts), block):
        inter = (words[start : start + block] @ words.T).toarray()
        union = sizes[start : start + block, None] + sizes[None, :] - inter
        sim = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
        sim[np.arange(sim.shape[0]), np.arange(start, start + sim.shape[0])] = 0.0
        sim[sim < min_jaccard] = 0.0
        out.append(sparse.csr_matrix(sim))
    return sparse.vstack(out).tocsr()


def propagate(scores: np.ndarray, links: sparse.csr_matrix, k: int, tau: float, lam: float) -> np.ndarray:
    """``max(score, lam * score of a top-k document it is linked to with J >= tau)`` per query (a copy)."""
    out = np.array(scores, dtype=np.float64, copy=True)
    if k <= 0:
        return out
    top = rank_top_k(scores, k)
    for i, docs in enumerate(top):
        for j in docs:
            lo, hi = links.indptr[j], links.indptr[j + 1]
            idx = links.indices[lo:hi][links.data[lo:hi] >= tau]
            if idx.size:
                np.maximum.at(out[i], idx, lam * scores[i, j])
    return out


@dataclass
class TwinExpansion(Method):
    """The expansion's parameters chosen on val (``k = 0``: none) and the record of that choice."""

    name: ClassVar[str] = "idiolink/twins"
    description: ClassVar[str] = "near-duplicate score propagation, (k, tau, lambda) chosen on val"

    k: int
    tau: float
    lam: float
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
        k_grid: Sequence[int] = K_GRID,
        tau_grid: Sequence[float] = TAU_GRID,
        lambda_grid: Sequence[float] = LAMBDA_GRID,
        usage_reranker=None,
    ) -> TwinExpansion:
        """Choose ``(k, tau, lam)`` by the mean of val R-Precision and nDCG@10 of ``query_mode`` retrieval (first
        re-ranked by ``usage_reranker``, a fitted :class:`~idiomkit.methods.idiolink.usage_rerank.UsageReranker`, if
        given); ties go to the smaller k, then the larger tau, then the smaller lam
        (the most conservative expansion)."""

        val = load_idiolink(data_dir, "val")
        scores = dense_scores(model, val, query_mode, prompt_name=prompt_name, batch_size=batch_size)
        if usage_reranker is not None:
            scores = usage_reranker.rerank(model, val, scores)
        return cls.select(val, scores, k_grid=k_grid, tau_grid=tau_grid, lambda_grid=lambda_grid)

    @classmethod
    def select(
        cls,
        split: IdioLinkSplit,
        scores: np.ndarray,
        *,
        k_grid: Sequence[int] = K_GRID,
        tau_grid: Sequence[float] = TAU_GRID,
        lambda_grid: Sequence[float] = LAMBDA_GRID,
    ) -> TwinExpansion:
        """The grid search of :meth:`fit` on given first-stage ``scores`` of ``split`` (its selection split)."""

        links = jaccard_links([d.sentence for d in split.documents], min(tau_grid))
        qrels = split.qrels()
        grid: dict[str, dict[str, float]] = {}
        best: tuple[float, int, float, float] | None = None
        settings = [(0, max(tau_grid), min(lambda_grid))]
        settings += [(k, t, lam) for k, t, lam in itertools.product(k_grid, tau_grid, lambda_grid) if k > 0]
        for k, tau, lam in settings:
            metrics = r_precision_and_ndcg10(
                qrels, make_run(split.queries, split.documents, propagate(scores, links, k, tau, lam))
            )
            value = run_metrics_mean(metrics)
            grid[f"k={k},tau={tau},lambda={lam}"] = {m: metrics[m] for m in RUN_METRICS}
            if best is None or (value, -k, tau, -lam) > (best[0], -best[1], best[2], -best[3]):
                best = (value, k, tau, lam)
        assert best is not None
        _, k, tau, lam = best
        info = {
            "method": "near-duplicate score propagation: max(cos, lambda * cos of a top-k document with word-set "
            "Jaccard >= tau)",
            "selection_split": split.name,
            "selection_metric": "mean of R-Precision and nDCG@10",
            "k": k,
            "tau": tau,
            "lambda": lam,
            "val": grid[f"k={k},tau={tau},lambda={lam}"],
            "val_without": grid[f"k=0,tau={max(tau_grid)},lambda={min(lambda_grid)}"],
            "val_grid": grid,
        }
        log.info("twin expansion: k=%d tau=%s lambda=%s (val %s)", k, tau, lam, info["val"])
        return cls(k, tau, lam, info)

    def apply(self, split: IdioLinkSplit, scores: np.ndarray) -> np.ndarray:
        """Expanded copy of ``scores`` (queries x documents of ``split``)."""
        if self.k <= 0:
            return np.array(scores, copy=True)
        links = jaccard_links([d.sentence for d in split.documents], self.tau)
        return propagate(scores, links, self.k, self.tau, self.lam)

    predict = apply
