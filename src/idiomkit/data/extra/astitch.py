"""AStitchInLanguageModels Extended Noun Compound Senses (Tayyar Madabushi et al. 2021), EN and PT.

Files ``idioms_extra/astitch_nc_senses/Dataset/Extended_Noun_Compound_Senses_Dataset/{EN,PT}_Extended_Noun_Compound_
Senses_Dataset.csv``: one row per compound, a literal meaning (a word-by-word misreading, or the plain meaning of a
compositional compound), up to three non-literal meanings ("None" when absent) and ``Data Split``.

Only ``train`` rows may be used for training: the dev and test compounds are SemEval-2022 T2 evaluation compounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import check_unique, read_csv_rows
from idiomkit.data.errors import DataError
from idiomkit.data.extra.overlap import dataset_dir, text
from idiomkit.errors import check_choice

LANGUAGES = ("EN", "PT")
SPLITS = ("train", "dev", "test")
FIGURATIVE = ("Non-Literal Meaning 1", "Non-Literal Meaning 2", "Non-Literal Meaning 3")
COLUMNS = ("Multiword Expression", "Literal Meaning", *FIGURATIVE, "Data Split")


@dataclass(frozen=True)
class CompoundSenses:
    """A noun compound's literal (mis)reading and its figurative meanings (empty for compositional compounds)."""

    idiom: str  # the compound
    language: str  # "EN" or "PT"
    split: str  # "train", "dev" or "test"
    literal_meaning: str
    figurative_meanings: tuple[str, ...]


def astitch_file(data_dir: str | Path, language: str) -> Path:
    check_choice("AStitch language", language, LANGUAGES)
    folder = dataset_dir(data_dir, "astitch") / "Dataset" / "Extended_Noun_Compound_Senses_Dataset"
    return folder / f"{language}_Extended_Noun_Compound_Senses_Dataset.csv"


def _parse(path: Path, row: int, rec: dict[str, str], language: str) -> CompoundSenses:
    split = rec["Data Split"].strip()
    if split not in SPLITS:
        raise DataError(path, row, "Data Split", f"'{split}' is not one of {', '.join(SPLITS)}")
    literal = text(path, row, rec, "Literal Meaning")
    if literal == "None":
        raise DataError(path, row, "Literal Meaning", "is 'None'")
    figurative = tuple(m for m in (text(path, row, rec, f) for f in FIGURATIVE) if m != "None")
    return CompoundSenses(text(path, row, rec, "Multiword Expression"), language, split, literal, figurative)


def load_astitch(
    data_dir: str | Path, languages: tuple[str, ...] = LANGUAGES, splits: tuple[str, ...] = SPLITS
) -> list[CompoundSenses]:
    """The compounds of ``languages`` whose split is in ``splits`` (pass ``("train",)`` for training data)."""
    out = []
    for language in languages:
        path, seen = astitch_file(data_dir, language), {}
        for row, rec in read_csv_rows(path, COLUMNS):
            item = _parse(path, row, rec, language)
            check_unique(path, row, "Multiword Expression", item.idiom, seen)
            if item.split in splits:
                out.append(item)
    return out
