"""Typed task options and the one task registry: metadata, options dataclasses with today's defaults, flags
generated from them (``idiomkit evaluate TASK``), the experiments' [evaluate] argv, and the evaluators.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/tasks/test_task_options.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import spearmanr

from idiomkit.data.sts import StsPair
from idiomkit.tasks.sts import StsEvaluator


def old_sts_scores(model, pairs: list[StsPair], name: str = "val") -> dict[str, float]:
    """The StsEvaluator before it became an EmbeddingSimilarityEvaluator (reference implementation)."""
    from idiomkit.embedding.encode import encode_texts

    texts = list(dict.fromkeys(t for p in pairs for t in (p.sentence_1, p.sentence_2)))
    emb = encode_texts(model, texts, batch_size=64)
    emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
    index = {t: i for i, t in enumerate(texts)}
    sims = (emb[[index[p.sentence_1] for p in pairs]] * emb[[index[p.sentence_2] for p in pairs]]).sum(axis=1)
    gold = np.array([p.score for p in pairs])
    out = {f"{name}_sts": float(spearmanr(sims, gold).statistic)}
    for source in dict.fromkeys(p.source for p in pairs):
        mask = np.array([p.source == source for p in pairs])
        out[f"{name}_sts_{source}"] = float(spearmanr(sims[mask], gold[mask]).statistic)
    return out


def test_sts_evaluator_scores_as_the_old_implementation(minilm):
    rows = [
        ("A man is playing a guitar.", "A man plays the guitar.", 0.95, "stsb-en", "EN"),
        ("A dog runs in the park.", "A cat sleeps on the sofa.", 0.10, "stsb-en", "EN"),
        ("The bank raised interest rates.", "Rates went up at the bank.", 0.80, "stsb-en", "EN"),
        ("He kicked the bucket.", "He died.", 0.70, "stsb-en", "EN"),
        ("Children are swimming.", "Kids swim in the pool.", 0.75, "stsb-en", "EN"),
        ("O menino come uma maçã.", "Um garoto está comendo uma maçã.", 0.90, "assin2", "PT"),
        ("A mulher corta cebolas.", "O homem dirige um carro.", 0.05, "assin2", "PT"),
        ("Está chovendo muito hoje.", "Chove forte hoje.", 0.85, "assin2", "PT"),
        ("Ele abriu a janela.", "A janela foi aberta por ele.", 0.88, "assin2", "PT"),
    ]
    pairs = [StsPair(*row) for row in rows]
    scores = StsEvaluator(pairs, name="val")(minilm)
    expected = old_sts_scores(minilm, pairs)
    assert set(scores) == {"val_sts", "val_sts_stsb-en", "val_sts_assin2"}
    assert scores == pytest.approx(expected, abs=1e-12)
    assert StsEvaluator(pairs).primary_metric == "val_sts"
