"""The interface of a trained system (a *method*): fitted on a task's training data, then ``predict`` on what the task
scores.

Tasks (:mod:`idiomkit.tasks`) only score; a method learns something first (a probe, a fine-tuned classifier, a
re-ranker's weight chosen on val, a query encoder). Each method wraps its module's functions and keeps their numerics.
What a method learns from differs from method to method (embeddings and labels, a model and examples, features and
gold ranks), so fitting is each method's own ``fit`` (an instance method that returns the fitted method, or a
classmethod constructor) and not part of this interface: no caller fits a method without knowing which it is.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar


class Method(ABC):
    """A trained system, registered under ``name`` in :data:`idiomkit.methods.METHODS`; ``predict`` returns what
    the task scores (labels, scores, re-ranked scores)."""

    name: ClassVar[str]  # registry key, ``<task>/<method>``
    description: ClassVar[str]

    @abstractmethod
    def predict(self, *args: Any, **kwargs: Any) -> Any:
        """Apply the fitted method."""
