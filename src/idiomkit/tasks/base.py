"""Benchmark task interface (MTEB-style): :class:`TaskMetadata`, a typed options dataclass per task, and
``evaluate(model, options) -> TaskOutput``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from idiomkit.errors import OptionError, check_choice
from idiomkit.options import make_options


@dataclass(frozen=True)
class TaskMetadata:
    """What a task is: CLI name, result folder (under benchmarks/results), description, main score (a flattened
    metric key), languages, reference, the data files it reads with its default options (relative to the data
    directory), the title of its results page and the name of its mteb adapter (None: none)."""

    name: str
    result_task: str
    description: str
    main_score: str
    languages: tuple[str, ...]
    reference: str = ""
    data_files: tuple[str, ...] = ()
    title: str = ""
    mteb_name: str | None = None


@dataclass
class TaskOutput:
    """What a task evaluation produced: metrics, parameters, the data files read, raw predictions.

    ``predictions`` maps a file suffix (e.g. ``submission.csv``) to the file's text; it is written beside
    the result JSON so anyone can rescore the headline numbers.
    """

    metrics: dict[str, Any]
    params: dict[str, Any] = field(default_factory=dict)
    data_files: list[Path] = field(default_factory=list)
    predictions: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class EvalContext:
    """What every evaluation gets besides the model and the task's options; ``quick`` limits a task to its fixed
    small slice (the scorecard's ``--quick``; a task without one runs whole)."""

    data_dir: Path
    prompt_name: str | None = None
    batch_size: int = 64
    show_progress_bar: bool = True
    seed: int = 0
    quick: bool = False


class Task:
    """Base class: subclasses set ``metadata`` and ``Options`` (a dataclass, the current defaults) and implement
    :meth:`run`. ``name``, ``result_task``, ``description``, ``main_score`` and ``reference`` mirror the metadata."""

    metadata: ClassVar[TaskMetadata]
    Options: ClassVar[type]
    default_batch_size: ClassVar[int] = 64
    lexical_models: ClassVar[tuple[str, ...]] = ()  # model names that are not neural (e.g. bm25)
    name: ClassVar[str]
    result_task: ClassVar[str]
    description: ClassVar[str]
    main_score: ClassVar[str]
    reference: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        meta = cls.__dict__.get("metadata")
        if meta is not None:
            cls.name, cls.result_task, cls.description = meta.name, meta.result_task, meta.description
            cls.main_score, cls.reference = meta.main_score, meta.reference

    def make_options(self, **values: Any) -> Any:
        """The task's options from keyword values; an option it does not take is a one-line OptionError."""
        return make_options(self.Options, values, f"task '{self.name}'", check_choices=False)

    def option_choices(self, lexical: bool = False) -> dict[str, tuple[Any, ...]]:
        """``{field: allowed values}`` of the options that take one of a few (``lexical``: a model like bm25)."""
        fields = dataclasses.fields(self.Options)
        return {f.name: tuple(f.metadata["choices"]) for f in fields if "choices" in f.metadata}

    def check_options(self, options: Any, *, lexical: bool = False) -> None:
        """Refuse (OptionError) an option value outside its choices, before any model loads."""
        if not isinstance(options, self.Options):
            raise OptionError(f"task '{self.name}' takes one {self.Options.__name__}, not {type(options).__name__}")
        for key, choices in self.option_choices(lexical).items():
            check_choice(f"{self.name} {key.replace('_', ' ')}", getattr(options, key), choices)

    def evaluate(
        self,
        model,
        options: Any = None,
        *,
        data_dir: str | Path,
        prompt_name: str | None = None,
        batch_size: int | None = None,
        show_progress_bar: bool = True,
        seed: int = 0,
        quick: bool = False,
        **values: Any,
    ) -> TaskOutput:
        """Score ``model`` with ``options`` (an instance of :attr:`Options`), or with its fields given as keyword
        ``values`` (checked: an option the task does not take is an OptionError, never ignored); ``quick``: the
        task's fixed small slice."""
        if options is None:
            options = self.make_options(**values)
        elif values:
            raise OptionError(f"task '{self.name}': give one {self.Options.__name__} or keyword values, not both")
        self.check_options(options, lexical=isinstance(model, str))
        context = EvalContext(
            Path(data_dir), prompt_name, batch_size or self.default_batch_size, show_progress_bar, seed, quick
        )
        return self.run(model, options, context)

    def run(self, model, options: Any, context: EvalContext) -> TaskOutput:  # pragma: no cover
        raise NotImplementedError

    def summary_table(self, metrics: dict[str, Any]) -> list[list[str]]:  # pragma: no cover
        """Rows (first row = header) for printing ``metrics`` as a table."""
        raise NotImplementedError
