"""Benchmarks (tasks): one class per benchmark, registered by CLI name."""

from __future__ import annotations

from idiomkit.tasks.admire import AdmireTask
from idiomkit.tasks.base import Task, TaskOutput
from idiomkit.tasks.idiolink import IdioLinkTest
from idiomkit.tasks.semeval2a import SemEval2ADev
from idiomkit.tasks.semeval2b_task import SemEval2BDev
from idiomkit.tasks.xiao_pairs import XiaoPairs

TASKS: dict[str, type[Task]] = {cls.name: cls for cls in [SemEval2BDev, IdioLinkTest, SemEval2ADev, AdmireTask]}

TASKS[XiaoPairs.name] = XiaoPairs  # idiom/definition pairs on held-out idioms (Xiao et al.)


def get_task(name: str) -> Task:
    if name not in TASKS:
        raise KeyError(f"unknown task '{name}' (expected one of {', '.join(TASKS)})")
    return TASKS[name]()


__all__ = ["TASKS", "Task", "TaskOutput", "get_task"]
