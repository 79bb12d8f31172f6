"""mt-ambiguity-wip (jaechan-repo): English idiom meanings, and one phrase in figurative / literal contexts.

Under ``idioms_extra/mt_ambiguity_idioms``:

- ``1_english_idioms/3_merge_corpi/idiom_corpus.csv``: idiom, meaning, example (TheIdioms.com, ``source`` ``dict``;
  or the gender-idiomatic-language corpus, ``pfbt``, without examples). Rows without a meaning are skipped (counted
  in the log); a file where no row has one is a DataError.
- ``3_mturk_sentence_pairs/3_upgrade_sentence_pairs/gen_final_chatgpt.csv``: an ambiguous phrase holding the idiom,
  and a figurative and a literal sentence containing that phrase (ChatGPT, unverified), plus the earlier version
  (``*_old``) with its MTurk majority votes and ``well_formed_old`` flag.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import check_unique, read_csv_rows
from idiomkit.data.errors import DataError
from idiomkit.data.extra.overlap import dataset_dir, text

log = logging.getLogger(__name__)

MEANINGS_FILE = "1_english_idioms/3_merge_corpi/idiom_corpus.csv"
TRIPLES_FILE = "3_mturk_sentence_pairs/3_upgrade_sentence_pairs/gen_final_chatgpt.csv"
SOURCES = ("dict", "pfbt")
USAGES = ("ambiguous", "figurative", "literal")
BOOLS = {"True": True, "False": False}


@dataclass(frozen=True)
class IdiomMeaning:
    """An idiom's meaning, with an example sentence where the source gives one."""

    idiom: str
    language: str  # always "EN"
    meaning: str
    example: str | None
    source: str  # "dict" (TheIdioms.com) or "pfbt"
    split: str | None = None  # no splits


@dataclass(frozen=True)
class UsageTriple:
    """One phrase holding the idiom, alone and in a figurative and a literal sentence (``old_*``: earlier version)."""

    idiom: str
    language: str  # always "EN"
    meaning: str
    ambiguous: str
    figurative: str
    literal: str
    old_ambiguous: str
    old_figurative: str
    old_literal: str
    old_well_formed: bool
    old_votes: tuple[str, ...]  # MTurk majority usage of old_ambiguous, old_figurative, old_literal
    split: str | None = None  # no splits


def load_mt_meanings(data_dir: str | Path) -> list[IdiomMeaning]:
    """``idiom_corpus.csv``: one record per idiom that has a meaning."""
    path = dataset_dir(data_dir, "mt_ambiguity") / MEANINGS_FILE
    out, seen, empty, first_empty = [], {}, 0, None
    for row, rec in read_csv_rows(path, ("idiom", "meaning", "example", "source")):
        idiom = text(path, row, rec, "idiom")
        check_unique(path, row, "idiom", idiom, seen)
        if rec["source"] not in SOURCES:
            raise DataError(path, row, "source", f"'{rec['source']}' is not one of {', '.join(SOURCES)}")
        if not rec["meaning"].strip():
            empty += 1
            first_empty = first_empty or row
            continue
        example = rec["example"].strip() or None
        out.append(IdiomMeaning(idiom, "EN", rec["meaning"].strip(), example, rec["source"]))
    if not out:  # skipping every row would train on none of them, silently
        if not empty:
            raise DataError(path, None, "meaning", "no rows (the file has a header only)")
        raise DataError(path, first_empty, "meaning", f"blank in all {empty:,} rows: no idiom has a meaning")
    if empty:
        log.info("%s: skipped %d idiom(s) without a meaning", path, empty)
    return out


def _choice(path: Path, row: int, rec: dict[str, str], field: str, allowed: tuple[str, ...]) -> str:
    if rec[field] not in allowed:
        raise DataError(path, row, field, f"'{rec[field]}' is not one of {', '.join(allowed)}")
    return rec[field]


def _triple(path: Path, row: int, rec: dict[str, str]) -> UsageTriple:
    def get(field: str) -> str:
        return text(path, row, rec, field)

    return UsageTriple(
        idiom=get("idiom"),
        language="EN",
        meaning=get("meaning"),
        ambiguous=get("intended_ambiguous"),
        figurative=get("intended_figurative"),
        literal=get("intended_literal"),
        old_ambiguous=get("intended_ambiguous_old"),
        old_figurative=get("intended_figurative_old"),
        old_literal=get("intended_literal_old"),
        old_well_formed=BOOLS[_choice(path, row, rec, "well_formed_old", tuple(BOOLS))],
        old_votes=tuple(_choice(path, row, rec, f"maxvote_{u}_old", USAGES) for u in USAGES),
    )


def load_mt_triples(data_dir: str | Path) -> list[UsageTriple]:
    """``gen_final_chatgpt.csv``: one figurative/literal triple per idiom."""
    path = dataset_dir(data_dir, "mt_ambiguity") / TRIPLES_FILE
    columns = ["idiom", "meaning", "well_formed_old"]
    columns += [
        f"{prefix}_{u}{suffix}"
        for u in USAGES
        for prefix, suffix in (("intended", ""), ("intended", "_old"), ("maxvote", "_old"))
    ]
    out, seen = [], {}
    for row, rec in read_csv_rows(path, columns):
        item = _triple(path, row, rec)
        check_unique(path, row, "idiom", item.idiom, seen)
        out.append(item)
    return out
