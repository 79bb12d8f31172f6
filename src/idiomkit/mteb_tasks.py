"""idiomkit's benchmarks as `mteb <https://github.com/embeddings-benchmark/mteb>`_ tasks, read from the local data.

- :class:`SemEval2022Task2BDev` (STS): SemEval-2022 Task 2B dev with the organisers' rules; main score
  ``cosine_spearman`` over the idiom rows of all languages = idiomkit's ``ALL.idiom``.
- :class:`IdioLinkRetrieval` (retrieval, mteb name ``IdioLinkTest``): the test index, sentence queries, idiomkit's
  relevance; main score ``ndcg_at_10`` = idiomkit's ``ndcg@10`` (``query_mode=sentence``) / 100.
- :class:`AdMIReRanking` (reranking, five captions per sentence): main score ``spearman`` = idiomkit's admire
  ``spearman`` (``query_mode=sentence``); ``ndcg_at_5`` x 3.631 = the organisers' DCG.

``load_data`` reads the files through idiomkit's loaders from ``data_dir`` (default
:func:`idiomkit.config.default_data_dir`); nothing is fetched from a hub. Run them with :func:`run_mteb`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from datasets import Dataset
from mteb.abstasks import AbsTaskRetrieval, AbsTaskSTS
from mteb.abstasks.task_metadata import TaskMetadata
from scipy.stats import pearsonr, spearmanr

from idiomkit.config import default_data_dir
from idiomkit.errors import UnknownName
from idiomkit.results import sha256_files
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


class _LocalData:
    """Mixin: a ``data_dir`` argument, metadata whose dataset path/revision name the local files, and ``load_data``
    reading them once through :meth:`read_splits` (idiomkit's loaders)."""

    data_files: tuple[str, ...] = ()  # relative to data_dir

    def __init__(self, data_dir: str | Path | None = None, **kwargs: Any):
        self.data_dir = Path(data_dir) if data_dir else default_data_dir()
        files = [self.data_dir / f for f in self.data_files]
        revision = sha256_files(files) if all(f.is_file() for f in files) else "local"
        dataset = {"path": str(self.data_dir / Path(self.data_files[0]).parts[0]), "revision": revision}
        self.metadata = self.metadata.model_copy(update={"dataset": dataset})
        super().__init__(**kwargs)

    def read_splits(self) -> dict[str, Any]:
        """The ``default`` subset's data by split name, read from ``data_dir``."""
        raise NotImplementedError

    def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
        """Read the local files (:meth:`read_splits`) unless already loaded."""
        if self.data_loaded:
            return
        self.dataset = {"default": self.read_splits()}
        self.data_loaded = True

    def unload_data(self) -> None:
        """mteb's unload drops instance metadata; keep ours (it names the local files)."""
        metadata = self.metadata
        super().unload_data()
        self.metadata = metadata


# ---------------------------------------------------------------- SemEval-2022 Task 2B (STS)


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


class SemEval2022Task2BDev(_LocalData, AbsTaskSTS):
    """SemEval-2022 Task 2B dev as an mteb STS task, scored with the organisers' rules."""

    data_files = TASKS["semeval2b"].metadata.data_files
    min_score, max_score = 0, 1
    metadata = TaskMetadata(
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


# ---------------------------------------------------------------- IdioLink (retrieval)


def pytrec_order(scores: dict[str, float]) -> list[str]:
    """Document ids best first; ties in score broken by document id, descending (pytrec_eval's order, as mteb
    uses)."""
    return [d for d, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)]


def r_precision(qrels: dict[str, dict[str, int]], results: dict[str, dict[str, float]]) -> dict[str, float]:
    """R-Precision per query: relevant documents among the top R (R = number of relevant documents), ranked in
    :func:`pytrec_order`."""
    out = {}
    for qid, rel in qrels.items():
        relevant = {d for d, g in rel.items() if g > 0}
        out[qid] = sum(d in relevant for d in pytrec_order(results.get(qid, {}))[: len(relevant)]) / len(relevant)
    return out


class IdioLinkRetrieval(_LocalData, AbsTaskRetrieval):
    """IdioLink test as an mteb retrieval task (sentence queries over the whole test index)."""

    data_files = TASKS["idiolink"].metadata.data_files
    idiolink_split = "test"
    metadata = TaskMetadata(
        name="IdioLinkTest",
        description=(
            "IdioLink: retrieve documents whose potentially idiomatic expression (PIE) conveys the same meaning as "
            "the query's (75 PIEs, 7,500 documents, 1,500 sentence queries). Binary relevance: literal query -> "
            "literal documents of its PIE (R=40); idiomatic query -> idiomatic, simplification and sense documents "
            "of its PIE (R=60). Extra scores: r_precision, ndcg_at_10_literal, ndcg_at_10_idiomatic."
        ),
        reference="https://github.com/Intellexus-DSI/IdioLink",
        dataset={"path": "idiolink", "revision": "local"},
        type="Retrieval",
        category="t2t",
        modalities=["text"],
        eval_splits=["test"],
        eval_langs=["eng-Latn"],
        main_score="ndcg_at_10",
        date=("2024-01-01", "2025-06-30"),
        domains=["Written", "Constructed"],
        task_subtypes=[],
        license="apache-2.0",
        annotations_creators="derived",
        dialect=[],
        sample_creation="LM-generated and verified",
        bibtex_citation="",
    )

    def read_splits(self) -> dict[str, dict[str, Any]]:
        """Documents, sentence queries and relevance of the split, read with idiomkit's loader."""
        from idiomkit.data.idiolink import load_idiolink

        data = load_idiolink(self.data_dir, self.idiolink_split)
        self.usage = {q.id: q.usage for q in data.queries}
        return {self.idiolink_split: idiolink_split_data(data)}

    def task_specific_scores(self, scores, qrels, results, hf_split: str, hf_subset: str) -> dict[str, float]:
        """R-Precision (idiomkit's other IdioLink metric) and nDCG@10 by query usage."""
        extra = {"r_precision": float(np.mean(list(r_precision(qrels, results).values())))}
        for usage in ("literal", "idiomatic"):
            ids = [q for q in qrels if self.usage.get(q) == usage]
            if ids:
                extra[f"ndcg_at_10_{usage}"] = float(np.mean([scores[q]["ndcg_cut_10"] for q in ids]))
        return extra


def idiolink_split_data(data) -> dict[str, Any]:
    """An :class:`~idiomkit.data.idiolink.IdioLinkSplit` as mteb's ``RetrievalSplitData`` (sentence queries)."""
    return {
        "corpus": Dataset.from_dict(
            {"id": [d.id for d in data.documents], "text": [d.sentence for d in data.documents]}
        ),
        "queries": Dataset.from_dict({"id": [q.id for q in data.queries], "text": [q.sentence for q in data.queries]}),
        "relevant_docs": data.qrels(),
        "top_ranked": None,
    }


# ---------------------------------------------------------------- AdMIRe (reranking)

ADMIRE_GAINS = (3, 1, 0, 0, 0)  # the organisers' DCG weights for the gold first, second, ... image


def admire_split_data(items) -> dict[str, Any]:
    """AdMIRe items as ``RetrievalSplitData``: query = the sentence, candidates = its five captions, graded relevance
    3 / 1 for the gold first / second image (so nDCG@5 = the organisers' DCG / (3 + 1/log2 3))."""
    qid = [f"q{i}" for i in range(len(items))]
    doc_ids = [[f"q{i}/{name}" for name in it.images] for i, it in enumerate(items)]
    relevant = {
        q: {f"{q}/{name}": gain for name, gain in zip(it.gold, ADMIRE_GAINS, strict=True)}
        for q, it in zip(qid, items, strict=True)
    }
    return {
        "corpus": Dataset.from_dict(
            {"id": [d for ids in doc_ids for d in ids], "text": [c for it in items for c in it.captions]}
        ),
        "queries": Dataset.from_dict({"id": qid, "text": [it.sentence for it in items]}),
        "relevant_docs": relevant,
        "top_ranked": dict(zip(qid, doc_ids, strict=True)),
    }


def rank_correlation(predicted: Sequence[str], gold: Sequence[str]) -> float:
    """Spearman's rho between the predicted and gold ranks of the same distinct items."""
    n = len(gold)
    rank = {d: i for i, d in enumerate(predicted)}
    return 1.0 - 6.0 * sum((rank[d] - i) ** 2 for i, d in enumerate(gold)) / (n * (n * n - 1))


class AdMIReRanking(_LocalData, AbsTaskRetrieval):
    """AdMIRe subtask A (text side) as an mteb reranking task: rank each sentence's five image captions."""

    data_files = ("admire/en/subtask_a_test.tsv",)
    admire_split = "test"
    k_values = (1, 3, 5)
    metadata = TaskMetadata(
        name="AdMIReRanking",
        description=(
            "AdMIRe (SemEval-2025 Task 1, subtask A, English, text only): rank the captions of five images by how "
            "well they depict the meaning (idiomatic or literal) of a nominal compound in a sentence. Query = the "
            "sentence; relevance 3 / 1 for the gold first / second image (nDCG@5 = the organisers' DCG / 3.631). "
            "Main score: Spearman's rho between predicted and gold caption ranks, mean over items (idiomkit's "
            "admire 'spearman'); top1 = the best caption first."
        ),
        reference="https://arxiv.org/abs/2503.15358",
        dataset={"path": "admire", "revision": "local"},
        type="Reranking",
        category="t2t",
        modalities=["text"],
        eval_splits=["test"],
        eval_langs=["eng-Latn"],
        main_score="spearman",
        date=("2024-06-01", "2025-01-31"),
        domains=["Written"],
        task_subtypes=[],
        license="cc-by-4.0",
        annotations_creators="expert-annotated",
        dialect=[],
        sample_creation="created",
        bibtex_citation="""@inproceedings{pickard-etal-2025-semeval,
  title = {{S}em{E}val-2025 Task 1: {A}d{MIR}e -- Advancing Multimodal Idiomaticity Representation},
  author = {Pickard, Thomas and Villavicencio, Aline and Mi, Maggie and He, Wei and Phelps, Dylan and
            Idiart, Marco},
  year = {2025},
  eprint = {2503.15358},
  archivePrefix = {arXiv},
}""",
    )

    def read_splits(self) -> dict[str, dict[str, Any]]:
        """The split's items, read with idiomkit's AdMIRe loader."""
        from idiomkit.data.admire import load_admire

        items = load_admire(self.data_dir, self.admire_split).items
        self.gold = {f"q{i}": [f"q{i}/{name}" for name in it.gold] for i, it in enumerate(items)}
        return {self.admire_split: admire_split_data(items)}

    def task_specific_scores(self, scores, qrels, results, hf_split: str, hf_subset: str) -> dict[str, float]:
        """Spearman and top-1 per item from mteb's ranking (:func:`pytrec_order`)."""
        rho, top1 = [], []
        for q, gold in self.gold.items():
            order = pytrec_order(results[q])
            rho.append(rank_correlation(order, gold))
            top1.append(float(order[0] == gold[0]))
        return {"spearman": float(np.mean(rho)), "top1": float(np.mean(top1))}


# ---------------------------------------------------------------- running

MTEB_TASKS = {"semeval2b": SemEval2022Task2BDev, "idiolink": IdioLinkRetrieval, "admire": AdMIReRanking}


def get_mteb_task(name: str, data_dir: str | Path | None = None):
    """An mteb task instance by idiomkit's task name (``semeval2b``, ``idiolink`` or ``admire``)."""
    if name not in MTEB_TASKS:
        raise UnknownName(f"no mteb task for '{name}' (expected one of {', '.join(MTEB_TASKS)})")
    return MTEB_TASKS[name](data_dir=data_dir)


def run_mteb(model, task, *, batch_size: int = 64, show_progress_bar: bool = False) -> dict[str, float]:
    """Run one mteb task on a SentenceTransformer with ``mteb.evaluate`` (no result cache, nothing fetched);
    returns the scores of its only split and subset, ``main_score`` included."""
    import mteb
    from datasets.utils import logging as ds_logging

    quiet = not show_progress_bar and ds_logging.is_progress_bar_enabled()
    if quiet:
        ds_logging.disable_progress_bar()  # mteb's dataset maps would draw bars
    try:
        result = mteb.evaluate(
            model,
            tasks=[task],
            cache=None,
            overwrite_strategy="always",
            show_progress_bar=show_progress_bar,
            encode_kwargs={"batch_size": batch_size, "show_progress_bar": show_progress_bar},
        )
    finally:
        if quiet:
            ds_logging.enable_progress_bar()
    (task_result,) = result.task_results
    (split,) = task_result.scores.values()
    (scores,) = split
    return dict(scores)
