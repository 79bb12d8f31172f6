"""Training the sense check (:class:`~idiomkit.idioms.sense.SenseCheck`): its samples, the fit and the choice of
feature groups, C and threshold. Used by ``benchmarks/sense/sense_check.py`` only; scoring with the shipped model
(:func:`~idiomkit.idioms.sense.default_sense_check`) never imports this module (nor scikit-learn).

Example::

    check, report = train_sense_check("../shared/data")
    check.save(RESOURCE)
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from idiomkit.data.keys import normalise_idiom
from idiomkit.errors import InputError
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.matcher import Matcher, tokenize
from idiomkit.idioms.sense import DEFAULT_GROUPS, SenseCheck, features, word_forms
from idiomkit.metrics.classification import macro_f1

log = logging.getLogger(__name__)

CANDIDATE_GROUPS = (DEFAULT_GROUPS, (*DEFAULT_GROUPS, "sentence"))  # chosen between on the validation idioms
CANDIDATE_C = (0.1, 0.3, 1.0)
VALIDATION_PERCENT = 15  # idioms (by hash) kept out of training to choose the groups, C and the threshold
MIN_COUNT = 2  # a feature is kept when this many training samples have it
MAX_FEATURES = 20_000  # the exported model keeps the largest weights (|w|): the JSON stays well under 1 MB


# --- training data --------------------------------------------------------------------------------------------


class Sample(NamedTuple):
    """One training or evaluation span: ``figurative`` is the label."""

    sentence: str
    start: int
    end: int
    idiom: str
    language: str
    figurative: bool
    source: str


def idiom_fold(idiom: str) -> str:
    """``"validation"`` for a fixed 15% of idioms (by hash of the normalised idiom), else ``"train"``."""
    digest = hashlib.sha256(normalise_idiom(idiom).encode("utf-8")).hexdigest()
    return "validation" if int(digest[:8], 16) % 100 < VALIDATION_PERCENT else "train"


def locate(sentence: str, idiom: str, language: str, matcher: Matcher | None = None) -> tuple[int, int] | None:
    """The idiom's span in ``sentence``: the matcher's match, else its words (any inflection) in order with
    at most three words between them; None when not found."""
    key = normalise_idiom(idiom)
    for match in matcher.find(sentence, language) if matcher is not None else ():
        if normalise_idiom(match.idiom) == key:
            return match.start, match.end
    words, tokens = key.split(), tokenize(sentence)
    for first in range(len(tokens)):
        at, end = first, None
        for k, word in enumerate(words):
            forms = word_forms(word, language)
            stop = at + 1 if k == 0 else min(len(tokens), at + 4)
            hit = next((t for t in range(at, stop) if tokens[t][0] in forms), None)
            if hit is None:
                break
            at, end = hit + 1, tokens[hit][2]
        else:
            if end is not None:
                return tokens[first][1], end
    return None


def span_samples(source: str, items: Iterable[tuple[str, str, str, bool]], language: str = "EN") -> list[Sample]:
    """Samples from ``(sentence, idiom, span text or "", figurative)``: the span located (exactly when given,
    else by :func:`locate`); the items whose idiom is not found are dropped and counted in the log."""
    items = list(items)
    matcher = Matcher(Lexicon.from_pairs({(i, i) for _, i, given, _ in items if not given}, language))
    out, missing = [], 0
    for sentence, idiom, given, figurative in items:
        at = sentence.lower().find(given.lower()) if given else -1
        span = (at, at + len(given)) if at >= 0 else locate(sentence, idiom, language, matcher)
        if span is None:
            missing += 1
            continue
        out.append(Sample(sentence, span[0], span[1], idiom, language, figurative, source))
    log.info("sense check %s: %d spans, %d sentence(s) without the idiom dropped", source, len(out), missing)
    return out


def _semeval_samples(examples: Iterable[Any], source: str, drop_unfound: bool) -> list[Sample]:
    """2A examples as samples (label 0 = idiomatic = figurative), the MWE located by ``find_mwe``."""
    from idiomkit.data.semeval2a import find_mwe

    out, unfound = [], 0
    for ex in examples:
        start, end = find_mwe(ex.target, ex.mwe)
        if (start, end) == (0, len(ex.target)) and ex.target.lower() != ex.mwe.lower():
            unfound += 1
            if drop_unfound:
                continue
        out.append(Sample(ex.target, start, end, ex.mwe, ex.language, ex.label == 0, source))
    log.info(
        "sense check %s: %d samples, MWE not found in %d target(s)%s",
        source,
        len(out),
        unfound,
        " (dropped)" if drop_unfound else " (whole sentence used)",
    )
    return out


def training_samples(data_dir: str | Path) -> list[Sample]:
    """Every training source's samples, each through :func:`~idiomkit.data.heldout.filter_heldout` (the loaders
    are imported here so that scoring with a saved model does not import them)."""
    from idiomkit.data.definitions import load_epie_usages
    from idiomkit.data.extra.itu import load_itu
    from idiomkit.data.extra.mt_ambiguity import load_mt_triples
    from idiomkit.data.heldout import filter_heldout, heldout_index
    from idiomkit.data.semeval2a import load_setting

    index = heldout_index(data_dir)
    train = filter_heldout(
        "sense 2A train", load_setting(data_dir, "zero_shot")[0], lambda e: [e.target], lambda e: [e.mwe], index=index
    ).kept
    out = _semeval_samples(train, "2A train", drop_unfound=True)
    itu = filter_heldout("sense ITU", load_itu(data_dir), lambda u: [u.sentence], lambda u: [u.idiom], index=index)
    out += span_samples("ITU", [(u.sentence, u.idiom, "", u.usage == "figurative") for u in itu.kept])
    mt = filter_heldout(
        "sense mt-ambiguity",
        load_mt_triples(data_dir),
        lambda t: [t.figurative, t.literal],
        lambda t: [t.idiom],
        index=index,
    ).kept
    out += span_samples(
        "mt-ambiguity", [(s, t.idiom, "", fig) for t in mt for s, fig in ((t.figurative, True), (t.literal, False))]
    )
    epie, key_of, _ = load_epie_usages(data_dir)
    epie = filter_heldout("sense EPIE formal", epie, lambda e: [e.target], lambda e: [key_of[e.id]], index=index)
    out += span_samples("EPIE formal", [(e.target, key_of[e.id], e.mwe, e.label == 0) for e in epie.kept])
    return out


def evaluation_samples(data_dir: str | Path) -> list[Sample]:
    """2A dev (zero-shot: its idioms are unseen in training), the MWE given; evaluation only."""
    from idiomkit.data.semeval2a import load_dev_split

    return _semeval_samples(load_dev_split(data_dir)[0], "2A dev", drop_unfound=False)


# --- training -------------------------------------------------------------------------------------------------


def _rows(samples: Sequence[Sample], groups: Sequence[str]) -> list[list[str]]:
    return [features(s.sentence, s.start, s.end, s.idiom, s.language, groups) for s in samples]


def _matrix(rows: Sequence[Sequence[str]], vocab: dict[str, int]) -> Any:
    """A binary CSR matrix of ``rows`` over ``vocab`` (unknown features ignored)."""
    from scipy.sparse import csr_matrix

    cells = [(i, vocab[f]) for i, row in enumerate(rows) for f in row if f in vocab]
    r = np.array([i for i, _ in cells], dtype=np.int64)
    c = np.array([j for _, j in cells], dtype=np.int64)
    return csr_matrix((np.ones(len(r)), (r, c)), shape=(len(rows), len(vocab)))


def source_weights(samples: Sequence[Sample]) -> np.ndarray:
    """Sample weights giving every (source, label) cell the same total weight; they average 1."""
    cells = Counter((s.source, s.figurative) for s in samples)
    return np.array([len(samples) / (len(cells) * cells[s.source, s.figurative]) for s in samples])


def _macro_f1(gold: np.ndarray, predicted: np.ndarray) -> float:
    """:func:`~idiomkit.metrics.classification.macro_f1` of two boolean arrays (an empty pair raises)."""
    return macro_f1(gold.tolist(), predicted.tolist())


Threshold = float | Callable[[str], float]  # one for every sample, or one per language (a check's threshold_for)


def cut_points(samples: Sequence[Sample], threshold: Threshold) -> np.ndarray | float:
    """``threshold`` itself, or each sample's language's threshold when it is a function of the language."""
    return np.array([threshold(s.language) for s in samples]) if callable(threshold) else threshold


def scores(samples: Sequence[Sample], probs: Sequence[float], threshold: Threshold) -> dict[str, Any]:
    """Accuracy and macro-F1 at ``threshold`` (see :data:`Threshold`), with the always-figurative baseline's."""
    gold = np.array([s.figurative for s in samples], dtype=bool)
    pred = np.asarray(probs) >= cut_points(samples, threshold)
    always = np.ones(len(gold), dtype=bool)
    return {
        "n": len(gold),
        "figurative": int(gold.sum()),
        "accuracy": round(float(np.mean(pred == gold)), 4),
        "macro_f1": round(_macro_f1(gold, pred), 4),
        "baseline_accuracy": round(float(np.mean(gold)), 4),
        "baseline_macro_f1": round(_macro_f1(gold, always), 4),
    }


