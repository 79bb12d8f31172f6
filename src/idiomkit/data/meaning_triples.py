"""The core test's triples: an idiomatic sentence, its figurative paraphrase, its literal misreading.

Every triple is an idiom in running text; the paraphrase and the misreading rewrite the same sentence. Two
constructions (``data_dir/idioms_extra``, ``data_dir/semeval2022_task2``):

*Written by people* (:data:`HUMAN_SOURCES`; the headline columns):

- ``ncs`` (NCS, Garcia et al. 2021, EN/PT): the compound's corpus sentences (ukWaC / brWaC) with the compound
  replaced by NCS's synonym rewrite (P1, paraphrase) or its word-by-word rewrite (P3, misreading; each word replaced
  by a synonym the dataset's authors chose); only compounds rated idiomatic (compositionality below
  :data:`MAX_COMPOSITIONALITY`) and found verbatim.
- ``astitch-2a`` (EN/PT): SemEval-2022 2A sentences labelled idiomatic (dev with its gold labels, train zero-shot
  and one-shot) whose MWE has an AStitch row with a figurative meaning: the MWE replaced by AStitch's first
  figurative meaning (paraphrase) or its literal meaning (misreading), both written by AStitch's annotators.

*Made by idiomkit* (the diagnostic column, the construction the misreading stream trains on):

- ``pie`` (PIE / ISP, Zhou et al. 2021, EN): the idiomatic sentence and PIE's own rewrite of it (``Literal_Sent``,
  the idiom span in plain words for its meaning: the paraphrase). The misreading replaces each content word of the
  idiom span by a word-by-word literal rendering of that word (WordNet, most frequent sense:
  :mod:`idiomkit.data.literal_words`; "kicked the bucket" -> "struck the pail"); function words stay. The span is
  PIE's B/I tags plus the tokens near them that match one of the idiom's words (PIE's tags miss some).
  :func:`training_triples` makes the same triples from the ISP *train* rows: the misreading stream's rows.

Held-out idioms (:func:`heldout_rule`, reason in the stored list): ``benchmark``, an idiom of a benchmark's held-out
split (it wins over a training split that names it too); ``human``, an idiom with a human-written triple that
SemEval 2B / 2A train does not name (IdioLink and Xiao training idioms among them: their training rows go);
``human-topup``, a SemEval train compound with a human-written triple, carved out only where a language falls short
of :data:`HUMAN_FLOOR` (300 EN, 150 PT) without it, as few as reach the floor, in the order of a fixed SHA-256 hash
of the normalised idiom (2A train is the sense check's training data too: every carved compound leaves it);
``hash``, a PIE idiom no benchmark training split names, in the hashed share :data:`HELDOUT_PERCENT` %. The list
is written into the repository (``resources/core_test_heldout.tsv``, by ``make core-test-lists``; a test checks it
against the rule), and :func:`idiomkit.data.heldout.heldout_index` adds its idioms (with their languages, found in
any form) and the held-out triples' sentences, so every training stream and the lexicon drop them.

Which rows: a held-out idiom gives triples from all its sentences; a seen idiom only from sentences no training
source holds (:func:`training_sentences`: every text a training stream or its validation reads, and every
benchmark training split's), and not when it is a validation idiom (:func:`is_validation_idiom`: the misreading
validation's idioms, which a recipe may keep out of training). At most :data:`MAX_PER_IDIOM` triples per idiom,
split and construction, picked by SHA-256 of the sentence; a sentence is used once.

Discards (counted per source and reason in the log and in :attr:`CoreTest.discarded`): PIE rows whose idiom words
are not found near the tags, with a span word WordNet cannot render, whose paraphrase keeps every content word of
the idiom (not a paraphrase) or equals the misreading; NCS sentences that do not hold the compound verbatim
(inflected: "abalos sísmicos"), too short, or whose rewrites are not in NCS's template; 2A rows whose MWE is not
found verbatim; seen rows whose sentence a training source holds; and rows over the per-idiom cap.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from idiomkit.data.csvio import read_resource_tsv, write_resource_tsv
from idiomkit.data.definitions import load_idiom_data
from idiomkit.data.errors import DataError
from idiomkit.data.extra.astitch import astitch_file, load_astitch
from idiomkit.data.extra.mt_ambiguity import load_mt_triples
from idiomkit.data.extra.ncs import load_ncs, ncs_files
from idiomkit.data.extra.pie import load_pie, pie_file
from idiomkit.data.idiolink import load_idiolink
from idiomkit.data.keys import normalise_idiom, normalise_sentence
from idiomkit.data.literal_words import FUNCTION_WORDS, RESOURCE, literal_span, load_literal_words
from idiomkit.data.semeval2a import data_paths, load_dev_split, load_setting
from idiomkit.data.semeval2022 import load_train_pairs
from idiomkit.data.sts import load_sts

log = logging.getLogger(__name__)

MAX_COMPOSITIONALITY = 2.5  # NCS compounds rated at most this (0 idiomatic .. 5 compositional) are idiomatic
HELDOUT_PERCENT = 15  # share of the PIE idioms no benchmark trains on carved out (by hash) as held out
# the fewest human-written held-out triples per language: SemEval train compounds are carved out (in a fixed hash
# order, as few as reach it) only when the language falls short without them
HUMAN_FLOOR = {"EN": 300, "PT": 150}
VAL_PERCENT = 15  # share of the seen idioms (by hash) whose misreading rows are validation, never seen-test rows
MAX_PER_IDIOM = 4  # triples per idiom, split and construction
MIN_WORDS = 5  # an NCS corpus sentence shorter than this is a fragment
SPAN_WINDOW = 3  # PIE: tokens this far from a tagged token may be the idiom's untagged words
HUMAN_SOURCES = ("ncs", "astitch-2a")  # paraphrase and misreading written by people
HELDOUT_LIST = Path(__file__).parent / "resources" / "core_test_heldout.tsv"
LIST_COLUMNS = ("language", "idiom", "key", "sources", "reason")
REASONS = ("benchmark", "human", "human-topup", "hash")
# the core test's construction (1: 56 noun-compound triples; 2: PIE/WordNet held out; 3: human-written held-out
# columns; 4: the WordNet misreadings inflected by the reader's English inflector, 74 PIE misreadings respelt)
VERSION = 4


@dataclass(frozen=True)
class Triple:
    """One item of the core test (or of the misreading stream)."""

    idiom: str
    language: str  # "EN" or "PT"
    sentence: str  # the idiomatic sentence
    paraphrase: str  # its figurative paraphrase
    misreading: str  # its literal (word-by-word) misreading
    source: str  # "pie", "ncs" or "astitch-2a" (training rows: also "mt-ambiguity")
    heldout: bool = False
    seen_ok: bool = True  # the sentence is in no training source (may be a seen idiom's triple)

    @property
    def human(self) -> bool:
        """Whether people wrote the paraphrase and the misreading (:data:`HUMAN_SOURCES`)."""
        return self.source in HUMAN_SOURCES


@dataclass(frozen=True)
class CoreTest:
    triples: list[Triple]
    files: list[Path]
    discarded: dict[str, int] = field(default_factory=dict)  # "source: reason" -> count

    @property
    def heldout_idioms(self) -> set[str]:
        return {t.idiom for t in self.triples if t.heldout}

    @property
    def heldout_forms(self) -> set[tuple[str, str]]:
        """The held-out idioms with their languages (what the held-out check looks for in any form)."""
        return {(t.idiom, t.language) for t in self.triples if t.heldout}

    @property
    def heldout_sentences(self) -> set[str]:
        return {t.sentence for t in self.triples if t.heldout}


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


def is_carved(idiom: str) -> bool:
    """Whether the fixed hash puts ``idiom`` in the PIE held-out sample (independent of seeds and sources)."""
    return _hash(normalise_idiom(idiom)) % 100 < HELDOUT_PERCENT


def is_validation_idiom(idiom: str) -> bool:
    """Whether ``idiom`` is a misreading validation idiom (:data:`VAL_PERCENT` % by a fixed hash)."""
    return _hash(normalise_idiom(idiom)) % 100 < VAL_PERCENT


def benchmark_training_idioms(data_dir: Path) -> set[str]:
    """Normalised idioms named by a benchmark's training split (never carved out by the PIE hash)."""
    names = [m for p in load_train_pairs(data_dir) for m in p.mwes]
    names += [ex.mwe for ex in load_setting(data_dir, "zero_shot")[0]]
    names += [d.idiom for d in load_idiolink(data_dir, "train").documents]
    names += [i.key for i in load_idiom_data(data_dir).idioms.values() if i.split in ("train", "val")]
    return {normalise_idiom(n) for n in names if n}


