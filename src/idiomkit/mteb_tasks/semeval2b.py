"""SemEval-2022 Task 2B dev as an mteb STS task, scored with the organisers' rules."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from datasets import Dataset
from mteb.abstasks import AbsTaskSTS
from mteb.abstasks.task_metadata import TaskMetadata as MtebTaskMetadata
from scipy.stats import pearsonr, spearmanr

from idiomkit.mteb_tasks._common import LocalData
from idiomkit.tasks import TASKS

SEMEVAL_CITATION = """@inproceedings{tayyarmadabushi-etal-2022-semeval,
  title = {{S}em{E}val-2022 Task 2: Multilingual Idiomaticity Detection and Sentence Embedding},
  author = {Tayyar Madabushi, Harish and Gow-Smith, Edward and Garcia, Marcos and Scarton, Carolina and
            Idiart, Marco and Villavicencio, Aline},
  booktitle = {Proceedings of the 16th International Workshop on Semantic Evaluation (SemEval-2022)},
  year = {2022},
  pages = {107--121},
}"""

# (metric prefix, key in mteb's STSEvaluatorScores); "" = the model's own similarity function
_STS_FAMILIES = (
    ("cosine_", "cosine_scores"),
    ("manhattan_", "manhattan_distances"),
    ("euclidean_", "euclidean_distances"),
    ("", "similarity_scores"),
)
STS_SUBSETS = ("idiom", "sts", "all")


def resolve_gold(gold: Sequence[float | None], other_index: Sequence[int], pred: Sequence[float]) -> np.ndarray:
    """The organisers' rule: a row without gold takes the system's prediction for its ``otherID`` row."""
    return np.array([g if g is not None else pred[o] for g, o in zip(gold, other_index, strict=True)], dtype=float)


def _correlations(gold: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    if len(gold) < 2:
        return math.nan, math.nan
    return float(pearsonr(gold, pred)[0]), float(spearmanr(gold, pred)[0])


def organiser_sts_scores(rows: Dataset, preds: dict[str, list[float] | None]) -> dict[str, float]:
    """mteb's STS metrics over the idiom rows of all languages, plus ``<subset>_<lang>_cosine_spearman`` for each
    subset (idiom, sts, all) and language group (all, en, pt, ...) of the gold rows."""
    ids = list(rows["id"])
    index = {i: n for n, i in enumerate(ids)}
    other = [index.get(o, -1) for o in rows["other_id"]]
    subset = np.array(rows["subset"])
    language = np.array(rows["language"])
    out: dict[str, float] = {}
    for prefix, key in _STS_FAMILIES:
        pred = np.asarray(preds[key] if preds.get(key) is not None else preds["cosine_scores"], dtype=float)
        gold = resolve_gold(list(rows["score"]), other, pred)
        mask = subset == "idiom"
        out[f"{prefix}pearson"], out[f"{prefix}spearman"] = _correlations(gold[mask], pred[mask])
        if prefix != "cosine_":
            continue
        for lang in ["all", *sorted({lang.lower() for lang in language if lang})]:
            in_lang = (language != "") if lang == "all" else (np.char.lower(language) == lang)
            for name in STS_SUBSETS:
                in_subset = (subset != "") if name == "all" else (subset == name)
                mask = in_lang & in_subset
                out[f"{name}_{lang}_cosine_spearman"] = _correlations(gold[mask], pred[mask])[1]
    return out


def semeval2b_rows(data_dir: str | Path) -> Dataset:
    """Every dev pair (rows without gold are there for their ``otherID`` partners), with gold fields:
    ``score`` (None = take the prediction of ``other_id``), ``subset`` (idiom / sts / "" = not scored), ``language``."""
    from idiomkit.data.semeval2022 import load_subtask_b

    split = load_subtask_b(data_dir, "dev")
    gold = {g.id: g for g in split.gold or []}

    def field(pair_id: str, name: str, default: Any) -> Any:
        return getattr(gold[pair_id], name) if pair_id in gold else default

    pairs = split.pairs
    return Dataset.from_dict(
        {
            "id": [p.id for p in pairs],
            "sentence1": [p.sentence1 for p in pairs],
            "sentence2": [p.sentence2 for p in pairs],
            "score": [field(p.id, "sim", None) for p in pairs],
            "other_id": [field(p.id, "other_id", None) or "" for p in pairs],
            "subset": [("sts" if gold[p.id].is_sts else "idiom") if p.id in gold else "" for p in pairs],
            "language": [field(p.id, "language", "") for p in pairs],
        }
    )


class SemEval2022Task2BDev(LocalData, AbsTaskSTS):
    """SemEval-2022 Task 2B dev as an mteb STS task, scored with the organisers' rules."""

    data_files = TASKS["semeval2b"].metadata.data_files
    min_score, max_score = 0, 1
    metadata = MtebTaskMetadata(
        name="SemEval2022Task2BDev",
        description=(
            "SemEval-2022 Task 2 subtask B (idiomatic STS), dev split (the only one with public gold), EN + PT. "
            "Organisers' rules: a gold row with an empty sim takes the model's own cosine for its otherID pair. "
            "Main score: Spearman (cosine) over the idiom rows of all languages (idiomkit's ALL.idiom); "
            "<subset>_<lang>_cosine_spearman give the sts/all subsets and each language."
        ),
        reference="https://github.com/H-TayyarMadabushi/SemEval_2022_Task2-idiomaticity",
        dataset={"path": "semeval2022_task2", "revision": "local"},
        type="STS",
        category="t2t",
        modalities=["text"],
        eval_splits=["dev"],
        eval_langs=["eng-Latn", "por-Latn"],
        main_score="cosine_spearman",
        date=("2021-06-01", "2022-02-03"),
        domains=["Written", "News", "Web"],
        task_subtypes=[],
        license="gpl-3.0",
        annotations_creators="expert-annotated",
        dialect=[],
        sample_creation="found",
        bibtex_citation=SEMEVAL_CITATION,
    )

    def read_splits(self) -> dict[str, Dataset]:
        """dev.csv + dev.gold.csv, read with idiomkit's strict loader."""
        return {"dev": semeval2b_rows(self.data_dir)}

    def _evaluate_subset(
        self,
        model,
        data_split: Dataset,
        *,
        encode_kwargs,
        hf_split: str,
        hf_subset: str,
        prediction_folder=None,
        num_proc=None,
        timer,
        **kwargs: Any,
    ) -> dict[str, float]:
        from mteb._evaluators import AnySTSEvaluator

        evaluator = AnySTSEvaluator(
            data_split,
            self.column_names,
            task_metadata=self.metadata,
            hf_split=hf_split,
            hf_subset=hf_subset,
            input1_prompt_type=self.input1_prompt_type,
            input2_prompt_type=self.input2_prompt_type,
            timer=timer,
            **kwargs,
        )
        scores = evaluator(model, encode_kwargs=encode_kwargs, num_proc=num_proc)
        if prediction_folder:
            self._save_task_predictions(scores, model, prediction_folder, hf_subset=hf_subset, hf_split=hf_split)
        return organiser_sts_scores(data_split, scores)
