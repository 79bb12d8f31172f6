"""The interface of a trained system (a *method*): ``fit`` on a task's training data, ``predict`` on what it scores.

Tasks (:mod:`idiomkit.tasks`) only score; a method learns something first (a probe, a fine-tuned classifier, a
re-ranker's weight chosen on val, a query encoder). Each method wraps its module's functions and keeps their numerics.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar


class Method(ABC):
    """A trained system. ``fit`` returns the fitted method (some fit as a classmethod constructor); ``predict``
    returns what the task scores (labels, scores, re-ranked scores)."""

    name: ClassVar[str]  # registry key, ``<task>/<method>``
    description: ClassVar[str]

    @abstractmethod
    def fit(self, *args: Any, **kwargs: Any) -> Method:
        """Learn from training data; return the fitted method."""

    @abstractmethod
    def predict(self, *args: Any, **kwargs: Any) -> Any:
        """Apply the fitted method."""
