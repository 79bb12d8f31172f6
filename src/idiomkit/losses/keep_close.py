"""Keep-what-you-know loss: the trained model's embeddings stay near those a frozen model gave the same inputs."""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch import Tensor, nn

from idiomkit.errors import OptionError

DISTANCES = ("mse", "cosine", "none")  # none: the relational term alone (KeepCloseLoss)


def keep_close_loss(embeddings: Tensor, targets: Tensor, distance: str = "mse") -> Tensor:
    """Mean distance between ``embeddings`` and ``targets`` (both ``(B, d)``): squared error per dimension
    (``mse``), ``1 - cos`` (``cosine``) or nothing (``none``: zero, with the graph kept)."""
    if embeddings.shape != targets.shape:
        raise ValueError(f"embeddings {tuple(embeddings.shape)} and targets {tuple(targets.shape)} differ in shape")
    if distance == "none":
        return embeddings.sum() * 0.0
    if distance == "mse":
        return torch.nn.functional.mse_loss(embeddings, targets)
    if distance == "cosine":
        return (1 - torch.nn.functional.cosine_similarity(embeddings, targets, dim=-1)).mean()
    raise OptionError(f"unknown distance {distance!r} (expected one of {', '.join(DISTANCES)})")


def relational_loss(embeddings: Tensor, targets: Tensor) -> Tensor:
    """Mean squared difference between the cosine matrices of ``embeddings`` and of ``targets`` (both ``(B, d)``),
    off the diagonal: zero whenever the embeddings are any rotation of the targets, positive when the batch draws
    together or apart (the distance-wise term of relational knowledge distillation, on cosines)."""
    if embeddings.shape != targets.shape:
        raise ValueError(f"embeddings {tuple(embeddings.shape)} and targets {tuple(targets.shape)} differ in shape")
    if len(embeddings) < 2:
        return embeddings.sum() * 0.0
    normal = torch.nn.functional.normalize
    mine, theirs = normal(embeddings, dim=-1), normal(targets, dim=-1)
    off = ~torch.eye(len(embeddings), dtype=torch.bool, device=embeddings.device)
    return ((mine @ mine.T - theirs @ theirs.T)[off] ** 2).mean()


class KeepCloseLoss(nn.Module):
    """Keeps a model's sentence embeddings close to fixed target embeddings: those the *frozen* base model gave the
    same inputs before training (computed once, :mod:`idiomkit.training.recipes.frozen`). Added beside a
    task loss on general and idiomatic sentences, it holds what the base knew while the task loss moves the
    rest (the embedding-space form of learning without forgetting, Li & Hoiem 2017; with ``distance="mse"`` and
    the base as teacher it is the distillation loss of Reimers & Gurevych 2020 with teacher = the student's own
    starting point). Every text column is compared with the same target row, as in
    ``sentence_transformers.losses.MSELoss``.

    A sentence kept close to its own target can still draw nearer to every other: with ``relational`` > 0 the loss
    adds that weight times :func:`relational_loss`, which holds the batch's cosines between *different* sentences
    where the base had them (Park et al. 2019's distance-wise term, on cosines).

    Args:
        model (SentenceTransformer): a SentenceTransformer (the one being trained).
        distance: ``mse`` (mean squared error per dimension, as ``MSELoss``), ``cosine`` (``1 - cos``: direction
            only, for models whose embedding norms carry nothing) or ``none`` (each sentence free to move: only the
            relational term, which must then be on, holds the batch's geometry). Mind the scale: on unit-length
            embeddings ``mse`` is ``2 (1 - cos) / d``, about 5e-4 for a 384-d model that drifted to cos .91, while a
            scale-20 similarity loss (MNRL, CoSENT) is of order 1; weighted 1 beside such losses, an ``mse`` keep
            term moves nothing.
        relational: weight of :func:`relational_loss` beside the distance (0: off).

    References:
        Li & Hoiem (2017), "Learning without Forgetting", TPAMI 40(12).
        Reimers & Gurevych (2020), "Making Monolingual Sentence Embeddings Multilingual using Knowledge
        Distillation", EMNLP, https://arxiv.org/abs/2004.09813.
        Park, Kim, Lu & Cho (2019), "Relational Knowledge Distillation", CVPR, https://arxiv.org/abs/1904.05068.

    Inputs: one or more text columns; the label of a row is its ``(d,)`` target embedding.

    Example::

        from idiomkit.models import load_model
        from idiomkit.losses import KeepCloseLoss

        model = load_model("minilm")
        texts = ["A man is playing a guitar.", "He spilled the beans."]
        targets = model.encode(texts, convert_to_tensor=True)  # the frozen base's embeddings, before training
        loss = KeepCloseLoss(model, distance="mse")
        value = loss([model.preprocess(texts)], targets)
    """

    def __init__(self, model, distance: str = "mse", relational: float = 0.0) -> None:
        super().__init__()
        if distance not in DISTANCES:
            raise OptionError(f"unknown distance {distance!r} (expected one of {', '.join(DISTANCES)})")
        if relational < 0:
            raise OptionError(f"relational weight {relational} is negative")
        if distance == "none" and not relational:
            raise OptionError("keep distance 'none' keeps nothing without a relational weight (--keep-relational)")
        self.model, self.distance, self.relational = model, distance, relational

    def forward(self, sentence_features: Iterable[dict[str, Tensor]], labels: Tensor) -> Tensor:
        reps = [self.model(features)["sentence_embedding"] for features in sentence_features]
        embeddings = torch.cat(reps, dim=0)
        targets = labels.to(embeddings.dtype).repeat(len(reps), 1)
        loss = keep_close_loss(embeddings, targets, self.distance)
        if self.relational:
            pulls = [relational_loss(rep.float(), labels.float()) for rep in reps]  # cosines in float32
            loss = loss + self.relational * torch.stack(pulls).mean()
        return loss

    def get_config_dict(self) -> dict:
        return {"distance": self.distance, "relational": self.relational}

    @property
    def citation(self) -> str:
        return (
            "@article{li2017lwf, title={Learning without Forgetting}, author={Li, Zhizhong and Hoiem, Derek}, "
            "journal={IEEE TPAMI}, volume={40}, number={12}, year={2017}}"
        )
