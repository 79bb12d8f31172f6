"""A hand-judged sample of the shipped lexicon: is each sampled entry an idiom, and is the meaning the reader uses (its
first) a correct literal paraphrase in the entry's language? Prints the rates, writes
``benchmarks/lexicon/lexicon_judged.json``.

usage: python benchmarks/lexicon/lexicon_judged.py [--draw]

The sample is fixed: per language, the :data:`SIZES` entries whose SHA-256 of ``"<SEED>:<language>:<normalised
idiom>"`` is smallest (a bottom-k hash sample: when the lexicon changes, an entry stays in the sample as long as it is
in the lexicon, and the next one by hash takes a dropped entry's place, so only what changed needs judging). The
judgements are ``benchmarks/lexicon/lexicon_judged.tsv`` (language, idiom, meaning, source, is_idiom, paraphrase,
reason), one row per judged (entry, meaning): ``is_idiom`` yes when the entry is an idiom (a conventional multiword
expression whose meaning is not the sum of its words, proverbs and figurative similes included; a term, a plain
collocation or a phrase made up by a source: no), ``paraphrase`` yes when the meaning states the idiom's sense
correctly in plain words of the entry's language (a gloss in another language, a fragment, garbled text, a
description of the phrase instead of its sense, the literal sense, a wrong or obscure sense: no; a part of speech
other than the idiom's is noted in the reason but allowed: the rewrite sample judges how the meaning fits a
sentence). A sampled entry counts as right when both are yes. Judged by hand by the developer who wrote the curation
rules, on 7 December 2026 (the rules were then improved where the sample showed a gap, the seed kept, and every
entry that changed judged anew). ``--draw`` appends the sampled (entry, meaning) pairs that have no judgement yet,
with empty judgement fields, for a person to fill in; scoring refuses a sample with unjudged rows.

Targets: EN >= .90, PT >= .85 (with a Wilson 95 % interval).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from build_lexicon import table  # noqa: E402
from scipy.stats import binomtest  # noqa: E402

from idiomkit.data.csvio import read_text_lines  # noqa: E402
from idiomkit.data.errors import DataError  # noqa: E402
from idiomkit.data.keys import normalise_idiom  # noqa: E402
from idiomkit.idioms import Lexicon  # noqa: E402

JUDGED = HERE / "lexicon_judged.tsv"
COLUMNS = ("language", "idiom", "meaning", "source", "is_idiom", "paraphrase", "reason")
SEED = 20261207
SIZES = {"EN": 100, "PT": 60}
TARGETS = {"EN": 0.90, "PT": 0.85}
ANSWERS = ("yes", "no")
ANSWERED = ("is_idiom", "paraphrase")


def right(judgement: dict[str, str]) -> bool:
    """An idiom, and its meaning a correct paraphrase."""
    return judgement["is_idiom"] == "yes" and judgement["paraphrase"] == "yes"


def sample(lexicon: Lexicon, language: str, size: int, seed: int = SEED) -> list[tuple[str, str, str]]:
    """``(idiom, first meaning, its source)`` of the ``size`` entries of ``language`` with the smallest hash."""
    first_source = {}
    for idiom, lang, _meaning, source, _ in lexicon.rows():
        first_source.setdefault((lang, idiom), source)

    def rank(idiom: str) -> str:
        return hashlib.sha256(f"{seed}:{language}:{normalise_idiom(idiom)}".encode()).hexdigest()

    entries = sorted(lexicon.entries(language), key=lambda e: rank(e.idiom))[:size]
    return [(e.idiom, e.meanings[0], first_source[language, e.idiom]) for e in entries]


def read_judgements(path: Path = JUDGED) -> dict[tuple[str, str, str], dict[str, str]]:
    """Judgements by (language, idiom, meaning); a malformed row is a DataError naming row and field."""
    lines = read_text_lines(path)
    if lines[0].split("\t") != list(COLUMNS):
        raise DataError(path, 0, None, f"expected the header {' <TAB> '.join(COLUMNS)}")
    out = {}
    for number, line in enumerate(lines[1:], start=1):
        values = line.split("\t")
        if len(values) != len(COLUMNS):
            raise DataError(path, number, None, f"{len(values)} tab-separated values, expected {len(COLUMNS)}")
        row = dict(zip(COLUMNS, values, strict=True))
        for name in ("is_idiom", "paraphrase"):
            if row[name] not in (*ANSWERS, ""):
                raise DataError(path, number, name, f"{row[name]!r} is not yes or no")
        out[row["language"], row["idiom"], row["meaning"]] = row
    return out


def rates(judged: list[dict[str, str]]) -> dict:
    """Right (idiom and paraphrase) over the judged rows, with a Wilson 95 % interval; the idiom and paraphrase
    shares apart."""
    n = len(judged)
    good = sum(right(r) for r in judged)
    ci = binomtest(good, n).proportion_ci(0.95, method="wilson") if n else None
    return {
        "judged": n,
        "right": good,
        "rate": round(good / n, 4) if n else None,
        "low": round(ci.low, 4) if ci else None,
        "high": round(ci.high, 4) if ci else None,
        "idiom": round(sum(r["is_idiom"] == "yes" for r in judged) / n, 4) if n else None,
        "paraphrase": round(sum(r["paraphrase"] == "yes" for r in judged) / n, 4) if n else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--draw", action="store_true", help="append the sampled rows without a judgement")
    args = parser.parse_args()
    from idiomkit.idioms.sources import default_lexicon

    lexicon = default_lexicon()
    judgements = read_judgements() if JUDGED.exists() else {}
    drawn = {lang: sample(lexicon, lang, n) for lang, n in SIZES.items()}
    missing = [(lang, *row) for lang, rows in drawn.items() for row in rows if (lang, *row[:2]) not in judgements]
    if args.draw:
        lines = [] if JUDGED.exists() else ["\t".join(COLUMNS)]
        lines += ["\t".join((*row, "", "", "")) for row in missing]
        with JUDGED.open("a", encoding="utf-8") as fh:
            fh.write("".join(line + "\n" for line in lines))
        print(f"appended {len(missing)} rows to judge to {JUDGED}")
        return

    def judged(lang: str, row: tuple[str, str, str]) -> dict[str, str]:
        return judgements.get((lang, row[0], row[1]), {})

    unjudged = [
        row for lang, rows in drawn.items() for row in rows if not all(judged(lang, row).get(k) for k in ANSWERED)
    ]
    if unjudged:
        raise SystemExit(f"{len(unjudged)} sampled rows have no judgement (run with --draw, then judge them)")
    summary = {lang: rates([judged(lang, row) for row in rows]) for lang, rows in drawn.items()}
    keys = ["judged", "right", "rate", "low", "high", "idiom", "paraphrase"]
    rows = [[lang, *(s[k] for k in keys), TARGETS[lang]] for lang, s in summary.items()]
    print(table(["language", *keys, "target"], rows))
    wrong = {
        lang: [f"{r[0]} -> {r[1]}: {judged(lang, r)['reason']}" for r in rows if not right(judged(lang, r))]
        for lang, rows in drawn.items()
    }
    out = {"seed": SEED, "sizes": SIZES, "targets": TARGETS, "summary": summary, "wrong": wrong}
    (HERE / "lexicon_judged.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    try:
        main()
    except DataError as exc:
        raise SystemExit(f"error: {exc}") from None