def semeval_training_idioms(data_dir: Path) -> set[str]:
    """Normalised MWEs of SemEval 2B train and 2A train (zero- and one-shot; the training data of the 2B stream and of
    the reader's sense check): a human-written idiom among them is held out only to reach :data:`HUMAN_FLOOR`."""
    names = [m for p in load_train_pairs(data_dir) for m in p.mwes]
    names += [ex.mwe for ex in load_setting(data_dir, "one_shot")[0]]
    return {normalise_idiom(m) for m in names if m}


def training_sentences(data_dir: Path) -> set[str]:
    """Every text (normalised) a training stream or its validation reads, and every benchmark training split's: 2B
    train, 2A train (zero- and one-shot), IdioLink train, PIE train, the Xiao train/val idioms' sentence pairs,
    mt_ambiguity usage sentences, STS-B / ASSIN 2 train. A seen idiom's triple never uses one."""
    texts = [
        s for p in load_train_pairs(data_dir) for s in (p.sentence_1, p.sentence_2, p.alternative_1, p.alternative_2)
    ]
    texts += [ex.target for ex in load_setting(data_dir, "one_shot")[0]]
    train = load_idiolink(data_dir, "train")
    texts += [r.sentence for r in [*train.documents, *train.queries]]
    texts += [s for p in load_pie(data_dir, ("train",)) for s in (p.idiomatic_sentence, p.literal_sentence)]
    idioms = [i for i in load_idiom_data(data_dir).idioms.values() if i.split in ("train", "val")]
    texts += [s for i in idioms for p in i.pairs for s in (p.sentence, p.paraphrase)]
    texts += [s for u in load_mt_triples(data_dir) for s in (u.figurative, u.literal, u.ambiguous)]
    texts += [s for p in load_sts(data_dir, "train") for s in (p.sentence_1, p.sentence_2)]
    return {normalise_sentence(t) for t in texts if t}


