"""Held-out hygiene: the one filter every training source goes through.

:func:`heldout_index` collects, once per data directory, the normalised sentences of every held-out split (2B
dev/eval/test, 2A dev/eval/test, IdioLink val/test, AdMIRe dev/test, the Xiao held-out idioms' sentences, STS-B and
ASSIN 2 dev (they are 2B dev's STS rows) and test) and the idioms of the benchmarks that promise unseen idioms
(2A dev/eval/test, IdioLink val/test, AdMIRe dev/test, the Xiao held-out idioms, the core test's held-out idioms
listed in ``data/resources/core_test_heldout.tsv`` with its held-out triples' sentences
(:mod:`idiomkit.data.meaning_triples`), and any extra idioms a caller adds). :func:`filter_heldout` drops every
training example one of whose sentences is held out, or whose idiom is, and logs how many it dropped per source
and rule.

Sentences compare after :func:`normalise_sentence` (Unicode NFKC, case folded, punctuation removed, whitespace
collapsed); idioms after :func:`normalise_idiom` (the same, slots such as ``[pron]``/``(somebody)``, articles and
possessive fillers dropped: "keep [pron] eye on" and "keep an eye on" are one idiom).

A held-out idiom is also found in any form inside a text (:class:`IdiomForms`, the one variant-aware check: every
training stream's texts and idiom labels, and the evaluation lexicon's entries, go through it): the idiom matcher
(:class:`~idiomkit.idioms.matcher.Matcher`: inflections, slots, short insertions), and, for recall, the idiom's
content words in order with up to :data:`CONTENT_GAP` other words between two of them, each in any inflection and
in British or American spelling ("pull leg" in "he was pulling my leg", "wash hands of" in "washed his hands of" and
in "wash one's hands", "beat about the bush" in "beating around the bush", "armour" = "armor"), a two-word idiom's
words also the other way round next to each other ("mend fences" in "fence mending", "twist arm" in
"arm-twisting"); an idiom with one content word: all its words but articles, in order, up to
:data:`WORD_GAP` words apart ("on doorstep" in "on the doorstep"). It errs on the side of finding: a training row
lost to a literal use costs little, a held-out idiom trained on costs the measurement.

Example::

    index = heldout_index("../shared/data")
    kept = filter_heldout("sts-train", pairs, lambda p: (p.sentence_1, p.sentence_2), index=index).kept
    index.find("He was pulling my leg.")  # the held-out idioms found, e.g. ["pull leg"]
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Generic, TypeVar

from idiomkit.data.admire import load_admire
from idiomkit.data.definitions import load_idiom_data
from idiomkit.data.errors import DataError
from idiomkit.data.idiolink import load_idiolink
from idiomkit.data.keys import FILLERS, canonical_spelling, idiom_words, normalise_idiom, normalise_sentence
from idiomkit.data.meaning_triples import CoreTest, load_core_test
from idiomkit.data.semeval2a import load_dev
from idiomkit.data.semeval2022 import load_subtask_b, semeval_root
from idiomkit.data.sts import load_sts
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.matcher import Matcher
from idiomkit.idioms.morphology import EN_FUNCTION, PT_DETS, PT_FUNCTION, pt_forms, word_set
from idiomkit.idioms.morphology_en import en_forms
from idiomkit.idioms.patterns import TOKEN, WORD, parse_idiom

log = logging.getLogger(__name__)

T = TypeVar("T")


# --- held-out idioms in any form -----------------------------------------------------------------------------

CONTENT_GAP = 3  # the most other words between two content words of a held-out idiom ("ants in your pants")
WORD_GAP = 2  # the most other words between two words of a one-content-word idiom ("on the doorstep")
# never an idiom's content word: function words, auxiliaries and quantifiers ("wouldn't be caught dead" is
# "caught dead"; "beat about the bush" and "beat around the bush" are "beat bush"); "n't" is dropped too
_EN_NOT_CONTENT = EN_FUNCTION | word_set(
    "be is are was were been being am do does did have has had would will shall should could can may might must "
    "around along behind beyond within without against among between toward towards near after before since until "
    "during some any every each another such very"
)
_PT_NOT_CONTENT = PT_FUNCTION | word_set("ser é são foi era estar está estão estava ter tem têm tinha haver há ir vai")
# what may stand between two words of a held-out idiom besides those: pronouns, fillers, "other", and a
# possessor ("his sister's leg"); any other word breaks the sequence ("washed the dishes by hand" is no
# "wash hands of")
_GAP_WORDS = (
    _EN_NOT_CONTENT
    | _PT_NOT_CONTENT
    | FILLERS
    | word_set(
        "anyone anybody anything everyone everybody everything nobody nothing myself yourself himself herself itself "
        "ourselves yourselves themselves oneself other others own whole"
    )
)
_ARTICLES = word_set("a an the this that these those") | PT_DETS
_GLUED = re.compile(r"\s+((?:['’](?:s|re|ve|ll|d|m))|n['’]t)\b")  # PIE's tokenised "stone 's", "would n't"
_SEGMENT = re.compile(r"[.!?;:…\n]+")


def _word_key(word: str) -> str:
    """A word as the variant check compares it: case folded, a possessive 's dropped, one spelling for
    British/American pairs."""
    word = word.casefold().replace("’", "'")
    if word.endswith("'s") and len(word) > 3:
        word = word[:-2]
    return canonical_spelling(word.strip("'"))


def _gap_word(token: str) -> bool:
    """Whether ``token`` (a raw, case-folded text token) may stand between two words of a held-out idiom."""
    return token in _GAP_WORDS or token.endswith(("'s", "’s")) or "n't" in token


def _forms(word: str, language: str) -> frozenset[str]:
    """Every form of an idiom word as :func:`_word_key` writes it (English, Portuguese or, for ``""``, both)."""
    out: set[str] = set()
    if language in ("EN", ""):
        out |= en_forms(word) | en_forms(canonical_spelling(word))
    if language in ("PT", ""):
        out |= pt_forms(word)
    return frozenset(_word_key(f) for f in out | {word})


def idiom_sequence(idiom: str, language: str) -> tuple[list[str], bool]:
    """The words of ``idiom`` the variant check looks for, and whether they are its content words (two or
    more; else all its words but articles and fillers, when two or more remain; else none).

    Example::

        idiom_sequence("wash one's hands of", "EN")  # (["wash", "hands"], True)
        idiom_sequence("on the doorstep", "EN")  # (["on", "doorstep"], False)
    """
    words = [w for w in idiom_words(idiom) if w not in FILLERS and "n't" not in w]
    stop = _PT_NOT_CONTENT if language == "PT" else _EN_NOT_CONTENT | (_PT_NOT_CONTENT if not language else set())
    content = [w for w in words if w not in stop]
    if len(content) >= 2:
        return content, True
    rest = [w for w in words if w not in _ARTICLES]
    return (rest, False) if len(rest) >= 2 and content else ([], False)


def _segments(text: str) -> list[tuple[list[str], list[bool]]]:
    """``text`` cut at sentence breaks: each part's word keys (:func:`_word_key`; hyphens split words) and whether
    each word may stand inside an idiom (:func:`_gap_word`)."""
    text = _GLUED.sub(r"\1", unicodedata.normalize("NFKC", text).casefold())
    out = []
    for part in _SEGMENT.split(text):
        tokens = [m.group() for m in TOKEN.finditer(part)]
        out.append(([_word_key(t) for t in tokens], [_gap_word(t) for t in tokens]))
    return out


def _matchable(idiom: str, language: str) -> bool:
    """Whether the idiom matcher's pattern of ``idiom`` keeps two of its words or more (a pattern cut down to one
    word, as "anything goes" to "goes", would find every form of that word)."""
    slots = parse_idiom(idiom, language)
    return sum(s.kind == WORD for s in slots) >= min(2, len(idiom_words(idiom)))


class _Sequence:
    """One held-out idiom's word sequence: the forms of each word and the gap allowed between two."""

    def __init__(self, idiom: str, words: list[str], content: bool, language: str):
        self.idiom, self.gap, self.pair = idiom, CONTENT_GAP if content else WORD_GAP, content and len(words) == 2
        self.forms = [_forms(w, language) if w not in _EN_NOT_CONTENT | _PT_NOT_CONTENT else {w} for w in words]

    def at(self, tokens: list[str], gaps: list[bool], start: int) -> bool:
        """Whether the sequence matches from ``tokens[start]`` (one of its first word's forms), the words between
        two of its words all ``gaps`` words."""

        def walk(k: int, pos: int) -> bool:
            if k == len(self.forms):
                return True
            for nxt in range(pos + 1, min(pos + 2 + self.gap, len(tokens))):
                if tokens[nxt] in self.forms[k] and walk(k + 1, nxt):
                    return True
                if not gaps[nxt]:
                    return False
            return False

        return walk(1, start)

    def swapped_at(self, tokens: list[str], start: int) -> bool:
        """A two-content-word idiom the other way round, its words next to each other ("fence mending")."""
        return self.pair and start + 1 < len(tokens) and tokens[start + 1] in self.forms[0]


