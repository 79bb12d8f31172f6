"""Portuguese recall of the idiom reader on a list of common PT-BR / PT-PT idioms used in context: prints a table,
writes ``benchmarks/lexicon/pt_recall.json``.

usage: python benchmarks/lexicon/pt_recall.py [--list benchmarks/lexicon/pt_recall.tsv] [--lexicon PATH]

The list (``pt_recall.tsv``: idiom, meaning, sentence, source) holds 180 idioms, each in a Portuguese sentence that
uses it figuratively ("Ela abriu o jogo com o chefe."), written for this benchmark. The ``source`` column says where
the idiom was taken from: LIdioms PT, Dicionário Aberto, the SemEval-2022 2A PT train MWEs that its train sentences
use idiomatically, FreeDict, or Speak Like A Brazilian. Speak Like A Brazilian is evaluation only: only its
expressions were taken, as a list of idioms to grade the reader with (the meanings and sentences are ours), and
nothing of it is in the lexicon; the project's own Portuguese list (``resources/pt_idioms.tsv``) was written before
this list was drawn, from LIdioms, FreeDict, Dicionário Aberto and common use, so the ``speaklikeabrazilian`` rows
are the held-out part of this list.

For each row (:func:`score`): **found** when the reader's matcher finds, in the sentence, an entry whose idiom is
the row's or holds it / is held by it (same rule as the lexicon benchmark); **found, Portuguese meaning** when that
entry's first meaning, the one the reader writes, is Portuguese (the target: >= .60); **+sense** when the shipped
sense check also calls the match figurative (the reader would rewrite it). Rates overall and per source.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from build_lexicon import table  # noqa: E402

from idiomkit.data.csvio import read_filled_tsv  # noqa: E402
from idiomkit.data.errors import DataError  # noqa: E402
from idiomkit.data.keys import normalise_idiom  # noqa: E402
from idiomkit.idioms import Lexicon, Matcher  # noqa: E402

LIST = HERE / "pt_recall.tsv"
COLUMNS = ("idiom", "meaning", "sentence", "source")
TARGET = 0.60


def read_list(path: Path = LIST) -> list[dict[str, str]]:
    """The recall list's rows; a row without four non-empty tab-separated values is a DataError naming the row."""
    return [dict(zip(COLUMNS, values, strict=True)) for values in read_filled_tsv(path, COLUMNS)]


def related(a: str, b: str) -> bool:
    """Two idioms' keys are one, or one's words run inside the other's."""
    ka, kb = f" {normalise_idiom(a)} ", f" {normalise_idiom(b)} "
    return ka == kb or ka in kb or kb in ka


def score(row: dict[str, str], lexicon: Lexicon, matcher: Matcher, accept: Callable | None = None) -> dict:
    """One row: ``found`` (an entry related to the row's idiom matched), ``portuguese`` (and its first meaning is
    Portuguese), ``sense`` (and ``accept`` calls it figurative), with the entry and meaning found."""
    matches = [m for m in matcher.find(row["sentence"], "PT") if related(m.idiom, row["idiom"])]
    pt = [m for m in matches if (e := lexicon.get(m.idiom, "PT")) is not None and e.meaning_language(0) == "PT"]
    sense = [m for m in pt if accept is None or accept(row["sentence"], m)]
    first = (pt or matches or [None])[0]
    return {
        "idiom": row["idiom"],
        "source": row["source"],
        "found": bool(matches),
        "portuguese": bool(pt),
        "sense": bool(sense) if accept is not None else None,
        "entry": first.idiom if first else None,
        "meaning": first.meanings[0] if first else None,
    }


def rates(results: list[dict]) -> dict:
    """The share of ``results`` found, found with a Portuguese meaning and accepted by the sense check (where
    scored)."""
    out: dict = {"idioms": len(results)}
    for key in ("found", "portuguese", "sense"):
        scored = [r[key] for r in results if r[key] is not None]
        out[key] = round(sum(scored) / len(scored), 4) if scored else None
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--list", type=Path, default=LIST)
    parser.add_argument("--lexicon", type=Path, default=None, help="a lexicon TSV (default: the shipped one)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from idiomkit.idioms.senses import default_sense
    from idiomkit.idioms.sources import default_lexicon

    lexicon = Lexicon.from_tsv(args.lexicon) if args.lexicon else default_lexicon()
    accept = default_sense().is_figurative  # the reader's sense check

    matcher = Matcher(lexicon)
    results = [score(row, lexicon, matcher, accept) for row in read_list(args.list)]
    sources = sorted({r["source"] for r in results})
    groups = {"all": results} | {s: [r for r in results if r["source"] == s] for s in sources}
    summary = {name: rates(rs) for name, rs in groups.items()}
    keys = ["idioms", "found", "portuguese", "sense"]
    print(table(["set", *keys], [[name, *(s.get(k) for k in keys)] for name, s in summary.items()]))
    missed = [r["idiom"] for r in results if not r["portuguese"]]
    print(f"\nPT recall (found with a Portuguese meaning): {summary['all']['portuguese']} (target >= {TARGET})")
    print(f"missed ({len(missed)}): {', '.join(missed)}")
    if args.lexicon is None and args.list == LIST:
        out = {"target": TARGET, "summary": summary, "rows": results, "notes": __doc__.split("For each row")[1]}
        (HERE / "pt_recall.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    try:
        main()
    except DataError as exc:
        raise SystemExit(f"error: {exc}") from None
