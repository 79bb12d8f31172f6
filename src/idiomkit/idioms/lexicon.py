"""An idiom lexicon: English and Portuguese idioms with their meanings and where each came from.

Entries merge on :func:`idiomkit.data.heldout.normalise_idiom` (slots such as ``[pron]``/``(somebody)``, articles
and possessive fillers dropped), per language: "keep [pron] eye on" and "keep an eye on" are one entry, which
keeps the first spelling added. A lexicon is stored as a TSV file with the header ``idiom language meaning
source`` (one row per meaning and source).

Example::

    lex = Lexicon.from_pairs([("kick the bucket", "to die")])
    lex.add("kick the bucket", "EN", "to die", "epie")
    lex.to_tsv("lexicon.tsv")
    assert Lexicon.from_tsv("lexicon.tsv").get("kick the bucket").sources == ("user", "epie")
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, get_args

from idiomkit.data.csvio import read_text_lines
from idiomkit.data.errors import DataError
from idiomkit.data.heldout import HeldOut, normalise_idiom
from idiomkit.results import atomic_write_text

log = logging.getLogger(__name__)

Language = Literal["EN", "PT"]
LANGUAGES: tuple[str, ...] = get_args(Language)
COLUMNS = ("idiom", "language", "meaning", "source")


@dataclass(frozen=True)
class Entry:
    """One idiom: its spelling (as first added), language, meanings and sources, each in the order added."""

    idiom: str
    language: Language
    meanings: tuple[str, ...]
    sources: tuple[str, ...]


@dataclass
class _Record:
    idiom: str
    language: Language
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (meaning, source), distinct, in order

    def entry(self) -> Entry:
        meanings = tuple(dict.fromkeys(m for m, _ in self.pairs))
        sources = tuple(dict.fromkeys(s for _, s in self.pairs))
        return Entry(self.idiom, self.language, meanings, sources)


def _clean(text: str) -> str:
    return " ".join(str(text).split())


def check_language(language: str) -> Language:
    """``language`` upper-cased, or ValueError when it is neither EN nor PT.

    Example::

        check_language("pt")  # "PT"
    """
    code = _clean(language).upper()
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (expected {' or '.join(LANGUAGES)})")
    return code  # type: ignore[return-value]


class Lexicon:
    """Idioms keyed by (language, normalised idiom); meanings and sources merge on :meth:`add`.

    Example::

        lex = Lexicon()
        lex.add("spill the beans", "EN", "reveal a secret", "epie")
        "spill [pron] beans" in lex  # True
    """

    def __init__(self) -> None:
        self._records: dict[tuple[str, str], _Record] = {}

    def add(self, idiom: str, language: str, meaning: str, source: str) -> Entry:
        """Add one idiom sense; returns the (merged) entry. ValueError for an empty field or unknown language.

        Example::

            lex.add("pisar na bola", "PT", "errar", "user")
        """
        idiom, meaning, source = _clean(idiom), _clean(meaning), _clean(source)
        lang = check_language(language)
        for name, value in (("idiom", idiom), ("meaning", meaning), ("source", source)):
            if not value:
                raise ValueError(f"empty {name}")
        record = self._records.setdefault((lang, normalise_idiom(idiom)), _Record(idiom, lang))
        if (meaning, source) not in record.pairs:
            record.pairs.append((meaning, source))
        return record.entry()

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, idiom: object) -> bool:
        return isinstance(idiom, str) and self.get(idiom) is not None

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries())

    def get(self, idiom: str, language: str | None = None) -> Entry | None:
        """The entry of ``idiom`` (any spelling with the same normalised key); with no language, EN before PT.

        Example::

            lex.get("keep [pron] eye on")  # the entry added as "keep an eye on"
        """
        key = normalise_idiom(idiom)
        for lang in (check_language(language),) if language else LANGUAGES:
            if (record := self._records.get((lang, key))) is not None:
                return record.entry()
        return None

    def entries(self, language: str | None = None) -> list[Entry]:
        """Every entry (of ``language``, if given) in the order first added."""
        lang = check_language(language) if language else None
        return [r.entry() for r in self._records.values() if lang in (None, r.language)]

    def sizes(self) -> dict[tuple[str, str], int]:
        """How many entries each (language, source) contributes (an entry with two sources counts in both).

        Example::

            lex.sizes()  # {("EN", "epie"): 715, ("PT", "user"): 3}
        """
        counts = Counter((r.language, s) for r in self._records.values() for s in dict.fromkeys(s for _, s in r.pairs))
        return dict(counts)

    def remove_heldout(self, index: HeldOut) -> int:
        """Drop every entry whose idiom is held out (``index.has_idiom``); returns and logs how many.

        Example::

            dropped = lex.remove_heldout(heldout_index("../shared/data"))
        """
        held = [key for key, r in self._records.items() if index.has_idiom(r.idiom)]
        for key in held:
            del self._records[key]
        log.info("lexicon: dropped %d held-out idioms, %d entries left", len(held), len(self._records))
        return len(held)

    def rows(self) -> Iterator[tuple[str, str, str, str]]:
        """``(idiom, language, meaning, source)`` for every sense, the TSV's rows."""
        for r in self._records.values():
            for meaning, source in r.pairs:
                yield r.idiom, r.language, meaning, source

    def to_tsv(self, path: str | Path) -> Path:
        """Write the lexicon as TSV (header ``idiom language meaning source``), atomically.

        Example::

            lex.to_tsv("out/lexicon.tsv")
        """
        lines = ["\t".join(COLUMNS), *("\t".join(row) for row in self.rows())]
        return atomic_write_text(path, "\n".join(lines) + "\n")

    @classmethod
    def from_tsv(cls, path: str | Path) -> Lexicon:
        """Read a TSV written by :meth:`to_tsv` (or by hand); a bad row, or no idiom at all, is a one-line DataError
        naming file, row (header = row 0) and field.

        Example::

            lex = Lexicon.from_tsv("lexicon.tsv")
        """
        path = Path(path)
        lines = read_text_lines(path)
        _check_header(path, lines[0].split("\t"))
        lex = cls()
        for number, line in enumerate(lines[1:], start=1):
            if line.strip():
                lex._add_row(path, number, _record(path, number, line.split("\t")))
        if not len(lex):  # a reader with no idiom would find nothing in any text, silently
            raise DataError(path, 1, "idiom", "no idiom: the file has a header only" if len(lines) == 1 else
                            "no idiom: every line after the header is blank")  # fmt: skip
        log.info("lexicon %s: %d entries from %d rows", path, len(lex), len(lines) - 1)
        return lex

    def _add_row(self, path: Path, number: int, row: dict[str, str]) -> None:
        for name in ("idiom", "meaning", "source"):
            if not row[name].strip():
                raise DataError(path, number, name, "empty")
        try:
            self.add(row["idiom"], row["language"], row["meaning"], row["source"])
        except ValueError as exc:
            raise DataError(path, number, "language", str(exc)) from None

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str, str]], language: str = "EN", source: str = "user") -> Lexicon:
        """A lexicon from ``(idiom, meaning)`` pairs, all of one language and source.

        Example::

            lex = Lexicon.from_pairs([("pisar na bola", "errar")], language="PT")
        """
        lex = cls()
        for idiom, meaning in pairs:
            lex.add(idiom, language, meaning, source)
        return lex


def _record(path: Path, number: int, values: list[str]) -> dict[str, str]:
    """``{column: value}`` of a data row; too few or too many values is a DataError naming the column."""
    if len(values) != len(COLUMNS):
        field = COLUMNS[len(values)] if len(values) < len(COLUMNS) else f"column {len(COLUMNS) + 1}"
        raise DataError(path, number, field, f"{len(values)} tab-separated values, expected {len(COLUMNS)}")
    return dict(zip(COLUMNS, values, strict=True))


def _check_header(path: Path, header: list[str]) -> None:
    """The first line must name the four columns, in order."""
    names = [h.strip() for h in header]
    if names == list(COLUMNS):
        return
    if not set(names) & set(COLUMNS):
        raise DataError(path, 0, None, f"missing header: the first line must be {' <TAB> '.join(COLUMNS)}")
    for i, name in enumerate(COLUMNS):
        if i >= len(names) or names[i] != name:
            raise DataError(path, 0, name, f"expected column {i + 1} to be {name!r} (header has: {', '.join(names)})")
