"""Build the shipped idiom lexicon and measure the evaluation lexicon's coverage and precision on held-out material
(issues #37, #43).

usage: python benchmarks/lexicon/build_lexicon.py [--data-dir ../shared/data] [--no-write] [--permissive] [--out PATH]

Writes ``src/idiomkit/idioms/resources/lexicon.tsv`` (every shippable source, held-out idioms included; see
:mod:`idiomkit.idioms.lexicon_build`; a rebuild is byte-identical) and
``benchmarks/lexicon/lexicon_coverage.json``, and prints the sizes per language and source, the per-source build counts
and a coverage / precision table of the *evaluation* lexicon (the shipped one minus the held-out idioms).
``--permissive`` builds from the permissive sources only (``--out`` names where; the shipped file is left alone).
Needs WordNet (Debian ``wordnet-base``, ``make wordnet``).

Coverage: the share of idiomatic (figurative) sentences where a match overlaps the idiom's position. Precision: the
share of found spans that are the idiom meant figuratively -- on PIE ISP test (every sentence idiomatic) a found
span must overlap the idiom; on 2A dev / EPIE formal (idiomatic and literal uses of one MWE) a found span on the
MWE counts as right when the sentence is labelled idiomatic (spans elsewhere in the sentence are not judged).

Rows:

- ``pie-test``: PIE ISP test, EN. The ISP splits are by sentence, so its idioms are seen (from PIE train senses);
  its sentences are not used anywhere in the lexicon.
- ``2a-dev``: SemEval-2022 2A dev, EN / PT. Its MWEs are promised unseen, so the held-out filter removes them
  from the lexicon by design: coverage there is the *unseen idioms* number (~0 expected).
- ``epie-heldout``: EPIE formal sentences of the idioms whose definitions split is heldout (unseen idioms, ~0).
- ``2a-dev oracle``: the matcher alone, its lexicon being the 2A dev MWEs themselves: how much the matcher finds
  when the idiom is known, and how often a found MWE is figurative (before / after the sense check).
- ``2a-train``: SemEval-2022 2A train, EN / PT -- in-sample (its MWEs tag the lexicon), a sanity check only.

``+sense`` rows count a match only when the sense check (``idioms/resources/sense.json``, when present) calls it
figurative.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import read_csv_rows
from idiomkit.data.definitions import load_epie_usages, split_of
from idiomkit.data.errors import DataError
from idiomkit.data.extra.pie import pie_file
from idiomkit.data.heldout import heldout_index
from idiomkit.data.semeval2a import Example2A, find_mwe, load_dev_split, load_setting
from idiomkit.idioms import Lexicon, Matcher
from idiomkit.idioms.lexicon_build import build_lexicon
from idiomkit.idioms.sources import DEFAULT_LEXICON, BuildReport, remove_heldout_entries
from idiomkit.settings import default_data_dir

HERE = Path(__file__).parent
LICENSES = DEFAULT_LEXICON.with_name("LICENSES.md")
MAX_BYTES = 2_000_000
log = logging.getLogger("build_lexicon")


@dataclass(frozen=True)
class Item:
    """One evaluation sentence: the idiom at ``sentence[start:end]``, used figuratively or not."""

    sentence: str
    start: int
    end: int
    idiom: str
    language: str
    figurative: bool


# --- evaluation sets ----------------------------------------------------------------------------------------------


_ATTACH = re.compile(r"^(?:[.,!?;:)\]}%]|''|'(?:s|d|ll|m|re|t|ve)?|n't)$", re.I)


def detokenize(tokens: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """PTB-style tokens as running text ("could n't" -> "couldn't", "lion 's" -> "lion's", "end ." -> "end."),
    with each token's (start, end) offsets."""
    text, spans = "", []
    for i, token in enumerate(tokens):
        token = {"``": '"', "''": '"'}.get(token, token)
        glue = i == 0 or _ATTACH.match(tokens[i]) or tokens[i - 1] in ("(", "[", "``", "$")
        text += "" if glue else " "
        spans.append((len(text), len(text) + len(token)))
        text += token
    return text, spans


