"""AdMIRe subtask A (text side) as an mteb reranking task: rank each sentence's five image captions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from datasets import Dataset
from mteb.abstasks import AbsTaskRetrieval
from mteb.abstasks.task_metadata import TaskMetadata as MtebTaskMetadata

from idiomkit.mteb_tasks._common import LocalData, pytrec_order

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


class AdMIReRanking(LocalData, AbsTaskRetrieval):
    """AdMIRe subtask A (text side) as an mteb reranking task: rank each sentence's five image captions."""

    data_files = ("admire/en/subtask_a_test.tsv",)
    admire_split = "test"
    k_values = (1, 3, 5)
    metadata = MtebTaskMetadata(
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
