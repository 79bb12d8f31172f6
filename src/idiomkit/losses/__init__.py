"""Training losses (sentence-transformers loss idiom)."""

from idiomkit.losses.adaptive_triplet import AdaptiveTripletLoss

__all__ = ["AdaptiveTripletLoss"]
