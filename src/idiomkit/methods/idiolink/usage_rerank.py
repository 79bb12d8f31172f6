"""Usage-aware re-ranking for IdioLink: a literal/figurative probe moves same-usage documents up.

A document is relevant to a query only if it has the query's PIE *and* its usage (literal vs idiomatic /
simplification / sense). Dense encoders find the PIE well but confuse the usage
(``benchmarks/analysis/idiolink_errors.py``: a third of a figurative query's top 10 are literal uses of its PIE).
The re-ranker adds

    score'(q, d) = cos(q, d) + weight * u(q) * u(d),     u(x) = 2 * P(figurative | x) - 1

where ``P`` is a logistic-regression probe on the model's frozen sentence embeddings (queries in ``sentence`` mode,
documents as indexed), trained on the IdioLink **train** split (queries and documents; literal = 0, every other
usage = 1). The probe's C and the weight are chosen on the **val** split by nDCG@10 (weight 0 is in the grid, so
the re-ranker can only be kept where val says it helps); test is scored once with that choice.

Usage::

    from idiomkit.methods.idiolink.usage_rerank import UsageReranker
    reranker = UsageReranker.fit(model, data_dir, query_mode="sentence+span")   # train probe, pick C/weight on val
    scores = reranker.rerank(model, test_split, scores)                          # test scores, same shape
"""

from __future__ import annotations

import copy
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import torch

from idiomkit.data.idiolink import IdioLinkSplit, load_idiolink
from idiomkit.data.semeval2a import Example2A, data_paths, load_train
from idiomkit.errors import OptionError
from idiomkit.idioms.reader import encoder_module
from idiomkit.methods.base import Method
from idiomkit.methods.semeval2a.classifier import ClassifierConfig, classify, train_classifier
from idiomkit.metrics.retrieval import RUN_METRICS, r_precision_and_ndcg10, run_metrics_mean
from idiomkit.models import load_model
from idiomkit.tasks.idiolink import dense_scores, document_embeddings, make_run, query_embeddings
from idiomkit.tasks.semeval2a import fit_probe, probe_features, split_by_mwe

log = logging.getLogger(__name__)

C_GRID = (0.1, 1.0, 10.0)
WEIGHT_GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)
# the oracle analysis (benchmarks/analysis/idiolink_usage_ceiling.py) puts the useful weights of a sharp decision at
# 0.02-0.1: finer at the low end; 0.3 and 0.5 were added after val chose the edge of (0, 0.01, 0.02, 0.05, 0.1, 0.2)
CLASSIFIER_WEIGHT_GRID = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)
# where val chooses the grid's top weight, the grid goes on doubling it (a softer decision needs a larger weight; the
# span probe's val choice was the edge 0.5), up to MAX_WEIGHT (cosines span [-1, 1]: beyond 4 the decision is all)
MAX_WEIGHT = 4.0


def choose_weight(
    metrics_at: Callable[[float], dict[str, float]], weight_grid: Sequence[float], max_weight: float = MAX_WEIGHT
) -> tuple[float, dict[str, dict[str, float]]]:
    """(weight, {"weight=w": {r_precision, ndcg@10}}): the grid weight with the best mean of R-Precision and nDCG@10
    (ties -> the smaller weight); while the best is the grid's largest weight, the grid goes on doubling it, up to
    ``max_weight``."""
    grid: dict[str, dict[str, float]] = {}
    best: tuple[float, float] | None = None  # (value, -weight)
    weights = list(weight_grid)
    while weights:
        w = weights.pop(0)
        m = metrics_at(w)
        grid[f"weight={w}"] = {k: m[k] for k in RUN_METRICS}
        value = run_metrics_mean(m)
        if best is None or (value, -w) > best:
            best = (value, -w)
        if not weights and -best[1] == w and 0 < w < max_weight:
            weights.append(min(2 * w, max_weight))
    assert best is not None, "empty weight grid"
    return -best[1], grid