class IdiomForms:
    """Finds idioms in any form inside texts: the idiom matcher, then the word sequences of the module docstring.

    Args:
        idioms: ``(idiom, language)`` pairs (language ``EN`` or ``PT``; any other, e.g. 2A's ``GL``, as either).

    Example::

        forms = IdiomForms([("pull leg", "EN"), ("ar livre", "PT")])
        forms.find("He was pulling my leg."), forms.find("Almoçamos ao ar livre.")  # ["pull leg"], ["ar livre"]
    """

    def __init__(self, idioms: Iterable[tuple[str, str]]):
        idioms = sorted({(i, lang if lang in ("EN", "PT") else "") for i, lang in idioms})  # GL: as either
        lex = Lexicon()
        for idiom, language in idioms:
            for lang in (language,) if language else ("EN", "PT"):
                if _matchable(idiom, lang):
                    lex.add(idiom, lang, "held out", "held-out check")
        self.matcher = Matcher(lex)
        self._first: dict[str, list[_Sequence]] = {}
        self._second: dict[str, list[_Sequence]] = {}
        for idiom, language in idioms:
            words, content = idiom_sequence(idiom, language)
            if words:
                seq = _Sequence(idiom, words, content, language)
                for form in seq.forms[0]:
                    self._first.setdefault(form, []).append(seq)
                for form in seq.forms[1] if seq.pair else ():
                    self._second.setdefault(form, []).append(seq)
        self._memo: dict[str, tuple[str, ...]] = {}

    def __len__(self) -> int:
        return len(self.matcher)

    def find(self, text: str) -> list[str]:
        """The idioms (as given) found in ``text``, sorted; memoised per text."""
        if not text:
            return []
        if text not in self._memo:
            found = {m.idiom for m in self.matcher.find(text)}
            for tokens, gaps in _segments(text):
                for i, token in enumerate(tokens):
                    found.update(s.idiom for s in self._first.get(token, ()) if s.at(tokens, gaps, i))
                    found.update(s.idiom for s in self._second.get(token, ()) if s.swapped_at(tokens, i))
            self._memo[text] = tuple(sorted(found))
        return list(self._memo[text])


