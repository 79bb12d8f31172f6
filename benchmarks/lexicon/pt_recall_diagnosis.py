"""Why the lexicon benchmark misses Portuguese idioms (issue #43): classifies every PT recall sentence and prints
a table of counts with typical examples per class (``benchmarks/lexicon/pt_recall_diagnosis.md`` holds a run).

usage: python benchmarks/lexicon/pt_recall_diagnosis.py [--data-dir ../shared/data] [--max 1000] [--examples 12]

The sentences are those of ``lexicon_benchmark.py``'s PT recall rows (the same fixed samples): SemEval 2A train
idiomatic sentences of the AStitch train compounds against the shipped lexicon without AStitch, and the Speak Like
A Brazilian examples (evaluation only) against the shipped lexicon. A sentence is ``found`` as the benchmark counts
it (``+sense``: the sense check accepts it too). A missed one is classed by its idiom's *family*: the lexicon
entries that are the idiom under some normalisation (the same key after case and accent folding, or one's
pattern matches the whole of the other's text: "dar zebra" / "deu zebra", "pão duro" / "pão-duro"):

- **(a) not in the lexicon** (no family): (a1) a one-word expression (the build keeps multiword idioms only);
  (a2) in a PT source of the build but screened out; (a3) in no PT source at all;
- **(b) in the lexicon, the matcher misses it**: (b1) the idiom itself (an oracle lexicon of the one idiom) is
  not found either: the sentence uses another form (another verb, a word left out or added); (b2) the idiom
  itself is found but its lexicon entry is not (the entry's form differs: slots, another word);
- **(c) found, but not counted**: (c1) a family entry matches but not where the source annotates the idiom, or
  under a key the benchmark does not relate to the source's idiom; (c2) counted, but the sense check rejects it.

Each missed sentence's column ``oracle``: whether the idiom itself would be found (the recall if the lexicon held
every idiom). Nothing here feeds the lexicon or any tuning.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from build_lexicon import table  # noqa: E402
from lexicon_benchmark import Usage, _related, example_usages, finds, loso_sets, without_source  # noqa: E402

from idiomkit.data.extra.dictionaries import load_speaklikeabrazilian  # noqa: E402
from idiomkit.data.extra.ncs import load_ncs  # noqa: E402
from idiomkit.data.keys import normalise_idiom, strip_accents  # noqa: E402
from idiomkit.idioms import Lexicon, Matcher  # noqa: E402
from idiomkit.idioms.lexicon_build import SOURCES  # noqa: E402
from idiomkit.idioms.sense import default_sense_check  # noqa: E402
from idiomkit.idioms.sources import default_lexicon  # noqa: E402
from idiomkit.settings import default_data_dir  # noqa: E402

PT_SOURCES = ("dicionario_aberto", "freedict", "lidioms")  # the build's PT sources besides AStitch
CLASSES = {
    "found": "found (recall)",
    "c2": "(c2) found, the sense check rejects it",
    "c1": "(c1) a family entry matches, not counted (other span / unrelated key)",
    "b1": "(b1) in the lexicon; the sentence uses another form (the idiom itself is not found either)",
    "b2": "(b2) in the lexicon; the idiom itself is found, its entry is not",
    "a1": "(a1) not in the lexicon: a one-word expression",
    "a2": "(a2) not in the lexicon: in a PT source, screened out by the build",
    "a3": "(a3) not in the lexicon: in no PT source",
}


def fold(text: str) -> str:
    """Case- and accent-folded text."""
    return strip_accents(unicodedata.normalize("NFC", text.casefold()))


def key(idiom: str) -> str:
    return fold(normalise_idiom(idiom)).replace("-", " ")


def _covers(matcher: Matcher, text: str) -> list[str]:
    """The idioms of ``matcher`` whose match is the whole of ``text``."""
    return [m.idiom for m in matcher.find(text, "PT") if m.start == 0 and m.end == len(text)]


@dataclass
class Families:
    """For each source idiom, the lexicon entries that are the same idiom under some normalisation."""

    lexicon: Lexicon
    idioms: list[str]

    def __post_init__(self) -> None:
        entries = self.lexicon.entries("PT")
        by_key = defaultdict(set)
        for e in entries:
            by_key[key(e.idiom)].add(e.idiom)
        self.of: dict[str, set[str]] = {g: set(by_key.get(key(g), ())) for g in self.idioms}
        lex_matcher = Matcher(entries)
        folded = Matcher(Lexicon.from_pairs([(fold(e.idiom), e.idiom) for e in entries], "PT"))
        for g in self.idioms:
            text = g.strip().casefold()
            self.of[g].update(_covers(lex_matcher, text))
            self.of[g].update(m.meanings[0] for m in folded.find(fold(text), "PT") if m.end - m.start == len(text))
        gold = Matcher(Lexicon.from_pairs([(g, g) for g in self.idioms], "PT"))
        for e in entries:
            text = e.idiom.casefold()
            for g in _covers(gold, text):
                self.of[g].add(e.idiom)
        self.entries = {e.idiom: e for e in entries}

    def matcher(self, idiom: str) -> Matcher | None:
        family = [self.entries[i] for i in sorted(self.of[idiom]) if i in self.entries]
        return Matcher(family) if family else None


def source_lexicon(data_dir: Path) -> Lexicon:
    """Every PT row of the build's PT sources besides AStitch, before the build's screening."""
    out = Lexicon()
    for tag in PT_SOURCES:
        for r in SOURCES[tag](data_dir):
            if r.language == "PT" and r.meaning.strip():
                out.add(r.idiom, "PT", r.meaning, r.source, r.gloss_language)
    return out


def classify(u: Usage, matcher: Matcher, families: Families, raw: Families, accept) -> tuple[str, bool]:
    """The class of one usage (:data:`CLASSES`) and whether the idiom itself (oracle) is found."""
    oracle = Matcher(Lexicon.from_pairs([(u.idiom, u.idiom)], "PT"))
    found_itself = finds(u, oracle.find(u.sentence, "PT"))
    matches = [m for m in matcher.find(u.sentence, "PT") if u.span is not None or _related(m.idiom, u.idiom)]
    if finds(u, matches):
        return ("found" if finds(u, [m for m in matches if accept(u.sentence, m)]) else "c2"), found_itself
    family = families.matcher(u.idiom)
    if family is not None:
        fam = family.find(u.sentence, "PT")
        if fam:
            return "c1", found_itself
        return ("b2" if found_itself else "b1"), found_itself
    if len(u.idiom.replace("-", " ").split()) == 1:  # "a fim", "pão-duro": two words
        return "a1", found_itself
    return ("a2" if raw.of[u.idiom] else "a3"), found_itself


def _show(u: Usage, width: int = 90) -> str:
    s = " ".join(u.sentence.split())
    if u.span is not None:
        start, end = u.span
        s = f"{u.sentence[:start]}[{u.sentence[start:end]}]{u.sentence[end:]}".replace("\n", " ")
        at = s.find("[")
        s = ("…" if at > width // 2 else "") + s[max(0, at - width // 2) :]
    return s if len(s) <= width else s[: width - 1] + "…"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--max", type=int, default=1000, help="sentences per set at most (the benchmark's sample)")
    parser.add_argument("--examples", type=int, default=12, help="examples shown per class")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    data_dir = args.data_dir or default_data_dir()

    def cap(items: list) -> list:
        return items if len(items) <= args.max else random.Random(0).sample(items, args.max)

    check = default_sense_check()

    accept = check.is_figurative

    shipped = default_lexicon()
    astitch = cap(loso_sets(data_dir)["astitch"][1])
    slab = cap(example_usages(load_speaklikeabrazilian(data_dir), "PT"))
    sources = source_lexicon(data_dir)
    sets = [("astitch (without astitch)", without_source(shipped, "astitch"), astitch), ("slab", shipped, slab)]
    counts: dict[str, Counter] = {}
    oracle: dict[str, Counter] = {}
    types: dict[str, dict[str, set[str]]] = {}
    examples: dict[str, list[tuple[str, str, Usage]]] = defaultdict(list)
    for name, lexicon, usages in sets:
        families = Families(lexicon, sorted({u.idiom for u in usages}))
        raw = Families(sources, families.idioms)
        matcher = Matcher(lexicon)
        counts[name], oracle[name], types[name] = Counter(), Counter(), defaultdict(set)
        for u in usages:
            cls, itself = classify(u, matcher, families, raw, accept)
            counts[name][cls] += 1
            types[name][cls].add(key(u.idiom))
            oracle[name][cls] += itself
            examples[cls].append((name, ", ".join(sorted(families.of[u.idiom]))[:60], u))
    names = [n for n, _, _ in sets]
    rows = []
    for cls, label in CLASSES.items():
        cells = []
        for n in names:
            total = sum(counts[n].values())
            cells += [counts[n][cls], f"{counts[n][cls] / total:.3f}", oracle[n][cls], len(types[n][cls])]
        rows.append([label, *cells, sum(counts[n][cls] for n in names)])
    totals = [
        x
        for n in names
        for x in (sum(counts[n].values()), "1.000", sum(oracle[n].values()), len(set().union(*types[n].values())))
    ]
    rows.append(["all", *totals, sum(sum(c.values()) for c in counts.values())])
    head = ["class"] + [f"{n} {c}" for n in ("AStitch", "SLAB") for c in ("n", "share", "oracle", "idioms")]
    print(table([*head, "pooled n"], rows))
    print("\noracle: sentences where the idiom itself (a one-idiom lexicon) is found; idioms: distinct idioms")
    ncs = {key(c.idiom) for c in load_ncs(data_dir, ("PT",))}
    for n in names:
        absent = set().union(*(types[n][c] for c in ("a1", "a2", "a3")))
        print(f"{n}: {len(absent & ncs)} of its {len(absent)} idioms missing from the lexicon are NCS PT compounds")
    rng = random.Random(1)
    for cls, label in CLASSES.items():
        picked = examples[cls] if len(examples[cls]) <= args.examples else rng.sample(examples[cls], args.examples)
        if not picked:
            continue
        print(f"\n{label}: {len(examples[cls])}\n")
        print(
            table(
                ["set", "idiom", "lexicon family", "sentence"],
                [[n.split()[0], u.idiom, fam or "-", _show(u)] for n, fam, u in picked],
            )
        )


if __name__ == "__main__":
    main()
