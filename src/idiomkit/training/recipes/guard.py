"""The variant-aware half of the held-out dedup for the flagship's idiom streams.

:func:`~idiomkit.data.heldout.filter_heldout` drops a training row whose idiom *key* is held out ("keep an eye on"
= "keep [pron] eye on"). A row can still carry a held-out idiom in another form: inflected inside a sentence
("she spilled all the beans"), or inside a training row about another idiom. :class:`HeldOutGuard` runs the idiom
matcher (:class:`~idiomkit.idioms.matcher.Matcher`: inflections, inserted words, slots) with the core test's
held-out idioms (and any others given, e.g. validation idioms) over every text of a row, and drops the row when
one is found.

Example::

    guard = HeldOutGuard.for_data(data_dir)
    rows = guard.filter("flagship meaning", rows, lambda r: r[:2])
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from idiomkit.data.heldout import core_test
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.matcher import Matcher

log = logging.getLogger(__name__)

T = TypeVar("T")


class HeldOutGuard:
    """Finds held-out idioms, in any form the matcher knows, inside training texts.

    Args:
        idioms: ``(idiom, language)`` pairs (language ``EN`` or ``PT``).
    """

    def __init__(self, idioms: Iterable[tuple[str, str]]):
        lex = Lexicon()
        for idiom, language in sorted(set(idioms)):
            lex.add(idiom, language, "held out", "held-out guard")
        self.matcher = Matcher(lex)

    @classmethod
    def for_data(cls, data_dir: str | Path, extra: Iterable[tuple[str, str]] = ()) -> HeldOutGuard:
        """The core test's held-out idioms of ``data_dir`` (with their languages), plus ``extra``."""
        held = {(t.idiom, t.language) for t in core_test(data_dir).triples if t.heldout}
        return cls(held | set(extra))

    def found(self, text: str) -> list[str]:
        """The held-out idioms (as listed) found in ``text``."""
        return [m.idiom for m in self.matcher.find(text)] if text else []

    def filter(self, source: str, rows: Sequence[T], texts: Callable[[T], Iterable[str]]) -> list[T]:
        """``rows`` without those one of whose ``texts`` holds a held-out idiom; logs how many went."""
        kept = [r for r in rows if not any(self.found(t) for t in texts(r))]
        log.info(
            "held-out guard %s: kept %d of %d (%d hold a held-out idiom)",
            source,
            len(kept),
            len(rows),
            len(rows) - len(kept),
        )
        return kept