@dataclass(frozen=True)
class HeldOut:
    """Normalised held-out sentences and idioms, with how many each split contributed; ``forms``: the held-out
    idioms as written with their languages, which :meth:`find` looks for in any form."""

    sentences: frozenset[str]
    idioms: frozenset[str]
    sizes: dict[str, int] = field(default_factory=dict, compare=False)
    benchmark_idioms: frozenset[str] = frozenset()  # the idioms of the benchmarks' own held-out splits
    forms: frozenset[tuple[str, str]] = field(default=frozenset(), compare=False)

    def with_idioms(self, idioms: Iterable[str | tuple[str, str]], name: str = "extra") -> HeldOut:
        """This index plus more held-out idioms (each an idiom or an ``(idiom, language)`` pair)."""
        pairs = {(i, "") if isinstance(i, str) else (i[0], i[1]) for i in idioms}
        extra = {normalise_idiom(i) for i, _ in pairs}
        sizes = {**self.sizes, f"{name} idioms": len(extra)}
        return HeldOut(self.sentences, self.idioms | extra, sizes, self.benchmark_idioms, self.forms | pairs)

    @cached_property
    def finder(self) -> IdiomForms:
        """The variant check over :attr:`forms` (built once per index)."""
        return IdiomForms(self.forms)

    def has_sentence(self, text: str) -> bool:
        return normalise_sentence(text) in self.sentences

    def has_idiom(self, idiom: str) -> bool:
        """Whether ``idiom`` is held out: its key is, or it holds a held-out idiom in any form ("pulling someone's
        leg", "wash one's hands", "knight in shining armor")."""
        return normalise_idiom(idiom) in self.idioms or bool(self.find(idiom))

    def find(self, text: str) -> list[str]:
        """The held-out idioms found in ``text`` in any form (:class:`IdiomForms`)."""
        return self.finder.find(text) if self.forms else []


