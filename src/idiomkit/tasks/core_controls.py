"""Shortcut controls of the core test: two choosers that know no idioms, scored beside every column.

A core-test triple asks which of two candidates (the figurative paraphrase, the literal misreading) goes with the
sentence. A chooser that never reads the idiom can still pass when the two candidates differ in a way the
construction gives away; each control is such a chooser, fitted only on the misreading stream's *training* rows
(:func:`~idiomkit.data.misreading.control_rows`: the PIE/WordNet construction and the mt_ambiguity usage triples,
after the held-out check), never on a test triple:

- ``bow``: a logistic regression on the bag of words each candidate *inserts* (its words the sentence does not
  hold), paraphrase = 1, misreading = 0 (scikit-learn, C = 1, binary features); it picks the candidate it scores
  higher. A generator that inserts its own vocabulary ("canine", "pail") is caught by it.
- ``length_overlap``: the best of four rules on the training rows, fixed there: the shorter candidate, the longer
  one (characters), the one whose words overlap the sentence's less, or more (Jaccard of word sets).

A chooser that cannot tell the two candidates apart (equal scores) is right half the time: it scores 0.5 on that
triple. A column is a *headline* only while both controls stay within :data:`CONTROL_CEILING` of chance *either way*
(between .45 and .55): a control far below chance is the same shortcut pointing the other way (where people wrote
the literal reading, it keeps the sentence's words, so "the candidate that overlaps less" is right .74 of the time on
held-out PT although the rule fitted on the training rows picks the other one).

*Control-balanced accuracy* (:func:`balancing_weights`): the column's triples weighted so that every control scores
exactly .5 on it (raking: the triples each control gets right and those it gets wrong are scaled to equal mass, one
control after the other, until both hold), then the model's accuracy under those weights. No chooser that knows only
what the controls know passes it; the effective number of triples (``n_eff`` = 1 / sum of squared weights) says what
the weighting costs in sample size.

Example::

    controls = fitted_controls("../shared/data")
    correct = controls.correct(core_test("../shared/data").triples)  # {"bow": array, "length_overlap": array}
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from idiomkit.data.keys import normalise_sentence
from idiomkit.data.meaning_triples import Triple
from idiomkit.data.misreading import control_rows

log = logging.getLogger(__name__)

CONTROL_CEILING = 0.55  # a column whose controls score above this, or below 1 - this, is no headline
CONTROLS = ("bow", "length_overlap")
C = 1.0


def inserted_words(sentence: str, candidate: str) -> set[str]:
    """The words (normalised) of ``candidate`` that ``sentence`` does not hold."""
    return set(normalise_sentence(candidate).split()) - set(normalise_sentence(sentence).split())


def _jaccard(sentence: str, candidate: str) -> float:
    a, b = set(normalise_sentence(sentence).split()), set(normalise_sentence(candidate).split())
    return len(a & b) / max(len(a | b), 1)


# each rule: a score of (sentence, candidate); the candidate with the higher score is chosen
RULES: dict[str, Callable[[str, str], float]] = {
    "shorter": lambda s, c: -len(c),
    "longer": lambda s, c: len(c),
    "less overlap": lambda s, c: -_jaccard(s, c),
    "more overlap": _jaccard,
}


def choice(para: np.ndarray, mis: np.ndarray) -> np.ndarray:
    """1 where the paraphrase scores higher, 0 where the misreading does, 0.5 on a tie."""
    para, mis = np.round(np.asarray(para, float), 12), np.round(np.asarray(mis, float), 12)
    return np.where(para > mis, 1.0, np.where(para < mis, 0.0, 0.5))


def rule_correct(rule: str, triples: Sequence[Triple]) -> np.ndarray:
    """Per triple, whether ``rule`` picks the paraphrase (1 / 0.5 on a tie / 0)."""
    score = RULES[rule]
    return choice(
        np.array([score(t.sentence, t.paraphrase) for t in triples]),
        np.array([score(t.sentence, t.misreading) for t in triples]),
    )


def within_ceiling(score: float) -> bool:
    """Whether a control's ``score`` stays within :data:`CONTROL_CEILING` of chance, either way."""
    return 1 - CONTROL_CEILING <= score <= CONTROL_CEILING


RAKING_ROUNDS = 500
RAKING_TOLERANCE = 1e-9


