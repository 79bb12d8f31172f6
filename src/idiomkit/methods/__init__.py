"""Trained systems (methods), one module per method under ``methods/<task>/``, behind one registry.

A task scores; a method is fitted first (``fit``) and then applied (``predict``): see :class:`Method`.
``METHODS`` maps ``"<task>/<method>"`` to its class; :func:`get_method` looks one up. ``RUNNABLE`` maps the
methods that ``idiomkit run TASK --method M`` runs end to end to their typed options and run function
(:mod:`idiomkit.methods.runner`).
"""

from __future__ import annotations

from idiomkit.errors import OptionError, UnknownName
from idiomkit.methods.admire.features import FeatureRanker
from idiomkit.methods.admire.query_encoder import TrainedQueryEncoder
from idiomkit.methods.admire.runs import (
    FeatureRankerOptions,
    QueryEncoderOptions,
    StructuredRankerOptions,
    run_feature_ranker,
    run_query_encoder,
    run_structured_ranker,
)
from idiomkit.methods.admire.structured import StructuredRanker
from idiomkit.methods.base import Method
from idiomkit.methods.idiolink.bm25 import BM25
from idiomkit.methods.idiolink.rerank import IdioLinkRerank
from idiomkit.methods.idiolink.runs import TwinsOptions, run_twins
from idiomkit.methods.idiolink.twins import TwinExpansion
from idiomkit.methods.idiolink.usage_rerank import ClassifierUsageReranker, UsageReranker
from idiomkit.methods.runner import Runnable
from idiomkit.methods.semeval2a.classifier import FineTunedClassifier
from idiomkit.methods.semeval2a.probe import LogisticProbe
from idiomkit.methods.semeval2a.runs import (
    ClassifierOptions,
    MatcherOptions,
    ProbeOptions,
    run_classifier,
    run_matcher,
    run_probe,
)
from idiomkit.methods.semeval2a.sense_matcher import SenseMatcher
from idiomkit.methods.semeval2a.shot_labels import ShotLabels, ShotLabelsOptions, run_shot_labels

METHODS: dict[str, type[Method]] = {
    cls.name: cls
    for cls in (
        LogisticProbe,  # semeval2a/probe
        FineTunedClassifier,  # semeval2a/classifier
        SenseMatcher,  # semeval2a/sense-matcher
        ShotLabels,  # semeval2a/shot-labels
        BM25,  # idiolink/bm25
        UsageReranker,  # idiolink/usage-rerank
        ClassifierUsageReranker,  # idiolink/usage-rerank-classifier
        TwinExpansion,  # idiolink/twins
        TrainedQueryEncoder,  # admire/query-encoder
        FeatureRanker,  # admire/features
        StructuredRanker,  # admire/structured
    )
}


RUNNABLE: dict[str, Runnable] = {
    LogisticProbe.name: Runnable(ProbeOptions, run_probe),
    FineTunedClassifier.name: Runnable(ClassifierOptions, run_classifier),
    SenseMatcher.name: Runnable(MatcherOptions, run_matcher),
    TrainedQueryEncoder.name: Runnable(QueryEncoderOptions, run_query_encoder),
    FeatureRanker.name: Runnable(FeatureRankerOptions, run_feature_ranker),
    StructuredRanker.name: Runnable(StructuredRankerOptions, run_structured_ranker),
    TwinExpansion.name: Runnable(TwinsOptions, run_twins),
    ShotLabels.name: Runnable(ShotLabelsOptions, run_shot_labels),  # a baseline: no model
}


def get_runnable(name: str) -> Runnable:
    """The options and run function of ``name`` (``"<task>/<method>"``); one-line error listing the runnable ones."""
    if name not in RUNNABLE:
        raise OptionError(f"unknown method '{name}' for idiomkit run (expected one of {', '.join(RUNNABLE)})")
    return RUNNABLE[name]


def get_method(name: str) -> type[Method]:
    """The method class registered as ``name`` (``"<task>/<method>"``)."""
    if name not in METHODS:
        raise UnknownName(f"unknown method '{name}' (expected one of {', '.join(METHODS)})")
    return METHODS[name]


__all__ = ["METHODS", "RUNNABLE", "IdioLinkRerank", "Method", "Runnable", "get_method", "get_runnable"]
