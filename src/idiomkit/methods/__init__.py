"""Trained systems (methods), one module per method under ``methods/<task>/``, behind one registry.

A task scores; a method is fitted first and then applied (``predict``): see :class:`Method`. ``METHODS``, the one
registry, maps ``"<task>/<method>"`` to its :class:`~idiomkit.methods.runner.Registered` entry: the class and, for
the methods that ``idiomkit run TASK --method M`` runs end to end, their typed options and run function.
:func:`get_method` looks a class up, :func:`get_runnable` a runnable entry.
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
from idiomkit.methods.runner import Registered
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

METHODS: dict[str, Registered] = {
    entry.method.name: entry
    for entry in (
        Registered(LogisticProbe, ProbeOptions, run_probe),  # semeval2a/probe
        Registered(FineTunedClassifier, ClassifierOptions, run_classifier),  # semeval2a/classifier
        Registered(SenseMatcher, MatcherOptions, run_matcher),  # semeval2a/sense-matcher
        Registered(ShotLabels, ShotLabelsOptions, run_shot_labels),  # semeval2a/shot-labels (a baseline: no model)
        Registered(BM25),  # idiolink/bm25 (idiomkit evaluate idiolink)
        Registered(UsageReranker),  # idiolink/usage-rerank (idiomkit evaluate idiolink --usage-rerank)
        Registered(ClassifierUsageReranker),  # idiolink/usage-rerank-classifier (--usage-classifier)
        Registered(TwinExpansion, TwinsOptions, run_twins),  # idiolink/twins
        Registered(TrainedQueryEncoder, QueryEncoderOptions, run_query_encoder),  # admire/query-encoder
        Registered(FeatureRanker, FeatureRankerOptions, run_feature_ranker),  # admire/features
        Registered(StructuredRanker, StructuredRankerOptions, run_structured_ranker),  # admire/structured
    )
}


def runnable_names() -> list[str]:
    """The methods ``idiomkit run TASK --method M`` runs end to end."""
    return [name for name, entry in METHODS.items() if entry.runnable]


def get_runnable(name: str) -> Registered:
    """The entry of ``name`` (``"<task>/<method>"``) with its options and run function; one-line error listing the
    runnable methods for an unknown one or one that ``idiomkit run`` does not run."""
    entry = METHODS.get(name)
    if entry is None or not entry.runnable:
        raise OptionError(f"unknown method '{name}' for idiomkit run (expected one of {', '.join(runnable_names())})")
    return entry


def get_method(name: str) -> type[Method]:
    """The method class registered as ``name`` (``"<task>/<method>"``)."""
    if name not in METHODS:
        raise UnknownName(f"unknown method '{name}' (expected one of {', '.join(METHODS)})")
    return METHODS[name].method


__all__ = ["METHODS", "IdioLinkRerank", "Method", "Registered", "get_method", "get_runnable", "runnable_names"]
