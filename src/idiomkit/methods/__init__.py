"""Trained systems (methods), one module per method under ``methods/<task>/``, behind one registry.

A task scores; a method is fitted first (``fit``) and then applied (``predict``): see :class:`Method`.
``METHODS`` maps ``"<task>/<method>"`` to its class; :func:`get_method` looks one up.
"""

from __future__ import annotations

from idiomkit.methods.admire.features import FeatureRanker
from idiomkit.methods.admire.query_encoder import TrainedQueryEncoder
from idiomkit.methods.admire.structured import StructuredRanker
from idiomkit.methods.base import Method
from idiomkit.methods.idiolink.bm25 import BM25
from idiomkit.methods.idiolink.rerank import IdioLinkRerank
from idiomkit.methods.idiolink.twins import TwinExpansion
from idiomkit.methods.idiolink.usage_rerank import ClassifierUsageReranker, UsageReranker
from idiomkit.methods.semeval2a.classifier import FineTunedClassifier
from idiomkit.methods.semeval2a.probe import LogisticProbe
from idiomkit.methods.semeval2a.sense_matcher import SenseMatcher

METHODS: dict[str, type[Method]] = {
    cls.name: cls
    for cls in (
        LogisticProbe,  # semeval2a/probe
        FineTunedClassifier,  # semeval2a/classifier
        SenseMatcher,  # semeval2a/sense-matcher
        BM25,  # idiolink/bm25
        UsageReranker,  # idiolink/usage-rerank
        ClassifierUsageReranker,  # idiolink/usage-rerank-classifier
        TwinExpansion,  # idiolink/twins
        TrainedQueryEncoder,  # admire/query-encoder
        FeatureRanker,  # admire/features
        StructuredRanker,  # admire/structured
    )
}


def get_method(name: str) -> type[Method]:
    """The method class registered as ``name`` (``"<task>/<method>"``)."""
    if name not in METHODS:
        raise KeyError(f"unknown method '{name}' (expected one of {', '.join(METHODS)})")
    return METHODS[name]


__all__ = ["METHODS", "IdioLinkRerank", "Method", "get_method"]
