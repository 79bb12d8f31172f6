"""The core test of idiom understanding (``meaning-triples``): for an idiomatic sentence, is its figurative
paraphrase nearer than its literal misreading? ("kicked the bucket" -> "died", not "struck the pail").

Triples come from :mod:`idiomkit.data.meaning_triples`. Metrics, for all triples and per group (``seen`` /
``heldout`` idioms, ``EN`` / ``PT``, ``heldout_EN`` / ``heldout_PT``, each source): ``accuracy`` (share of triples
whose paraphrase is nearer), ``auc`` (ROC-AUC of cos(sentence, paraphrase) against cos(sentence, misreading)),
``margin`` (mean of their difference) and ``n``.

Example::

    core = core_test("../shared/data")
    metrics, cosines = score_triples(model, core.triples)
    metrics["heldout"]["accuracy"]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.metrics import roc_auc_score

from idiomkit.data.heldout import core_test
from idiomkit.data.meaning_triples import CoreTest, Triple
from idiomkit.embedding.encode import encode_texts

__all__ = ["CoreTest", "Triple", "core_test", "score_triples", "triple_metrics", "triples_tsv"]


def triple_metrics(pos: np.ndarray, neg: np.ndarray) -> dict[str, float]:
    """Accuracy, ROC-AUC and mean margin of paraphrase cosines ``pos`` against misreading cosines ``neg``."""
    if len(pos) == 0:
        return {"n": 0}
    labels = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    return {
        "n": int(len(pos)),
        "accuracy": float(np.mean(pos > neg)),
        "auc": float(roc_auc_score(labels, np.r_[pos, neg])),
        "margin": float(np.mean(pos - neg)),
    }


def groups_of(triple: Triple) -> list[str]:
    """The metric groups a triple counts in."""
    held = "heldout" if triple.heldout else "seen"
    return ["all", held, triple.language, f"{held}_{triple.language}", f"source_{triple.source}"]


def score_triples(
    model, triples: Sequence[Triple], *, batch_size: int = 64, prompt_name: str | None = None
) -> tuple[dict[str, Any], np.ndarray]:
    """Metrics per group and the ``(n, 2)`` cosines (paraphrase, misreading) of each triple."""
    texts = list(dict.fromkeys(t for tr in triples for t in (tr.sentence, tr.paraphrase, tr.misreading)))
    emb = encode_texts(model, texts, prompt_name=prompt_name, batch_size=batch_size)
    emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
    index = {t: i for i, t in enumerate(texts)}

    def rows(attr: str) -> np.ndarray:
        return emb[[index[getattr(tr, attr)] for tr in triples]]

    anchor = rows("sentence")
    cos = np.stack([(anchor * rows("paraphrase")).sum(1), (anchor * rows("misreading")).sum(1)], axis=1)
    members: dict[str, list[int]] = {}
    for i, tr in enumerate(triples):
        for group in groups_of(tr):
            members.setdefault(group, []).append(i)
    metrics = {group: triple_metrics(cos[idx, 0], cos[idx, 1]) for group, idx in sorted(members.items())}
    for group in ("seen", "heldout"):
        metrics.setdefault(group, {"n": 0})
    return metrics, cos


def triples_tsv(triples: Sequence[Triple], cos: np.ndarray) -> str:
    """Raw predictions: one line per triple with both cosines."""
    lines = ["idiom\tlanguage\tsource\theldout\tsentence\tparaphrase\tmisreading\tcos_paraphrase\tcos_misreading"]
    for tr, (p, n) in zip(triples, cos, strict=True):
        cells = [tr.idiom, tr.language, tr.source, str(int(tr.heldout)), tr.sentence, tr.paraphrase, tr.misreading]
        lines.append("\t".join(c.replace("\t", " ") for c in cells) + f"\t{p:.6f}\t{n:.6f}")
    return "\n".join(lines) + "\n"
