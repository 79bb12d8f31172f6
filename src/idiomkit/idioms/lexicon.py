"""An idiom lexicon: English and Portuguese idioms with their meanings and where each came from.

Entries merge on :func:`idiomkit.data.keys.normalise_idiom` (slots such as ``[pron]``/``(somebody)``, articles
and possessive fillers dropped), per language: "keep [pron] eye on" and "keep an eye on" are one entry, which
keeps the first spelling added. A lexicon is stored as a TSV file (gzipped when its name ends in ``.gz``) with
the header ``idiom language meaning source`` and optionally a fifth column ``meaning_language`` (one row per meaning
and source). A meaning's language is the idiom's unless the row says otherwise: a Portuguese idiom with an English
meaning is a gloss for multilingual encoders, not a paraphrase to put into Portuguese text
(:attr:`Entry.meaning_languages`).

Example::

    lex = Lexicon.from_pairs([("kick the bucket", "to die")])
    lex.add("kick the bucket", "EN", "to die", "epie")
    lex.to_tsv("lexicon.tsv")
    assert Lexicon.from_tsv("lexicon.tsv").get("kick the bucket").sources == ("user", "epie")
"""

from __future__ import annotations

import gzip
import logging
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol, get_args

from idiomkit.data.csvio import read_text_lines
from idiomkit.data.errors import DataError
from idiomkit.data.keys import normalise_idiom
from idiomkit.errors import InputError, OptionError
from idiomkit.results import atomic_write_text


class HeldOutIdioms(Protocol):
    """What :meth:`Lexicon.remove_heldout` asks of a held-out index (:class:`idiomkit.data.heldout.HeldOut` has it;
    the index finds idioms with the matcher, which reads this module, so it is not imported here)."""

    def has_idiom(self, idiom: str) -> bool: ...


log = logging.getLogger(__name__)

Language = Literal["EN", "PT"]
LANGUAGES: tuple[str, ...] = get_args(Language)
COLUMNS = ("idiom", "language", "meaning", "source")
MEANING_LANGUAGE = "meaning_language"  # the optional fifth column


@dataclass(frozen=True)
class Entry:
    """One idiom: its spelling (as first added), language, meanings and sources, each in the order added;
    ``meaning_languages[i]`` is the language of ``meanings[i]`` (EN or PT)."""

    idiom: str
    language: Language
    meanings: tuple[str, ...]
    sources: tuple[str, ...]
    meaning_languages: tuple[str, ...] = field(default=(), compare=False)

    def meaning_language(self, i: int = 0) -> str:
        """The language of meaning ``i`` (the idiom's language when not recorded)."""
        return self.meaning_languages[i] if i < len(self.meaning_languages) else self.language


@dataclass
class _Record:
    idiom: str
    language: Language
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (meaning, source), distinct, in order
    meaning_language: dict[str, str] = field(default_factory=dict)  # meaning -> its language (first recorded)

    def entry(self) -> Entry:
        meanings = tuple(dict.fromkeys(m for m, _ in self.pairs))
        sources = tuple(dict.fromkeys(s for _, s in self.pairs))
        languages = tuple(self.meaning_language.get(m, self.language) for m in meanings)
        return Entry(self.idiom, self.language, meanings, sources, languages)


def _clean(text: str) -> str:
    return " ".join(str(text).split())


