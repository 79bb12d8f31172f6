"""Other-ID targets: a pair loss whose incorrect pairs are scored as SemEval-2022 Task 2B grades them."""

from __future__ import annotations

from collections.abc import Iterable

import torch
from sentence_transformers.base.losses.merged_forward import embed_columns
from torch import Tensor, nn


def other_id_targets(labels: Tensor, paraphrase: Tensor, reference: Tensor, top: float = 1.0) -> Tensor:
    """Each row's target: its label where the label is ``top`` (a correct pair), else the cosine of ``reference``
    and ``paraphrase`` (both ``(B, d)``), detached: the model's own similarity of the correct paraphrase and the
    incorrect one."""
    if paraphrase.shape != reference.shape or labels.numel() != paraphrase.shape[0]:
        raise ValueError(
            f"paraphrases {tuple(paraphrase.shape)} and references {tuple(reference.shape)} with {labels.numel()}"
            " labels: expected two (B, d) columns and B labels"
        )
    labels = labels.view(-1).to(paraphrase.dtype)
    cos = torch.nn.functional.cosine_similarity(reference, paraphrase, dim=-1).detach()
    return torch.where(labels >= top, labels, cos)


class OtherIdTargetsLoss(nn.Module):
    """A loss on (sentence, paraphrase) pairs scored as SemEval-2022 Task 2B scores them. The organisers grade a
    model's similarity of an idiomatic sentence and an *incorrect* paraphrase against the same model's similarity
    of that sentence's correct paraphrase and the incorrect one (the ``otherID`` rule), not against 0: an incorrect
    paraphrase that differs from the correct one by a word should stay close. Training with 0 as the target pushes
    every incorrect pair to the bottom; here its target is the model's own (detached) cosine of the row's correct
    paraphrase and its paraphrase, and a correct pair's target stays its label.

    Args:
        model (SentenceTransformer): a SentenceTransformer (the one being trained).
        loss: the pair loss given the targets, with ``compute_loss_from_embeddings(embeddings, labels)``
            (``CoSENTLoss``, ``AnglELoss``, :class:`~idiomkit.losses.PinPositivesLoss`); built on ``model``.
        top: the label of a correct pair.

    References:
        Tayyar Madabushi et al. (2022), SemEval-2022 Task 2: Multilingual Idiomaticity Detection and Sentence
        Embedding, https://aclanthology.org/2022.semeval-1.6 (subtask B's otherID scoring).

    Inputs: three text columns (sentence, paraphrase, the sentence's correct paraphrase; for a correct row the
    paraphrase itself) and a float label per row (``top`` for a correct pair, anything lower for an incorrect one).

    Example::

        from sentence_transformers.sentence_transformer.losses import CoSENTLoss

        from idiomkit.losses import OtherIdTargetsLoss
        from idiomkit.models import load_model

        model = load_model("minilm")
        loss = OtherIdTargetsLoss(model, CoSENTLoss(model))
        sentence = model.preprocess(["He kicked the bucket.", "He kicked the bucket."])
        paraphrase = model.preprocess(["He died.", "He struck the pail."])
        correct = model.preprocess(["He died.", "He died."])
        value = loss([sentence, paraphrase, correct], torch.tensor([1.0, 0.0]))
    """

    def __init__(self, model, loss: nn.Module, top: float = 1.0) -> None:
        super().__init__()
        self.model, self.loss, self.top = model, loss, top

    def forward(self, sentence_features: Iterable[dict[str, Tensor]], labels: Tensor) -> Tensor:
        features = list(sentence_features)
        if len(features) != 3:
            raise ValueError(f"{len(features)} text columns: expected 3 (sentence, paraphrase, correct paraphrase)")
        embeddings = embed_columns(self.model, features[:2])
        targets = other_id_targets(
            labels, embeddings[1], self._references(features[2], embeddings[1], labels), self.top
        )
        return self.loss.compute_loss_from_embeddings(embeddings, targets)

    def _references(self, features: dict[str, Tensor], paraphrase: Tensor, labels: Tensor) -> Tensor:
        """The correct paraphrase's embedding for each incorrect row, encoded without gradients (its cosine is a
        detached target); a correct row's target is its label, so it keeps its own paraphrase's and is not encoded."""
        reference = paraphrase.detach().clone()
        incorrect = labels.view(-1) < self.top
        if incorrect.any():
            rows = {
                key: value[incorrect] if torch.is_tensor(value) and value.shape[:1] == incorrect.shape else value
                for key, value in features.items()
            }
            with torch.no_grad():
                reference[incorrect] = self.model(rows)["sentence_embedding"].to(reference.dtype)
        return reference

    def get_config_dict(self) -> dict:
        return {"loss": type(self.loss).__name__, "top": self.top}
