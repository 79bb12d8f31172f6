"""The core test's triples: an idiomatic sentence, its figurative paraphrase, its literal misreading.

Every triple but AStitch's is an idiom in running text; the paraphrase and the misreading rewrite the same sentence.
Sources (``data_dir/idioms_extra``, ``data_dir/semeval2022_task2``):

- ``pie`` (PIE / ISP, Zhou et al. 2021, EN): the idiomatic sentence and PIE's own rewrite of it (``Literal_Sent``,
  the idiom span replaced by plain words for its meaning: the figurative paraphrase). The misreading replaces each
  content word of the idiom span by a word-by-word literal rendering of that word (WordNet, most frequent sense:
  :mod:`idiomkit.data.literal_words`; "kicked the bucket" -> "struck the pail"); function words stay. The span is
  PIE's B/I tags plus the tokens near them that match one of the idiom's words (PIE's tags miss some).
- ``ncs`` (NCS, Garcia et al. 2021, EN/PT): the compound's corpus sentences (ukWaC / brWaC) with the compound
  replaced by NCS's own synonym rewrite (P1, paraphrase) or its own word-by-word rewrite (P3, misreading); only
  compounds rated idiomatic (compositionality below :data:`MAX_COMPOSITIONALITY`) and found verbatim.
- ``astitch-2a`` (EN/PT): SemEval-2022 2A dev sentences labelled idiomatic whose MWE is an AStitch dev/test compound
  with a figurative meaning: the MWE replaced by that meaning (paraphrase) or by AStitch's literal meaning
  (misreading). These are benchmark held-out compounds: never seen in training, never in the lexicon.
- ``astitch`` (EN/PT, seen only): the AStitch train compounds alone (no sentence), figurative meaning 1 against the
  literal meaning, as before. The shipped lexicon takes its first meaning of these compounds from the same rows,
  so most of these triples are lookup-equal (see :mod:`idiomkit.tasks.meaning_triples`, ``seen_lookup_free``).

Held-out idioms: an idiom of a benchmark's held-out split (the held-out dedup keeps those out already), and of the
other idioms that no benchmark's training split names (2B train, 2A zero-shot train, IdioLink train, the Xiao
train/val idioms) the fixed hashed sample :func:`is_carved` (:data:`HELDOUT_PERCENT` % by SHA-256 of the
normalised idiom). A benchmark held-out idiom is held out even where a training split names it too (the dedup drops
it from that split). The list is written into the repository (``resources/core_test_heldout.tsv``, by
``make core-test-lists``; a test checks it against the rule), and :func:`idiomkit.data.heldout.heldout_index`
adds its idioms and the held-out triples' sentences, so every training source and the lexicon drop them.

Which rows: a held-out idiom gives triples from all its sentences (PIE: all ISP splits); a seen idiom only from
sentences no training source uses (PIE: the ISP test row; ISP train is a training source). At most
:data:`MAX_PER_IDIOM` triples per idiom and split, picked by SHA-256 of the sentence; a sentence is used once.

Discards (counted per source and reason in the log and in :attr:`CoreTest.discarded`): PIE rows whose idiom words
are not found near the tags, with a span word WordNet cannot render, whose paraphrase keeps every content word of
the idiom (not a paraphrase) or equals the misreading; NCS sentences that do not hold the compound verbatim
(inflected: "abalos sísmicos"), too short, or whose rewrites are not in NCS's template; 2A rows whose MWE is not
found verbatim; and rows over the per-idiom cap.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from idiomkit.data.csvio import read_resource_tsv, write_resource_tsv
from idiomkit.data.definitions import load_idiom_data
from idiomkit.data.errors import DataError
from idiomkit.data.extra.astitch import astitch_file, load_astitch
from idiomkit.data.extra.ncs import load_ncs, ncs_files
from idiomkit.data.extra.pie import load_pie, pie_file
from idiomkit.data.idiolink import load_idiolink
from idiomkit.data.keys import normalise_idiom, normalise_sentence
from idiomkit.data.literal_words import FUNCTION_WORDS, RESOURCE, literal_span, load_literal_words
from idiomkit.data.semeval2a import data_paths, load_dev_split, load_setting
from idiomkit.data.semeval2022 import load_train_pairs

log = logging.getLogger(__name__)

MAX_COMPOSITIONALITY = 2.5  # NCS compounds rated at most this (0 idiomatic .. 5 compositional) are idiomatic
HELDOUT_PERCENT = 15  # share of the non-benchmark idioms carved out (by hash) as held out from all training
MAX_PER_IDIOM = 4  # triples per idiom and split
MIN_WORDS = 5  # an NCS corpus sentence shorter than this is a fragment
SPAN_WINDOW = 3  # PIE: tokens this far from a tagged token may be the idiom's untagged words
HELDOUT_LIST = Path(__file__).parent / "resources" / "core_test_heldout.tsv"
LIST_COLUMNS = ("language", "idiom", "key", "sources", "reason")


@dataclass(frozen=True)
class Triple:
    """One item of the core test."""

    idiom: str
    language: str  # "EN" or "PT"
    sentence: str  # the idiomatic sentence (AStitch: the compound itself)
    paraphrase: str  # its figurative paraphrase
    misreading: str  # its literal (word-by-word) misreading
    source: str  # "pie", "ncs", "astitch-2a" or "astitch"
    heldout: bool = False
    seen_ok: bool = True  # the sentence is in no training source (may be a seen idiom's triple)


@dataclass(frozen=True)
class CoreTest:
    triples: list[Triple]
    files: list[Path]
    discarded: dict[str, int] = field(default_factory=dict)  # "source: reason" -> count

    @property
    def heldout_idioms(self) -> set[str]:
        return {t.idiom for t in self.triples if t.heldout}

    @property
    def heldout_sentences(self) -> set[str]:
        return {t.sentence for t in self.triples if t.heldout and t.source != "astitch"}


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


def is_carved(idiom: str) -> bool:
    """Whether the fixed hash puts ``idiom`` in the held-out sample (independent of seeds and sources)."""
    return _hash(normalise_idiom(idiom)) % 100 < HELDOUT_PERCENT


def benchmark_training_idioms(data_dir: Path) -> set[str]:
    """Normalised idioms named by a benchmark's training split (never carved out by the core test)."""
    names = [m for p in load_train_pairs(data_dir) for m in p.mwes]
    names += [ex.mwe for ex in load_setting(data_dir, "zero_shot")[0]]
    names += [d.idiom for d in load_idiolink(data_dir, "train").documents]
    names += [i.key for i in load_idiom_data(data_dir).idioms.values() if i.split in ("train", "val")]
    return {normalise_idiom(n) for n in names if n}


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


