"""The shipped idiom lexicon, built from training sources only, and the loader of its packaged TSV.

:func:`build_lexicon` reads every source that may be trained on (below), screens each (idiom, meaning) row for
precision, merges the rows per normalised idiom and language (keeping the fullest spelling, "pull someone's leg"
over PIE's lemma "pull leg", and the meanings in :data:`SOURCES` order, so an entry's first meaning comes from the
shortest, cleanest source), tags the SemEval-2022 train MWEs that got a meaning, and finally drops every idiom of
the held-out index (:func:`~idiomkit.data.heldout.heldout_index`). Counts per source and rule go to the log and to
the :class:`BuildReport`.

Sources, in meaning order (:data:`SOURCE_ORDER`): AStitch train rows (figurative meanings, EN + PT), CLUE, PIE
ISP train (idiom, sense; the lemma gets ``[pron]`` slots where its train sentences put a determiner), mt-ambiguity
meanings, EPIE meanings and the Wiktionary and baiango definitions of the idioms whose
:func:`~idiomkit.data.definitions.split_of` is train or val, LIdioms (EN and PT idioms with *English* definitions:
a PT idiom's meaning is English, kept and tagged ``lidioms``). SemEval-2022 2A/2B train MWEs add the tag
``semeval-train`` where one of those sources gave them a meaning.

Held out: an entry whose idiom is in the held-out index, and (:func:`heldout_variants`) an entry that is a
held-out idiom in another form ("spilling the beans" when "spill the beans" is held out, "cat out of the bag"
inside "let the cat out of the bag").

Screening (counted per source): a one-word idiom, an English phrasal verb (verb + particles only: "give up",
"look after", "put up with"), an empty meaning, and a meaning over :data:`MAX_MEANING_WORDS` words whose first
clause is still too long are dropped; a long meaning whose first clause fits is cut to it.

Example::

    lex = build_lexicon("../shared/data")
    lex.sizes()  # {("EN", "epie"): ..., ("PT", "astitch"): ...}
    default_lexicon().get("kick the bucket").meanings[0]  # "die"
"""

from __future__ import annotations

import logging
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from idiomkit.data.heldout import HeldOut, heldout_index
from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.matcher import Matcher, en_forms

log = logging.getLogger(__name__)

RESOURCES = Path(__file__).parent / "resources"
DEFAULT_LEXICON = RESOURCES / "lexicon.tsv"
MAX_MEANING_WORDS = 12
MAX_MEANINGS_PER_SOURCE = 2  # per idiom: keeps the TSV compact
SEMEVAL_TAG = "semeval-train"


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


PARTICLES = _set(
    "up down out off in on over away back after through around round about along across by into onto forward "
    "apart aside together ahead behind under with for to at from upon of"
)
_SLOT_WORDS = _set("someone somebody something sb sth it oneself")  # "give sb up" is "give up"
_NOT_VERBS = _set("way right upside deep better high game time year head leg all")  # "way forward", "leg up"
_FUNCTION = PARTICLES | _set(
    "a an the and or but not no nor as than so if is be are was were been being it its one one's my your his her "
    "our their me him us them anything something someone somebody anyone everything everyone nothing"
)
_DETERMINERS = _set("a an the this that these those my your his her its our their one's some any no")
_SLOTS = re.compile(r"\[[^\]]*\]|\([^)]*\)")
_WORDS = re.compile(r"[\w']+")
_DET_PATTERN = r"(?:a|an|the|this|that|these|those|my|your|his|her|its|our|their|thine|\w+'s)"
_TO = re.compile(rf"^to\s+(?!{_DET_PATTERN}\s)(?=\w+\s+\w)", re.I)  # "to bite the dust", not "to the core"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")
_CLAUSE = re.compile(r"\s*(?:[;:,(]|\s[-–—]\s|\bor\b)\s*")
_LABEL = re.compile(  # "(informal)", "Fig.", "1. n." before the sense itself
    r"^\s*(?:\([^)]*\)\s*|(?:informal|slang|figurative|fig|idiomatic)[.:]\s*|\d+[.)]\s+|"
    r"(?:n|v|adj|adv|phr|prep|interj)\.\s+)+",
    re.I,
)


class Sense(NamedTuple):
    """One (idiom, meaning) row of a source."""

    idiom: str
    language: str
    meaning: str
    source: str


# --- the sources ------------------------------------------------------------------------------------------------


