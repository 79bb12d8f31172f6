"""SemEval-2022 Task 2 subtask B (idiomatic STS): official-compatible scorer, submission files, evaluator.

Scoring follows the organisers' ``SubTask2Evaluator.py``: a gold row with an empty ``sim`` takes the
*prediction* for its ``otherID`` row as gold; Spearman's rho is computed per language group (each language
and ALL languages together) over all rows, idiom rows (DataID's third part is not ``sts``) and STS rows.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from sentence_transformers.base.evaluation import BaseEvaluator

from idiomkit.data.csvio import read_csv_rows
from idiomkit.data.errors import DataError
from idiomkit.data.semeval2022 import LANGUAGES, EvalPair, GoldRow
from idiomkit.embedding.encode import encode_texts
from idiomkit.errors import InputError, OptionError
from idiomkit.metrics.similarity import cosine_rows, spearman
from idiomkit.results import atomic_write_text

SETTINGS = ("pre_train", "fine_tune")
SUBMISSION_HEADER = ["ID", "Language", "Setting", "Sim"]


class SubmissionError(InputError):
    """A submission that cannot be scored (missing, duplicate or non-numeric predictions)."""


def is_finite_number(value: object) -> bool:
    """``value`` reads as a finite float (a non-numeric string or ``None`` does not)."""
    try:
        return math.isfinite(float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def score_predictions(predictions: Mapping[str, float], gold: Sequence[GoldRow]) -> dict[str, dict[str, float]]:
    """Score ``{pair ID: predicted similarity}`` against gold rows.

    Returns ``{"ALL": {"idiom", "sts", "all"}, "EN": {...}, "PT": {...}, ...}`` (languages present in gold).
    Raises :class:`SubmissionError` if a needed prediction is missing or not finite.
    """
    needed = {g.id for g in gold} | {g.other_id for g in gold if g.sim is None and g.other_id}
    missing = sorted(needed - set(predictions))
    if missing:
        raise SubmissionError(f"{len(missing)} gold ID(s) have no prediction (first: {', '.join(missing[:3])})")
    bad = [i for i in needed if not is_finite_number(predictions[i])]
    if bad:
        raise SubmissionError(f"{len(bad)} prediction(s) are not finite numbers (first: {sorted(bad)[0]})")
    groups = [("ALL", set(LANGUAGES))] + [(lang, {lang}) for lang in LANGUAGES if any(g.language == lang for g in gold)]
    out: dict[str, dict[str, float]] = {}
    for name, langs in groups:
        rows = [g for g in gold if g.language in langs]
        gold_sim = [g.sim if g.sim is not None else float(predictions[g.other_id]) for g in rows]
        pred = [float(predictions[g.id]) for g in rows]
        sts = [i for i, g in enumerate(rows) if g.is_sts]
        idiom = [i for i, g in enumerate(rows) if not g.is_sts]
        out[name] = {
            "idiom": spearman([gold_sim[i] for i in idiom], [pred[i] for i in idiom]),
            "sts": spearman([gold_sim[i] for i in sts], [pred[i] for i in sts]),
            "all": spearman(gold_sim, pred),
        }
    return out


def submission_csv(pairs: Sequence[EvalPair], sims: Sequence[float], setting: str = "pre_train") -> str:
    """The official submission CSV (both settings' rows, as in the format file; the other setting left empty)."""
    if setting not in SETTINGS:
        raise OptionError(f"unknown setting '{setting}' (expected {' or '.join(SETTINGS)})")
    if len(pairs) != len(sims):
        raise ValueError(f"{len(pairs)} pairs but {len(sims)} similarities")
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(SUBMISSION_HEADER)
    for this in SETTINGS:
        for pair, sim in zip(pairs, sims, strict=True):
            writer.writerow([pair.id, pair.language, this, repr(float(sim)) if this == setting else ""])
    return buf.getvalue()


def write_submission(
    path: str | Path, pairs: Sequence[EvalPair], sims: Sequence[float], setting: str = "pre_train"
) -> Path:
    return atomic_write_text(path, submission_csv(pairs, sims, setting))


def read_2b_submission(path: str | Path, setting: str = "pre_train") -> dict[str, float]:
    """Read one setting's predictions from a submission CSV, refusing malformed rows."""
    return {pair_id: value for pair_id, (value, _, _) in submission_rows(path, setting).items()}


def submission_rows(path: str | Path, setting: str = "pre_train") -> dict[str, tuple[float, str, int]]:
    """``{ID: (Sim, Language, row)}`` of one setting's rows of a submission CSV, in file order; a malformed row, an
    empty Sim or a setting with no rows is a :class:`DataError` naming file, row and field."""
    path = Path(path)
    out: dict[str, tuple[float, str, int]] = {}
    empty: list[int] = []
    for row, rec in read_csv_rows(path, SUBMISSION_HEADER):
        if rec["Setting"] not in SETTINGS:
            raise DataError(path, row, "Setting", f"unknown setting '{rec['Setting']}'")
        if rec["Setting"] != setting:
            continue
        if rec["Sim"] == "":
            empty.append(row)
            continue
        try:
            value = float(rec["Sim"])
        except ValueError:
            raise DataError(path, row, "Sim", f"'{rec['Sim']}' is not a number") from None
        if not math.isfinite(value):
            raise DataError(path, row, "Sim", f"'{rec['Sim']}' is not finite")
        if rec["ID"] in out:
            raise DataError(path, row, "ID", f"duplicate '{rec['ID']}' for setting {setting}")
        out[rec["ID"]] = (value, rec["Language"], row)
    if empty:  # before "no rows": a setting whose every row is empty names those rows, not just the setting
        every = "" if out else f"; no {setting} row has a value: does the file hold the other setting?"
        raise DataError(path, empty[0], "Sim", f"is empty ({len(empty)} empty row(s) for setting {setting}{every})")
    if not out:
        raise DataError(path, None, "Setting", f"no rows for setting '{setting}'")
    return out


def score_submission(
    path: str | Path, gold: Sequence[GoldRow], setting: str = "pre_train", pairs: Sequence[EvalPair] = ()
) -> dict[str, dict[str, float]]:
    """Score a submission CSV file. Like the official script, an ID the gold does not know is refused; so is a
    Language that disagrees with the gold (or ``pairs``) and a missing row, each naming the submission's file, row
    and field."""
    path = Path(path)
    rows = submission_rows(path, setting)
    known = {g.id for g in gold} | {g.other_id for g in gold if g.other_id}
    unknown = [(row, pair_id) for pair_id, (_, _, row) in rows.items() if pair_id not in known]
    if unknown:
        row, pair_id = unknown[0]
        raise DataError(
            path, row, "ID", f"'{pair_id}' is not an ID of the gold data ({len(unknown)} such row(s); wrong split?)"
        )
    language = {p.id: (p.language, "the pair file") for p in pairs}
    language |= {g.id: (g.language, "the gold data") for g in gold}
    for pair_id, (_, lang, row) in rows.items():
        if pair_id in language and lang != language[pair_id][0]:
            expected, source = language[pair_id]
            raise DataError(path, row, "Language", f"'{lang}' for ID '{pair_id}', but {source} says '{expected}'")
    needed = {g.id for g in gold} | {g.other_id for g in gold if g.sim is None and g.other_id}
    if missing := sorted(needed - set(rows), key=_id_order):
        raise DataError(
            path,
            None,
            "ID",
            f"no {setting} row for {len(missing)} ID(s) the gold data needs (first: {', '.join(missing[:3])})",
        )
    return score_predictions({pair_id: value for pair_id, (value, _, _) in rows.items()}, gold)


def _id_order(pair_id: str) -> tuple[int, int | str]:
    """Numeric IDs in number order (2 before 10), any other after them."""
    return (0, int(pair_id)) if pair_id.isascii() and pair_id.isdigit() else (1, pair_id)


# --- evaluation with a model --------------------------------------------------------------------------------


def pair_similarities(
    model,
    pairs: Sequence[EvalPair],
    *,
    prompt_name: str | None = None,
    batch_size: int = 64,
    show_progress_bar: bool = False,
    transform=None,
) -> np.ndarray:
    """Cosine similarity of each pair's two sentences; each distinct sentence is encoded once.

    ``transform`` optionally rewrites ``(sentence, pair)`` before encoding (e.g. MWE tokens).
    """
    texts1 = [transform(p.sentence1, p) if transform else p.sentence1 for p in pairs]
    texts2 = [transform(p.sentence2, p) if transform else p.sentence2 for p in pairs]
    unique = list(dict.fromkeys(texts1 + texts2))
    index = {t: i for i, t in enumerate(unique)}
    emb = encode_texts(
        model, unique, prompt_name=prompt_name, batch_size=batch_size, show_progress_bar=show_progress_bar
    )
    a = emb[[index[t] for t in texts1]]
    b = emb[[index[t] for t in texts2]]
    return cosine_rows(a, b)


def score_pairs(
    model,
    pairs: Sequence[EvalPair],
    gold: Sequence[GoldRow],
    *,
    prompt_name: str | None = None,
    batch_size: int = 64,
    show_progress_bar: bool = False,
    transform=None,
) -> tuple[np.ndarray, dict[str, dict[str, float]]]:
    """The one way 2B is scored (the task, the training evaluator, mteb's check): each pair's cosine
    (:func:`pair_similarities`) and the organisers' table over ``gold`` (:func:`score_predictions`)."""
    sims = pair_similarities(
        model,
        pairs,
        prompt_name=prompt_name,
        batch_size=batch_size,
        show_progress_bar=show_progress_bar,
        transform=transform,
    )
    return sims, score_predictions({p.id: float(s) for p, s in zip(pairs, sims, strict=True)}, gold)


class SemEval2BEvaluator(BaseEvaluator):
    """Training-time evaluator (a sentence-transformers ``BaseEvaluator``) on subtask B pairs with gold rows.

    Use it on a validation split carved from train (see the triplet recipe), never on dev for selection.
    Returns ``{<name>_idiom, <name>_sts, <name>_all, ...}``; the primary metric is ``idiom`` by default.
    """

    def __init__(
        self,
        pairs: Sequence[EvalPair],
        gold: Sequence[GoldRow],
        *,
        name: str = "semeval2b",
        prompt_name: str | None = None,
        primary: str = "idiom",
        batch_size: int = 64,
        transform=None,
    ):
        super().__init__()
        self.pairs, self.gold, self.name = list(pairs), list(gold), name
        self.prompt_name, self.batch_size, self.transform = prompt_name, batch_size, transform
        self.greater_is_better = True
        self.primary_metric = f"{name}_{primary}"

    def __call__(self, model, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict[str, float]:
        _, scores = score_pairs(
            model,
            self.pairs,
            self.gold,
            prompt_name=self.prompt_name,
            batch_size=self.batch_size,
            transform=self.transform,
        )
        return self.prefix_name_to_metrics({k: v for k, v in scores["ALL"].items() if math.isfinite(v)}, self.name)

    @property
    def description(self) -> str:
        return "SemEval-2022 Task 2B"

    def get_config_dict(self) -> dict:
        return {"name": self.name, "prompt_name": self.prompt_name}
