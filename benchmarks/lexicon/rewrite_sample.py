"""A fixed seeded sample of the reader's rewrites in context, judged by hand: are they grammatical and faithful?

usage: python benchmarks/lexicon/rewrite_sample.py draw [--data-dir ../shared/data]
       python benchmarks/lexicon/rewrite_sample.py score

``draw`` reads training-side idiomatic sentences -- PIE train (ISP), EPIE formal sentences of the idioms in the
definitions' train split, mt-ambiguity's figurative contexts (EN), SemEval 2A zero-shot train (PT) -- drops every
sentence or idiom of a held-out split (:func:`idiomkit.data.heldout.filter_heldout`), shuffles each language's
sentences with a fixed seed and reads them in that order with the shipped reader (``replace`` mode, the shipped
lexicon and sense check: what ``idiomkit read`` does) until :data:`SIZES` sentences of each language are
rewritten. It writes ``rewrite_sample.tsv``: language, source, sentence, span(s), idiom(s), meaning(s) (the
entries' first meanings, " | " between several), rewrite (the whole rewritten sentence), judgement (1/0) and
reason. Judgements are keyed by (sentence, rewrite): a row whose rewrite is unchanged keeps the judgement it had in
``rewrite_judgements.tsv`` (every judgement ever made); a new or changed row gets an empty judgement to fill in.

``score`` reads the sample, records its judged rows in ``rewrite_judgements.tsv`` and prints the share judged 1
(target: at least :data:`TARGET`), per language and overall, and how many rows still need a judgement.

A row is judged 1 when the rewritten sentence is grammatical AND says what the original sentence means (the idiom's
sense in that context); 0 otherwise, with a short reason that starts with the part at fault -- ``lexicon:`` (the
meaning), ``rewrite:`` (its shaping to the sentence), ``matcher:`` (a wrong span), ``sense:`` (a literal use
rewritten) -- so that ``score`` can count them. Re-judging after the lexicon or the rewriter changes:
``draw``, then fill in the empty judgements of the sample, then ``score``.
"""

from __future__ import annotations

import argparse
import csv
import io
import logging
import random
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from build_lexicon import detokenize  # noqa: E402

from idiomkit.data.csvio import read_csv_rows  # noqa: E402
from idiomkit.data.definitions import idiom_key, load_epie_usages, split_of  # noqa: E402
from idiomkit.data.extra.mt_ambiguity import load_mt_meanings, load_mt_triples  # noqa: E402
from idiomkit.data.extra.pie import pie_file  # noqa: E402
from idiomkit.data.heldout import filter_heldout, heldout_index  # noqa: E402
from idiomkit.data.semeval2a import load_setting  # noqa: E402
from idiomkit.idioms.rewrite import Rewriter  # noqa: E402
from idiomkit.idioms.senses import default_sense  # noqa: E402
from idiomkit.idioms.sources import default_lexicon  # noqa: E402
from idiomkit.results import atomic_write_text  # noqa: E402
from idiomkit.settings import default_data_dir  # noqa: E402

log = logging.getLogger("rewrite_sample")
SAMPLE = HERE / "rewrite_sample.tsv"
LEDGER = HERE / "rewrite_judgements.tsv"
COLUMNS = ("language", "source", "sentence", "span", "idiom", "meaning", "rewrite", "judgement", "reason")
LEDGER_COLUMNS = ("sentence", "rewrite", "judgement", "reason")
SEED = 74
SIZES = {"EN": 60, "PT": 40}
TARGET = 0.90
Usage = tuple[str, str, str, str]  # (language, source, sentence, idiom)


# --- training-side idiomatic sentences ----------------------------------------------------------------------------


def pie_train(data_dir: Path) -> list[Usage]:
    """PIE (ISP) train idiomatic sentences, detokenized."""
    out = []
    for _, rec in read_csv_rows(pie_file(data_dir, "train"), ("Idiom", "Idiomatic_Sent")):
        text, _ = detokenize(rec["Idiomatic_Sent"].split(" "))
        out.append(("EN", "pie-train", text, rec["Idiom"]))
    return out


def epie_train(data_dir: Path) -> list[Usage]:
    """EPIE formal sentences used idiomatically, of the idioms in the definitions' train split."""
    examples, key_of, _ = load_epie_usages(data_dir)
    return [
        ("EN", "epie-train", ex.target, ex.mwe)
        for ex in examples
        if ex.label == 0 and split_of(key_of[ex.id]) == "train"
    ]


def mt_figurative(data_dir: Path) -> list[Usage]:
    """mt-ambiguity's figurative contexts: the triples' figurative sentences and the meanings' examples."""
    out = [("EN", "mt_ambiguity", t.figurative, t.idiom) for t in load_mt_triples(data_dir) if t.figurative]
    out += [("EN", "mt_ambiguity", m.example, m.idiom) for m in load_mt_meanings(data_dir) if m.example]
    return out


def semeval_train_pt(data_dir: Path) -> list[Usage]:
    """SemEval 2A zero-shot train, Portuguese sentences labelled idiomatic."""
    train, _ = load_setting(data_dir, "zero_shot")
    return [("PT", "2a-train", ex.target, ex.mwe) for ex in train if ex.language == "PT" and ex.label == 0]