def figurative_labels(records) -> np.ndarray:
    """1 for every usage but ``literal`` (idiomatic queries; idiomatic, simplification and sense documents)."""
    return np.array([r.usage != "literal" for r in records], dtype=np.int64)


def usage_rerank(scores: np.ndarray, p_query: np.ndarray, p_doc: np.ndarray, weight: float) -> np.ndarray:
    """``scores + weight * (2 p_q - 1)(2 p_d - 1)``: agreeing usages gain up to ``weight``, disagreeing lose it."""
    return scores + weight * np.outer(2.0 * p_query - 1.0, 2.0 * p_doc - 1.0)


def _features(model, split: IdioLinkSplit, *, prompt_name: str | None, batch_size: int):
    """(query features, document features): sentence-mode query embeddings and the documents' index embeddings."""

    queries = query_embeddings(model, split.queries, "sentence", prompt_name=prompt_name, batch_size=batch_size)
    docs = document_embeddings(model, split.documents, data_file=split.documents_file, batch_size=batch_size)
    return queries, docs


@dataclass
class UsageReranker(Method):
    """A fitted probe (``predict_proba`` over sentence embeddings) and the re-ranking weight chosen on val."""

    name: ClassVar[str] = "idiolink/usage-rerank"
    description: ClassVar[str] = "literal/figurative probe re-ranking, C and weight chosen on val"

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

        def features(split: IdioLinkSplit):
            return _features(model, split, prompt_name=prompt_name, batch_size=batch_size)

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
                ndcg = r_precision_and_ndcg10(qrels, run)["ndcg@10"]
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
        q, d = _features(model, split, prompt_name=self.prompt_name, batch_size=self.batch_size)
        return usage_rerank(scores, self.probe.predict_proba(q)[:, 1], self.probe.predict_proba(d)[:, 1], self.weight)

    predict = rerank


# ---------------------------------------------------------------- a fine-tuned classifier as the usage decision

# dictionary placeholders and the pronouns that stand in for them ("out of your mind" -> "out of his mind")
PLACEHOLDERS = frozenset(
    ("someone", "somebody", "something", "somewhere", "one", "one's", "someone's", "oneself", "sb", "sth")
    + ("your", "my", "his", "her", "its", "our", "their", "me", "him", "us", "them", "it")
)
ARTICLES = ("a", "an", "the")  # interchangeable ("ring a bell" -> "ring the bell"), and one may be inserted
# verb forms a stem cannot reach (``took`` for ``take``); regular inflections are matched by stem
IRREGULAR = {
    "be": "was were been",
    "bear": "bore borne",
    "beat": "beaten",
    "bend": "bent",
    "bite": "bit bitten",
    "blow": "blew blown",
    "break": "broke broken",
    "bring": "brought",
    "build": "built",
    "buy": "bought",
    "catch": "caught",
    "choose": "chose chosen",
    "come": "came",
    "cut": "cut",
    "dig": "dug",
    "do": "did done does",
    "draw": "drew drawn",
    "drive": "drove driven",
    "eat": "ate eaten",
    "fall": "fell fallen",
    "feed": "fed",
    "feel": "felt",
    "fight": "fought",
    "find": "found",
    "fly": "flew flown flies",
    "freeze": "froze frozen",
    "get": "got gotten",
    "give": "gave given",
    "go": "went gone goes",
    "grind": "ground",
    "hang": "hung",
    "have": "had has",
    "hide": "hid hidden",
    "hold": "held",
    "keep": "kept",
    "lay": "laid",
    "lead": "led",
    "leave": "left",
    "lend": "lent",
    "lie": "lay lain",
    "light": "lit",
    "lose": "lost",
    "make": "made",
    "meet": "met",
    "pay": "paid",
    "ride": "rode ridden",
    "ring": "rang rung",
    "rise": "rose risen",
    "run": "ran",
    "say": "said",
    "see": "saw seen",
    "seek": "sought",
    "sell": "sold",
    "send": "sent",
    "shake": "shook shaken",
    "shoot": "shot",
    "sink": "sank sunk",
    "sit": "sat",
    "speak": "spoke spoken",
    "spend": "spent",
    "stand": "stood",
    "steal": "stole stolen",
    "stick": "stuck",
    "strike": "struck",
    "swing": "swung",
    "take": "took taken",
    "teach": "taught",
    "tear": "tore torn",
    "tell": "told",
    "think": "thought",
    "throw": "threw thrown",
    "wear": "wore worn",
    "win": "won",
    "wind": "wound",
    "write": "wrote written",
}
_WORD = r"[\w'’-]+"


