"""MWE tokens: each multiword expression becomes one vocabulary token ``ID<mwe without spaces>ID``.

New token embeddings start as the mean of the MWE's sub-token embeddings. The tokenizer and the resized embedding
matrix are saved with the model, so ``SentenceTransformer(path)`` reloads it with the tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import torch

from idiomkit.idioms.reader import encoder_module

NOT_MWES = {"", "none", "sts"}


def mwe_token(mwe: str) -> str:
    """``home run`` -> ``IDhomerunID`` (lower case; spaces, hyphens and punctuation removed)."""
    return "ID" + re.sub(r"\W+", "", mwe.lower()) + "ID"


def _pattern(mwe: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in re.split(r"[\s-]+", mwe.strip()) if w]
    return re.compile(r"(?<!\w)" + r"[\s-]+".join(words), re.IGNORECASE)


def replace_mwes(sentence: str, mwes: Iterable[str], known: set[str] | None = None) -> str:
    """Replace every (case-insensitive) occurrence of each MWE by its token; with ``known``, only those tokens."""
    for mwe in sorted((m for m in mwes if m and m.lower() not in NOT_MWES), key=len, reverse=True):
        token = mwe_token(mwe)
        if known is None or token.lower() in known:
            sentence = _pattern(mwe).sub(token, sentence)
    return sentence


@dataclass
class MweTransform:
    """``transform(sentence, pair)`` hook for :func:`pair_similarities`: MWE tokens the tokenizer knows."""

    known: set[str] | None = field(default=None)

    @classmethod
    def for_model(cls, model) -> MweTransform:
        """Use the MWE tokens present in ``model``'s tokenizer vocabulary."""
        return cls(known_mwe_tokens(model.tokenizer))

    def __call__(self, sentence: str, pair) -> str:
        return replace_mwes(sentence, pair.mwes, self.known)


def known_mwe_tokens(tokenizer) -> set[str]:
    """Lower-cased ``ID...ID`` tokens among the tokenizer's added tokens."""
    return {t.lower() for t in tokenizer.get_added_vocab() if t.startswith("ID") and t.endswith("ID") and len(t) > 4}


def add_mwe_tokens(model, mwes: Iterable[str]) -> list[str]:
    """Add one token per MWE to ``model``'s tokenizer; initialise each as the mean of its sub-token embeddings.

    Returns the tokens added (already-known ones are skipped).
    """
    tokenizer = model.tokenizer
    known = known_mwe_tokens(tokenizer)
    todo: dict[str, str] = {}
    for mwe in mwes:
        token = mwe_token(mwe)
        if mwe.lower() not in NOT_MWES and token.lower() not in known and token not in todo:
            todo[token] = mwe
    if not todo:
        return []
    pieces = {t: tokenizer(m, add_special_tokens=False)["input_ids"] for t, m in todo.items()}
    tokenizer.add_tokens(list(todo))
    auto_model = encoder_module(model).auto_model
    auto_model.resize_token_embeddings(len(tokenizer), mean_resizing=False)
    weight = auto_model.get_input_embeddings().weight
    with torch.no_grad():
        for token, ids in pieces.items():
            weight[tokenizer.convert_tokens_to_ids(token)] = weight[ids].mean(dim=0)
    return list(todo)