def pie_items(data_dir: Path) -> list[Item]:
    """PIE ISP test, detokenized: the idiom's span from the first to the last tagged token."""
    path, out = pie_file(data_dir, "test"), []
    for _, rec in read_csv_rows(path, ("Idiom", "Idiomatic_Sent", "Idiomatic_Label")):
        tokens, labels = rec["Idiomatic_Sent"].split(" "), rec["Idiomatic_Label"].split(" ")
        tagged = [i for i, tag in enumerate(labels) if tag != "O"]
        if len(tokens) != len(labels) or not tagged:
            continue
        text, spans = detokenize(tokens)
        out.append(Item(text, spans[tagged[0]][0], spans[tagged[-1]][1], rec["Idiom"], "EN", True))
    return out


def semeval_items(examples: Iterable[Example2A], languages: tuple[str, ...] = ("EN", "PT")) -> list[Item]:
    """2A examples (label 0 = idiomatic), the MWE located by ``find_mwe``; examples whose MWE is not found skipped."""
    out = []
    for ex in examples:
        start, end = find_mwe(ex.target, ex.mwe)
        if ex.language in languages and (start, end) != (0, len(ex.target)):
            out.append(Item(ex.target, start, end, ex.mwe, ex.language, ex.label == 0))
    return out


def epie_heldout_items(data_dir: Path) -> list[Item]:
    """EPIE formal sentences (idiomatic and literal) of the held-out idioms (in the held-out index: their
    definitions split is heldout), span = the tagged tokens."""
    examples, key_of, _ = load_epie_usages(data_dir)
    index, out = heldout_index(data_dir), []
    for ex in examples:
        at = ex.target.find(ex.mwe)
        if split_of(key_of[ex.id]) == "heldout" and index.has_idiom(key_of[ex.id]) and at >= 0:
            out.append(Item(ex.target, at, at + len(ex.mwe), key_of[ex.id], "EN", ex.label == 0))
    return out


# --- measurement ----------------------------------------------------------------------------------------------------


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def measure(
    lex: Lexicon, matcher: Matcher, items: list[Item], off_target_wrong: bool, accept: Callable | None = None
) -> dict:
    """Coverage and precision of ``matcher`` (over ``lex``) on ``items`` (module docstring); ``accept(sentence,
    match)`` filters the matches (the sense check). ``known``: the idiomatic items whose idiom is in ``lex``."""
    found = right = judged = known = found_known = 0
    for item in items:
        matches = [m for m in matcher.find(item.sentence, item.language) if accept is None or accept(item.sentence, m)]
        on = [m for m in matches if m.start < item.end and item.start < m.end]
        hit, in_lexicon = bool(on) and item.figurative, item.figurative and lex.get(item.idiom, item.language)
        found, known, found_known = found + hit, known + bool(in_lexicon), found_known + (hit and bool(in_lexicon))
        right += len(on) if item.figurative else 0
        judged += len(on) + (len(matches) - len(on) if off_target_wrong else 0)
    idiomatic = sum(i.figurative for i in items)
    return {
        "sentences": len(items),
        "idiomatic": idiomatic,
        "found": found,
        "coverage": _share(found, idiomatic),
        "known": known,
        "coverage_known": _share(found_known, known),
        "spans": judged,
        "precision": _share(right, judged),
    }


def sense_filter() -> Callable | None:
    """The shipped sense check's accept function, or None when it is not there (yet)."""
    try:
        from idiomkit.idioms.sense import default_sense_check

        check = default_sense_check()
    except Exception as exc:  # missing module or resource: report without the +sense rows
        log.warning("no sense check (%s): +sense rows skipped", exc)
        return None
    return check.is_figurative


