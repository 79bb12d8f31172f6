"""The nearest-meaning table (``idiomkit nearest``): for a few idiomatic sentences, which of {figurative
paraphrase, literal misreading, unrelated sentence} each model puts nearest. A demo a person reads at a glance, not
a benchmark (the core test, ``meaning-triples``, is the measurement)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from idiomkit.embedding.encode import encode_texts

CHOICES = ("figurative", "literal", "unrelated")


@dataclass(frozen=True)
class NearestExample:
    """An idiomatic sentence and its three candidates."""

    language: str
    sentence: str
    figurative: str
    literal: str
    unrelated: str


EXAMPLES: tuple[NearestExample, ...] = (
    NearestExample(
        "EN",
        "After years of illness, the old farmer finally kicked the bucket.",
        "After years of illness, the old farmer finally died.",
        "After years of illness, the old farmer finally struck the pail with his foot.",
        "The train to Boston leaves at noon.",
    ),
    NearestExample(
        "EN",
        "She spilled the beans about the surprise party.",
        "She revealed the secret about the surprise party.",
        "She knocked the beans over at the surprise party.",
        "The museum closes early on Mondays.",
    ),
    NearestExample(
        "EN",
        "Don't worry, the exam was a piece of cake.",
        "Don't worry, the exam was very easy.",
        "Don't worry, the exam was a slice of sponge dessert.",
        "He planted tomatoes in the garden.",
    ),
    NearestExample(
        "EN",
        "He has been under the weather all week.",
        "He has been ill all week.",
        "He has been standing beneath the clouds and rain all week.",
        "The company hired three engineers.",
    ),
    NearestExample(
        "EN",
        "We had to bite the bullet and pay the fine.",
        "We had to accept the unpleasant situation and pay the fine.",
        "We had to chew on a metal bullet and pay the fine.",
        "The river flows slowly into the sea.",
    ),
    NearestExample(
        "PT",
        "Depois de anos doente, o velho finalmente bateu as botas.",
        "Depois de anos doente, o velho finalmente morreu.",
        "Depois de anos doente, o velho finalmente bateu com os calçados no chão.",
        "O trem para Lisboa sai ao meio-dia.",
    ),
    NearestExample(
        "PT",
        "Ele pisou na bola com a namorada.",
        "Ele cometeu um erro com a namorada.",
        "Ele pôs o pé em cima da bola de futebol com a namorada.",
        "A biblioteca abre às nove horas.",
    ),
    NearestExample(
        "PT",
        "O meu chefe é um pão-duro.",
        "O meu chefe é muito avarento.",
        "O meu chefe é um pão velho e endurecido.",
        "Choveu muito no sábado.",
    ),
)


def nearest_choices(model, examples: Sequence[NearestExample] = EXAMPLES) -> list[str]:
    """For each example, the candidate (:data:`CHOICES`) with the highest cosine to the sentence."""
    texts = [t for ex in examples for t in (ex.sentence, ex.figurative, ex.literal, ex.unrelated)]
    emb = encode_texts(model, texts)
    emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
    out = []
    for i in range(len(examples)):
        anchor, candidates = emb[4 * i], emb[4 * i + 1 : 4 * i + 4]
        out.append(CHOICES[int(np.argmax(candidates @ anchor))])
    return out


def nearest_table(models: Mapping[str, object], examples: Sequence[NearestExample] = EXAMPLES) -> list[list[str]]:
    """Rows for a table: the sentence, then per model ✓ (figurative nearest) or ✗ with what was nearest; a last row
    counts the ✓ per model."""
    picks = {label: nearest_choices(model, examples) for label, model in models.items()}
    rows = [["sentence", *models]]
    for i, ex in enumerate(examples):
        rows.append(
            [
                f"[{ex.language}] {ex.sentence}",
                *("✓" if picks[m][i] == "figurative" else f"✗ {picks[m][i]}" for m in models),
            ]
        )
    counts = [f"{sum(p == 'figurative' for p in picks[m])}/{len(examples)}" for m in models]
    rows.append(["figurative nearest", *counts])
    return rows
