"""Benchmarks (tasks): one class per benchmark with its metadata and typed options; :data:`TASKS` is the one
registry (the CLI, the mteb adapters and the results pages' titles iterate it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from idiomkit.errors import OptionError, UnknownName
from idiomkit.options import option_flags, parse_options
from idiomkit.tasks.admire import AdmireOptions, AdmireTask
from idiomkit.tasks.base import EvalContext, Task, TaskMetadata, TaskOutput
from idiomkit.tasks.idiolink import IdioLinkOptions, IdioLinkTask
from idiomkit.tasks.meaning_triples import MeaningTriplesOptions, MeaningTriplesTask
from idiomkit.tasks.semeval2a import SemEval2AOptions, SemEval2ATask
from idiomkit.tasks.semeval2b_task import SemEval2BOptions, SemEval2BTask
from idiomkit.tasks.sts import StsGuardOptions, StsGuardTask
from idiomkit.tasks.xiao_pairs import XiaoPairsOptions, XiaoPairsTask

TASKS: dict[str, type[Task]] = {
    cls.metadata.name: cls
    for cls in (SemEval2BTask, IdioLinkTask, SemEval2ATask, AdmireTask, XiaoPairsTask, MeaningTriplesTask, StsGuardTask)
}


def get_task(name: str) -> Task:
    if name not in TASKS:
        raise UnknownName(f"unknown task '{name}' (expected one of {', '.join(TASKS)})")
    return TASKS[name]()


def task_titles() -> dict[str, str]:
    """``{result folder: results page title}`` of every registered task."""
    return {cls.metadata.result_task: cls.metadata.title for cls in TASKS.values()}


def foreign_option(task: Task, flag: str) -> OptionError | None:
    """The error for ``flag`` when it is another task's option (None when no task has it)."""
    for other in TASKS.values():
        name = option_flags(other.Options).get(flag)
        if name is not None and other is not type(task):
            takes = ", ".join(sorted(option_flags(task.Options).values())) or "none"
            return OptionError(f"task '{task.name}' takes no option {name} ({flag}); its options: {takes}")
    return None


def parse_task_options(task: Task, argv: Sequence[str], *, lexical: bool = False) -> Any:
    """The task's options from command-line words (``--query-mode span``): flags generated from its options
    dataclass; another task's flag, an unknown flag or a value outside the choices is a one-line OptionError."""
    own = option_flags(task.Options)
    for word in argv:
        flag = word.partition("=")[0]
        if flag.startswith("-") and flag not in own and (error := foreign_option(task, flag)):
            raise error
    options = parse_options(task.Options, argv, f"task '{task.name}'", check_choices=False)
    task.check_options(options, lexical=lexical)
    return options


__all__ = [
    "TASKS",
    "AdmireOptions",
    "EvalContext",
    "IdioLinkOptions",
    "MeaningTriplesOptions",
    "SemEval2AOptions",
    "SemEval2BOptions",
    "StsGuardOptions",
    "Task",
    "TaskMetadata",
    "TaskOutput",
    "XiaoPairsOptions",
    "get_task",
    "parse_task_options",
    "task_titles",
]
