"""The misreading stream's rows: the core test's *training* construction, after the held-out check.

:func:`~idiomkit.data.meaning_triples.training_triples` (the WordNet triples of the PIE ISP train rows and the
mt_ambiguity usage triples) through :func:`~idiomkit.data.heldout.filter_heldout` (no held-out sentence, no held-out
idiom by key or in any form in any of a row's three texts), cut by idiom into training rows and validation rows
(:func:`~idiomkit.data.meaning_triples.is_validation_idiom`; at most :data:`VAL_PER_IDIOM` validation rows an idiom,
by SHA-256 of the sentence). The core test never uses these sentences (they are PIE train sentences, a training
source), and its shortcut controls are fitted on the training rows (:mod:`idiomkit.tasks.core_controls`).

Example::

    train, val = misreading_rows("../shared/data")
"""

from __future__ import annotations

import hashlib
from collections import Counter
from functools import lru_cache
from pathlib import Path

from idiomkit.data.heldout import HeldOut, filter_heldout, heldout_index
from idiomkit.data.keys import normalise_idiom
from idiomkit.data.meaning_triples import Triple, is_validation_idiom, training_triples

VAL_PER_IDIOM = 2  # validation rows per idiom (a validation runs several times a training run)


def _texts(t: Triple) -> tuple[str, str, str]:
    return t.sentence, t.paraphrase, t.misreading


def misreading_rows(data_dir: str | Path, index: HeldOut | None = None) -> tuple[list[Triple], list[Triple]]:
    """(training rows, validation rows) of the misreading stream (module docstring); ``index``: the held-out index
    to filter by (default: :func:`~idiomkit.data.heldout.heldout_index` of ``data_dir``)."""
    index = index if index is not None else heldout_index(data_dir)
    rows = filter_heldout("misreading", training_triples(data_dir), _texts, lambda t: [t.idiom], index=index).kept
    train = [t for t in rows if not is_validation_idiom(t.idiom)]
    val, per = [], Counter()
    for t in sorted((t for t in rows if is_validation_idiom(t.idiom)), key=_order):
        key = (normalise_idiom(t.idiom), t.language)
        if per[key] < VAL_PER_IDIOM:
            per[key] += 1
            val.append(t)
    return train, val


def _order(t: Triple) -> tuple[str, str]:
    return hashlib.sha256(t.sentence.encode()).hexdigest(), t.sentence


@lru_cache(maxsize=4)
def _training_rows(data_dir: str) -> tuple[Triple, ...]:
    return tuple(misreading_rows(data_dir)[0])


def control_rows(data_dir: str | Path) -> list[Triple]:
    """The misreading stream's training rows under the data directory's own held-out index (cached): what the
    core test's shortcut controls are fitted on."""
    return list(_training_rows(str(Path(data_dir).resolve())))
