"""Classification metrics."""

from __future__ import annotations

from collections.abc import Sequence


def macro_f1(gold: Sequence[int], pred: Sequence[int]) -> float:
    """Unweighted mean of the per-label F1 over the labels in gold or pred (scikit-learn's ``average='macro'``)."""
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    if not gold:
        raise ValueError("no labels to score")
    scores = []
    for label in sorted(set(gold) | set(pred)):
        tp = sum(g == label and p == label for g, p in zip(gold, pred, strict=True))
        fp = sum(g != label and p == label for g, p in zip(gold, pred, strict=True))
        fn = sum(g == label and p != label for g, p in zip(gold, pred, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(scores) / len(scores)
