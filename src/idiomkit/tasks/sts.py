"""STS evaluator (Spearman of cosine vs gold) on STS-B / ASSIN 2 pairs — a training-time STS check that keeps
2B dev held out (used to watch STS while learning idioms and to choose interpolation ratios).

:class:`StsEvaluator` is sentence-transformers' ``EmbeddingSimilarityEvaluator`` (cosine, Spearman) with the pairs'
distinct sentences encoded once by idiomkit's encoder and the score also given per source. :class:`StsGuardTask` is the
scorecard's guard: Spearman of cosine on the test splits, which no training may touch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import spearmanr
from sentence_transformers.sentence_transformer.evaluation import EmbeddingSimilarityEvaluator

from idiomkit.data.sts import STS_SOURCES, StsPair, load_sts, sts_files
from idiomkit.embedding.encode import encode_texts
from idiomkit.metrics.similarity import cosine_rows, spearman
from idiomkit.tasks.base import EvalContext, Task, TaskMetadata, TaskOutput

QUICK_PAIRS = 200  # quick mode: the first 200 pairs of each source


class StsEvaluator(EmbeddingSimilarityEvaluator):
    """``{<name>_sts: Spearman over all pairs, <name>_sts_<source>: per source}``; primary metric ``<name>_sts``."""

    def __init__(self, pairs: Sequence[StsPair], *, name: str = "val", batch_size: int = 64):
        self.pairs = list(pairs)
        super().__init__(
            [p.sentence_1 for p in self.pairs],
            [p.sentence_2 for p in self.pairs],
            [p.score for p in self.pairs],
            batch_size=batch_size,
            main_similarity="cosine",
            name=name,
            write_csv=False,
        )
        self.primary_metric = f"{name}_sts"
        self.embeddings: dict[str, np.ndarray] = {}

    def embed_inputs(self, model, sentences, **kwargs) -> np.ndarray:
        """The embeddings encoded by :meth:`__call__` (each distinct sentence once, idiomkit's pooling)."""
        return np.stack([self.embeddings[t] for t in sentences])

    def __call__(self, model, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict[str, float]:
        texts = list(dict.fromkeys(t for p in self.pairs for t in (p.sentence_1, p.sentence_2)))
        self.embeddings = dict(zip(texts, encode_texts(model, texts, batch_size=self.batch_size), strict=True))
        scored = super().__call__(model, output_path, epoch, steps)
        self.primary_metric = f"{self.name}_sts"
        sims = cosine_rows(self.embed_inputs(model, self.sentences1), self.embed_inputs(model, self.sentences2))
        gold = np.array(self.scores)
        out = {f"{self.name}_sts": float(scored[f"{self.name}_spearman_cosine" if self.name else "spearman_cosine"])}
        for source in dict.fromkeys(p.source for p in self.pairs):
            mask = np.array([p.source == source for p in self.pairs])
            out[f"{self.name}_sts_{source}"] = float(spearmanr(sims[mask], gold[mask]).statistic)
        self.embeddings = {}
        return out


def pair_cosines(model, pairs: Sequence[StsPair], batch_size: int = 64) -> np.ndarray:
    """Cosine of each pair's two sentences (no prompt: general STS as the model reads plain text)."""
    texts = list(dict.fromkeys(t for p in pairs for t in (p.sentence_1, p.sentence_2)))
    emb = dict(zip(texts, encode_texts(model, texts, batch_size=batch_size), strict=True))
    return cosine_rows(np.stack([emb[p.sentence_1] for p in pairs]), np.stack([emb[p.sentence_2] for p in pairs]))


@dataclass
class StsGuardOptions:
    """``idiomkit evaluate sts-guard`` options (none)."""


class StsGuardTask(Task):
    metadata = TaskMetadata(
        name="sts-guard",
        result_task="sts-guard",
        description="General STS no training may touch: Spearman of cosine on STS-B test (EN) and ASSIN 2 test (PT)",
        main_score="stsb-en",
        languages=("en", "pt"),
        reference="STS-B (stsb_multi_mt, EN) and ASSIN 2 test splits",
        data_files=("sts/stsb_multi_mt/stsb-en-test.csv", "sts/assin2/assin2-test.xml"),
        title="STS guard (STS-B and ASSIN 2 test, Spearman's rho)",
    )
    Options = StsGuardOptions

    def run(self, model, options: StsGuardOptions, context: EvalContext) -> TaskOutput:
        """Spearman of cosine per source (quick: its first :data:`QUICK_PAIRS` pairs); the cosines as a TSV."""
        metrics, lines = {}, ["source\tscore\tcosine"]
        for source in STS_SOURCES:
            pairs = load_sts(context.data_dir, "test", (source,))[: QUICK_PAIRS if context.quick else None]
            sims = pair_cosines(model, pairs, context.batch_size)
            metrics[source] = spearman([p.score for p in pairs], list(map(float, sims)))
            lines += [f"{source}\t{p.score:.4f}\t{s:.6f}" for p, s in zip(pairs, sims, strict=True)]
        files = list(sts_files(context.data_dir, "test").values())
        return TaskOutput(metrics, {"pairs": len(lines) - 1}, files, {"tsv": "\n".join(lines) + "\n"})

    def summary_table(self, metrics: dict[str, Any]) -> list[list[str]]:
        return [["source", "Spearman"], *([source, f"{value:.4f}"] for source, value in metrics.items())]