def by_group(
    samples: Sequence[Sample], probs: Sequence[float], threshold: Threshold, key: Callable[[Sample], str]
) -> dict[str, Any]:
    """:func:`scores` of every group of samples (by ``key``), then of all of them."""
    probs = np.asarray(probs)
    names = sorted({key(s) for s in samples})
    out = {
        n: scores([s for s in samples if key(s) == n], probs[[key(s) == n for s in samples]], threshold) for n in names
    }
    out["all"] = scores(samples, probs, threshold)
    return out


def source_balanced_threshold(samples: Sequence[Sample], probs: Sequence[float]) -> tuple[float, float]:
    """The threshold (0.05..0.95, step 0.01) with the highest mean of the per-source macro-F1s (each source
    counts the same, whatever its size), and that mean; a tie goes to the threshold nearest 0.5. Unlike the 2A
    classifier's ``best_threshold``, which scores all its examples as one set."""
    probs, sources = np.asarray(probs), np.array([s.source for s in samples])
    gold = np.array([s.figurative for s in samples], dtype=bool)

    def mean_f1(t: float) -> float:
        return float(np.mean([_macro_f1(gold[sources == n], probs[sources == n] >= t) for n in set(sources)]))

    grid = [round(float(t), 2) for t in np.arange(0.05, 0.951, 0.01)]
    return max(((t, mean_f1(t)) for t in grid), key=lambda x: (x[1], -abs(x[0] - 0.5)))