def check_language(language: str) -> Language:
    """``language`` upper-cased, or OptionError when it is neither EN nor PT.

    Example::

        check_language("pt")  # "PT"
    """
    code = _clean(language).upper()
    if code not in LANGUAGES:
        raise OptionError(f"unknown language {language!r} (expected {' or '.join(LANGUAGES)})")
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

    def add(self, idiom: str, language: str, meaning: str, source: str, meaning_language: str | None = None) -> Entry:
        """Add one idiom sense; returns the (merged) entry. InputError for an empty field, OptionError for an
        unknown language.
        ``meaning_language``: the meaning's language when it is not the idiom's (an English gloss of a PT idiom).

        Example::

            lex.add("pisar na bola", "PT", "errar", "user")
            lex.add("pisar na bola", "PT", "to blunder", "user", meaning_language="EN")
        """
        idiom, meaning, source = _clean(idiom), _clean(meaning), _clean(source)
        lang = check_language(language)
        meaning_lang = check_language(meaning_language) if meaning_language else lang
        for name, value in (("idiom", idiom), ("meaning", meaning), ("source", source)):
            if not value:
                raise InputError(f"empty {name}")
        record = self._records.setdefault((lang, normalise_idiom(idiom)), _Record(idiom, lang))
        if (meaning, source) not in record.pairs:
            record.pairs.append((meaning, source))
            record.meaning_language.setdefault(meaning, meaning_lang)
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

    def remove(self, idioms: Iterable[str], language: str | None = None) -> int:
        """Drop the entries of these idioms (any spelling with the same key; of ``language``, or any); returns how
        many were dropped."""
        keys = {normalise_idiom(i) for i in idioms}
        gone = [k for k, r in self._records.items() if k[1] in keys and language in (None, r.language)]
        for key in gone:
            del self._records[key]
        return len(gone)

    def remove_heldout(self, index: HeldOutIdioms) -> int:
        """Drop every entry whose idiom is held out (``index.has_idiom``); returns and logs how many.

        Example::

            dropped = lex.remove_heldout(heldout_index("../shared/data"))
        """
        held = [key for key, r in self._records.items() if index.has_idiom(r.idiom)]
        for key in held:
            del self._records[key]
        log.info("lexicon: dropped %d held-out idioms, %d entries left", len(held), len(self._records))
        return len(held)

    def rows(self) -> Iterator[tuple[str, str, str, str, str]]:
        """``(idiom, language, meaning, source, meaning language)`` for every sense, the TSV's rows."""
        for r in self._records.values():
            for meaning, source in r.pairs:
                yield r.idiom, r.language, meaning, source, r.meaning_language.get(meaning, r.language)

    def to_tsv(self, path: str | Path) -> Path:
        """Write the lexicon as TSV (header ``idiom language meaning source meaning_language``), atomically;
        gzipped (reproducibly: no name, no time stamp) when ``path`` ends in ``.gz``.

        Example::

            lex.to_tsv("out/lexicon.tsv")
        """
        lines = ["\t".join((*COLUMNS, MEANING_LANGUAGE)), *("\t".join(row) for row in self.rows())]
        text = "\n".join(lines) + "\n"
        if str(path).endswith(".gz"):
            from idiomkit.results import atomic_write_bytes

            data = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
            return atomic_write_bytes(path, data)
        return atomic_write_text(path, text)

    @classmethod
    def from_tsv(cls, path: str | Path) -> Lexicon:
        """Read a TSV written by :meth:`to_tsv` (or by hand); a bad row, or no idiom at all, is a one-line DataError
        naming file, row (header = row 0) and field.

        Example::

            lex = Lexicon.from_tsv("lexicon.tsv")
        """
        path = Path(path)
        lines = _gz_lines(path) if path.name.endswith(".gz") else read_text_lines(path)
        columns = _check_header(path, lines[0].split("\t"))
        lex = cls()
        for number, line in enumerate(lines[1:], start=1):
            if line.strip():
                lex._add_row(path, number, _record(path, number, line.split("\t"), columns))
        if not len(lex):  # a reader with no idiom would find nothing in any text, silently
            raise DataError(
                path,
                1,
                "idiom",
                "no idiom: the file has a header only"
                if len(lines) == 1
                else "no idiom: every line after the header is blank",
            )
        log.info("lexicon %s: %d entries from %d rows", path, len(lex), len(lines) - 1)
        return lex

    def _add_row(self, path: Path, number: int, row: dict[str, str]) -> None:
        for name in ("idiom", "meaning", "source"):
            if not row[name].strip():
                raise DataError(path, number, name, "empty")
        meaning_language = row.get(MEANING_LANGUAGE, "").strip() or None
        if meaning_language is not None:
            try:
                check_language(meaning_language)
            except ValueError as exc:
                raise DataError(path, number, MEANING_LANGUAGE, str(exc)) from None
        try:
            self.add(row["idiom"], row["language"], row["meaning"], row["source"], meaning_language)
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


def _gz_lines(path: Path) -> list[str]:
    """The lines of a gzipped UTF-8 TSV (DataError for a missing, corrupt or empty file)."""
    from idiomkit.data.csvio import read_bytes

    try:
        text = gzip.decompress(read_bytes(path)).decode("utf-8")
    except (OSError, EOFError, zlib.error) as exc:  # BadGzipFile is an OSError; a damaged stream, zlib.error
        raise DataError(path, None, None, f"not a readable gzip file ({exc or type(exc).__name__})") from None
    except UnicodeDecodeError as exc:
        raise DataError(path, None, None, f"not valid UTF-8 (offset {exc.start})") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines:
        raise DataError(path, None, None, "file is empty")
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _record(path: Path, number: int, values: list[str], columns: tuple[str, ...] = COLUMNS) -> dict[str, str]:
    """``{column: value}`` of a data row; too few or too many values is a DataError naming the column."""
    if len(values) != len(columns):
        field = columns[len(values)] if len(values) < len(columns) else f"column {len(columns) + 1}"
        raise DataError(path, number, field, f"{len(values)} tab-separated values, expected {len(columns)}")
    return dict(zip(columns, values, strict=True))


def _check_header(path: Path, header: list[str]) -> tuple[str, ...]:
    """The first line must name the four columns, in order (and optionally ``meaning_language`` fifth); returns
    the columns."""
    names = [h.strip() for h in header]
    if names == list(COLUMNS):
        return COLUMNS
    if names == [*COLUMNS, MEANING_LANGUAGE]:
        return (*COLUMNS, MEANING_LANGUAGE)
    if not set(names) & set(COLUMNS):
        raise DataError(path, 0, None, f"missing header: the first line must be {' <TAB> '.join(COLUMNS)}")
    for i, name in enumerate(COLUMNS):
        if i >= len(names) or names[i] != name:
            raise DataError(path, 0, name, f"expected column {i + 1} to be {name!r} (header has: {', '.join(names)})")
    raise DataError(path, 0, names[len(COLUMNS)], f"unexpected column 5 (only {MEANING_LANGUAGE!r} may follow)")
