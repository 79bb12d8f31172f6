"""Training losses (sentence-transformers loss idiom)."""

from idiomkit.losses.adaptive_triplet import AdaptiveTripletLoss
from idiomkit.losses.ranked_triplet import RankedTripletLoss, ranked_triplet_loss

__all__ = ["AdaptiveTripletLoss", "RankedTripletLoss", "ranked_triplet_loss"]