def _word_pattern(word: str) -> str:
    """One PIE word: placeholder -> one to four words; article -> any article; a word -> its stem (``spill`` ->
    ``spilled``) or irregular form (``take`` -> ``took``); a short word -> itself, plural allowed; ``'s`` optional."""
    if word in PLACEHOLDERS:
        return rf"{_WORD}(?:\s+{_WORD}){{0,3}}?"
    if word in ARTICLES:
        return "(?:" + "|".join(ARTICLES) + ")"
    base, possessive = (word[:-2], r"(?:['’]s)?") if word.endswith(("'s", "’s")) else (word, "")
    if len(base) > 3:
        forms = [re.escape(base[: max(3, len(base) - 2)]) + r"\w*"]
    else:
        forms = [re.escape(base) + (r"\w*" if base in IRREGULAR else "(?:s|es)?")]
    forms += [re.escape(form) for form in IRREGULAR.get(base, "").split()]
    return "(?:" + "|".join(forms) + ")" + possessive


def pie_pattern(pie: str) -> re.Pattern:
    """A regex for the inflected forms of ``pie`` (see :func:`_word_pattern`), any non-word run between words and
    at most one article inserted (``behind bars`` -> ``behind the bars``)."""
    words = [w for w in re.split(r"[\s\-]+", pie.strip().lower()) if w]
    gap = r"\W+(?:(?:" + "|".join(ARTICLES) + r")\W+)?"
    return re.compile(r"\b" + gap.join(_word_pattern(w) for w in words) + r"\b", flags=re.IGNORECASE)


def locate_pie(text: str, pie: str | re.Pattern) -> tuple[int, int] | None:
    """Character span of the first (inflected) occurrence of ``pie`` in ``text``, or None."""
    match = (pie if isinstance(pie, re.Pattern) else pie_pattern(pie)).search(text)
    return (match.start(), match.end()) if match else None


def usage_examples(records) -> list:
    """2A-style examples (``mwe`` = the PIE as it occurs; label 0 figurative, 1 literal) of the records that carry
    their PIE (queries; literal and idiomatic documents: simplifications and senses paraphrase it away)."""

    return [
        Example2A(r.id, "EN", r.span_text, "", r.sentence, "", 1 if r.usage == "literal" else 0)
        for r in records
        if r.usage in ("literal", "idiomatic")
    ]


@dataclass
class FineTunedDecision:
    """The usage decision of a fine-tuned 2A span classifier (:mod:`idiomkit.methods.semeval2a.classifier`: ``[SEP]``
    input, span-and-mean pooling, top 4 layers fine-tuned for 2 epochs; epoch chosen on a split carved by ``group``),
    started from ``classifier_model``: a second model beside the retrieval encoder (see
    :class:`SharedClassifierDecision` for one started from the encoder itself)."""

    variant: ClassVar[str] = "clf"  # result variant <mode>-usage<variant>
    description: ClassVar[str] = "fine-tuned span classifier (idiomkit.methods.semeval2a.classifier)"
    shared: ClassVar[bool] = False

    classifier: Any
    config: Any
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fit(cls, model, examples, group, *, classifier_model: str = "minilm", seed: int = 0, **_: Any):
        name = "the retrieval encoder (shared trunk)" if cls.shared else classifier_model
        cfg = ClassifierConfig(model=name, epochs=2, train_layers=4, tune_threshold=False, seed=seed)
        start = copy.deepcopy(model) if cls.shared else load_model(classifier_model)
        classifier, training = train_classifier(start, examples, cfg, group=group)
        info = {
            "model": name,
            "recipe": cfg.recipe,
            "epochs": cfg.epochs,
            "seed": seed,
            "best_epoch": training["best"]["epoch"],
            "train_s": training["train_s"],
        }
        if cls.shared:
            info["parameters"] = shared_parameters(model, classifier)
        return cls(classifier, cfg, info)

    def figurative_probability(self, examples) -> np.ndarray:
        """P(figurative) of each 2A-style example."""

        if not examples:
            return np.zeros(0)
        _, p_literal = classify(self.classifier, examples, self.config, 0.5)
        return 1.0 - np.asarray(p_literal, dtype=np.float64)