def _row_deviation(weights: np.ndarray, values: Sequence[np.ndarray]) -> np.ndarray:
    """Per row of ``weights``, the largest distance from .5 of a control's score under it (NaN for a row that went
    NaN, or holds no weight)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        total = weights.sum(1)
        return np.max([np.abs(weights @ c / total - 0.5) for c in values], axis=0)


def balancing_weights(correct: Sequence[np.ndarray], base: np.ndarray | None = None) -> np.ndarray:
    """Weights under which every control in ``correct`` (per-triple correctness, 1 / 0.5 / 0) scores exactly .5.

    Raking (iterative proportional fitting): starting from ``base`` (``(rows, triples)``, e.g. bootstrap
    multiplicities; default one row of ones), each control's right and wrong triples are scaled to equal mass (their
    sum kept; ties untouched), control after control, until every control is within :data:`RAKING_TOLERANCE` of .5.
    Each row is normalised to sum 1. A row where a control is never right, or never wrong, under its weights cannot
    be balanced: it comes back as NaN.

    Args:
        correct: one array per control, each of shape ``(triples,)``.
        base: starting weights ``(rows, triples)``; zeros stay zero.

    Returns:
        ``(rows, triples)`` weights, or ``(triples,)`` when ``base`` is None.

    Example::

        w = balancing_weights([bow_correct, rule_correct])
        balanced_accuracy = float(w @ model_correct)
    """
    n = len(correct[0]) if correct else 0
    weights = np.ones((1, n)) if base is None else np.array(base, dtype=float, ndmin=2)
    values = [np.asarray(c, dtype=float) for c in correct]
    if not values:
        return weights[0] / n if base is None else weights / weights.sum(1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        for _ in range(RAKING_ROUNDS):
            for c in values:
                mass_r, mass_w = weights @ (c == 1), weights @ (c == 0)
                half = (mass_r + mass_w) / 2
                scale = np.where(c == 1, (half / mass_r)[:, None], np.where(c == 0, (half / mass_w)[:, None], 1.0))
                weights = weights * scale
            deviation = _row_deviation(weights, values)
            if not np.any(deviation > RAKING_TOLERANCE):  # NaN rows cannot be balanced: left for the check below
                break
        weights = weights / weights.sum(1, keepdims=True)
    weights[~(_row_deviation(weights, values) <= 1e-6)] = np.nan  # NaN rows, and rows raking could not balance
    return weights[0] if base is None else weights


@dataclass
class Controls:
    """The two controls, fitted (:func:`fit_controls`); ``fit`` describes the fit for a result's params."""

    vectorizer: DictVectorizer
    model: LogisticRegression
    rule: str
    fit: dict[str, Any] = field(default_factory=dict)

    def _bow_scores(self, triples: Sequence[Triple], attr: str) -> np.ndarray:
        features = [dict.fromkeys(inserted_words(t.sentence, getattr(t, attr)), 1) for t in triples]
        return self.model.predict_proba(self.vectorizer.transform(features))[:, 1]

    def correct(self, triples: Sequence[Triple]) -> dict[str, np.ndarray]:
        """``{control: per-triple correctness}`` (1 / 0.5 on a tie / 0) on ``triples``."""
        if not triples:
            return {name: np.zeros(0) for name in CONTROLS}
        bow = choice(self._bow_scores(triples, "paraphrase"), self._bow_scores(triples, "misreading"))
        return {"bow": bow, "length_overlap": rule_correct(self.rule, triples)}


def fit_controls(rows: Sequence[Triple]) -> Controls:
    """Fit both controls on ``rows`` (training triples): the bag of inserted words, and the rule of :data:`RULES`
    with the highest accuracy on ``rows`` (ties: the first in table order)."""
    if not rows:
        raise ValueError("the shortcut controls need training rows to fit on")
    features = [dict.fromkeys(inserted_words(t.sentence, t.paraphrase), 1) for t in rows]
    features += [dict.fromkeys(inserted_words(t.sentence, t.misreading), 1) for t in rows]
    labels = np.r_[np.ones(len(rows)), np.zeros(len(rows))]
    vectorizer = DictVectorizer()
    model = LogisticRegression(C=C, max_iter=2000).fit(vectorizer.fit_transform(features), labels)
    accuracy = {rule: float(np.mean(rule_correct(rule, rows))) for rule in RULES}
    rule = max(RULES, key=lambda r: (accuracy[r], -list(RULES).index(r)))
    controls = Controls(vectorizer, model, rule)
    controls.fit = {
        "rows": len(rows),
        "vocabulary": len(vectorizer.vocabulary_),
        "length_overlap_rule": rule,
        "rule_accuracy_on_training_rows": {r: round(a, 4) for r, a in accuracy.items()},
        "bow_accuracy_on_training_rows": round(float(np.mean(controls.correct(rows)["bow"])), 4),
    }
    log.info("core-test controls: fitted on %d training rows: %s", len(rows), controls.fit)
    return controls


@lru_cache(maxsize=4)
def _fitted(data_dir: str) -> Controls:
    return fit_controls(control_rows(data_dir))


def fitted_controls(data_dir: str | Path) -> Controls:
    """The controls fitted on ``data_dir``'s misreading training rows (cached per data directory)."""
    return _fitted(str(Path(data_dir).resolve()))
