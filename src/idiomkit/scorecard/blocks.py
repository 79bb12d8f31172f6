"""The scorecard's blocks: one frozen model on one benchmark, in one track, whole or on its quick slice.

A block is a registered task (:data:`idiomkit.tasks.TASKS`) and the options each track maps to; it runs through
:meth:`~idiomkit.tasks.Task.run` with the evaluation context (``quick`` there is the task's fixed small slice), so a
block and ``idiomkit evaluate TASK`` with the same options give the same numbers. The ``plain`` track gives the
model the text and what the task itself asks about (the 2A MWE and the AdMIRe compound, located by string match):
no 2B MWE columns, no gold IdioLink spans, no gold sentence types. ``marked`` adds today's protocols (2B MWE
tokens, IdioLink span and sentence+span queries).

:data:`BLOCKS` is the one registry (``idiomkit evaluate all --only NAME``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from idiomkit.tasks import (
    AdmireOptions,
    EvalContext,
    IdioLinkOptions,
    MeaningTriplesOptions,
    SemEval2AOptions,
    SemEval2BOptions,
    StsGuardOptions,
    XiaoPairsOptions,
    get_task,
)

Track = Literal["plain", "marked"]
TRACKS: tuple[Track, ...] = ("plain", "marked")


@dataclass
class BlockOutput:
    """One block's metrics, raw predictions (suffix -> text), the data files it read and its parameters."""

    metrics: dict[str, Any]
    predictions: dict[str, str] = field(default_factory=dict)
    data_files: list[Path] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)


Runs = Callable[[Track, bool, bool], dict[str, Any]]  # (track, quick, trained) -> {label: the task's options}


@dataclass(frozen=True)
class Block:
    """A registered block: its task, the runs it makes (``runs(track, quick, trained)`` -> ``{label: options}``;
    one run labelled ``""`` reports the task's metrics as they are, labelled runs ``{label: metrics}``), whether
    quick mode runs it and whether its options differ by track (a block that reads the same in both tracks is
    computed once for ``--track both``)."""

    task: str
    runs: Runs
    quick: bool = True
    by_track: bool = False


def _semeval2b(track: Track, quick: bool, trained: bool) -> dict[str, Any]:
    """Marked: MWE tokens the model knows; a model idiomkit trained files its submission under fine_tune."""
    setting = "fine_tune" if trained else "pre_train"
    return {"": SemEval2BOptions(setting=setting, mwe_tokens=track == "marked")}


def _idiolink(track: Track, quick: bool, trained: bool) -> dict[str, Any]:
    """Sentence queries; marked adds span and sentence+span (gold spans)."""
    modes = ("sentence",) if track == "plain" else ("sentence", "span", "sentence+span")
    return {mode: IdioLinkOptions(split="test", query_mode=mode) for mode in modes}


def _admire(track: Track, quick: bool, trained: bool) -> dict[str, Any]:
    """The train+dev pool (85 items, no AdMIRe training; quick: dev only) and test, span queries by string match."""
    pool = "dev" if quick else "train+dev"
    return {name: AdmireOptions(split=split, extended=False) for name, split in (("pool", pool), ("test", "test"))}


def _one(options: Any) -> Runs:
    """The same single run in every track."""
    return lambda track, quick, trained: {"": options}


BLOCKS: dict[str, Block] = {
    "semeval2b": Block("semeval2b", _semeval2b, by_track=True),
    "idiolink": Block("idiolink", _idiolink, by_track=True),
    "semeval2a": Block("semeval2a", _one(SemEval2AOptions(setting="zero_shot", features="span")), quick=False),
    "admire": Block("admire", _admire),
    "xiao": Block("xiao-pairs", _one(XiaoPairsOptions(split="heldout"))),
    "meaning-triples": Block("meaning-triples", _one(MeaningTriplesOptions())),
    "sts-guard": Block("sts-guard", _one(StsGuardOptions())),
}


def prediction_name(block: str, label: str, suffix: str) -> str:
    """``semeval2b.submission.csv`` for an unlabelled run, ``idiolink-sentence-span.run.trec.gz`` for a labelled one."""
    return f"{block}-{label.replace('+', '-')}.{suffix}" if label else f"{block}.{suffix}"


def run_block(model, name: str, context: EvalContext, track: Track, trained: bool = False) -> BlockOutput:
    """Run block ``name`` in ``track`` through its task's :meth:`~idiomkit.tasks.Task.run`."""
    block = BLOCKS[name]
    task = get_task(block.task)
    outputs = {}
    for label, options in block.runs(track, context.quick, trained).items():
        task.check_options(options)
        outputs[label] = task.run(model, options, context)
    predictions = {
        prediction_name(name, label, suffix): text
        for label, out in outputs.items()
        for suffix, text in out.predictions.items()
    }
    files = sorted({f for out in outputs.values() for f in out.data_files})
    if list(outputs) == [""]:
        return BlockOutput(outputs[""].metrics, predictions, files, outputs[""].params)
    metrics = {label: out.metrics for label, out in outputs.items()}
    return BlockOutput(metrics, predictions, files, {label: out.params for label, out in outputs.items()})
