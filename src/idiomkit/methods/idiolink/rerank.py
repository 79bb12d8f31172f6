"""IdioLink second stages as one pipeline: usage re-ranking, then twin expansion, both fitted on train/val.

The task (:class:`idiomkit.tasks.idiolink.IdioLinkTask`) only scores: it takes a fitted-on-demand ``rerank`` (this
class) and applies it to its test scores. The caller builds it from the user's options::

    rerank = IdioLinkRerank(usage_rerank="classifier", twin_expansion=True)
    IdioLinkTask().evaluate(model, data_dir=..., query_mode="span", rerank=rerank)   # variant span-usageclf-twins
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from idiomkit.data.idiolink import IdioLinkSplit
from idiomkit.errors import OptionError
from idiomkit.methods.idiolink.twins import TwinExpansion
from idiomkit.methods.idiolink.usage_rerank import DECISIONS, ClassifierUsageReranker, UsageReranker

RERANK_OPTIONS = ("usage_rerank", "twin_expansion")  # the evaluate options that ask for a second stage


@dataclass(frozen=True)
class IdioLinkRerank:
    """``usage_rerank``: False, True / ``"probe"`` (:class:`UsageReranker`) or a key of :data:`DECISIONS`
    (:class:`ClassifierUsageReranker`); ``twin_expansion``: :class:`TwinExpansion` after it."""

    usage_rerank: bool | str = False
    twin_expansion: bool = False

    def __post_init__(self) -> None:
        if self.usage_rerank not in (False, True, "probe", *DECISIONS):
            raise OptionError(f"unknown usage re-ranker '{self.usage_rerank}' (expected probe, {', '.join(DECISIONS)})")

    @property
    def variant_suffix(self) -> str:
        """What the result variant gains after the query mode: ``-usage[clf|sharedclf|span]`` and/or ``-twins``."""
        suffix = ""
        if self.usage_rerank:
            suffix += "-usage" + (DECISIONS[self.usage_rerank].variant if self.usage_rerank in DECISIONS else "")
        return suffix + ("-twins" if self.twin_expansion else "")

    def __call__(
        self,
        model,
        data_dir: str | Path,
        split: IdioLinkSplit,
        scores: np.ndarray,
        *,
        query_mode: str,
        prompt_name: str | None,
        batch_size: int,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Fit the stages on ``data_dir``'s train/val and apply them to ``scores`` of ``split``: (scores, params)."""
        params: dict[str, Any] = {}
        reranker = None
        fit_args = {"query_mode": query_mode, "prompt_name": prompt_name, "batch_size": batch_size}
        if self.usage_rerank:
            if self.usage_rerank in DECISIONS:
                reranker = ClassifierUsageReranker.fit(model, data_dir, decision=self.usage_rerank, **fit_args)
            else:
                reranker = UsageReranker.fit(model, data_dir, **fit_args)
            scores = reranker.rerank(model, split, scores)
            params["usage_rerank"] = reranker.info
        if self.twin_expansion:
            twins = TwinExpansion.fit(model, data_dir, usage_reranker=reranker, **fit_args)
            scores = twins.apply(split, scores)
            params["twin_expansion"] = twins.info
        return scores, params


def rerank_from_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with ``usage_rerank`` / ``twin_expansion`` replaced by ``rerank=IdioLinkRerank(...)`` (a copy;
    unchanged when neither asks for a second stage)."""
    stages = {key: options[key] for key in RERANK_OPTIONS if key in options}
    rest = {key: value for key, value in options.items() if key not in RERANK_OPTIONS}
    if any(stages.values()):
        rest["rerank"] = IdioLinkRerank(**stages)
    return rest