def evaluation_rows(lex: Lexicon, data_dir: Path) -> list[dict]:
    """One result row per (evaluation set, language, sense check on/off)."""
    accept = sense_filter()
    dev = semeval_items(load_dev_split(data_dir)[0])
    train = semeval_items(load_setting(data_dir, "one_shot")[0])
    sets = [
        ("pie-test", "EN", lex, pie_items(data_dir), True),
        ("epie-heldout", "EN", lex, epie_heldout_items(data_dir), False),
    ]
    for language in ("EN", "PT"):
        own = [i for i in dev if i.language == language]
        oracle = Lexicon.from_pairs({(i.idiom, i.idiom) for i in own}, language, "2a-dev")
        sets += [
            ("2a-dev", language, lex, own, False),
            ("2a-dev oracle", language, oracle, own, False),
            ("2a-train", language, lex, [i for i in train if i.language == language], False),
        ]
    rows, matchers = [], {}
    for name, language, lexicon, items, off_target in sets:
        matcher = matchers.setdefault(id(lexicon), Matcher(lexicon))
        for tag, check in (("", None), ("+sense", accept)) if accept else (("", None),):
            rows.append(
                {"set": name + tag, "language": language, **measure(lexicon, matcher, items, off_target, check)}
            )
    return rows


# --- output ----------------------------------------------------------------------------------------------------------


def table(header: list[str], rows: Iterable[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join("" if v is None else str(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def check_licences(lex: Lexicon) -> None:
    """Every source tag of the lexicon must have its section in LICENSES.md."""
    text = LICENSES.read_text(encoding="utf-8")
    missing = sorted({s for e in lex for s in e.sources if f"`{s}`" not in text})
    if missing:
        raise SystemExit(f"{LICENSES} names no licence for source(s) {', '.join(missing)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--no-write", action="store_true", help="measure only; leave the lexicon file as it is")
    parser.add_argument("--permissive", action="store_true", help="permissive-licence sources only (needs --out)")
    parser.add_argument("--out", type=Path, default=None, help="write the lexicon here (default: the shipped file)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    data_dir = args.data_dir or default_data_dir()
    if args.permissive and args.out is None and not args.no_write:
        parser.error("--permissive builds a separate lexicon: name it with --out (the shipped one is left alone)")
    report = BuildReport()
    lex = build_lexicon(data_dir, report, terms="permissive" if args.permissive else "research")
    check_licences(lex)
    if not args.no_write:
        target = args.out or DEFAULT_LEXICON
        path = lex.to_tsv(target)
        path.chmod(0o644)  # a package resource: readable by all (the atomic write makes it private)
        size = path.stat().st_size
        assert size < MAX_BYTES, f"{target} is {size} bytes (limit {MAX_BYTES})"
        print(f"wrote {target} ({len(lex)} entries, {size} bytes)")
    shipped = {lang: len(lex.entries(lang)) for lang in ("EN", "PT")}
    print(f"\nshipped entries per language: {shipped}")
    if args.permissive:
        return
    remove_heldout_entries(lex, heldout_index(data_dir), report)  # what scoring uses: the evaluation lexicon
    sizes = sorted(report.sizes.items())
    print("\n" + table(["language", "source", "entries"], [[lang, src, n] for (lang, src), n in sizes]))
    per_language = {lang: len(lex.entries(lang)) for lang in ("EN", "PT")}
    print(f"evaluation entries per language: {per_language}")
    what = sorted({k for c in report.counts.values() for k in c})
    print("\n" + table(["source", *what], [[s, *(c.get(k, 0) for k in what)] for s, c in report.as_dict().items()]))
    rows = evaluation_rows(lex, data_dir)
    keys = [
        "set",
        "language",
        "sentences",
        "idiomatic",
        "found",
        "coverage",
        "known",
        "coverage_known",
        "spans",
        "precision",
    ]
    print("\n" + table(keys, [[r[k] for k in keys] for r in rows]))
    out = {
        "shipped_entries_per_language": shipped,
        "entries": len(lex),
        "entries_per_language": per_language,
        "sizes": [{"language": lang, "source": src, "entries": n} for (lang, src), n in sizes],
        "build": report.as_dict(),
        "evaluation": rows,
        "notes": __doc__.split("Coverage:")[1].strip(),
    }
    (HERE / "lexicon_coverage.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    try:
        main()
    except DataError as exc:  # bad input data: one line naming file, row and field
        raise SystemExit(f"error: {exc}") from None