# --- candidates per source ----------------------------------------------------------------------------------


def _stem(word: str) -> str:
    """A prefix an inflected form keeps ("kick" -> "kic": "kicked", "kicks")."""
    return word[: max(3, len(word) - 2)] if len(word) > 3 else word


def idiom_positions(tokens: list[str], tags: tuple[str, ...], idiom: str) -> list[int] | None:
    """The token positions of ``idiom``'s content words in a PIE sentence: the tagged content tokens plus, within
    :data:`SPAN_WINDOW` of them, tokens starting with an idiom word's stem; None when fewer than the idiom has."""
    if len(tags) != len(tokens):
        return None
    words = [
        w
        for w in re.findall(r"[\w'-]+", re.sub(r"\[[^\]]*\]|\([^)]*\)", " ", idiom.lower()))
        if w not in FUNCTION_WORDS
    ]
    tagged = [i for i, tag in enumerate(tags) if tag != "O"]
    if not tagged or not words:
        return None
    found = {i for i in tagged if tokens[i].lower() not in FUNCTION_WORDS}
    lo, hi = max(0, min(tagged) - SPAN_WINDOW), min(len(tokens), max(tagged) + SPAN_WINDOW + 1)
    for w in words:
        found.update(i for i in range(lo, hi) if tokens[i].lower().startswith(_stem(w)) and tokens[i].isalpha())
    return sorted(found) if len(found) >= len(words) else None


def pie_span_words(data_dir: str | Path) -> set[str]:
    """Every word at an idiom position of a PIE sentence (what ``resources/literal_words.tsv`` must render)."""
    out = set()
    for item in load_pie(data_dir):
        tokens = item.idiomatic_sentence.split()
        out.update(tokens[i].lower() for i in idiom_positions(tokens, item.idiom_tags, item.idiom) or [])
    return out


def _content(text: str) -> set[str]:
    return {w for w in normalise_sentence(text).split() if w not in FUNCTION_WORDS}