def shared_parameters(model, classifier) -> dict[str, int]:
    """Parameter counts of the retrieval encoder, of what the classifier adds to it (parameters that differ from the
    encoder's: its fine-tuned layers and head) and of the pair."""

    encoder = dict(encoder_module(model).auto_model.named_parameters())

    def shared(name: str, p) -> bool:
        mine = encoder.get(name.removeprefix("encoder.")) if name.startswith("encoder.") else None
        return mine is not None and mine.shape == p.shape and torch.equal(mine.detach().cpu(), p.detach().cpu())

    added = sum(p.numel() for name, p in classifier.named_parameters() if not shared(name, p))
    total = sum(p.numel() for p in model.parameters())
    return {"retrieval_encoder": total, "classifier_adds": added, "total": total + added}


class SharedClassifierDecision(FineTunedDecision):
    """:class:`FineTunedDecision` started from a copy of the retrieval encoder: its embeddings and bottom layers stay
    frozen, i.e. shared, so the pair adds only the top 4 layers and the head to the encoder's parameters."""

    variant: ClassVar[str] = "sharedclf"
    description: ClassVar[str] = "span classifier fine-tuned from the retrieval encoder (top 4 layers; rest shared)"
    shared: ClassVar[bool] = True


SPAN_PROBE_FEATURES = "span+sentence"


@dataclass
class SpanProbeDecision:
    """The usage decision of the retrieval model itself: a logistic regression on its frozen embeddings of the PIE
    span (late chunking) and of the whole sentence, each scaled to unit length. C is chosen (macro-F1) on a split
    carved by ``group`` from the training examples, then the probe is refitted on all of them. One model: nothing
    is trained but the probe's 2 x 384 weights."""

    variant: ClassVar[str] = "span"
    description: ClassVar[str] = "logistic regression on the retrieval model's own span+sentence embeddings"

    model: Any
    probe: Any
    batch_size: int = 64
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fit(cls, model, examples, group, *, seed: int = 0, batch_size: int = 64, **_: Any):
        from sklearn.linear_model import LogisticRegression

        start = time.perf_counter()
        x = cls._features(model, examples, batch_size)
        y = np.array([ex.label for ex in examples])
        train, held = split_by_mwe(examples, 0.1, seed, group=group)
        row = {id(ex): i for i, ex in enumerate(examples)}
        tr, va = [row[id(ex)] for ex in train], [row[id(ex)] for ex in held]
        c, curve = fit_probe(x[tr], y[tr], x[va], y[va], seed)
        probe = LogisticRegression(C=c, max_iter=2000, random_state=seed).fit(x, y)
        info = {
            "features": SPAN_PROBE_FEATURES + " (unit length each)",
            "C": c,
            "carved_val_macro_f1": curve,
            "train_s": round(time.perf_counter() - start, 1),
        }
        return cls(model, probe, batch_size, info)

    @staticmethod
    def _features(model, examples, batch_size: int) -> np.ndarray:
        x = probe_features(model, examples, SPAN_PROBE_FEATURES, None, batch_size).astype(np.float64)
        half = x.shape[1] // 2  # [span; sentence], two embeddings of the same size
        return np.hstack([p / np.linalg.norm(p, axis=1, keepdims=True).clip(1e-9) for p in (x[:, :half], x[:, half:])])

    def figurative_probability(self, examples) -> np.ndarray:
        """P(figurative) (label 0) of each 2A-style example."""
        if not examples:
            return np.zeros(0)
        proba = self.probe.predict_proba(self._features(self.model, examples, self.batch_size))
        return proba[:, list(self.probe.classes_).index(0)]


