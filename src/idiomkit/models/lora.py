"""LoRA adapters on a sentence-transformers model's transformer (peft, the ``train`` extra)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from idiomkit.idioms.reader import encoder_module

log = logging.getLogger(__name__)

LORA_TARGETS = ["query", "key", "value", "dense"]  # attention and feed-forward projections of BERT-style encoders


def add_lora(model, rank: int, trainable_token_ids: Sequence[int] = ()) -> None:
    """Wrap ``model``'s transformer in LoRA adapters (rank ``rank``, alpha ``2 * rank``, dropout 0.1) on attention
    and feed-forward; the word-embedding rows ``trainable_token_ids`` (e.g. new MWE tokens) stay trainable."""
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(
        r=rank,
        lora_alpha=2 * rank,
        lora_dropout=0.1,
        target_modules=list(LORA_TARGETS),
        trainable_token_indices={"word_embeddings": list(trainable_token_ids)} if trainable_token_ids else None,
    )
    encoder = encoder_module(model)
    encoder.model = get_peft_model(encoder.model, config)  # ST 6: `auto_model` is a read-only alias of `model`
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    log.info("LoRA rank %d: %d trainable parameters", rank, trainable)