def pie_candidates(
    data_dir: Path, discards: Counter, splits: tuple[str, ...] = ("train", "valid", "test")
) -> list[Triple]:
    """The WordNet triples of the PIE rows of ``splits`` (module docstring)."""
    words = load_literal_words(RESOURCE)
    out = []
    for item in load_pie(data_dir, splits):
        tokens = item.idiomatic_sentence.split()
        positions = idiom_positions(tokens, item.idiom_tags, item.idiom)
        if positions is None:
            discards["pie: idiom words not found near the tags"] += 1
            continue
        literal = literal_span(tokens, positions, words)
        if literal is None:
            discards["pie: a span word has no literal rendering"] += 1
            continue
        misreading = " ".join(literal)
        span_words = {normalise_sentence(tokens[i]) for i in positions}
        if span_words <= _content(item.literal_sentence):
            discards["pie: paraphrase keeps the idiom's words"] += 1
        elif misreading in (item.idiomatic_sentence, item.literal_sentence):
            discards["pie: misreading equals the sentence or paraphrase"] += 1
        else:
            out.append(Triple(item.idiom, "EN", item.idiomatic_sentence, item.literal_sentence, misreading, "pie"))
    return out


_TEMPLATE = re.compile(r"^(?:this is (?:an?|the)?|est[ea] é (?:uma?|[oa])?)\s*(.+?)\s*\.?\s*$", re.I)


def _rewrite_phrase(sentence: str) -> str | None:
    match = _TEMPLATE.match(sentence.strip())
    return match.group(1) if match else None


def _cased(phrase: str, original: str) -> str:
    return phrase[:1].upper() + phrase[1:] if original[:1].isupper() else phrase


def _substitute(sentence: str, start: int, end: int, phrase: str) -> str:
    return sentence[:start] + _cased(phrase, sentence[start:end]) + sentence[end:]


def compound_pattern(compound: str) -> re.Pattern[str]:
    """The compound verbatim, any case, a hyphen or space between its words, not inside a longer word."""
    words = re.split(r"[\s-]+", compound.strip())
    return re.compile(r"(?<!\w)" + r"[\s-]+".join(map(re.escape, words)) + r"(?!\w)", re.I)


def ncs_candidates(data_dir: Path, discards: Counter) -> list[Triple]:
    items = load_ncs(data_dir)
    kept = [c for c in items if c.compositionality < MAX_COMPOSITIONALITY]
    log.info("core test: NCS %d of %d compounds rated idiomatic (< %.1f)", len(kept), len(items), MAX_COMPOSITIONALITY)
    out = []
    for c in kept:
        synonym, literal = _rewrite_phrase(c.synonym_rewrite), _rewrite_phrase(c.literal_rewrite)
        if not synonym or not literal or normalise_sentence(synonym) == normalise_sentence(literal):
            discards["ncs: rewrites not in the template or equal"] += len(c.corpus_sentences)
            continue
        for sentence in c.corpus_sentences:
            match = compound_pattern(c.idiom).search(sentence)
            if match is None:
                discards["ncs: compound not verbatim in the sentence"] += 1
            elif len(sentence.split()) < MIN_WORDS:
                discards["ncs: sentence too short"] += 1
            else:
                out.append(
                    Triple(
                        c.idiom,
                        c.language,
                        sentence,
                        _substitute(sentence, *match.span(), synonym),
                        _substitute(sentence, *match.span(), literal),
                        "ncs",
                    )
                )
    return out


def astitch_2a_candidates(data_dir: Path, discards: Counter) -> list[Triple]:
    """2A sentences labelled idiomatic (dev, train zero- and one-shot) whose MWE AStitch gives a figurative
    meaning: the MWE replaced by that meaning or by AStitch's literal meaning."""
    senses = {(c.language, normalise_idiom(c.idiom)): c for c in load_astitch(data_dir) if c.figurative_meanings}
    out = []
    for row in load_dev_split(data_dir)[0] + load_setting(data_dir, "one_shot")[0]:
        c = senses.get((row.language, normalise_idiom(row.mwe)))
        if row.label != 0 or c is None:
            continue
        match = compound_pattern(row.mwe).search(row.target)
        if match is None:
            discards["astitch-2a: MWE not verbatim in the sentence"] += 1
            continue
        out.append(
            Triple(
                row.mwe,
                row.language,
                row.target,
                _substitute(row.target, *match.span(), c.figurative_meanings[0]),
                _substitute(row.target, *match.span(), c.literal_meaning),
                "astitch-2a",
            )
        )
    return out


