"""AdMIRe structured ranker: score whole permutations of the five captions, using how the task builds them.

Each AdMIRe item has five captions of fixed kinds (idiomatic synonym and related, literal synonym and related,
distractor), and the gold order puts the two captions of the sense used first, the other sense's two next and the
distractor last. On train+dev (frozen minilm) the captions at gold positions 1-2 and 3-4 are each other's nearest
neighbours (mean cosine .50-.61 against .34-.40 across pairs). A per-caption score cannot use that; this ranker
scores every one of the 5! = 120 orders with a linear model over *permutation* features:

- caption-caption cosines: within the first pair, within the second pair, distractor to the other four, first pair
  to second pair;
- the z-scored similarities of :mod:`idiomkit.methods.admire.features` (``lit``, ``ctx``, ``span``, ``mctx``) of
  the caption placed at each position (position-specific weights);
- all of them times a sentence-type value ``t`` (+1 idiomatic, -1 literal, 0 unknown).

Training maximises the log-likelihood of the gold order under a softmax over the 120 orders (L2 fixed, no tuning;
LBFGS, deterministic). The type is a label of the *training* items, so the order model is fitted with the gold
``t``; at prediction time ``t`` is either unknown (``none``: the model is fitted and used with ``t = 0``), given
(``oracle``: an upper bound, not a system) or inferred (``proxy``: a logistic regression on the unsupervised
signal ``-corr(mctx, lit)`` gives P(idiomatic), and the order probabilities under ``t = +1`` and ``t = -1`` are mixed
by it). The prediction is the most probable order (caption score = 5 - its position).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import ClassVar

import numpy as np
import torch

from idiomkit.data.admire import AdmireItem
from idiomkit.data.definitions import load_epie_usages
from idiomkit.data.semeval2a import Example2A, load_setting
from idiomkit.errors import InputError, check_choice
from idiomkit.methods.admire.features import Similarities, type_signal, zscore_rows
from idiomkit.methods.base import Method
from idiomkit.methods.semeval2a.classifier import ClassifierConfig, build_inputs, predict_proba, train_classifier
from idiomkit.models import load_model

PERMUTATIONS = np.array(list(itertools.permutations(range(5))))  # row p: caption index at each position
STRUCTURED_SIGNALS = ("none", "proxy", "oracle")


def permutation_index(item: AdmireItem) -> int:
    """Row of :data:`PERMUTATIONS` that is the item's gold order."""
    gold = np.asarray(item.gold_indices)
    hit = np.flatnonzero((gold == PERMUTATIONS).all(1))
    if len(hit) != 1:
        raise InputError(f"item '{item.compound}' has no complete gold order of five captions")
    return int(hit[0])


def permutation_features(
    captions: np.ndarray, sims: Similarities, t: np.ndarray, extra: np.ndarray | None = None
) -> np.ndarray:
    """``(n, 120, f)`` features of every order of every item; ``captions`` are unit caption embeddings
    ``(n, 5, d)``, ``t`` the per-item type value (+1 idiomatic, -1 literal, 0 unknown); ``extra`` = more
    per-caption scores ``(n, 5)`` or ``(n, 5, k)`` (e.g. a trained ranker's), z-scored like the similarities."""
    cc = np.einsum("nkd,njd->nkj", captions, captions)
    views = [sims.lit, sims.ctx, sims.span, sims.mctx]
    if extra is not None:
        views += list(np.moveaxis(extra[..., None] if extra.ndim == 2 else extra, -1, 0))
    per_caption = np.stack([zscore_rows(v) for v in views], axis=-1)  # (n, 5, k)
    p = PERMUTATIONS
    out = []
    for i in range(len(captions)):
        c = cc[i]
        pairs = np.stack(
            [
                c[p[:, 0], p[:, 1]],
                c[p[:, 2], p[:, 3]],
                sum(c[p[:, 4], p[:, j]] for j in range(4)) / 4,
                sum(c[p[:, a], p[:, b]] for a in (0, 1) for b in (2, 3)) / 4,
            ],
            axis=-1,
        )
        positions = per_caption[i][p].reshape(len(p), -1)
        base = np.concatenate([pairs, positions], axis=-1)
        out.append(np.concatenate([base, base * t[i]], axis=-1))
    return np.asarray(out, dtype=np.float32)


