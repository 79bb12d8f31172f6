"""The idiom reader's version, recorded on every scorecard the reader takes part in (``params.reader_version``)
and in the ``training.json`` of every run that trains with it (``params.training.reader_version`` on its scorecards).

:data:`READER_VERSION` names what the reader does: bump it when a change to the shipped lexicon, the sense check or
the matching and rewriting code changes what the reader finds or writes, so the scorecard marks the rows measured
with an earlier reader. :data:`READER_DIGEST` pins the SHA-256 of the files that define it (:data:`READER_FILES`); a
unit test recomputes it, so no change to them goes by without that decision.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from idiomkit.idioms.reader import IdiomReader

READER_VERSION = 11  # 11: a bare use (nothing around the idiom but function words) is figurative whatever the
# sense check says; a meaning that repeats the idiom's words, or a verbless one where the span is a predicate, does
# not fit
# 10: a gerund after a determiner takes a verb's meaning again ("no more beating around the
# bush"), a question's "who" is a third-person subject
# 9: a sense-check threshold per language (PT 0.52), one verb lemmatiser, noun-phrase and
# clause uses take only meanings that fit them
# 8: lexicon curation (wrong meanings, stop list, "noun of" idioms), meanings fitted to the span
# 7: the sense encoder trained again on the current held-out split; -ic verbs take k (panicked)
READER_DIGEST = "1fcfc15979224f9b06dbeb916fa55dd6d8b6f3cd3961c64431ef0c2edb33945f"

HERE = Path(__file__).resolve().parent

# what defines the reader's behaviour, relative to this package: the shipped lexicon and sense check, the lexicon's
# reading and lookup, the matcher (with its morphology, English and Portuguese, and patterns), the rewrite (with its
# shaping of a meaning: the span's fills, Portuguese agreement and conjugation, the English verb list), the sense
# check's scoring, the sentence-transformers module and the evaluation lexicon (the shipped one minus the held-out
# idioms)
READER_FILES = (
    "resources/lexicon.tsv",
    "resources/sense.json",
    "resources/sense_encoder.json",
    "resources/sense_encoder.safetensors",
    "lexicon.py",
    "matcher.py",
    "morphology.py",
    "morphology_en.py",
    "pt_verbs.py",
    "patterns.py",
    "rewrite.py",
    "shape.py",
    "fit.py",
    "context.py",
    "fills.py",
    "shape_pt.py",
    "resources/en_verbs.txt",
    "sense.py",
    "sense_encoder.py",
    "senses.py",
    "reader.py",
    "sources.py",
)


def reader_digest(root: Path = HERE) -> str:
    """The SHA-256 of :data:`READER_FILES` under ``root``, each file's name and bytes in turn (no model, no parse)."""
    digest = hashlib.sha256()
    for name in READER_FILES:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()


def reader_record(reader: IdiomReader | None) -> dict[str, Any]:
    """What a scorecard or a run's ``training.json`` records of ``reader`` (the idiom reader a model carries,
    :func:`~idiomkit.idioms.reader.model_reader`): ``reader_version`` (:data:`READER_VERSION`) and ``reader_digest``
    (the reader's files as they are now); ``reader_version`` None when there is no reader."""
    if reader is None:
        return {"reader_version": None}
    return {"reader_version": READER_VERSION, "reader_digest": reader_digest()}
