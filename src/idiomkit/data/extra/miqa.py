"""MiQA (Comșa, Eisenschlos & Narayanan 2022): metaphorical premise → correct vs literal-misreading conclusion.

File ``idioms_extra/miqa/data/metaphor_inference_qa.tsv`` (TSV, header ``literal_premise, metaphorical_premise,
literal_conclusion, metaphorical_conclusion``). For the metaphorical premise the metaphorical conclusion is correct
and the literal conclusion is the literal misreading.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.extra.overlap import dataset_dir, read_tsv_rows, text

COLUMNS = ("literal_premise", "metaphorical_premise", "literal_conclusion", "metaphorical_conclusion")


@dataclass(frozen=True)
class MiqaItem:
    """A metaphorical premise with its correct and its literal-misreading conclusion."""

    premise: str  # metaphorical_premise
    correct: str  # metaphorical_conclusion
    wrong: str  # literal_conclusion: the literal misreading (correct for ``literal_premise``)
    literal_premise: str
    language: str = "EN"
    split: str | None = None  # no splits


def load_miqa(data_dir: str | Path) -> list[MiqaItem]:
    """The 150 MiQA quadruples."""
    path = dataset_dir(data_dir, "miqa") / "data" / "metaphor_inference_qa.tsv"
    return [
        MiqaItem(
            premise=text(path, row, rec, "metaphorical_premise"),
            correct=text(path, row, rec, "metaphorical_conclusion"),
            wrong=text(path, row, rec, "literal_conclusion"),
            literal_premise=text(path, row, rec, "literal_premise"),
        )
        for row, rec in read_tsv_rows(path, COLUMNS)
    ]
