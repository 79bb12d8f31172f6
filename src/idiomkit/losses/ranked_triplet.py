"""Ranked triplet loss (AdMIRe seed): every pair of captions ranked i above j gives a cosine triplet term on the
query's (span) embedding, weighted ``1 / |i - j|``."""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch import Tensor, nn


def ranked_triplet_loss(queries: Tensor, captions: Tensor, margin: float = 0.2) -> Tensor:
    """Mean over items and caption pairs ``i < j`` (gold positions) of
    ``relu(cos(q, c_j) - cos(q, c_i) + margin) / (j - i)``.

    Args:
        queries: ``(B, d)`` query embeddings.
        captions: ``(B, K, d)`` caption embeddings in gold order (best first).
        margin: the triplet margin on cosine similarity.
    """
    if captions.dim() != 3 or queries.dim() != 2 or captions.shape[0] != queries.shape[0]:
        raise ValueError(
            f"expected queries (B, d) and captions (B, K, d), got {tuple(queries.shape)}, {tuple(captions.shape)}"
        )
    sims = torch.nn.functional.cosine_similarity(queries.unsqueeze(1), captions, dim=-1)  # (B, K)
    k = captions.shape[1]
    i, j = torch.triu_indices(k, k, offset=1, device=sims.device)
    weights = 1.0 / (j - i).to(sims.dtype)
    terms = torch.relu(sims[:, j] - sims[:, i] + margin) * weights
    return terms.mean()


class RankedTripletLoss(nn.Module):
    """Pairwise ranked triplet loss of the AdMIRe seed (Choudhary, Gupta & Bansal, "Enhancing Idiomaticity
    Representations in LLM's"): for a query and its captions in gold order, every caption pair (i ranked above j)
    contributes ``relu(sim(q, c_j) - sim(q, c_i) + margin) / |i - j|`` (cosine similarity), so near-rank pairs
    weigh most; the loss is the mean over all pairs and items.

    Args:
        model (SentenceTransformer): a SentenceTransformer. For span queries (the seed's setup) call
            :func:`idiomkit.embedding.spans.install_span_pooling` and pass query features with a ``span_mask``.
        margin: cosine margin (the seed does not state its value; 0.2 here, not tuned).

    References:
        Choudhary, Gupta, Bansal (2025), slides "Enhancing Idiomaticity Representations in LLM's"
        (AdMIRe, SemEval-2025 Task 1 subtask A, text side).

    Inputs: columns ``(query, caption_1, ..., caption_K)`` with the captions in gold order; no label.

    Example::

        from idiomkit.models import load_model
        from idiomkit.losses import RankedTripletLoss

        model = load_model("minilm")
        loss = RankedTripletLoss(model, margin=0.2)
        feats = [model.preprocess(["a bad apple spoiled the team"])] + [model.preprocess([c]) for c in captions]
        value = loss(feats, None)
    """

    def __init__(self, model, margin: float = 0.2) -> None:
        super().__init__()
        self.model, self.margin = model, margin

    def embedding_loss(self, queries: Tensor, captions: Tensor) -> Tensor:
        return ranked_triplet_loss(queries, captions, self.margin)

    def forward(self, sentence_features: Iterable[dict[str, Tensor]], labels: Tensor | None = None) -> Tensor:
        reps = [self.model(features)["sentence_embedding"] for features in sentence_features]
        if len(reps) < 3:
            raise ValueError("RankedTripletLoss needs a query column and at least two caption columns")
        return self.embedding_loss(reps[0], torch.stack(reps[1:], dim=1))

    def get_config_dict(self) -> dict:
        return {"margin": self.margin}

    @property
    def citation(self) -> str:
        return (
            "Choudhary, Gupta, Bansal (2025). Enhancing Idiomaticity Representations in LLM's "
            "(AdMIRe, SemEval-2025 Task 1A)."
        )