def language_thresholds(samples: Sequence[Sample], probs: Sequence[float]) -> dict[str, float]:
    """A threshold per language: :func:`source_balanced_threshold` on that language's samples alone (a language's
    sources only; a single threshold over all of them is pulled to where the sources of the language with most
    sources do best)."""
    probs, languages = np.asarray(probs), [s.language for s in samples]
    out = {}
    for language in sorted(set(languages)):
        keep = [i for i, code in enumerate(languages) if code == language]
        out[language] = source_balanced_threshold([samples[i] for i in keep], probs[keep])[0]
    return out


def fit(train: Sequence[Sample], groups: Sequence[str], c: float, seed: int = 0) -> SenseCheck:
    """A logistic regression (liblinear, source-balanced weights) on ``train``, exported: the MAX_FEATURES
    largest weights kept (5 decimals), threshold 0.5."""
    from sklearn.linear_model import LogisticRegression

    rows = _rows(train, groups)
    counts = Counter(f for row in rows for f in row)
    names = sorted(f for f, n in counts.items() if n >= MIN_COUNT)
    labels = np.array([s.figurative for s in train], dtype=int)
    if len(set(labels)) < 2:
        raise InputError("the training samples need both figurative and literal examples")
    model = LogisticRegression(C=c, solver="liblinear", max_iter=5000, random_state=seed)
    model.fit(_matrix(rows, {f: i for i, f in enumerate(names)}), labels, sample_weight=source_weights(train))
    coef = model.coef_[0]
    keep = np.argsort(-np.abs(coef), kind="stable")[:MAX_FEATURES]
    weights = {names[i]: round(float(coef[i]), 5) for i in sorted(keep) if round(float(coef[i]), 5) != 0.0}
    return SenseCheck(weights, round(float(model.intercept_[0]), 5), 0.5, tuple(groups))


