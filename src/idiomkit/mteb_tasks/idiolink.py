"""IdioLink test as an mteb retrieval task (sentence queries over the whole test index)."""

from __future__ import annotations

from typing import Any

import numpy as np
from datasets import Dataset
from mteb.abstasks import AbsTaskRetrieval
from mteb.abstasks.task_metadata import TaskMetadata as MtebTaskMetadata

from idiomkit.mteb_tasks._common import LocalData, pytrec_order
from idiomkit.tasks import TASKS


def r_precision(qrels: dict[str, dict[str, int]], results: dict[str, dict[str, float]]) -> dict[str, float]:
    """R-Precision per query: relevant documents among the top R (R = number of relevant documents), ranked in
    :func:`pytrec_order`."""
    out = {}
    for qid, rel in qrels.items():
        relevant = {d for d, g in rel.items() if g > 0}
        out[qid] = sum(d in relevant for d in pytrec_order(results.get(qid, {}))[: len(relevant)]) / len(relevant)
    return out


class IdioLinkRetrieval(LocalData, AbsTaskRetrieval):
    """IdioLink test as an mteb retrieval task (sentence queries over the whole test index)."""

    data_files = TASKS["idiolink"].metadata.data_files
    idiolink_split = "test"
    metadata = MtebTaskMetadata(
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