def astitch_senses(data_dir: str | Path) -> list[Sense]:
    """AStitch train compounds with their figurative meanings (dev/test compounds are SemEval eval ones)."""
    from idiomkit.data.extra.astitch import load_astitch

    rows = load_astitch(data_dir, splits=("train",))
    return [Sense(r.idiom, r.language, m, "astitch") for r in rows for m in r.figurative_meanings]


def clue_senses(data_dir: str | Path) -> list[Sense]:
    """CLUE units (idioms, similes, proverbs; one-word metaphors fall to the one-word rule)."""
    from idiomkit.data.extra.clue import load_clue

    return [Sense(u.idiom, "EN", u.meaning, "clue") for u in load_clue(data_dir)]


def definition_senses(data_dir: str | Path) -> list[Sense]:
    """EPIE / Wiktionary / baiango definitions of the idioms whose split is train or val (never heldout)."""
    from idiomkit.data.definitions import load_idiom_data

    idioms = load_idiom_data(data_dir).idioms.values()
    kept = [i for i in idioms if i.split in ("train", "val")]
    log.info("lexicon definitions: %d of %d idioms are train/val (the rest are held out)", len(kept), len(idioms))
    return [Sense(_epie_slots(d.idiom) if d.source == "epie" else d.idiom, "EN", d.text, d.source) for i in kept
            for d in i.definitions]  # fmt: skip


def _epie_slots(idiom: str) -> str:
    """EPIE's ``[pron]`` back where its display text wrote "one's" (the slot takes any determiner: "put the cart
    before the horse" is EPIE's "put [pron] cart before [pron] horse")."""
    return re.sub(r"\bone's\b", "[pron]", idiom)


def pie_senses(data_dir: str | Path) -> list[Sense]:
    """PIE ISP train: one (idiom, sense) per idiom, the idiom with a ``[pron]`` slot wherever its train sentences
    put a determiner or possessive that PIE's lemma leaves out ("eat words" -> "eat [pron] words")."""
    from idiomkit.data.csvio import read_csv_rows
    from idiomkit.data.extra.pie import load_pie, pie_file

    spans: dict[str, list[list[str]]] = defaultdict(list)
    for _, rec in read_csv_rows(pie_file(data_dir, "train"), ("Idiom", "Idiomatic_Sent", "Idiomatic_Label")):
        tokens, labels = rec["Idiomatic_Sent"].split(" "), rec["Idiomatic_Label"].split(" ")
        tagged = [i for i, tag in enumerate(labels) if tag != "O"]
        if tagged and len(tokens) == len(labels):
            spans[rec["Idiom"].strip()].append([t.casefold() for t in tokens[tagged[0] : tagged[-1] + 1]])
    seen = {(p.idiom, p.sense) for p in load_pie(data_dir, ("train",)) if p.sense}
    return [Sense(with_slots(idiom, spans[idiom]), "EN", sense, "pie") for idiom, sense in sorted(seen)]


def with_slots(idiom: str, spans: Iterable[list[str]]) -> str:
    """``idiom`` with ``[pron]`` before each word that a determiner or possessive precedes in one of ``spans``
    (the idiom's tokens as used), where the idiom has none.

    Example::

        with_slots("eat words", [["ate", "my", "words"]])  # "eat [pron] words"
    """
    words = idiom.split()
    slotted: set[int] = set()
    for span in spans:
        at = 0
        for token in span:
            if at < len(words) and token in en_forms(words[at].casefold()):
                at += 1
            elif token in _DETERMINERS and 0 < at < len(words) and words[at - 1].casefold() not in _DETERMINERS:
                slotted.add(at)
    return " ".join(f"[pron] {w}" if i in slotted else w for i, w in enumerate(words))


def mt_senses(data_dir: str | Path) -> list[Sense]:
    """mt-ambiguity idiom meanings (TheIdioms.com and the pfbt corpus)."""
    from idiomkit.data.extra.mt_ambiguity import load_mt_meanings

    return [Sense(m.idiom, "EN", m.meaning, "mt_ambiguity") for m in load_mt_meanings(data_dir)]


def lidioms_senses(data_dir: str | Path) -> list[Sense]:
    """LIdioms EN and PT idioms; every definition is English."""
    from idiomkit.data.extra.lidioms import load_lidioms

    return [Sense(e.idiom, e.language, e.definition, "lidioms") for e in load_lidioms(data_dir)]


