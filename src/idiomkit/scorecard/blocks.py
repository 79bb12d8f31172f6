"""The scorecard's blocks: one frozen model on one benchmark, in one track, whole or on a fixed quick slice.

A block returns its metrics, its raw predictions (file suffix -> text, written beside the scorecard JSON before it)
and the data files it read. The ``plain`` track gives the model the text and what the task itself asks about (the
2A MWE and the AdMIRe compound, located by string match): no 2B MWE columns, no gold IdioLink spans, no gold
sentence types. ``marked`` adds today's protocols (2B MWE tokens, IdioLink span and sentence+span queries).

:data:`BLOCKS` is the one registry (``idiomkit evaluate all --only NAME``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from idiomkit.data.admire import load_admire
from idiomkit.data.definitions import load_idiom_data
from idiomkit.data.idiolink import IdioLinkSplit, load_idiolink
from idiomkit.data.semeval2022 import load_subtask_b
from idiomkit.data.sts import STS_SOURCES, load_sts, sts_files
from idiomkit.embedding.encode import encode_texts
from idiomkit.embedding.mwe import MweTransform
from idiomkit.metrics.retrieval import r_precision_and_ndcg10
from idiomkit.metrics.similarity import cosine_rows, spearman
from idiomkit.metrics.trec import trec_run
from idiomkit.tasks import SemEval2AOptions, get_task
from idiomkit.tasks.admire import caption_scores, predictions_tsv, score_items
from idiomkit.tasks.base import EvalContext
from idiomkit.tasks.idiolink import dense_scores, make_run
from idiomkit.tasks.meaning_triples import core_test, score_triples, triples_tsv
from idiomkit.tasks.semeval2b import pair_similarities, score_predictions, submission_csv
from idiomkit.tasks.xiao_pairs import pairs_csv, ranks_csv, score_pairs

log = logging.getLogger(__name__)

Track = Literal["plain", "marked"]
QUICK_STRIDE = 10  # quick mode keeps every 10th 2B gold row (with the rows its scores need)
QUICK_IDIOMS = 3  # quick IdioLink: the queries of 3 idioms against the documents of 6
QUICK_ITEMS = 200  # quick STS guard and core test: the first 200 items of each group


@dataclass(frozen=True)
class BlockContext:
    """What every block gets besides the model."""

    data_dir: Path
    track: Track
    quick: bool = False
    prompt_name: str | None = None
    batch_size: int = 64
    seed: int = 0
    show_progress_bar: bool = False
    trained: bool = False  # a model fine-tuned by idiomkit: its 2B submission is filed under fine_tune


@dataclass
class BlockOutput:
    """One block's metrics, raw predictions (suffix -> text) and the data files it read."""

    metrics: dict[str, Any]
    predictions: dict[str, str] = field(default_factory=dict)
    data_files: list[Path] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)


def semeval2b_block(model, ctx: BlockContext) -> BlockOutput:
    """2B dev idiom / STS / all Spearman (ALL, EN, PT); marked: MWE tokens the model knows."""
    split = load_subtask_b(ctx.data_dir, "dev")
    gold, pairs = split.gold or [], split.pairs
    if ctx.quick:
        gold = gold[::QUICK_STRIDE]
        needed = {g.id for g in gold} | {g.other_id for g in gold if g.sim is None and g.other_id}
        pairs = [p for p in pairs if p.id in needed]
    transform = MweTransform.for_model(model) if ctx.track == "marked" else None
    sims = pair_similarities(
        model,
        pairs,
        prompt_name=ctx.prompt_name,
        batch_size=ctx.batch_size,
        show_progress_bar=ctx.show_progress_bar,
        transform=transform,
    )
    metrics = score_predictions({p.id: float(s) for p, s in zip(pairs, sims, strict=True)}, gold)
    setting = "fine_tune" if ctx.trained else "pre_train"
    return BlockOutput(
        metrics,
        {"semeval2b.submission.csv": submission_csv(pairs, sims, setting)},
        list(split.files),
        {"mwe_tokens": transform is not None, "pairs": len(pairs)},
    )


def _idiolink_split(ctx: BlockContext) -> IdioLinkSplit:
    data = load_idiolink(ctx.data_dir, "test")
    if not ctx.quick:
        return data
    idioms = sorted({d.idiom for d in data.documents})[: 2 * QUICK_IDIOMS]
    asked = set(idioms[:QUICK_IDIOMS])
    return IdioLinkSplit(
        data.name,
        [d for d in data.documents if d.idiom in idioms],
        [q for q in data.queries if q.idiom in asked],
        data.files,
    )


def idiolink_block(model, ctx: BlockContext) -> BlockOutput:
    """IdioLink test R-Precision and nDCG@10: sentence queries; marked adds span and sentence+span."""
    data = _idiolink_split(ctx)
    modes = ("sentence",) if ctx.track == "plain" else ("sentence", "span", "sentence+span")
    metrics, predictions = {}, {}
    usages = {q.id: q.usage for q in data.queries}
    for mode in modes:
        scores = dense_scores(
            model,
            data,
            mode,
            prompt_name=ctx.prompt_name,
            batch_size=ctx.batch_size,
            show_progress_bar=ctx.show_progress_bar,
        )
        run = make_run(data.queries, data.documents, scores)
        metrics[mode] = r_precision_and_ndcg10(data.qrels(), run, usages)
        predictions[f"idiolink-{mode.replace('+', '-')}.run.trec.gz"] = trec_run(run)
    return BlockOutput(
        metrics, predictions, list(data.files), {"queries": len(data.queries), "documents": len(data.documents)}
    )