def pie_candidates(data_dir: Path, discards: Counter) -> list[Triple]:
    words = load_literal_words(RESOURCE)
    out = []
    for item in load_pie(data_dir):
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
            out.append(
                Triple(
                    item.idiom,
                    "EN",
                    item.idiomatic_sentence,
                    item.literal_sentence,
                    misreading,
                    "pie",
                    seen_ok=item.split == "test",
                )
            )
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
    senses = {
        (c.language, normalise_idiom(c.idiom)): c
        for c in load_astitch(data_dir, splits=("dev", "test"))
        if c.figurative_meanings
    }
    rows, _ = load_dev_split(data_dir)
    out = []
    for row in rows:
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


def astitch_candidates(data_dir: Path) -> list[Triple]:
    items = load_astitch(data_dir, splits=("train",))
    kept = [c for c in items if c.figurative_meanings]
    log.info("core test: AStitch %d of %d train compounds with a figurative meaning", len(kept), len(items))
    return [Triple(c.idiom, c.language, c.idiom, c.figurative_meanings[0], c.literal_meaning, "astitch") for c in kept]


# --- held out -----------------------------------------------------------------------------------------------


def heldout_rule(candidates: Iterable[Triple], trained: set[str], benchmark: frozenset[str]) -> dict[str, str]:
    """``{normalised idiom: "benchmark" | "hash"}`` of the candidates' held-out idioms (the rule above)."""
    out = {}
    for t in candidates:
        key = normalise_idiom(t.idiom)
        if key in benchmark:
            out[key] = "benchmark"
        elif key not in trained and is_carved(t.idiom) and t.source != "astitch":
            out[key] = "hash"
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
        if cells[4] not in ("benchmark", "hash"):
            raise DataError(path, row, "reason", f"'{cells[4]}' is not benchmark or hash")
        if normalise_idiom(cells[1]) != cells[2]:
            raise DataError(path, row, "key", f"'{cells[2]}' is not the key of '{cells[1]}'")
        rows.append(tuple(cells))
    return rows


def _cap(triples: list[Triple], discards: Counter) -> list[Triple]:
    """At most :data:`MAX_PER_IDIOM` per idiom and split (by SHA-256 of the sentence), each sentence once."""
    out, per, used = [], Counter(), set()
    for t in sorted(triples, key=lambda t: (_hash(t.sentence), t.sentence, t.source)):
        group, sentence = (normalise_idiom(t.idiom), t.language, t.heldout), normalise_sentence(t.sentence)
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
    return (
        pie_candidates(root, discards)
        + ncs_candidates(root, discards)
        + astitch_2a_candidates(root, discards)
        + astitch_candidates(root)
    )


@lru_cache(maxsize=4)
def _core_test(data_dir: str, benchmark_heldout: frozenset[str]) -> CoreTest:
    root = Path(data_dir)
    discards: Counter = Counter()
    found = candidates(root, discards)
    listed = {key: reason for _, _, key, _, reason in load_heldout_list()}
    held = set(listed) | set(benchmark_heldout)
    split = []
    for t in found:
        t = replace(t, heldout=normalise_idiom(t.idiom) in held)
        if t.heldout or t.seen_ok:
            split.append(t)
        else:
            discards[f"{t.source}: seen idiom's sentence in a training source"] += 1
    out = _cap(split, discards)
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
    return heldout_rows(found, heldout_rule(found, benchmark_training_idioms(root), benchmark_heldout))