@dataclass
class Filtered(Generic[T]):
    """What :func:`filter_heldout` kept, and how many it dropped by each rule."""

    source: str
    kept: list[T]
    total: int
    dropped_sentence: int = 0
    dropped_idiom: int = 0
    dropped_form: int = 0  # a text holds a held-out idiom in some form

    @property
    def dropped(self) -> int:
        return self.dropped_sentence + self.dropped_idiom + self.dropped_form

    def counts(self) -> dict[str, int]:
        return {
            "total": self.total,
            "kept": len(self.kept),
            "dropped_sentence": self.dropped_sentence,
            "dropped_idiom": self.dropped_idiom,
            "dropped_form": self.dropped_form,
        }


def filter_heldout(
    source: str,
    examples: Sequence[T],
    sentences: Callable[[T], Iterable[str]],
    idioms: Callable[[T], Iterable[str]] | None = None,
    *,
    index: HeldOut,
    forms: bool = True,
) -> Filtered[T]:
    """Drop every example with a held-out sentence (``sentences(example)``), a held-out idiom (``idioms(example)``,
    by key or in any form: :meth:`HeldOut.has_idiom`) or, with ``forms``, a text that holds a held-out idiom in any
    form (:meth:`HeldOut.find`); logs the counts for ``source``.

    Args:
        source: the training source's name, for the log line.
        examples: the source's examples, in order (kept ones stay in order).
        sentences: the texts of one example that must not occur in a held-out split nor hold a held-out idiom.
        idioms: the idioms an example is about (None: the source names no idiom).
        index: the held-out sentences and idioms (:func:`heldout_index`).
        forms: look for held-out idioms inside the texts (off only for SemEval 2B's own rule, which shares idioms
            between train and dev: ``--no-dedup-idioms``).
    """
    out = Filtered(source, [], len(examples))
    for example in examples:
        texts = [s for s in sentences(example) if s]
        if any(index.has_sentence(s) for s in texts):
            out.dropped_sentence += 1
        elif idioms is not None and any(index.has_idiom(i) for i in idioms(example) if i):
            out.dropped_idiom += 1
        elif forms and any(index.find(s) for s in texts):
            out.dropped_form += 1
        else:
            out.kept.append(example)
    log.info(
        "held-out dedup %s: kept %d of %d (%d with a held-out sentence, %d of a held-out idiom, %d holding a "
        "held-out idiom in another form)",
        source,
        len(out.kept),
        out.total,
        out.dropped_sentence,
        out.dropped_idiom,
        out.dropped_form,
    )
    return out


# --- the held-out splits ------------------------------------------------------------------------------------


A_HELDOUT = {"dev": "SubTaskA/Data/dev.csv", "eval": "SubTaskA/Data/eval.csv", "test": "SubTaskA/TestData/test.csv"}


Named = tuple[str, str]  # (idiom as written, language)
Splits = tuple[dict[str, list[str]], dict[str, list[Named]]]  # (sentences, idioms) per held-out split


def _semeval(data_dir: Path) -> Splits:
    sentences: dict[str, list[str]] = {}
    idioms: dict[str, list[Named]] = {}
    for split in ("dev", "eval", "test"):
        pairs = load_subtask_b(data_dir, split, strict=False).pairs
        sentences[f"2B {split}"] = [s for p in pairs for s in (p.sentence1, p.sentence2)]
    for split, path in A_HELDOUT.items():
        rows = load_dev(semeval_root(data_dir) / path)
        sentences[f"2A {split}"] = [r.target for r in rows]
        idioms[f"2A {split}"] = [(r.mwe, r.language) for r in rows]
    return sentences, idioms


def _idiolink(data_dir: Path) -> Splits:
    sentences, idioms = {}, {}
    for split in ("val", "test"):
        data = load_idiolink(data_dir, split)
        records = [*data.documents, *data.queries]
        sentences[f"IdioLink {split}"] = [r.sentence for r in records]
        idioms[f"IdioLink {split}"] = [(r.idiom, "EN") for r in records if r.idiom]
    return sentences, idioms