def semeval2a_block(model, ctx: BlockContext) -> BlockOutput:
    """2A dev zero-shot: a logistic probe on the frozen model's span (the MWE the task asks about) features."""
    task = get_task("semeval2a")
    context = EvalContext(ctx.data_dir, ctx.prompt_name, ctx.batch_size, ctx.show_progress_bar, ctx.seed)
    out = task.run(model, SemEval2AOptions(setting="zero_shot", features="span"), context)
    predictions = {f"semeval2a.{suffix}": text for suffix, text in out.predictions.items()}
    return BlockOutput(out.metrics, predictions, out.data_files, {"probe": "logistic, C on a by-MWE cut of train"})


def admire_block(model, ctx: BlockContext) -> BlockOutput:
    """AdMIRe caption ranking by plain cosine: the train+dev pool (85 items; no AdMIRe training; quick: dev only)
    and test."""
    metrics, predictions, files = {}, {}, []
    for name, splits in (("pool", ("dev",) if ctx.quick else ("train", "dev")), ("test", ("test",))):
        loaded = [load_admire(ctx.data_dir, s) for s in splits]
        items = [it for data in loaded for it in data.items]
        files += [f for data in loaded for f in data.files]
        scores = caption_scores(model, items, "span", batch_size=ctx.batch_size)
        metrics[name] = score_items(items, scores)
        predictions[f"admire-{name}.predictions.tsv"] = predictions_tsv(items, scores)
    return BlockOutput(metrics, predictions, sorted(set(files)), {"query_mode": "span (compound by string match)"})


def xiao_block(model, ctx: BlockContext) -> BlockOutput:
    """Xiao et al. held-out idioms: I/D and S/P cosines, margins, definition MRR."""
    data = load_idiom_data(ctx.data_dir)
    idioms = data.split("heldout")[: 60 if ctx.quick else None]
    metrics, raw = score_pairs(model, idioms, batch_size=ctx.batch_size, prompt_name=ctx.prompt_name)
    return BlockOutput(
        metrics,
        {"xiao.pairs.csv": pairs_csv(raw), "xiao.ranks.csv": ranks_csv(raw)},
        list(data.files),
        {"idioms": len(idioms)},
    )


def _reader_lexicon(model):
    """The lexicon of the idiom reader in front of ``model``, else the shipped one (what lookup-equal is measured
    against), and its name for the params."""
    from idiomkit.idioms.reader import IdiomReader
    from idiomkit.idioms.sources import default_lexicon

    first = next(iter(model._modules.values()), None) if hasattr(model, "_modules") else None
    if isinstance(first, IdiomReader):
        return first.lexicon, "the reader's"
    return default_lexicon(), "shipped"


def meaning_triples_block(model, ctx: BlockContext) -> BlockOutput:
    """The core test: is the figurative paraphrase nearer than the literal misreading? (seen / held-out idioms,
    seen lookup-free, 95 % bootstrap intervals over idioms)"""
    core = core_test(ctx.data_dir)
    triples = core.triples[:: QUICK_STRIDE // 2] if ctx.quick else core.triples
    lexicon, which = _reader_lexicon(model)
    metrics, cos = score_triples(
        model, triples, batch_size=ctx.batch_size, prompt_name=ctx.prompt_name, lexicon=lexicon
    )
    leaked = sorted({t.idiom for t in triples if t.heldout and lexicon.get(t.idiom, t.language) is not None})
    params = {
        "triples": len(triples),
        "lookup_lexicon": f"{which} ({len(lexicon)} entries)",
        "heldout_idioms_in_lexicon": len(leaked),
        "discarded": core.discarded,
    }
    if leaked:
        log.warning(
            "core test: the %s lexicon knows %d held-out idioms (%s%s): rebuild it from heldout_index",
            which,
            len(leaked),
            ", ".join(leaked[:5]),
            ", ..." if len(leaked) > 5 else "",
        )
    return BlockOutput(metrics, {"meaning-triples.tsv": triples_tsv(triples, cos, lexicon)}, core.files, params)


def sts_guard_block(model, ctx: BlockContext) -> BlockOutput:
    """General STS no training may touch: Spearman of cosine on STS-B test (EN) and ASSIN 2 test (PT)."""
    metrics, lines = {}, ["source\tscore\tcosine"]
    for source in STS_SOURCES:
        pairs = load_sts(ctx.data_dir, "test", (source,))[: QUICK_ITEMS if ctx.quick else None]
        texts = list(dict.fromkeys(t for p in pairs for t in (p.sentence_1, p.sentence_2)))
        emb = dict(zip(texts, encode_texts(model, texts, batch_size=ctx.batch_size), strict=True))
        sims = cosine_rows(np.stack([emb[p.sentence_1] for p in pairs]), np.stack([emb[p.sentence_2] for p in pairs]))
        metrics[source] = spearman([p.score for p in pairs], list(map(float, sims)))
        lines += [f"{source}\t{p.score:.4f}\t{s:.6f}" for p, s in zip(pairs, sims, strict=True)]
    return BlockOutput(
        metrics, {"sts-guard.tsv": "\n".join(lines) + "\n"}, list(sts_files(ctx.data_dir, "test").values())
    )


@dataclass(frozen=True)
class Block:
    """A registered block: its function, whether quick mode runs it and whether its input differs by track (a
    block that reads the same in both tracks is computed once for ``--track both``)."""

    run: Callable[[Any, BlockContext], BlockOutput]
    quick: bool = True
    by_track: bool = False


BLOCKS: dict[str, Block] = {
    "semeval2b": Block(semeval2b_block, by_track=True),
    "idiolink": Block(idiolink_block, by_track=True),
    "semeval2a": Block(semeval2a_block, quick=False),
    "admire": Block(admire_block),
    "xiao": Block(xiao_block),
    "meaning-triples": Block(meaning_triples_block),
    "sts-guard": Block(sts_guard_block),
}