MAX_CHARS = 300  # longer "sentences" are scraped pages (mt-ambiguity's examples hold some), not sentences


def training_usages(data_dir: Path) -> list[Usage]:
    """Every source's sentences, each once, none of a held-out split's sentences or idioms, none that is a scraped
    page rather than a sentence (over :data:`MAX_CHARS` characters, or holding "Meaning:" / "Example:")."""
    index = heldout_index(data_dir)
    usages = [*pie_train(data_dir), *epie_train(data_dir), *mt_figurative(data_dir), *semeval_train_pt(data_dir)]
    usages = [u for u in usages if len(u[2]) <= MAX_CHARS and "Meaning:" not in u[2] and "Example:" not in u[2]]
    unique = list({u[2]: u for u in usages}.values())
    kept = filter_heldout("rewrite sample", unique, lambda u: (u[2],), lambda u: (u[3], idiom_key(u[3])), index=index)
    return kept.kept


# --- the sample ---------------------------------------------------------------------------------------------------


def _read_tsv(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    missing = [c for c in columns if rows and c not in rows[0]]
    if missing:
        raise SystemExit(f"{path}: missing columns {', '.join(missing)}")
    return rows


def _write_tsv(path: Path, columns: tuple[str, ...], rows: Iterable[dict[str, str]]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, columns, delimiter="\t", lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(path, buffer.getvalue())


def judgements() -> dict[tuple[str, str], dict[str, str]]:
    """Every judgement made so far, keyed by (sentence, rewrite): the ledger, then the sample's own rows."""
    out = {(r["sentence"], r["rewrite"]): r for r in _read_tsv(LEDGER, LEDGER_COLUMNS) if r["judgement"]}
    out |= {(r["sentence"], r["rewrite"]): r for r in _read_tsv(SAMPLE, COLUMNS) if r["judgement"]}
    return out


def draw(data_dir: Path) -> list[dict[str, str]]:
    """The sample (module docstring), judgements carried over where (sentence, rewrite) is unchanged."""
    rewriter = Rewriter(default_lexicon(), "replace", default_sense())
    known = judgements()
    usages = training_usages(data_dir)
    rows = []
    for language, size in SIZES.items():
        pool = sorted(u for u in usages if u[0] == language)
        random.Random(SEED).shuffle(pool)
        taken = 0
        for _, source, sentence, _ in pool:
            if taken == size:
                break
            reading = rewriter.read(sentence)
            done = [f for f in reading.found if f.replacement is not None]
            if not reading.changed or not done:
                continue
            old = known.get((sentence, reading.rewritten), {})
            rows.append(
                {
                    "language": language,
                    "source": source,
                    "sentence": sentence,
                    "span": " | ".join(f.match.text for f in done),
                    "idiom": " | ".join(f.match.idiom for f in done),
                    "meaning": " | ".join(f.match.meanings[0] for f in done),
                    "rewrite": reading.rewritten,
                    "judgement": old.get("judgement", ""),
                    "reason": old.get("reason", ""),
                }
            )
            taken += 1
        log.info("%s: %d rewrites drawn", language, taken)
    return rows


def score(rows: list[dict[str, str]]) -> dict[str, tuple[int, int, int]]:
    """Per language and overall: (judged 1, judged, unjudged)."""
    out = {}
    for language in (*SIZES, "all"):
        part = [r for r in rows if language in ("all", r["language"])]
        judged = [r for r in part if r["judgement"] in ("0", "1")]
        out[language] = (sum(r["judgement"] == "1" for r in judged), len(judged), len(part) - len(judged))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=("draw", "score"))
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.command == "draw":
        rows = draw(args.data_dir or default_data_dir())
        _write_tsv(SAMPLE, COLUMNS, rows)
        print(f"{len(rows)} rewrites -> {SAMPLE} ({sum(not r['judgement'] for r in rows)} to judge)")
        return
    rows = _read_tsv(SAMPLE, COLUMNS)
    bad = [i for i, r in enumerate(rows, start=2) if r["judgement"] not in ("", "0", "1")]
    if bad:
        raise SystemExit(f"{SAMPLE}: row(s) {bad}, field judgement: expected 1, 0 or empty")
    ledger = judgements()
    _write_tsv(LEDGER, LEDGER_COLUMNS, sorted(ledger.values(), key=lambda r: (r["sentence"], r["rewrite"])))
    for language, (good, judged, left) in score(rows).items():
        rate = f"{good / judged:.3f}" if judged else "n/a"
        verdict = "" if not judged else ("meets" if good / judged >= TARGET else "below") + f" the {TARGET:.2f} target"
        print(f"{language}: {good}/{judged} grammatical and faithful = {rate} {verdict}; {left} unjudged")
    causes = Counter(r["reason"].split(":", 1)[0] for r in rows if r["judgement"] == "0" and ":" in r["reason"])
    print("rows judged 0, by the part at fault (the reason's prefix):", dict(causes.most_common()))


if __name__ == "__main__":
    main()