def _admire(data_dir: Path) -> Splits:
    sentences, idioms = {}, {}
    for split in ("dev", "test"):
        items = load_admire(data_dir, split, strict=False).items
        sentences[f"AdMIRe {split}"] = [i.sentence for i in items]
        idioms[f"AdMIRe {split}"] = [(i.compound, "EN") for i in items]
    return sentences, idioms


def _xiao(data_dir: Path) -> Splits:
    held = [i for i in load_idiom_data(data_dir).idioms.values() if i.split == "heldout"]
    return (
        {"Xiao held-out": [s for i in held for p in i.pairs for s in (p.sentence, p.paraphrase)]},
        {"Xiao held-out": [(i.text or i.key, "EN") for i in held]},
    )


def _sts(data_dir: Path) -> Splits:
    out = {}
    for split in ("dev", "test"):
        out[f"STS {split}"] = [s for p in load_sts(data_dir, split) for s in (p.sentence_1, p.sentence_2)]
    return out, {}


# each loader of held-out splits, with the folder under the data directory it reads
HELDOUT_SOURCES = {"semeval2022_task2": _semeval, "idiolink": _idiolink, "admire": _admire, "epie": _xiao, "sts": _sts}
CORE_TEST_DIR = "idioms_extra"  # the core test's held-out idioms join the index when its data is there


@lru_cache(maxsize=4)
def _benchmark_index(data_dir: str) -> HeldOut:
    sentences: set[str] = set()
    idioms: set[str] = set()
    forms: set[Named] = set()
    sizes: dict[str, int] = {}
    for folder, load in HELDOUT_SOURCES.items():
        if not (Path(data_dir) / folder).is_dir():
            log.warning("held-out dedup: no %s under %s, so nothing is checked against its splits", folder, data_dir)
            continue
        try:
            split_sentences, split_idioms = load(Path(data_dir))
        except DataError as exc:
            if exc.problem != "file not found":
                raise
            log.warning("held-out dedup: %s is missing, so nothing is checked against the %s splits", exc.path, folder)
            continue
        for name, texts in split_sentences.items():
            sentences.update(normalise_sentence(t) for t in texts if t)
            sizes[f"{name} sentences"] = len(texts)
        for name, names in split_idioms.items():
            keys = {normalise_idiom(i) for i, _ in names if i}
            idioms.update(keys)
            forms.update((i, language) for i, language in names if i)
            sizes[f"{name} idioms"] = len(keys)
    return HeldOut(frozenset(sentences), frozenset(idioms), sizes, frozenset(idioms), frozenset(forms))


def benchmark_index(data_dir: str | Path) -> HeldOut:
    """The benchmarks' held-out splits alone (:func:`heldout_index` without the core test's idioms)."""
    return _benchmark_index(str(Path(data_dir).resolve()))


@lru_cache(maxsize=4)
def _cached_index(data_dir: str) -> HeldOut:
    bench = _benchmark_index(data_dir)
    sentences, idioms, sizes = set(bench.sentences), set(bench.idioms), dict(bench.sizes)
    forms = set(bench.forms)
    if (Path(data_dir) / CORE_TEST_DIR).is_dir():
        core = load_core_test(data_dir, bench.benchmark_idioms)
        keys = {normalise_idiom(i) for i in core.heldout_idioms}
        sizes["core test held-out idioms"] = len(keys)
        sizes["core test held-out sentences"] = len(core.heldout_sentences)
        idioms |= keys
        forms |= core.heldout_forms
        sentences.update(normalise_sentence(s) for s in core.heldout_sentences)
    log.info("held-out index: %d sentences, %d idioms", len(sentences), len(idioms))
    return HeldOut(frozenset(sentences), frozenset(idioms), sizes, bench.benchmark_idioms, frozenset(forms))


def core_test(data_dir: str | Path) -> CoreTest:
    """The core test (:mod:`idiomkit.data.meaning_triples`) with its held-out idioms as the dedup keeps them out."""
    return load_core_test(data_dir, heldout_index(data_dir).benchmark_idioms)


def heldout_index(data_dir: str | Path) -> HeldOut:
    """Every held-out split's normalised sentences and promised-unseen idioms (cached per data directory)."""
    return _cached_index(str(Path(data_dir).resolve()))
