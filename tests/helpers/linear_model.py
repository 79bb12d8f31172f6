"""A stand-in SentenceTransformer for loss tests: a linear map of a batch's features."""

from __future__ import annotations

import torch


class Linear(torch.nn.Module):
    """Features ``x`` -> ``sentence_embedding`` ``x @ W``, ``W`` starting as the identity (``dim`` x ``dim``)."""

    def __init__(self, dim: int = 4):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.eye(dim))

    def forward(self, features):
        return {"sentence_embedding": features["x"] @ self.weight}