def probabilities(check: SenseCheck, samples: Sequence[Sample]) -> list[float]:
    return [check.score(s.sentence, s.start, s.end, s.idiom, s.language) for s in samples]


def select(train: Sequence[Sample], validation: Sequence[Sample], seed: int = 0) -> tuple[SenseCheck, list[dict]]:
    """The candidate (feature groups x C) whose best threshold gives the highest mean per-source macro-F1 on
    ``validation``, with that threshold; and every candidate's result."""
    tried, best = [], None
    for groups in CANDIDATE_GROUPS:
        for c in CANDIDATE_C:
            check = fit(train, groups, c, seed)
            threshold, score = source_balanced_threshold(validation, probabilities(check, validation))
            tried.append({"groups": list(groups), "C": c, "threshold": threshold, "mean_macro_f1": round(score, 4)})
            log.info("sense check candidate %s", tried[-1])
            if best is None or score > best[0]:
                best = (score, check, threshold, c)
    _, check, check.threshold, c = best
    check.summary["C"] = c
    return check, tried


def top_features(check: SenseCheck, n: int = 15) -> dict[str, list[tuple[str, float]]]:
    """The ``n`` features pointing most to figurative and to literal."""
    ranked = sorted(check.weights.items(), key=lambda kv: kv[1])
    return {"figurative": ranked[::-1][:n], "literal": ranked[:n]}


def _counts(samples: Sequence[Sample]) -> dict[str, dict[str, int]]:
    """Samples per source and fold: figurative, literal and idioms."""
    out: dict[str, dict[str, int]] = {}
    for source in sorted({s.source for s in samples}):
        for fold in ("train", "validation"):
            part = [s for s in samples if s.source == source and idiom_fold(s.idiom) == fold]
            out[f"{source} {fold}"] = {
                "figurative": sum(s.figurative for s in part),
                "literal": sum(not s.figurative for s in part),
                "idioms": len({normalise_idiom(s.idiom) for s in part}),
            }
    return out


def train_sense_check(data_dir: str | Path, seed: int = 0) -> tuple[SenseCheck, dict[str, Any]]:
    """Train on every source's training idioms, choose groups/C/threshold on the validation idioms, evaluate on
    2A dev; returns the model and its numbers (``validation`` by source, ``evaluation`` 2A dev by language)."""
    samples = training_samples(data_dir)
    train = [s for s in samples if idiom_fold(s.idiom) == "train"]
    validation = [s for s in samples if idiom_fold(s.idiom) == "validation"]
    check, tried = select(train, validation, seed)
    dev = evaluation_samples(data_dir)
    report = {
        "validation": by_group(validation, probabilities(check, validation), check.threshold, lambda s: s.source),
        "evaluation": {"2A dev": by_group(dev, probabilities(check, dev), check.threshold, lambda s: s.language)},
        "selection": tried,
    }
    check.summary.update(
        {
            "seed": seed,
            "groups": list(check.groups),
            "threshold": check.threshold,
            "features": len(check.weights),
            "samples": _counts(samples),
            "validation": report["validation"],
            "evaluation": report["evaluation"],
        }
    )
    report["model"] = {k: v for k, v in check.summary.items() if k not in ("validation", "evaluation")}
    report["top_features"] = top_features(check)
    return check, report
