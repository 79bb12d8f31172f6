"""Training losses (sentence-transformers loss idiom)."""

from idiomkit.losses.adaptive_triplet import AdaptiveTripletLoss
from idiomkit.losses.keep_close import KeepCloseLoss, keep_close_loss, relational_loss
from idiomkit.losses.other_id_targets import OtherIdTargetsLoss, other_id_targets
from idiomkit.losses.pin_positives import PinPositivesLoss, pin_loss
from idiomkit.losses.ranked_triplet import RankedTripletLoss, ranked_triplet_loss

__all__ = [
    "AdaptiveTripletLoss",
    "KeepCloseLoss",
    "OtherIdTargetsLoss",
    "PinPositivesLoss",
    "RankedTripletLoss",
    "keep_close_loss",
    "other_id_targets",
    "pin_loss",
    "ranked_triplet_loss",
    "relational_loss",
]
