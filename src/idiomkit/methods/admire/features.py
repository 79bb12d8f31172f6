"""AdMIRe feature ranker: a pairwise logistic ranker over frozen-encoder similarities, and a ceiling analysis.

Every caption of an item gets a few cosine similarities from a *frozen* encoder (no fine-tuning):

- ``ctx``: to the whole sentence; ``span``: to the compound's span embedding in the marked sentence;
- ``lit``: to the compound alone (its literal reading); ``mctx``: to the sentence with the compound blanked out
  (what the context is about);

each z-scored within the item, plus the squares of ``ctx`` and ``lit`` (a linear score cannot otherwise put the
literal captions of an idiomatic sentence *between* the idiomatic ones and the distractor). Each feature is also
multiplied by a sentence-level **type signal** ``t`` in [-1, 1] (+1 idiomatic):

- ``none``: ``t = 0`` (the interactions vanish);
- ``proxy``: ``t = -corr(mctx, lit)`` over the five captions -- an unsupervised guess: when the context without the
  compound is about the same captions as the compound's literal words, the use is literal (AUC ~0.84 on train+dev
  with minilm);
- ``oracle``: the **gold** ``sentence_type`` of the item being ranked. This is an upper bound for "knowing the
  sense", *not* a system: it reads a label the task does not give at prediction time.

The ranker is scikit-learn's ``LogisticRegression`` (no intercept) on feature differences of every gold-ordered
caption pair (i above j -> 1, and the mirrored pair -> 0); the score of a caption is ``w . features``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from idiomkit.data.admire import AdmireItem
from idiomkit.errors import InputError, OptionError
from idiomkit.methods.base import Method
from idiomkit.tasks.admire import query_embeddings, text_query_embeddings

TYPE_SIGNALS = ("none", "proxy", "oracle")


@dataclass
class Similarities:
    """Cosine similarities ``(n, 5)`` (captions in file order) of each item's captions to four query views."""

    ctx: np.ndarray
    span: np.ndarray
    lit: np.ndarray
    mctx: np.ndarray


def blank_compound(item: AdmireItem) -> str:
    """The sentence with every occurrence of the compound replaced by a space."""
    return re.sub(re.escape(item.compound), " ", item.sentence, flags=re.IGNORECASE)


def similarities(
    model, items: Sequence[AdmireItem], captions: np.ndarray, query_mode: str = "marked+span"
) -> Similarities:
    """Frozen-model similarities of ``items`` against their unit-normalised caption embeddings ``(n, 5, d)``."""

    def cos(queries: np.ndarray) -> np.ndarray:
        return np.einsum("nd,nkd->nk", queries, captions)

    return Similarities(
        ctx=cos(text_query_embeddings(model, [it.sentence for it in items])),
        span=cos(query_embeddings(model, items, query_mode)),
        lit=cos(text_query_embeddings(model, [it.compound for it in items])),
        mctx=cos(text_query_embeddings(model, [blank_compound(it) for it in items])),
    )


def zscore_rows(x: np.ndarray) -> np.ndarray:
    """Each row of ``x`` standardised (mean 0, standard deviation 1)."""
    return (x - x.mean(1, keepdims=True)) / (x.std(1, keepdims=True) + 1e-9)


def type_signal(sims: Similarities, items: Sequence[AdmireItem], kind: str) -> np.ndarray:
    """Per-item idiomaticity signal in [-1, 1] (+1 idiomatic); see the module docstring."""
    if kind == "none":
        return np.zeros(len(items))
    if kind == "proxy":
        return np.array([-np.corrcoef(m, lit)[0, 1] for m, lit in zip(sims.mctx, sims.lit, strict=True)])
    if kind == "oracle":
        missing = [it.compound for it in items if it.sentence_type not in ("idiomatic", "literal")]
        if missing:
            raise InputError(f"oracle type signal needs sentence_type; missing for {missing[:3]}")
        return np.array([1.0 if it.sentence_type == "idiomatic" else -1.0 for it in items])
    raise OptionError(f"unknown type signal '{kind}' (expected one of {', '.join(TYPE_SIGNALS)})")


def features(sims: Similarities, signal: np.ndarray) -> np.ndarray:
    """``(n, 5, f)`` ranking features: the z-scored similarities, two squares, and all of them times ``signal``."""
    ctx, lit = zscore_rows(sims.ctx), zscore_rows(sims.lit)
    base = [ctx, lit, zscore_rows(sims.span), zscore_rows(sims.mctx), ctx**2, lit**2]
    return np.stack(base + [b * signal[:, None] for b in base], axis=-1)


def pairwise_rows(feats: np.ndarray, gold_ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Feature differences of every caption pair of every item: ``(x_i - x_j, 1)`` and ``(x_j - x_i, 0)`` where
    ``i`` is ranked above ``j``."""
    rows, labels = [], []
    for f, ranks in zip(feats, gold_ranks, strict=True):
        for i in range(len(ranks)):
            for j in range(len(ranks)):
                if ranks[i] < ranks[j]:
                    rows += [f[i] - f[j], f[j] - f[i]]
                    labels += [1, 0]
    return np.asarray(rows), np.asarray(labels)


def fit_ranker(feats: np.ndarray, gold_ranks: np.ndarray, c: float = 0.1) -> np.ndarray:
    """Weights of a pairwise logistic ranker (L2, inverse strength ``c``) fitted on ``(n, 5, f)`` features."""
    from sklearn.linear_model import LogisticRegression

    x, y = pairwise_rows(feats, gold_ranks)
    return LogisticRegression(C=c, max_iter=5000, fit_intercept=False).fit(x, y).coef_[0]


def cross_validated_scores(
    feats: np.ndarray, gold_ranks: np.ndarray, folds: Sequence[int], c: float = 0.1
) -> np.ndarray:
    """Out-of-fold ranking scores ``(n, 5)``: each fold scored by a ranker fitted on the other folds."""
    folds = np.asarray(folds)
    scores = np.zeros(feats.shape[:2])
    for f in np.unique(folds):
        w = fit_ranker(feats[folds != f], gold_ranks[folds != f], c)
        scores[folds == f] = feats[folds == f] @ w
    return scores


@dataclass
class FeatureRanker(Method):
    """Pairwise logistic ranker over per-caption features (:func:`fit_ranker`); scores are ``features @ w``."""

    name: ClassVar[str] = "admire/features"
    description: ClassVar[str] = "pairwise logistic ranker over frozen-model similarity features"

    c: float = 0.1
    weights: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def fit(self, feats: np.ndarray, gold_ranks: np.ndarray) -> FeatureRanker:
        self.weights = fit_ranker(feats, gold_ranks, self.c)
        return self

    def predict(self, feats: np.ndarray) -> np.ndarray:
        """Ranking scores ``(n, 5)`` of ``(n, 5, f)`` features."""
        return feats @ self.weights
