"""Pin-positives loss: a ranking loss on labelled pairs, plus a pull of every pair labelled 1 towards cosine 1."""

from __future__ import annotations

from collections.abc import Iterable

import torch
from sentence_transformers.base.losses.merged_forward import embed_columns
from torch import Tensor, nn


def pin_loss(first: Tensor, second: Tensor, labels: Tensor, top: float = 1.0) -> Tensor:
    """Mean ``1 - cos`` over the rows of ``first``/``second`` (both ``(B, d)``) whose label is ``top``; 0 when no
    row is."""
    if first.shape != second.shape or labels.numel() != first.shape[0]:
        raise ValueError(
            f"pairs {tuple(first.shape)} and {tuple(second.shape)} with {labels.numel()} labels: expected two"
            " (B, d) columns and B labels"
        )
    top_rows = labels.view(-1) >= top
    if not top_rows.any():
        return first.new_zeros(())
    cos = torch.nn.functional.cosine_similarity(first[top_rows], second[top_rows], dim=-1)
    return (1 - cos).mean()


class PinPositivesLoss(nn.Module):
    """A ranking loss on (text, text, score) pairs, plus ``weight`` times the mean ``1 - cos`` of the pairs whose
    score is the top one (1). A ranking loss such as CoSENT only orders the pairs of a batch: it is met as well by
    pulling a correct pair down to .90 as by lifting it, and the pairs it scores share one ranking with other
    data (SemEval-2022 2B ranks idiomatic pairs and STS pairs together). The pin fixes the *value* of the top
    pairs: an idiomatic sentence sits as close to its correct paraphrase as the closest STS pairs do.

    Args:
        model (SentenceTransformer): a SentenceTransformer (the one being trained).
        loss: the ranking loss, with ``compute_loss_from_embeddings(embeddings, labels)`` (``CoSENTLoss``,
            ``AnglELoss``); built on ``model``.
        weight: weight of the pin term (0: the ranking loss alone).
        top: the score of the pinned pairs.

    References:
        Su (2022), CoSENT, https://kexue.fm/archives/8847 (the ranking loss it is paired with here).

    Inputs: two text columns and a float score per row (1 for a correct pair).

    Example::

        from sentence_transformers.sentence_transformer.losses import CoSENTLoss

        from idiomkit.losses import PinPositivesLoss
        from idiomkit.models import load_model

        model = load_model("minilm")
        loss = PinPositivesLoss(model, CoSENTLoss(model), weight=10.0)
        first = model.preprocess(["He kicked the bucket.", "He kicked the bucket."])
        second = model.preprocess(["He died.", "He struck the pail."])
        value = loss([first, second], torch.tensor([1.0, 0.0]))
    """

    def __init__(self, model, loss: nn.Module, weight: float = 1.0, top: float = 1.0) -> None:
        super().__init__()
        if weight < 0:
            raise ValueError(f"pin weight {weight} is negative (expected >= 0)")
        self.model, self.loss, self.weight, self.top = model, loss, weight, top

    def forward(self, sentence_features: Iterable[dict[str, Tensor]], labels: Tensor) -> Tensor:
        return self.compute_loss_from_embeddings(embed_columns(self.model, sentence_features), labels)

    def compute_loss_from_embeddings(self, embeddings: list[Tensor], labels: Tensor) -> Tensor:
        """The loss of two embedded columns (so it can sit inside another loss, as the ranking loss does here)."""
        ranking = self.loss.compute_loss_from_embeddings(embeddings, labels)
        return ranking + self.weight * pin_loss(embeddings[0], embeddings[1], labels, self.top)

    def get_config_dict(self) -> dict:
        return {"loss": type(self.loss).__name__, "weight": self.weight, "top": self.top}
