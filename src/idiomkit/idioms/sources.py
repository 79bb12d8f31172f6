"""The idiom lexicons: the full one that users get (shipped) and the evaluation one that scoring uses.

Both come from one build (:func:`idiomkit.idioms.lexicon_build.build_lexicon`, ``make lexicon``): every
shippable source screened for precision and merged into one entry per idiom and language.

Two lexicons, one code path:

- **shipped** (:func:`default_lexicon`, ``resources/lexicon.tsv``): every shippable source, held-out idioms
  included: what ``idiomkit read`` and a user's reader get;
- **evaluation** (:func:`evaluation_lexicon`): the same minus every idiom of the held-out index
  (:func:`~idiomkit.data.heldout.heldout_index`) in any form (:func:`remove_heldout_entries`): what the
  scorecard and the flagship recipe use, so no score rests on a meaning given for an evaluated idiom.
  ``lexicon_build.build_lexicon(..., evaluation=True)`` builds the same from the sources.

Held out (evaluation lexicon only): an entry whose idiom is in the held-out index, and (:func:`heldout_variants`)
an entry that is a held-out idiom in another form ("spilling the beans" when "spill the beans" is held out, "cat
out of the bag" inside "let the cat out of the bag", "sit on the fence" holding "on the fence").

The build itself (the sources, their screening and the merge) is :mod:`idiomkit.idioms.lexicon_build`; this
module holds what scoring and reading need at run time.

Example::

    default_lexicon().get("kick the bucket").meanings[0]  # "die"
    "spill the beans" in evaluation_lexicon("../shared/data")  # False
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from idiomkit.data.heldout import HeldOut, heldout_index
from idiomkit.data.keys import normalise_idiom
from idiomkit.errors import OptionError
from idiomkit.idioms.lexicon import LANGUAGES, Lexicon
from idiomkit.idioms.matcher import Matcher
from idiomkit.idioms.morphology import word_set

log = logging.getLogger(__name__)

RESOURCES = Path(__file__).parent / "resources"
DEFAULT_LEXICON = RESOURCES / "lexicon.tsv"  # gzip it (name it .tsv.gz) should it pass 2 MB
SEMEVAL_TAG = "semeval-train"


PARTICLES = word_set(
    "up down out off in on over away back after through around round about along across by into onto forward "
    "apart aside together ahead behind under with for to at from upon of"
)
FUNCTION_WORDS = PARTICLES | word_set(
    "a an the and or but not no nor as than so if is be are was were been being it its one one's my your his her "
    "our their me him us them anything something someone somebody anyone everything everyone nothing"
)
LEXICON_NAMES = ("shipped", "evaluation")  # the two lexicons' names in scorecards (``params.lexicon``)


# --- the held-out filter ----------------------------------------------------------------------------------------


@dataclass
class BuildReport:
    """Counts per source: rows read, dropped by each rule, meanings cut, held-out entries removed, kept."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    sizes: dict[tuple[str, str], int] = field(default_factory=dict)

    def count(self, source: str, what: str, n: int = 1) -> None:
        self.counts[source][what] += n

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {source: dict(counts) for source, counts in sorted(self.counts.items())}

    def log(self) -> None:
        for source, counts in sorted(self.counts.items()):
            log.info("lexicon source %s: %s", source, ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


def drop_heldout(lex: Lexicon, index: HeldOut, report: BuildReport) -> int:
    """Remove every held-out idiom (:meth:`Lexicon.remove_heldout`), counting the removed entries per source
    (``held-out entries``; the rows :func:`screen` dropped already are ``dropped: held out``)."""
    for entry in lex:
        if index.has_idiom(entry.idiom):
            for source in entry.sources:
                report.count(source, "held-out entries")
    return lex.remove_heldout(index)


def heldout_variants(lex: Lexicon, index: HeldOut) -> set[str]:
    """The entries (normalised idioms) that are a held-out idiom in another form: an entry whose pattern matches
    inside a held-out idiom ("spilling the beans", "out of hand" in "get out of hand"), or a held-out idiom of two
    or more words (one of them a content word) matched, inflected or not, inside an entry ("on thin ice" holds
    "thin ice", "sit on the fence" holds "on the fence", "chill to the bone" holds "to the bone").

    Example::

        heldout_variants(Lexicon.from_pairs([("spilling the beans", "telling")]), index)  # {"spilling beans"}
    """
    keys, matcher = sorted(index.idioms), Matcher(lex)  # every match counts, the shorter ones it overlaps too
    found = {normalise_idiom(m.idiom) for key in keys for m in matcher.find_all(key)}
    inner = [(k, k) for k in keys if len(k.split()) >= 2 and any(w not in FUNCTION_WORDS for w in k.split())]
    held = Matcher(Lexicon.from_pairs(inner)) if inner else None
    for entry in lex if held is not None else ():
        if held.find(normalise_idiom(entry.idiom)):
            found.add(normalise_idiom(entry.idiom))
    return found


def drop_heldout_variants(lex: Lexicon, index: HeldOut, report: BuildReport) -> int:
    """Remove :func:`heldout_variants`, counting them per source (``held-out variants``)."""
    variants = heldout_variants(lex, index)
    for entry in lex:
        if normalise_idiom(entry.idiom) in variants:
            for source in entry.sources:
                report.count(source, "held-out variants")
    return lex.remove_heldout(HeldOut(frozenset(), frozenset(variants)))


def remove_heldout_entries(lex: Lexicon, index: HeldOut, report: BuildReport | None = None) -> int:
    """Remove every held-out idiom and every held-out idiom in another form (:func:`heldout_variants`) from
    ``lex``, counting them per source in ``report``; returns how many entries went."""
    report = report if report is not None else BuildReport()
    return drop_heldout(lex, index, report) + drop_heldout_variants(lex, index, report)


def default_lexicon() -> Lexicon:
    """The packaged lexicon that users get (``idioms/resources/lexicon.tsv``, written by
    ``benchmarks/lexicon/build_lexicon.py``): every shippable source, held-out idioms included.

    Example::

        Matcher(default_lexicon()).find("She finally kicked the bucket.")
    """
    return Lexicon.from_tsv(DEFAULT_LEXICON)


@lru_cache(maxsize=4)
def _heldout_keys(data_dir: str, lexicon_file: str, stamp: float) -> frozenset[tuple[str, str]]:
    lex = Lexicon.from_tsv(lexicon_file)
    before = {(e.language, normalise_idiom(e.idiom)) for e in lex}
    remove_heldout_entries(lex, heldout_index(data_dir))
    return frozenset(before - {(e.language, normalise_idiom(e.idiom)) for e in lex})


def evaluation_lexicon(data_dir: str | Path) -> Lexicon:
    """The lexicon for scoring: the shipped one (:func:`default_lexicon`) minus every held-out idiom of
    ``data_dir``'s benchmarks in any form (:func:`remove_heldout_entries`), so a score never rests on a meaning
    the lexicon was given for an evaluated idiom. Its name in scorecards is ``"evaluation"``.

    Example::

        lex = evaluation_lexicon("../shared/data")
        "spill the beans" in default_lexicon(), "spill the beans" in lex  # True, False
    """
    root = str(Path(data_dir).resolve())
    gone = _heldout_keys(root, str(DEFAULT_LEXICON), DEFAULT_LEXICON.stat().st_mtime)
    lex = default_lexicon()
    for language in LANGUAGES:
        lex.remove([key for lang, key in gone if lang == language], language)
    log.info("evaluation lexicon: %d entries (%d held-out idioms and variants removed)", len(lex), len(gone))
    return lex


def lexicon_named(name: str, data_dir: str | Path) -> Lexicon:
    """The lexicon a scorecard names (:data:`LEXICON_NAMES`): ``"shipped"`` or ``"evaluation"``."""
    if name not in LEXICON_NAMES:
        raise OptionError(f"unknown lexicon {name!r} (expected one of {', '.join(LEXICON_NAMES)})")
    return default_lexicon() if name == "shipped" else evaluation_lexicon(data_dir)