# the loaders; SOURCE_ORDER (by source tag) orders an entry's meanings: its first comes from the first tag listed
SOURCES: dict[str, Callable[[str | Path], list[Sense]]] = {
    "astitch": astitch_senses,
    "clue": clue_senses,
    "definitions": definition_senses,  # tags epie, wiktionary, baiango
    "pie": pie_senses,
    "mt_ambiguity": mt_senses,
    "lidioms": lidioms_senses,
}
SOURCE_ORDER = ("astitch", "clue", "pie", "mt_ambiguity", "epie", "wiktionary", "baiango", "lidioms")


def semeval_train_mwes(data_dir: str | Path) -> set[tuple[str, str]]:
    """``(mwe, language)`` of SemEval-2022 2A train (zero- and one-shot) and 2B train, EN and PT."""
    from idiomkit.data.semeval2a import load_setting
    from idiomkit.data.semeval2022 import load_train_pairs

    out = {(e.mwe, e.language) for e in load_setting(data_dir, "one_shot")[0]}
    out |= {(m, p.language) for p in load_train_pairs(data_dir) for m in p.mwes}
    return {(m, lang) for m, lang in out if lang in ("EN", "PT")}


# --- screening --------------------------------------------------------------------------------------------------


def clean_meaning(text: str) -> tuple[str | None, str | None]:
    """``(meaning, note)``: the first sentence, labels and a final period dropped; cut to its first clause when
    over :data:`MAX_MEANING_WORDS` words (note ``"meaning cut"``); None with the drop reason otherwise.

    Example::

        clean_meaning("To die. Used humorously.")  # ("to die", None)
    """
    text = " ".join(str(text).replace("\u200b", "").split())
    text = _SENTENCE_END.split(_LABEL.sub("", text))[0]
    text = re.split(r",?\s+as in\s", text)[0].strip().rstrip(".!;:, ")  # EPIE: "..., as in <example>"
    if not re.search(r"\w", text):
        return None, "no meaning"
    note = None
    if len(text.split()) > MAX_MEANING_WORDS:
        text, note = _CLAUSE.split(text)[0].strip(), "meaning cut"
        if not re.search(r"\w", text) or len(text.split()) > MAX_MEANING_WORDS:
            return None, "meaning too long"
    if text[1:2].islower() or len(text) == 1:
        text = text[0].lower() + text[1:]
    return text, note


def is_phrasal_verb(idiom: str) -> bool:
    """An English verb followed by particles only ("give up", "look after", "give sb up", "put up with").

    Example::

        is_phrasal_verb("look after"), is_phrasal_verb("hands down")  # True, False
    """
    words = [w for w in _WORDS.findall(_SLOTS.sub(" ", idiom.casefold())) if w not in _SLOT_WORDS]
    if len(words) < 2 or words[0] in PARTICLES | _NOT_VERBS or not all(w in PARTICLES for w in words[1:]):
        return False
    if re.search(r"\w-\w", idiom):  # "toss-up", "head-on": a compound noun or adjective
        return False
    verb = words[0]
    return not verb.endswith("s") or verb.endswith("ss")  # "hands down", "thanks to": a noun, not a verb


def clean_idiom(idiom: str) -> str:
    """An idiom's spelling: whitespace collapsed, a final period dropped, an infinitive's "to " dropped ("to bite
    the dust" -> "bite the dust"; "to the core" and "to a T" keep theirs).

    Example::

        clean_idiom("to not be made of money.")  # "not be made of money"
    """
    idiom = " ".join(idiom.split()).rstrip(".")
    return _TO.sub("", idiom) if len(idiom.split()) > 2 else idiom


def drop_reason(sense: Sense) -> str | None:
    """Why an idiom is dropped whatever its meaning: one word, or (English) a phrasal verb."""
    if len(normalise_idiom(sense.idiom).split()) < 2:
        return "one word"
    if sense.language == "EN" and is_phrasal_verb(sense.idiom):
        return "phrasal verb"
    return None


# --- the build --------------------------------------------------------------------------------------------------


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


def screen(rows: Iterable[Sense], report: BuildReport, index: HeldOut | None = None) -> list[Sense]:
    """The rows with a usable meaning whose idiom (as written or cleaned) is not in ``index``, idiom and meaning
    cleaned; each drop counted in ``report``."""
    out = []
    for row in rows:
        report.count(row.source, "read")
        idiom = clean_idiom(row.idiom)
        held = index is not None and (index.has_idiom(row.idiom) or index.has_idiom(idiom))
        meaning, note = clean_meaning(row.meaning) if not held else (None, "held out")
        if meaning is None:
            report.count(row.source, f"dropped: {note}")
            continue
        if note:
            report.count(row.source, note)
        out.append(row._replace(idiom=idiom, meaning=meaning))
    return out