DECISIONS = {
    "classifier": FineTunedDecision,
    "shared-classifier": SharedClassifierDecision,
    "span-probe": SpanProbeDecision,
}


@dataclass
class ClassifierUsageReranker(Method):
    """Usage re-ranking with a trained literal/figurative decision:

        score'(q, d) = cos(q, d) + weight * u(q) * u(d | PIE of q),     u = 2 * P(figurative) - 1

    ``u(q)`` reads the query's PIE span; ``u(d | PIE of q)`` reads the query's PIE where it occurs in the document
    (:func:`locate_pie`) and is 0 where it does not (simplification and sense documents paraphrase the PIE away, so
    no classifier can tell which PIE they are about). The decision (``decision=``, a key of :data:`DECISIONS`) is
    ``"classifier"`` (:class:`FineTunedDecision`, a second fine-tuned model), ``"shared-classifier"``
    (:class:`SharedClassifierDecision`, the same started from the retrieval encoder, sharing its lower layers) or
    ``"span-probe"`` (:class:`SpanProbeDecision`, a probe on the retrieval model's own span embeddings), trained
    on the IdioLink **train** queries and literal/idiomatic documents plus, where ``data_dir`` has them, the 2A
    ``train_zero_shot`` examples, with any selection on a split of those carved by PIE/MWE. The weight is chosen on
    IdioLink **val** by the mean of R-Precision and nDCG@10 (weight 0 in the grid).
    ``benchmarks/analysis/idiolink_usage_ceiling.py`` measures how accurate the decision must be.

    Usage::

        reranker = ClassifierUsageReranker.fit(model, data_dir, query_mode="span")   # trains, picks the weight
        scores = reranker.rerank(model, test_split, scores)
    """

    name: ClassVar[str] = "idiolink/usage-rerank-classifier"
    description: ClassVar[str] = "usage re-ranking by a trained decision read at the query's PIE in each document"

    decider: Any
    weight: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)
    _decisions: dict[str, tuple[np.ndarray, dict[str, np.ndarray]]] = field(default_factory=dict, repr=False)

    @classmethod
    def fit(
        cls,
        model,
        data_dir: str | Path,
        *,
        query_mode: str,
        prompt_name: str | None = None,
        batch_size: int = 64,
        decision: str = "classifier",
        classifier_model: str = "minilm",
        seed: int = 0,
        weight_grid: tuple[float, ...] = CLASSIFIER_WEIGHT_GRID,
    ) -> ClassifierUsageReranker:

        if decision not in DECISIONS:
            raise OptionError(f"unknown usage decision '{decision}' (expected {' or '.join(DECISIONS)})")
        train = load_idiolink(data_dir, "train")
        examples = usage_examples([*train.queries, *train.documents])
        pie_of = {r.id: r.idiom for r in [*train.queries, *train.documents]}
        train_data = {"idiolink_train": len(examples)}
        semeval2a_train = data_paths(data_dir)["train_zero_shot"]
        if semeval2a_train.exists():  # else IdioLink train only
            extra = load_train(semeval2a_train, "zero_shot")
            examples += extra
            train_data["semeval2a_train_zero_shot"] = len(extra)
        log.info("usage decision (%s): training on %s", decision, train_data)
        decider = DECISIONS[decision].fit(
            model,
            examples,
            lambda ex: pie_of.get(ex.id, ex.mwe),
            classifier_model=classifier_model,
            seed=seed,
            batch_size=batch_size,
        )
        reranker = cls(decider)
        val = load_idiolink(data_dir, "val")
        val_scores = dense_scores(model, val, query_mode, prompt_name=prompt_name, batch_size=batch_size)
        signs, qrels = reranker.usage_signs(val), val.qrels()
        reranker.weight, grid = choose_weight(
            lambda w: r_precision_and_ndcg10(qrels, make_run(val.queries, val.documents, val_scores + w * signs)),
            weight_grid,
        )
        reranker.info = {
            "probe": f"{decider.description}; u(d) = 0 where the document lacks the query's PIE",
            "decision": decision,
            decision.replace("-", "_"): decider.info,
            "train_data": train_data,
            "train_split": "train",
            "selection_split": "val",
            "selection_metric": "mean of R-Precision and nDCG@10",
            "weight": reranker.weight,
            "val": grid[f"weight={reranker.weight}"],
            "val_accuracy": reranker.accuracy(val),
            "val_grid": grid,
        }
        log.info("usage %s re-ranker: weight=%s (val %s)", decision, reranker.weight, reranker.info["val"])
        return reranker

    def figurative_probability(self, examples) -> np.ndarray:
        """P(figurative) of each 2A-style example, from the decision."""
        return self.decider.figurative_probability(examples)

    def decisions(self, split: IdioLinkSplit) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """(u per query, {PIE: u per document}) for ``split``, cached: ``u = 2 P(figurative) - 1`` read at the
        query's span and at each document's occurrence of the PIE (0 where it has none)."""
        if split.name not in self._decisions:
            u_query = 2.0 * self.figurative_probability(usage_examples(split.queries)) - 1.0
            located: list[tuple[str, int]] = []
            examples = []
            for pie in sorted({q.idiom for q in split.queries}):
                pattern = pie_pattern(pie)
                for j, d in enumerate(split.documents):
                    span = locate_pie(d.sentence, pattern)
                    if span is not None:
                        located.append((pie, j))
                        examples.append(Example2A(d.id, "EN", d.sentence[span[0] : span[1]], "", d.sentence, "", None))
            u_doc = {pie: np.zeros(len(split.documents)) for pie in sorted({q.idiom for q in split.queries})}
            for (pie, j), p in zip(located, self.figurative_probability(examples), strict=True):
                u_doc[pie][j] = 2.0 * p - 1.0
            self._decisions[split.name] = (u_query, u_doc)
        return self._decisions[split.name]

    def usage_signs(self, split: IdioLinkSplit) -> np.ndarray:
        """``u(q) * u(d | PIE of q)`` for every query x document of ``split``."""
        u_query, u_doc = self.decisions(split)
        return np.stack([u_query[i] * u_doc[q.idiom] for i, q in enumerate(split.queries)])

    def accuracy(self, split: IdioLinkSplit) -> dict[str, float]:
        """Share of queries and of PIE-bearing (literal, idiomatic) documents whose decision matches the gold usage
        (a document whose PIE was not found counts as wrong), and the share of those documents found at all."""
        u_query, u_doc = self.decisions(split)
        gold = lambda r: 1.0 if r.usage != "literal" else -1.0  # noqa: E731
        docs = [
            (j, d) for j, d in enumerate(split.documents) if d.usage in ("literal", "idiomatic") and d.idiom in u_doc
        ]
        u_docs = np.array([u_doc[d.idiom][j] for j, d in docs])
        return {
            "queries": round(float(np.mean(np.sign(u_query) == [gold(q) for q in split.queries])), 4),
            "documents": round(float(np.mean(np.sign(u_docs) == [gold(d) for _, d in docs])), 4) if docs else None,
            "documents_located": round(float(np.mean(u_docs != 0)), 4) if docs else None,
        }

    def rerank(self, model, split: IdioLinkSplit, scores: np.ndarray) -> np.ndarray:
        """Re-ranked copy of ``scores`` (queries x documents of ``split``); ``model`` is unused (API parity)."""
        return scores if self.weight == 0.0 else scores + self.weight * self.usage_signs(split)

    predict = rerank
