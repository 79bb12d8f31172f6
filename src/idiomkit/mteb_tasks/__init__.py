"""idiomkit's benchmarks as `mteb <https://github.com/embeddings-benchmark/mteb>`_ tasks, read from the local data.

- :class:`SemEval2022Task2BDev` (STS): SemEval-2022 Task 2B dev with the organisers' rules; main score
  ``cosine_spearman`` over the idiom rows of all languages = idiomkit's ``ALL.idiom``.
- :class:`IdioLinkRetrieval` (retrieval, mteb name ``IdioLinkTest``): the test index, sentence queries, idiomkit's
  relevance; main score ``ndcg_at_10`` = idiomkit's ``ndcg@10`` (``query_mode=sentence``) / 100.
- :class:`AdMIReRanking` (reranking, five captions per sentence): main score ``spearman`` = idiomkit's admire
  ``spearman`` (``query_mode=sentence``); ``ndcg_at_5`` x 3.631 = the organisers' DCG.

``load_data`` reads the files through idiomkit's loaders from ``data_dir`` (default
:func:`idiomkit.settings.default_data_dir`); nothing is fetched from a hub. Run them with :func:`run_mteb`.

One task per module (``semeval2b``, ``idiolink``, ``admire``); :data:`MTEB_TASKS` is the registry: a new task is
one file plus an entry there.
"""

from __future__ import annotations

from pathlib import Path

from idiomkit.errors import UnknownName
from idiomkit.mteb_tasks._common import pytrec_order
from idiomkit.mteb_tasks.admire import ADMIRE_GAINS, AdMIReRanking, admire_split_data, rank_correlation
from idiomkit.mteb_tasks.idiolink import IdioLinkRetrieval, idiolink_split_data, r_precision
from idiomkit.mteb_tasks.run import run_mteb
from idiomkit.mteb_tasks.semeval2b import (
    STS_SUBSETS,
    SemEval2022Task2BDev,
    organiser_sts_scores,
    resolve_gold,
    semeval2b_rows,
)

MTEB_TASKS = {"semeval2b": SemEval2022Task2BDev, "idiolink": IdioLinkRetrieval, "admire": AdMIReRanking}


def get_mteb_task(name: str, data_dir: str | Path | None = None):
    """An mteb task instance by idiomkit's task name (``semeval2b``, ``idiolink`` or ``admire``)."""
    if name not in MTEB_TASKS:
        raise UnknownName(f"no mteb task for '{name}' (expected one of {', '.join(MTEB_TASKS)})")
    return MTEB_TASKS[name](data_dir=data_dir)


__all__ = [
    "ADMIRE_GAINS",
    "MTEB_TASKS",
    "STS_SUBSETS",
    "AdMIReRanking",
    "IdioLinkRetrieval",
    "SemEval2022Task2BDev",
    "admire_split_data",
    "get_mteb_task",
    "idiolink_split_data",
    "organiser_sts_scores",
    "pytrec_order",
    "r_precision",
    "rank_correlation",
    "resolve_gold",
    "run_mteb",
    "semeval2b_rows",
]