def training_triples(data_dir: str | Path, discards: Counter | None = None) -> list[Triple]:
    """The misreading stream's rows before any held-out filter: the WordNet triples of the PIE ISP *train* rows
    (the construction of the ``pie`` source) and the mt_ambiguity usage triples (figurative use, its meaning, the
    literal use)."""
    root = Path(data_dir)
    rows = pie_candidates(root, discards if discards is not None else Counter(), ("train",))
    usage = [
        Triple(u.idiom, u.language, u.figurative, u.meaning, u.literal, "mt-ambiguity") for u in load_mt_triples(root)
    ]
    return rows + usage


# --- held out -----------------------------------------------------------------------------------------------


def heldout_rule(
    candidates: Iterable[Triple],
    trained: set[str],
    semeval_trained: set[str],
    benchmark: frozenset[str],
    count: Callable[[set[str]], Counter] | None = None,
) -> dict[str, str]:
    """``{normalised idiom: reason}`` of the candidates' held-out idioms (:data:`REASONS`; module docstring):
    ``trained``, the idioms a benchmark training split names; ``semeval_trained``, those of SemEval 2B and 2A train;
    ``count``: the human-written held-out triples per language a set of held-out keys gives (None: no top-up). A
    language short of :data:`HUMAN_FLOOR` gets its SemEval train compounds with a human-written triple, in the
    order of a fixed SHA-256 hash of the key, until it reaches the floor (``human-topup``)."""
    candidates = list(candidates)
    out = {}
    for t in candidates:
        key = normalise_idiom(t.idiom)
        if key in benchmark:
            out[key] = "benchmark"
        elif t.human and key not in semeval_trained:
            out.setdefault(key, "human")
        elif not t.human and key not in trained and is_carved(t.idiom):
            out.setdefault(key, "hash")
    if count is None:
        return out
    for language, floor in HUMAN_FLOOR.items():
        spare = {normalise_idiom(t.idiom) for t in candidates if t.human and t.language == language} - set(out)
        for key in sorted(spare, key=lambda k: (_hash(k), k)):
            if count(set(out))[language] >= floor:
                break
            out[key] = "human-topup"
    return out


def heldout_rows(candidates: Iterable[Triple], rule: dict[str, str]) -> list[tuple[str, str, str, str, str]]:
    """The rows of ``resources/core_test_heldout.tsv``: language, idiom, key, sources, reason (sorted)."""
    rows: dict[tuple[str, str], tuple[str, set[str]]] = {}
    for t in candidates:
        key = normalise_idiom(t.idiom)
        if key in rule:
            spelling, sources = rows.setdefault((t.language, key), (t.idiom, set()))
            sources.add(t.source)
    return sorted((lang, idiom, key, ",".join(sorted(srcs)), rule[key]) for (lang, key), (idiom, srcs) in rows.items())


def write_heldout_list(rows: Iterable[tuple[str, ...]], path: str | Path = HELDOUT_LIST) -> Path:
    return write_resource_tsv(path, LIST_COLUMNS, rows)


def load_heldout_list(path: str | Path = HELDOUT_LIST) -> list[tuple[str, ...]]:
    """The stored held-out list's rows (without the header)."""
    path = Path(path)
    rows = []
    for row, cells in read_resource_tsv(path, LIST_COLUMNS):
        if cells[4] not in REASONS:
            raise DataError(path, row, "reason", f"'{cells[4]}' is not one of {', '.join(REASONS)}")
        if normalise_idiom(cells[1]) != cells[2]:
            raise DataError(path, row, "key", f"'{cells[2]}' is not the key of '{cells[1]}'")
        rows.append(tuple(cells))
    return rows


def _cap(triples: list[Triple], discards: Counter) -> list[Triple]:
    """At most :data:`MAX_PER_IDIOM` per idiom, split and construction (by SHA-256 of the sentence), each sentence
    once."""
    out, per, used = [], Counter(), set()
    for t in sorted(triples, key=lambda t: (_hash(t.sentence), t.sentence, t.source)):
        group = (normalise_idiom(t.idiom), t.language, t.heldout, t.human)
        sentence = normalise_sentence(t.sentence)
        if sentence in used:
            discards[f"{t.source}: sentence used by another triple"] += 1
        elif per[group] >= MAX_PER_IDIOM:
            discards[f"{t.source}: over {MAX_PER_IDIOM} triples per idiom"] += 1
        else:
            per[group] += 1
            used.add(sentence)
            out.append(t)
    order = {t: i for i, t in enumerate(triples)}
    return sorted(out, key=order.__getitem__)


