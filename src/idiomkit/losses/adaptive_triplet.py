"""Adaptive contrastive triplet loss (He & Scarton): a margin miner over in-batch label triplets + triplet loss."""

from __future__ import annotations

from collections.abc import Iterable

from pytorch_metric_learning.distances import CosineSimilarity, LpDistance
from pytorch_metric_learning.losses import TripletMarginLoss
from pytorch_metric_learning.miners import TripletMarginMiner
from torch import Tensor, nn

from idiomkit.errors import OptionError

MINER_DISTANCES = ("cosine", "euclidean")


class AdaptiveTripletLoss(nn.Module):
    """Mine in-batch (anchor, positive, negative) triplets that violate ``miner_margin``, then apply a triplet
    margin loss on cosine similarity to the mined triplets only.

    Every row carries a label (see :mod:`idiomkit.training.relabel`): an MWE sentence and its correct
    paraphrases share a label, each incorrect paraphrase has its own, so anchor/positive are the MWE sentence
    and its correct paraphrase (both ways) and negatives are everything else in the batch.

    The miner keeps triplets with ``sim(a, p) - sim(a, n) <= miner_margin`` (``miner_distance="cosine"``, the
    default). The paper's text says the miner measures Euclidean distance; on L2-normalised embeddings
    ``d = sqrt(2 - 2 cos)`` orders pairs the same way, but a difference of distances is on another scale than a
    difference of cosines, so the same 0.4 selects different triplets. We use cosine for the miner and the loss
    so both margins are in one unit; ``miner_distance="euclidean"`` keeps triplets with
    ``d(a, n) - d(a, p) <= miner_margin`` on normalised embeddings instead.

    The loss is ``relu(sim(a, n) - sim(a, p) + margin)`` averaged over the triplets with a non-zero loss
    (pytorch-metric-learning's default reducer); a batch without mined triplets gives a zero loss.

    Args:
        model (SentenceTransformer): a SentenceTransformer (pool with ``last2`` for the paper's setup).
        miner_margin: the miner's similarity margin (paper: 0.4).
        margin: the triplet loss margin (paper: 0.3).
        type_of_triplets: ``all`` (paper), ``hard`` or ``semihard``.
        miner_distance: ``cosine`` or ``euclidean`` (on L2-normalised embeddings).

    References:
        He & Scarton (2024), *Enhancing Idiomatic Representation in Multiple Languages via an Adaptive
        Contrastive Triplet Loss*, Findings of ACL.

    Inputs: one text column + integer ``label`` column.

    Example::

        from idiomkit.models import load_model
        from idiomkit.losses import AdaptiveTripletLoss

        model = load_model("minilm", pooling="last2")
        loss = AdaptiveTripletLoss(model, miner_margin=0.4, margin=0.3)
        features = model.preprocess(["s with MWE", "correct paraphrase", "incorrect paraphrase"])
        value = loss([features], torch.tensor([0, 0, 1]))
    """

    def __init__(
        self,
        model,
        miner_margin: float = 0.4,
        margin: float = 0.3,
        type_of_triplets: str = "all",
        miner_distance: str = "cosine",
    ) -> None:
        super().__init__()
        if miner_distance not in MINER_DISTANCES:
            raise OptionError(f"unknown miner_distance '{miner_distance}' (expected {' or '.join(MINER_DISTANCES)})")
        self.model = model
        self.miner_margin, self.margin = miner_margin, margin
        self.type_of_triplets, self.miner_distance = type_of_triplets, miner_distance
        distance = CosineSimilarity() if miner_distance == "cosine" else LpDistance(normalize_embeddings=True)
        self.miner = TripletMarginMiner(margin=miner_margin, type_of_triplets=type_of_triplets, distance=distance)
        self.loss = TripletMarginLoss(margin=margin, distance=CosineSimilarity())

    def mine(self, embeddings: Tensor, labels: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """(anchor, positive, negative) row indices of the triplets the miner keeps."""
        return self.miner(embeddings, labels)

    def embedding_loss(self, embeddings: Tensor, labels: Tensor) -> Tensor:
        """Mine and compute the loss on given embeddings (used by :meth:`forward` and tests)."""
        triplets = self.mine(embeddings, labels)
        if len(triplets[0]) == 0:
            return embeddings.sum() * 0.0
        return self.loss(embeddings, labels, triplets)

    def forward(self, sentence_features: Iterable[dict[str, Tensor]], labels: Tensor) -> Tensor:
        features = next(iter(sentence_features))
        embeddings = self.model(features)["sentence_embedding"]
        return self.embedding_loss(embeddings, labels.to(embeddings.device))

    def get_config_dict(self) -> dict:
        return {
            "miner_margin": self.miner_margin,
            "margin": self.margin,
            "type_of_triplets": self.type_of_triplets,
            "miner_distance": self.miner_distance,
        }

    @property
    def citation(self) -> str:
        return (
            "He, Scarton (2024). Enhancing Idiomatic Representation in Multiple Languages via an Adaptive "
            "Contrastive Triplet Loss. Findings of ACL 2024."
        )