def fit_order_model(feats: np.ndarray, gold: Sequence[int], l2: float = 0.01) -> np.ndarray:
    """Weights maximising the mean log-softmax of the gold orders ``gold`` (rows of :data:`PERMUTATIONS`) minus
    ``l2 * |w|^2`` (LBFGS from zero: deterministic)."""

    x, y = torch.tensor(feats, dtype=torch.float64), torch.tensor(np.asarray(gold))
    w = torch.zeros(feats.shape[-1], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=500, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(x @ w, y) + l2 * (w * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return w.detach().numpy()


def order_probabilities(feats: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Softmax over the 120 orders of each item: ``(n, 120)``."""
    s = feats @ w
    e = np.exp(s - s.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def scores_of_best_order(probs: np.ndarray) -> np.ndarray:
    """Caption scores ``(n, 5)`` of each item's most probable order (5 for the first caption ... 1 for the last)."""
    out = np.zeros((len(probs), 5))
    for i, row in enumerate(PERMUTATIONS[probs.argmax(1)]):
        out[i, row] = 5 - np.arange(5)
    return out


class StructuredRanker(Method):
    """Order model + (for ``proxy``) a type classifier, fitted on labelled items; see the module docstring."""

    name: ClassVar[str] = "admire/structured"
    description: ClassVar[str] = "scores all 120 caption orders (pairs + distractor structure)"

    def __init__(self, signal: str = "proxy", l2: float = 0.01, type_c: float = 1.0):
        check_choice("type signal", signal, STRUCTURED_SIGNALS)
        self.signal, self.l2, self.type_c = signal, l2, type_c

    def fit(
        self,
        captions: np.ndarray,
        sims: Similarities,
        items: Sequence[AdmireItem],
        extra: np.ndarray | None = None,
        type_extra: np.ndarray | None = None,
    ) -> StructuredRanker:
        """Fit on labelled ``items``; ``extra``: per-caption scores of a learned ranker that did not see them;
        ``type_extra``: more per-item type evidence ``(n,)`` for the ``proxy`` type classifier (e.g. the logit of
        a SemEval-2A classifier's P(literal), see :func:`semeval2a_literal_logits`)."""
        from sklearn.linear_model import LogisticRegression

        gold_t = type_signal(sims, items, "oracle")
        t = np.zeros(len(items)) if self.signal == "none" else gold_t
        feats = permutation_features(captions, sims, t, extra)
        self.w = fit_order_model(feats, [permutation_index(it) for it in items], self.l2)
        if self.signal == "proxy":
            x = self.type_features(sims, items, type_extra)
            self.type_clf = LogisticRegression(C=self.type_c).fit(x, gold_t > 0)
        return self

    @staticmethod
    def type_features(sims: Similarities, items: Sequence[AdmireItem], type_extra: np.ndarray | None) -> np.ndarray:
        proxy = type_signal(sims, items, "proxy")[:, None]
        return proxy if type_extra is None else np.column_stack([proxy, type_extra])

    def idiomatic_probability(
        self, sims: Similarities, items: Sequence[AdmireItem], type_extra: np.ndarray | None = None
    ) -> np.ndarray:
        """P(idiomatic) per item from the proxy signal (+ ``type_extra``; ``proxy`` rankers only)."""
        return self.type_clf.predict_proba(self.type_features(sims, items, type_extra))[:, 1]

    def probabilities(
        self,
        captions: np.ndarray,
        sims: Similarities,
        items: Sequence[AdmireItem],
        extra: np.ndarray | None = None,
        type_extra: np.ndarray | None = None,
    ) -> np.ndarray:
        """``(n, 120)`` order probabilities (mixed over the two types for ``proxy``)."""
        n = len(items)

        def probs(t: np.ndarray) -> np.ndarray:
            return order_probabilities(permutation_features(captions, sims, t, extra), self.w)

        if self.signal != "proxy":
            return probs(np.zeros(n) if self.signal == "none" else type_signal(sims, items, "oracle"))
        p = self.idiomatic_probability(sims, items, type_extra)[:, None]
        return p * probs(np.ones(n)) + (1 - p) * probs(-np.ones(n))

    def scores(
        self,
        captions: np.ndarray,
        sims: Similarities,
        items: Sequence[AdmireItem],
        extra: np.ndarray | None = None,
        type_extra: np.ndarray | None = None,
    ) -> np.ndarray:
        return scores_of_best_order(self.probabilities(captions, sims, items, extra, type_extra))

    predict = scores


# a learned ranker to stack: (indices of the training items, items to score, their captions) -> scores (n, 5)
LearnedScores = Callable[[np.ndarray, Sequence[AdmireItem], np.ndarray], np.ndarray]


def out_of_fold(
    learned: LearnedScores, items: Sequence[AdmireItem], captions: np.ndarray, train_idx: np.ndarray, folds: np.ndarray
) -> np.ndarray:
    """Scores of ``learned`` on the items ``train_idx``, each fold (``folds`` of those items) scored by a ranker
    trained on the others: stacking features that the structured ranker can be fitted on."""
    out = np.zeros((len(train_idx), 5))
    for f in np.unique(folds):
        a, b = train_idx[folds != f], train_idx[folds == f]
        out[folds == f] = learned(a, [items[i] for i in b], captions[b])
    return out


def cross_validated_structured_scores(
    captions: np.ndarray,
    sims: Similarities,
    items: Sequence[AdmireItem],
    folds: Sequence[int],
    signal: str,
    l2: float = 0.01,
    learned: LearnedScores | None = None,
    type_extra: np.ndarray | None = None,
) -> np.ndarray:
    """Out-of-fold caption scores ``(n, 5)``: each fold ranked by a :class:`StructuredRanker` fitted on the others.
    With ``learned`` (stacking) the ranker also reads that ranker's scores: on the fold being scored from a ranker
    trained on the other folds, on those folds from rankers that did not see them (inner cross-validation)."""
    folds = np.asarray(folds)
    out = np.zeros((len(items), 5))
    for f in np.unique(folds):
        tr, te = np.flatnonzero(folds != f), np.flatnonzero(folds == f)
        te_items = [items[i] for i in te]
        extra_tr = None if learned is None else out_of_fold(learned, items, captions, tr, folds[tr])
        extra_te = None if learned is None else learned(tr, te_items, captions[te])
        t_tr, t_te = (None, None) if type_extra is None else (type_extra[tr], type_extra[te])
        ranker = StructuredRanker(signal, l2).fit(captions[tr], _take(sims, tr), [items[i] for i in tr], extra_tr, t_tr)
        out[te] = ranker.scores(captions[te], _take(sims, te), te_items, extra_te, t_te)
    return out


def type_detection(
    sims: Similarities,
    items: Sequence[AdmireItem],
    folds: Sequence[int],
    type_extra: np.ndarray | None = None,
    type_c: float = 1.0,
) -> dict[str, float]:
    """How well the ``proxy`` type classifier of :class:`StructuredRanker` tells idiomatic from literal sentences
    out of fold (each fold by a classifier fitted on the others): accuracy at 0.5, log-loss and ROC AUC of
    P(idiomatic), over ``items`` (which need their gold ``sentence_type``)."""
    from sklearn.linear_model import LogisticRegression

    folds = np.asarray(folds)
    gold = type_signal(sims, items, "oracle") > 0
    x = StructuredRanker.type_features(sims, items, type_extra)
    p = np.zeros(len(items))
    for f in np.unique(folds):
        tr, te = folds != f, folds == f
        p[te] = LogisticRegression(C=type_c).fit(x[tr], gold[tr]).predict_proba(x[te])[:, 1]
    return type_metrics(items, p)


def type_metrics(items: Sequence[AdmireItem], p_idiomatic: np.ndarray) -> dict[str, float]:
    """Accuracy at 0.5, log-loss and ROC AUC of ``p_idiomatic`` against the items' gold ``sentence_type``."""
    from sklearn.metrics import log_loss, roc_auc_score

    gold = np.array([it.sentence_type == "idiomatic" for it in items])
    p = np.asarray(p_idiomatic, dtype=float)
    return {
        "accuracy": round(float(((p > 0.5) == gold).mean()), 4),
        "log_loss": round(float(log_loss(gold, p, labels=[False, True])), 4),
        "auc": round(float(roc_auc_score(gold, p)), 4),
        "n_items": len(items),
    }


def semeval2a_literal_logits(
    items_by_split: dict[str, Sequence[AdmireItem]], data_dir, model: str = "minilm", seed: int = 0, epie: bool = False
) -> tuple[dict[str, np.ndarray], dict]:
    """Type evidence from other tasks' training data: a span classifier (top 4 layers + head, 2 epochs; epoch
    and threshold chosen on a by-MWE split of its own training data) fine-tuned on SemEval-2022 Task 2A train (EN
    rows of the zero-shot + one-shot files) and, with ``epie``, the 3,136 labelled EPIE formal sentences (split by
    idiom key), read at the compound of each AdMIRe sentence. Returns ``{split: logit P(literal)}`` and the
    training info. No AdMIRe label is used."""

    train, _ = load_setting(data_dir, "one_shot")
    train, key_of = [ex for ex in train if ex.language == "EN"], {}
    if epie:
        usages, key_of, _ = load_epie_usages(data_dir)
        train += usages
    cfg = ClassifierConfig(model=model, setting="one_shot", epochs=2, train_layers=4, seed=seed)
    clf, info = train_classifier(load_model(model), train, cfg, group=lambda ex: key_of.get(ex.id, ex.mwe))
    info["train_examples"] = len(train)
    out = {}
    for split, items in items_by_split.items():
        examples = [
            Example2A(
                id=f"{split}-{i}",
                language="EN",
                mwe=it.sentence[slice(*it.span)],
                previous="",
                target=it.sentence,
                next="",
                label=None,
            )
            for i, it in enumerate(items)
        ]
        p = np.clip(predict_proba(clf, build_inputs(examples, cfg), cfg.max_seq_length), 1e-4, 1 - 1e-4)
        out[split] = np.log(p / (1 - p))
    return out, info


def _take(sims: Similarities, idx: np.ndarray) -> Similarities:
    return Similarities(ctx=sims.ctx[idx], span=sims.span[idx], lit=sims.lit[idx], mctx=sims.mctx[idx])