def candidates(root: Path, discards: Counter) -> list[Triple]:
    """Every source's candidate triples (before the held-out split and the cap)."""
    return pie_candidates(root, discards) + ncs_candidates(root, discards) + astitch_2a_candidates(root, discards)


def _split(
    t: Triple, held: set[str], trained: set[str], discards: Counter, validation: frozenset[str] = frozenset()
) -> Triple | None:
    """``t`` marked held out or seen (None: a seen idiom's row a training source holds, or a row of one of the
    misreading ``validation`` idioms)."""
    key = normalise_idiom(t.idiom)
    if key in held:
        return replace(t, heldout=True, seen_ok=normalise_sentence(t.sentence) not in trained)
    if normalise_sentence(t.sentence) in trained:
        discards[f"{t.source}: seen idiom's sentence in a training source"] += 1
        return None
    if key in validation:
        discards[f"{t.source}: a misreading validation idiom's row"] += 1
        return None
    return t


def validation_idioms(data_dir: Path) -> frozenset[str]:
    """The normalised idioms of the misreading validation rows (:func:`training_triples` of the idioms
    :func:`is_validation_idiom` picks)."""
    return frozenset(normalise_idiom(t.idiom) for t in training_triples(data_dir) if is_validation_idiom(t.idiom))


@lru_cache(maxsize=4)
def _core_test(data_dir: str, benchmark_heldout: frozenset[str]) -> CoreTest:
    root = Path(data_dir)
    discards: Counter = Counter()
    found = candidates(root, discards)
    listed = {key for _, _, key, _, _ in load_heldout_list()}
    held = listed | set(benchmark_heldout)
    trained, validation = training_sentences(root), validation_idioms(root)
    out = _cap([s for t in found if (s := _split(t, held, trained, discards, validation)) is not None], discards)
    files = [
        *ncs_files(root, "EN").values(),
        *ncs_files(root, "PT").values(),
        astitch_file(root, "EN"),
        astitch_file(root, "PT"),
        *(pie_file(root, s) for s in ("train", "valid", "test")),
        *data_paths(root).values(),
        RESOURCE,
        HELDOUT_LIST,
    ]
    for reason, n in sorted(discards.items()):
        log.info("core test: discarded %d (%s)", n, reason)
    counts = Counter((t.source, t.language, "heldout" if t.heldout else "seen") for t in out)
    log.info(
        "core test: %d triples (%s), %d of %d idioms held out",
        len(out),
        ", ".join(f"{s} {lang} {h} {n}" for (s, lang, h), n in sorted(counts.items())),
        len({t.idiom for t in out if t.heldout}),
        len({t.idiom for t in out}),
    )
    return CoreTest(out, files, dict(sorted(discards.items())))


def load_core_test(data_dir: str | Path, benchmark_heldout: frozenset[str] = frozenset()) -> CoreTest:
    """The core test's triples (cached); ``benchmark_heldout``: normalised idioms of the benchmarks' held-out
    splits (use :func:`idiomkit.data.heldout.core_test`, which passes them)."""
    return _core_test(str(Path(data_dir).resolve()), benchmark_heldout)


def heldout_list(data_dir: str | Path, benchmark_heldout: frozenset[str]) -> list[tuple[str, str, str, str, str]]:
    """The held-out list the rule gives today (what ``resources/core_test_heldout.tsv`` must hold)."""
    root = Path(data_dir)
    found = candidates(root, Counter())
    count = human_counts(found, training_sentences(root), validation_idioms(root))
    trained, semeval = benchmark_training_idioms(root), semeval_training_idioms(root)
    rule = heldout_rule(found, trained, semeval, benchmark_heldout, count)
    return heldout_rows(found, rule)


def human_counts(found: list[Triple], trained: set[str], validation: frozenset[str]) -> Callable[[set[str]], Counter]:
    """The human-written held-out triples per language that a set of held-out keys gives (the split and the cap as
    :func:`load_core_test` makes them)."""

    def count(held: set[str]) -> Counter:
        split = [s for t in found if (s := _split(t, held, trained, Counter(), validation)) is not None]
        return Counter(t.language for t in _cap(split, Counter()) if t.heldout and t.human)

    return count
