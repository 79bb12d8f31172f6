"""Idiom reading in the API: :func:`read` shows what the idiom reader finds in a text and how it rewrites it;
:func:`add_reader` puts an :class:`~idiomkit.idioms.reader.IdiomReader` first in a SentenceTransformer, so its
``encode`` rewrites figurative idioms (mark / gloss / replace) before tokenizing.

Example::

    import idiomkit

    idiomkit.read("She finally kicked the bucket.").rewritten  # "She finally died."
    model = idiomkit.add_reader(idiomkit.load_model("minilm"), mode="gloss")
    model.encode("she finally kicked the bucket")  # the embedding of "she finally kicked the bucket (to die)"
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from idiomkit.errors import OptionError, api_errors, check_choice
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.rewrite import MODES, Reading, Rewriter, SenseLike

if TYPE_CHECKING:  # pragma: no cover
    from sentence_transformers import SentenceTransformer

LexiconArg = Lexicon | str | Path | None
SenseArg = SenseLike | str | Path | None
READER_NAME = "idiom_reader"


def resolve_lexicon(lexicon: LexiconArg) -> Lexicon:
    """A :class:`Lexicon` as given, read from a TSV path, or (None) the shipped one."""
    if isinstance(lexicon, Lexicon):
        return lexicon
    if lexicon is None:
        from idiomkit.idioms.sources import default_lexicon

        return default_lexicon()
    return Lexicon.from_tsv(lexicon)


def resolve_sense(sense: SenseArg) -> SenseLike | None:
    """A sense check as given; ``"default"``: the shipped one; ``"none"``/None: none; else a saved JSON file."""
    if sense is None or sense == "none":
        return None
    if not isinstance(sense, (str, Path)):
        return sense
    from idiomkit.idioms.senses import NAMES, load_sense, named_sense

    if sense in NAMES:
        return named_sense(sense)
    if not Path(sense).is_file():
        raise OptionError(
            f"unknown sense check {str(sense)!r}: expected one of {', '.join(NAMES)}, none, or a sense-check JSON file"
        )
    return load_sense(sense)


@api_errors
def read(
    text: str | Sequence[str],
    mode: str = "replace",
    lexicon: LexiconArg = None,
    sense: SenseArg = "default",
    language: str | None = None,
) -> Reading | list[Reading]:
    """What the idiom reader finds in ``text`` (span, idiom, meanings, sense probability and decision) and the
    rewritten text. No encoder to choose: the default sense check is a small cross-encoder shipped in the package
    (on me5-small-enpt, extra ``me5``); ``sense="features"`` or ``"none"`` needs no model library.

    Args:
        text: the text to read, or a list of texts (a list of readings back, in order; the sense check scores
            every match of the list in batches, much faster than one call a text).
        mode: ``mark`` («span»), ``gloss`` (span (meaning)) or ``replace`` (the meaning instead of the span).
        lexicon: a Lexicon or a lexicon TSV file; None: the shipped lexicon.
        sense: ``"default"`` (the shipped sense check), None / ``"none"`` (every match figurative), a sense-check
            JSON file or an object with ``figurative_probability`` and ``threshold`` (optionally
            ``threshold_for(language)``).
        language: only idioms of EN or PT; None: both.

    Example::

        reading = read("He is a dark horse.", mode="gloss")
        [(f.match.text, f.probability, f.figurative) for f in reading.found]
        [r.rewritten for r in read(["She spilled the beans.", "Ele pisou na bola."])]
    """
    reader = rewriter(mode, lexicon, sense, language)
    return reader.read(text) if isinstance(text, str) else reader.read_all(list(text))


@api_errors
def rewriter(
    mode: str = "replace", lexicon: LexiconArg = None, sense: SenseArg = "default", language: str | None = None
) -> Rewriter:
    """The :class:`~idiomkit.idioms.rewrite.Rewriter` that :func:`read` uses (arguments as there): keep one to read
    many batches of texts with ``read_all`` (its lexicon and sense check are loaded once)."""
    check_choice("mode", mode, MODES)
    return Rewriter(resolve_lexicon(lexicon), mode, resolve_sense(sense), language)


@api_errors
def add_reader(
    model: SentenceTransformer,
    mode: str = "replace",
    lexicon: LexiconArg = None,
    sense: SenseArg = "default",
    language: str | None = None,
) -> SentenceTransformer:
    """Put an :class:`~idiomkit.idioms.reader.IdiomReader` first in ``model`` (replacing one it has) and return
    the model: its ``encode`` rewrites texts from now on, and ``model.save`` keeps the reader (reload it with
    :func:`idiomkit.load_model`, which runs no code from the folder).

    Args:
        model: any SentenceTransformer (trained or not) whose first module tokenizes.
        mode: ``mark``, ``gloss`` or ``replace``.
        lexicon: a Lexicon or a lexicon TSV file; None: the shipped lexicon.
        sense: as in :func:`read`: the shipped sense check by default; ``"none"`` / None: every match counts as
            figurative.
        language: only idioms of EN or PT; None: both.

    Example::

        model = add_reader(load_model("minilm"), mode="mark")
    """
    from idiomkit.idioms.reader import IdiomReader, attach_reader

    check_choice("mode", mode, MODES)
    reader = IdiomReader(resolve_lexicon(lexicon), mode, resolve_sense(sense), language)
    return attach_reader(model, reader, READER_NAME)


def reading_rows(reading: Reading) -> list[list[str]]:
    """A table of what :func:`read` found: header, then one row per match."""
    rows = [["span", "idiom", "lang", "P(figurative)", "decision", "meaning", "source"]]
    for f in reading.found:
        p = "-" if f.probability is None else f"{f.probability:.2f}"
        decision = "figurative (bare)" if f.bare else "figurative" if f.figurative else "literal: kept"
        rows.append(
            [f.match.text, f.match.idiom, f.match.language, p, decision, meaning_cell(f.match), source_cell(f.match)]
        )
    return rows


def meaning_cell(match: Any) -> str:
    """The first meaning, its language noted when it is not the idiom's (an English gloss of a PT idiom)."""
    languages = getattr(match, "meaning_languages", ())
    gloss = languages[0] if languages and languages[0] != match.language else None
    return f"{match.meanings[0]} ({gloss} gloss)" if gloss else match.meanings[0]


def source_cell(match: Any) -> str:
    """The lexicon source of the first meaning, and how many other sources the entry has ("epie +3")."""
    sources = getattr(match, "sources", ())
    if not sources:
        return "-"
    return sources[0] + (f" +{len(sources) - 1}" if len(sources) > 1 else "")


def reading_json(readings: list[Reading]) -> list[dict[str, Any]]:
    return [r.to_dict() for r in readings]
