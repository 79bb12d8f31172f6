"""CPU speed-ups of the training loop that leave what a run computes unchanged in distribution: cheaper dropout
masks (:mod:`.fast_dropout`) and BERT layers that skip padding tokens (:mod:`.unpad`)."""

from idiomkit.training.speedups.fast_dropout import enable_fast_dropout
from idiomkit.training.speedups.unpad import enable_unpadding

__all__ = ["enable_fast_dropout", "enable_unpadding"]