def _spelling(rows: list[Sense]) -> str:
    """The fullest spelling of one idiom: most words (slots and articles kept), then the first in meaning order."""
    return max((r.idiom for r in rows), key=lambda s: len(re.findall(r"[\w']+", s)))


def assemble(rows: Iterable[Sense], report: BuildReport | None = None) -> Lexicon:
    """One entry per (language, normalised idiom): the fullest spelling, meanings in :data:`SOURCE_ORDER`
    (at most :data:`MAX_MEANINGS_PER_SOURCE` per source). An idiom whose spelling is one word or a phrasal verb
    (:func:`drop_reason`) is left out, each of its rows counted in ``report``.

    Example::

        assemble([Sense("pull leg", "EN", "tease", "pie"), Sense("pull someone's leg", "EN", "joke", "epie")])
    """
    groups: dict[tuple[str, str], list[Sense]] = defaultdict(list)
    for row in rows:
        groups[row.language, normalise_idiom(row.idiom)].append(row)
    rank = {s: i for i, s in enumerate(SOURCE_ORDER)}
    lex = Lexicon()
    for (language, _), group in groups.items():
        group.sort(key=lambda r: rank.get(r.source, len(rank)))
        spelling, per_source = _spelling(group), Counter()
        if reason := drop_reason(Sense(spelling, language, "", "")):
            for row in group:
                report.count(row.source, f"dropped: {reason}") if report is not None else None
            continue
        for row in group:
            if per_source[row.source] < MAX_MEANINGS_PER_SOURCE:
                per_source[row.source] += 1
                lex.add(spelling, language, row.meaning, row.source)
    return lex


def tag_semeval(lex: Lexicon, mwes: Iterable[tuple[str, str]], report: BuildReport) -> None:
    """Tag (source ``semeval-train``) the SemEval train MWEs that have a meaning; count those without one."""
    for mwe, language in sorted(mwes):
        entry = lex.get(mwe, language)
        report.count(SEMEVAL_TAG, "read")
        if entry is None:
            report.count(SEMEVAL_TAG, "dropped: no lexicon meaning")
            continue
        lex.add(entry.idiom, language, entry.meanings[0], SEMEVAL_TAG)


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
    or more content words matched inside an entry ("on thin ice" holds "thin ice").

    Example::

        heldout_variants(Lexicon.from_pairs([("spilling the beans", "telling")]), index)  # {"spilling beans"}
    """
    keys, found, rest = sorted(index.idioms), set(), lex
    while True:  # a match hides the shorter ones it overlaps: find again without it until nothing is left
        matcher = Matcher(rest)
        more = {normalise_idiom(m.idiom) for key in keys for m in matcher.find(key)}
        if not more:
            break
        found |= more
        rest = [e for e in rest if normalise_idiom(e.idiom) not in found]
    strong = [(k, k) for k in keys if sum(w not in _FUNCTION for w in k.split()) >= 2]
    held = Matcher(Lexicon.from_pairs(strong)) if strong else None
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


def build_lexicon(data_dir: str | Path, report: BuildReport | None = None) -> Lexicon:
    """The idiom lexicon of the training sources (module docstring), held-out idioms removed.

    Args:
        data_dir: the benchmark data root (holding ``idioms_extra/``, ``epie/``, ``definitions/``...).
        report: filled with the per-source counts and the final :meth:`Lexicon.sizes`, when given.

    Example::

        report = BuildReport()
        lex = build_lexicon("../shared/data", report)
    """
    report = report if report is not None else BuildReport()
    index = heldout_index(data_dir)
    rows = [row for load in SOURCES.values() for row in load(data_dir)]
    lex = assemble(screen(rows, report, index), report)
    tag_semeval(lex, semeval_train_mwes(data_dir), report)
    drop_heldout(lex, index, report)
    drop_heldout_variants(lex, index, report)
    for entry in lex:
        for source in entry.sources:
            report.count(source, "kept")
    report.sizes = lex.sizes()
    report.log()
    log.info("lexicon: %d entries, sizes %s", len(lex), report.sizes)
    return lex


def default_lexicon() -> Lexicon:
    """The packaged lexicon (``idioms/resources/lexicon.tsv``, written by ``benchmarks/build_lexicon.py``).

    Example::

        Matcher(default_lexicon()).find("She finally kicked the bucket.")
    """
    return Lexicon.from_tsv(DEFAULT_LEXICON)
