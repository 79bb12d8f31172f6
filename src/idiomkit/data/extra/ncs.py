"""NCS, Noun Compound Senses (Garcia et al., EACL 2021), EN and PT: neutral template sentences and rewrites.

Under ``idioms_extra/ncs_garcia2021``, per language (``en``/``pt``), joined on ``compound``:

- ``dataset/<lang>/neutral/P1_sents.csv`` (``compound, neutral sentence, mwe synonym``): the compound replaced by a
  synonym, the figurative paraphrase (positive);
- ``dataset/<lang>/neutral/P2_sents.csv`` (``…, head only, modifier only``): the compound cut to one word;
- ``dataset/<lang>/neutral/P3_sents.csv`` (``…, both synonyms``): each word replaced by a synonym, the word-by-word
  literal misreading (negative);
- ``input/sentids_<lang>.csv`` (``compound, compositionality, sentence1..3``): compositionality 0–5 (5 = fully
  compositional; EN writes a decimal comma) and corpus sentences, some only pointers (``sent2: (…)``) to the
  unreleased ukWaC/brWaC text: those are left out (counted in the log).

A compound whose P1 and P3 rewrites are the same sentence gives no contrast and is skipped (counted in the log).
200 compounds are SemEval-2022 T2 evaluation compounds: see ``load_overlap(data_dir, "ncs")``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import check_unique, read_csv_rows
from idiomkit.data.errors import DataError
from idiomkit.data.extra.overlap import dataset_dir, text
from idiomkit.errors import check_choice

log = logging.getLogger(__name__)

LANGUAGES = ("EN", "PT")
SENTENCES = ("sentence1", "sentence2", "sentence3")
COLUMNS = {
    "P1": ("compound", "neutral sentence", "mwe synonym"),
    "P2": ("compound", "neutral sentence", "head only", "modifier only"),
    "P3": ("compound", "neutral sentence", "both synonyms"),
    "sentids": ("compound", "compositionality", *SENTENCES),
}
_POINTER = re.compile(r"sent[123]: \(")

Rows = dict[str, tuple[int, dict[str, str]]]


@dataclass(frozen=True)
class NcsCompound:
    """A noun compound in the neutral sentence, with its synonym (P1), word-by-word (P3) and one-word (P2) rewrites."""

    idiom: str  # the compound
    language: str  # "EN" or "PT"
    sentence: str  # the neutral sentence ("This is a/an <compound>")
    synonym_rewrite: str  # P1: figurative paraphrase (positive)
    literal_rewrite: str  # P3: word-by-word misreading (negative)
    head_only: str  # P2
    modifier_only: str  # P2
    compositionality: float  # 0 (idiomatic) to 5 (compositional)
    corpus_sentences: tuple[str, ...]  # the verbatim corpus sentences (pointers left out)
    split: str | None = None  # NCS has no splits


def ncs_files(data_dir: str | Path, language: str) -> dict[str, Path]:
    """The four files of ``language``, keyed P1, P2, P3, sentids."""
    check_choice("NCS language", language, LANGUAGES)
    root, lang = dataset_dir(data_dir, "ncs"), language.lower()
    files = {p: root / "dataset" / lang / "neutral" / f"{p}_sents.csv" for p in ("P1", "P2", "P3")}
    return files | {"sentids": root / "input" / f"sentids_{lang}.csv"}


def _rows(path: Path, columns: tuple[str, ...]) -> Rows:
    """``{compound: (row, record)}``; a compound twice is a DataError."""
    out: Rows = {}
    seen: dict[str, int] = {}
    for row, rec in read_csv_rows(path, columns):
        compound = text(path, row, rec, "compound")
        check_unique(path, row, "compound", compound, seen)
        out[compound] = (row, rec)
    return out


def _check_same(files: dict[str, Path], tables: dict[str, Rows]) -> None:
    """Every file has the compounds of P1, and P2/P3 repeat P1's neutral sentence."""
    p1 = tables["P1"]
    for name, rows in tables.items():
        for compound, (row, rec) in rows.items():
            if compound not in p1:
                raise DataError(files[name], row, "compound", f"'{compound}' has no row in {files['P1'].name}")
            if "neutral sentence" in rec and rec["neutral sentence"] != p1[compound][1]["neutral sentence"]:
                problem = f"differs from {files['P1'].name} row {p1[compound][0]}"
                raise DataError(files[name], row, "neutral sentence", problem)
        for compound, (row, _) in p1.items():
            if compound not in rows:
                raise DataError(files["P1"], row, "compound", f"'{compound}' has no row in {files[name].name}")


def _compositionality(path: Path, row: int, value: str) -> float:
    try:
        score = float(value.strip().replace(",", "."))
    except ValueError:
        raise DataError(path, row, "compositionality", f"'{value}' is not a number") from None
    if not 0.0 <= score <= 5.0:  # also rejects NaN
        raise DataError(path, row, "compositionality", f"{value} is outside [0, 5]")
    return score


def _compound(files: dict[str, Path], tables: dict[str, Rows], compound: str, language: str) -> NcsCompound:
    (r1, p1), (r2, p2), (r3, p3), (rs, ids) = (tables[k][compound] for k in ("P1", "P2", "P3", "sentids"))
    corpus = tuple(text(files["sentids"], rs, ids, f) for f in SENTENCES)
    return NcsCompound(
        idiom=compound,
        language=language,
        sentence=text(files["P1"], r1, p1, "neutral sentence"),
        synonym_rewrite=text(files["P1"], r1, p1, "mwe synonym"),
        literal_rewrite=text(files["P3"], r3, p3, "both synonyms"),
        head_only=text(files["P2"], r2, p2, "head only"),
        modifier_only=text(files["P2"], r2, p2, "modifier only"),
        compositionality=_compositionality(files["sentids"], rs, ids["compositionality"]),
        corpus_sentences=tuple(s for s in corpus if not _POINTER.match(s)),
    )


def load_ncs_language(data_dir: str | Path, language: str) -> list[NcsCompound]:
    """The compounds of one language, in P1 file order."""
    files = ncs_files(data_dir, language)
    tables = {name: _rows(path, COLUMNS[name]) for name, path in files.items()}
    _check_same(files, tables)
    items = [_compound(files, tables, compound, language) for compound in tables["P1"]]
    out = [item for item in items if item.synonym_rewrite != item.literal_rewrite]
    if same := len(items) - len(out):
        log.info("%s: skipped %d compound(s) whose P3 rewrite equals the P1 rewrite", files["P3"], same)
    pointers = 3 * len(items) - sum(len(item.corpus_sentences) for item in items)
    if pointers:
        log.info("%s: left out %d corpus sentence pointer(s) (text not released)", files["sentids"], pointers)
    return out


def load_ncs(data_dir: str | Path, languages: tuple[str, ...] = LANGUAGES) -> list[NcsCompound]:
    """The NCS compounds of ``languages``."""
    return [item for language in languages for item in load_ncs_language(data_dir, language)]
