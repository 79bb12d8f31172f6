"""Training recipes: which examples, which loss, in which phases. One registry entry per recipe.

Every recipe trains on the relabelled SubTaskB groups (:mod:`idiomkit.training.relabel`) with the same budget:
``batch_size`` *sentences* per step (a pair loss sees ``batch_size // 2`` pairs), the same epochs over its own
examples, the same optimizer, pooling (``last2``) and validation. STS data (``data_dir/sts``) enters only the
``ynu`` pre-training phase and the ``*-sts`` mixing recipes.

- ``adaptive-triplet``: one sentence per row, relabelled (He & Scarton); :class:`AdaptiveTripletLoss`.
- ``adaptive-triplet-sts``: the same, round-robin with STS-B/ASSIN 2 pairs under ``CoSENTLoss`` (keeps STS).
- ``triplet``: (MWE sentence, correct, incorrect paraphrase); ``TripletLoss`` (Euclidean, margin 0.1, YNU-HPCC).
- ``mnrl``: (MWE sentence, correct paraphrase); ``MultipleNegativesRankingLoss`` (no group twice in a batch).
- ``cosent`` / ``contrastive`` / ``cosine``: (MWE sentence, paraphrase, 1 correct / 0 incorrect) with
  ``CoSENTLoss`` / ``ContrastiveLoss`` / ``CosineSimilarityLoss``.
- ``cosent-sts``: ``cosent`` round-robin with STS-B/ASSIN 2 pairs, both under ``CoSENTLoss`` (one loss and one
  score scale on both streams, so neither dominates the summed gradient as CoSENT's ~6 does the triplet's ~0.2).
- ``contrastive-sts``: ``contrastive`` round-robin with STS-B/ASSIN 2 pairs under ``CoSENTLoss``
  (``--sts-weight`` scales the STS loss).
- ``ynu`` (Liu et al.): phase 1 ``CoSENTLoss`` on STS pairs; phase 2 ``TripletLoss`` + MNRL on 2B, round-robin.

IdioLink recipes (source ``idiolink``: train triplets, selection on IdioLink val; ``span_queries`` pools the
query over its PIE span, as late chunking does at search time):

- ``idiolink-infonce``: (query, positive, 3 soft + 2 hard negatives); InfoNCE with in-batch + explicit negatives
  at temperature 0.05 = ``MultipleNegativesRankingLoss(scale=20)`` (Hashiloni et al.); no (PIE, sense) twice a batch.
- ``idiolink-infonce-index``: the same loss on the 440 tuples plus ~1,300 more mined from the train index
  (each literal/idiomatic train document as a span-marked query; :func:`index_tuples`).
- ``idiolink-mnrl``: (query, positive) with in-batch negatives only.
- ``idiolink-infonce-meaning``: ``idiolink-infonce`` round-robin with (idiom, definition) and (sentence, literal
  paraphrase) pairs of the definition idioms under the same loss, PIEs of IdioLink val/test removed
  (:mod:`idiomkit.training.pair_recipes`).
- ``idiolink-adaptive-triplet``: every sentence of a triplet labelled by (PIE, literal | figurative) — the
  relevance classes — with :class:`AdaptiveTripletLoss`; a triplet's sentences stay in one batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from sentence_transformers.sentence_transformer import losses as st_losses

from idiomkit.config import run_data_dir
from idiomkit.data.sts import load_sts
from idiomkit.losses import AdaptiveTripletLoss
from idiomkit.training.examples import Examples, make_examples, prompt_prefix
from idiomkit.training.mwe import replace_mwes
from idiomkit.training.relabel import Group, relabel


@dataclass
class Stream:
    """Examples, the loss that consumes them and the loss's weight in the step's sum."""

    examples: Examples
    loss: torch.nn.Module
    weight: float = 1.0


@dataclass
class Phase:
    """Streams trained together for ``epochs``: one step = one batch of each stream, losses summed. An epoch is
    one pass over the first stream; the others cycle (restart when exhausted)."""

    name: str
    streams: list[Stream]
    epochs: int


def _text(cfg, text: str, mwes: Sequence[str]) -> str:
    return replace_mwes(text, mwes) if cfg.mwe_tokens else text


def adaptive_examples(model, groups: Sequence[Group], cfg) -> Examples:
    rows = relabel(groups)
    return make_examples(
        model, "relabelled", [(_text(cfg, r.text, r.mwes),) for r in rows], [r.label for r in rows],
        [r.group for r in rows], cfg.max_seq_length, label_dtype=torch.long,
    )  # fmt: skip


def triplet_examples(model, groups: Sequence[Group], cfg) -> Examples:
    """(MWE sentence, its correct paraphrase ``alternative_1``, the incorrect paraphrase) per incorrect row."""
    rows, grp = [], []
    for g_id, g in enumerate(groups):
        for incorrect, correct in g.incorrect:
            positive = correct or (g.correct[0] if g.correct else "")
            if positive and incorrect not in (positive, g.sentence):
                rows.append(tuple(_text(cfg, t, g.mwes) for t in (g.sentence, positive, incorrect)))
                grp.append(g_id)
    return make_examples(model, "triplets", rows, [0.0] * len(rows), grp, cfg.max_seq_length)


def positive_examples(model, groups: Sequence[Group], cfg) -> Examples:
    """(MWE sentence, correct paraphrase) pairs; a group never appears twice in a batch (in-batch negatives)."""
    rows, grp = [], []
    for g_id, g in enumerate(groups):
        for c in g.correct:
            rows.append((_text(cfg, g.sentence, g.mwes), _text(cfg, c, g.mwes)))
            grp.append(g_id)
    return make_examples(model, "positives", rows, [1.0] * len(rows), grp, cfg.max_seq_length, spread_groups=True)


def labelled_pair_examples(model, groups: Sequence[Group], cfg) -> Examples:
    """(MWE sentence, paraphrase, 1.0 if correct else 0.0) pairs."""
    rows, labels, grp = [], [], []
    for g_id, g in enumerate(groups):
        pairs = [(c, 1.0) for c in g.correct] + [(i, 0.0) for i, _ in g.incorrect if i not in g.correct]
        for text, label in pairs:
            if text != g.sentence:
                rows.append((_text(cfg, g.sentence, g.mwes), _text(cfg, text, g.mwes)))
                labels.append(label)
                grp.append(g_id)
    return make_examples(model, "labelled-pairs", rows, labels, grp, cfg.max_seq_length)


def sts_examples(model, cfg) -> Examples:
    """STS-B (EN) + ASSIN 2 (PT) train pairs, scores normalised to [0, 1]; each pair its own group."""
    pairs = load_sts(run_data_dir(cfg.data_dir), "train")
    if cfg.limit_groups:
        pairs = pairs[: cfg.limit_groups * 4]
    rows = [(p.sentence_1, p.sentence_2) for p in pairs]
    return make_examples(model, "sts", rows, [p.score for p in pairs], list(range(len(rows))), cfg.max_seq_length)


# --- IdioLink ------------------------------------------------------------------------------------------------

INFONCE_SCALE = 20.0  # 1 / temperature 0.05
IDIOLINK_EPOCHS = 10  # the paper's budget (Hashiloni et al., Table 3); other budgets are named in the label


def infonce_loss(model, _cfg=None) -> torch.nn.Module:
    """The paper's InfoNCE (temperature 0.05): in-batch + the tuple's explicit negatives."""
    return st_losses.MultipleNegativesRankingLoss(model, scale=INFONCE_SCALE)


def _relevance_class(usage: str | None) -> str:
    return "literal" if usage == "literal" else "figurative"


def idiolink_triplets(cfg):
    from idiomkit.data.idiolink import load_triplets, triplets_path

    triplets = load_triplets(triplets_path(run_data_dir(cfg.data_dir), "train", "span"))
    return triplets[: cfg.limit_groups] if cfg.limit_groups else triplets


def _query_span(cfg, t) -> tuple[int, int] | None:
    if not cfg.span_queries or not t.query_span:
        return None
    start = t.query.find(t.query_span)
    return (start, start + len(t.query_span)) if start >= 0 else None


def _class_ids(triplets) -> dict[tuple[str, str], int]:
    keys = dict.fromkeys((t.query_idiom, _relevance_class(t.query_usage)) for t in triplets)
    return {k: i for i, k in enumerate(keys)}


def idiolink_infonce_examples(model, _groups, cfg, negatives: bool = True, extra: Sequence = ()) -> Examples:
    triplets = idiolink_triplets(cfg) + list(extra)
    classes = _class_ids(triplets)
    rows = [(t.query, t.positive, *(t.negatives if negatives else ())) for t in triplets]
    groups = [classes[t.query_idiom, _relevance_class(t.query_usage)] for t in triplets]
    return make_examples(
        model, "idiolink-triplets" if negatives else "idiolink-pairs", rows, [0.0] * len(rows), groups,
        cfg.max_seq_length, spread_groups=True, spans=[_query_span(cfg, t) for t in triplets],
        prompts=["query"] + ["passage"] * (len(rows[0]) - 1),
    )  # fmt: skip


def index_tuples(cfg, n_soft: int = 3, n_hard: int = 2) -> list:
    """Extra training tuples mined from the IdioLink *train* index (seeded): every literal or idiomatic document
    becomes a query (its PIE span marked) with a positive of the same PIE and relevance class, ``n_soft`` soft
    negatives (other PIEs) and ``n_hard`` hard negatives (same PIE, other class) — the paper's tuple recipe."""
    import random

    from idiomkit.data.idiolink import Triplet, load_idiolink

    docs = load_idiolink(run_data_dir(cfg.data_dir), "train").documents
    by_class: dict[tuple[str, str], list] = {}
    for d in docs:
        by_class.setdefault((d.idiom, _relevance_class(d.usage)), []).append(d)
    rng = random.Random(cfg.seed)
    out = []
    for d in docs:
        if d.usage not in ("literal", "idiomatic"):
            continue
        cls = _relevance_class(d.usage)
        other = "literal" if cls == "figurative" else "figurative"
        positives = [p for p in by_class[d.idiom, cls] if p.sentence != d.sentence]
        hard = by_class.get((d.idiom, other), [])
        soft = [x for x in docs if x.idiom != d.idiom]
        if not positives or len(hard) < n_hard:
            continue
        positive = rng.choice(positives)
        negatives = [x.sentence for x in rng.sample(soft, n_soft) + rng.sample(hard, n_hard)]
        out.append(Triplet(d.sentence, positive.sentence, tuple(negatives), d.idiom, d.usage, positive.usage,
                           d.span_text))  # fmt: skip
    return out[: cfg.limit_groups] if cfg.limit_groups else out


def idiolink_index_examples(model, _groups, cfg) -> Examples:
    """The 440 train tuples plus tuples mined from the train index (:func:`index_tuples`)."""
    return idiolink_infonce_examples(model, _groups, cfg, extra=index_tuples(cfg))


def idiolink_labelled_examples(model, _groups, cfg) -> Examples:
    """Each sentence of each triplet, labelled by its (PIE, literal | figurative) relevance class."""
    from idiomkit.data.idiolink import load_idiolink

    docs = {d.sentence: d for d in load_idiolink(run_data_dir(cfg.data_dir), "train").documents}
    triplets = idiolink_triplets(cfg)
    labels: dict[tuple[str, str], int] = {}
    rows, row_labels, groups, spans = [], [], [], []

    query, passage = prompt_prefix(model, "query"), prompt_prefix(model, "passage")

    def add(text: str, key: tuple[str, str], group: int, span=None, prefix: str = passage) -> None:
        rows.append((prefix + text,))
        row_labels.append(labels.setdefault(key, len(labels)))
        groups.append(group)
        spans.append((span[0] + len(prefix), span[1] + len(prefix)) if span else None)

    for g, t in enumerate(triplets):
        query_key = (t.query_idiom, _relevance_class(t.query_usage))
        add(t.query, query_key, g, _query_span(cfg, t), prefix=query)
        add(t.positive, query_key, g)
        for n in t.negatives:
            doc = docs.get(n)
            add(n, (doc.idiom, _relevance_class(doc.usage)) if doc else ("unknown", n), g)
    return make_examples(
        model, "idiolink-labelled", rows, row_labels, groups, cfg.max_seq_length, label_dtype=torch.long,
        spans=spans if cfg.span_queries else None, prompts=[""],
    )  # fmt: skip


def _single(name: str, build: Callable, make_loss: Callable, phase: str = "2b") -> Callable:
    def phases(model, groups, cfg) -> list[Phase]:
        return [Phase(phase, [Stream(build(model, groups, cfg), make_loss(model, cfg))], cfg.epochs)]

    phases.__name__ = name
    return phases


def _adaptive_loss(model, cfg) -> torch.nn.Module:
    return AdaptiveTripletLoss(model, cfg.miner_margin, cfg.margin, miner_distance=cfg.miner_distance)


def _triplet_loss(model, cfg) -> torch.nn.Module:
    return st_losses.TripletLoss(model, st_losses.TripletDistanceMetric.EUCLIDEAN, triplet_margin=0.1)


def _with_sts(name: str, build: Callable, make_loss: Callable) -> Callable:
    """A 2B recipe round-robin with STS-B/ASSIN 2 pairs under ``CoSENTLoss`` (weighted by ``cfg.sts_weight``)."""

    def phases(model, groups, cfg) -> list[Phase]:
        streams = [
            Stream(build(model, groups, cfg), make_loss(model, cfg)),
            Stream(sts_examples(model, cfg), st_losses.CoSENTLoss(model), weight=cfg.sts_weight),
        ]
        return [Phase("2b+sts", streams, cfg.epochs)]

    phases.__name__ = name
    return phases


def _cosent_loss(model, cfg) -> torch.nn.Module:
    return st_losses.CoSENTLoss(model)


# recipes whose steps add an STS batch (weighted by ``cfg.sts_weight``)
STS_MIXING = {"adaptive-triplet-sts", "cosent-sts", "contrastive-sts"}


def ynu_phases(model, groups, cfg) -> list[Phase]:
    pretrain = Phase("sts", [Stream(sts_examples(model, cfg), st_losses.CoSENTLoss(model))], cfg.sts_epochs)
    finetune = [
        Stream(triplet_examples(model, groups, cfg), _triplet_loss(model, cfg)),
        Stream(positive_examples(model, groups, cfg), st_losses.MultipleNegativesRankingLoss(model)),
    ]
    return [pretrain, Phase("2b", finetune, cfg.epochs)]


@dataclass(frozen=True)
class Recipe:
    """A registered recipe: its data source (``semeval2b`` or ``idiolink``) and how it builds its phases."""

    source: str
    phases: Callable[[Any, Sequence[Group] | None, Any], list[Phase]]


RECIPES_2B: dict[str, Callable[[Any, Sequence[Group], Any], list[Phase]]] = {
    "adaptive-triplet": _single("adaptive-triplet", adaptive_examples, _adaptive_loss),
    "adaptive-triplet-sts": _with_sts("adaptive-triplet-sts", adaptive_examples, _adaptive_loss),
    "triplet": _single("triplet", triplet_examples, _triplet_loss),
    "mnrl": _single("mnrl", positive_examples, lambda m, c: st_losses.MultipleNegativesRankingLoss(m)),
    "cosent": _single("cosent", labelled_pair_examples, _cosent_loss),
    "cosent-sts": _with_sts("cosent-sts", labelled_pair_examples, _cosent_loss),
    "contrastive": _single("contrastive", labelled_pair_examples, lambda m, c: st_losses.ContrastiveLoss(m)),
    "contrastive-sts": _with_sts(
        "contrastive-sts", labelled_pair_examples, lambda m, c: st_losses.ContrastiveLoss(m)
    ),
    "cosine": _single("cosine", labelled_pair_examples, lambda m, c: st_losses.CosineSimilarityLoss(m)),
    "ynu": ynu_phases,
}

RECIPES_IDIOLINK = {
    "idiolink-infonce": _single(
        "idiolink-infonce", idiolink_infonce_examples,
        infonce_loss, "idiolink",
    ),
    "idiolink-mnrl": _single(
        "idiolink-mnrl", lambda m, g, c: idiolink_infonce_examples(m, g, c, negatives=False),
        infonce_loss, "idiolink",
    ),
    "idiolink-infonce-index": _single(
        "idiolink-infonce-index", idiolink_index_examples,
        infonce_loss, "idiolink",
    ),
    "idiolink-adaptive-triplet": _single(
        "idiolink-adaptive-triplet", idiolink_labelled_examples, _adaptive_loss, "idiolink"
    ),
}  # fmt: skip

RECIPES: dict[str, Recipe] = {
    **{name: Recipe("semeval2b", fn) for name, fn in RECIPES_2B.items()},
    **{name: Recipe("idiolink", fn) for name, fn in RECIPES_IDIOLINK.items()},
}

from idiomkit.training.pair_recipes import (  # noqa: E402  (idiom/definition pairs, Xiao et al.)
    RECIPES_IDIOLINK_PAIRS,
    RECIPES_PAIRS,
)

RECIPES.update({name: Recipe("pairs", fn) for name, fn in RECIPES_PAIRS.items()})
RECIPES.update({name: Recipe("idiolink", fn) for name, fn in RECIPES_IDIOLINK_PAIRS.items()})


def build_phases(recipe: str, model, groups: Sequence[Group] | None, cfg) -> list[Phase]:
    if recipe not in RECIPES:
        raise ValueError(f"unknown recipe '{recipe}' (expected one of {', '.join(RECIPES)})")
    return RECIPES[recipe].phases(model, groups, cfg)


def run_label(
    recipe: str, mwe_tokens: bool, lora_rank: int | None = None, span_queries: bool = False,
    dropout: float | None = None, sts_weight: float = 1.0, epochs: int | None = None,
) -> str:  # fmt: skip
    """The recipe name used in result files: ``adaptive-triplet`` vs ``adaptive-triplet-mwe``; ``-lora`` suffix;
    IdioLink recipes: ``-span`` when the loss saw span embeddings of the queries, ``-ep<N>`` when the epoch budget
    is not the paper's 10 (2B result files name their epochs elsewhere); ``-dropout<p>`` when the run
    overrode the model's dropout; ``-stsw<w>`` for an STS-mixing recipe whose STS loss weight is not 1."""
    label = _recipe_label(recipe, mwe_tokens, span_queries) + ("-lora" if lora_rank else "")
    if recipe.startswith("idiolink-") and epochs not in (None, IDIOLINK_EPOCHS):
        label += f"-ep{epochs}"
    if sts_weight != 1.0 and recipe in STS_MIXING:
        label += f"-stsw{sts_weight:g}"
    return label + (f"-dropout{dropout:g}" if dropout is not None else "")


def _recipe_label(recipe: str, mwe_tokens: bool, span_queries: bool) -> str:
    if recipe.startswith("pairs-"):
        return recipe
    if recipe.startswith("idiolink-"):
        return recipe + ("-span" if span_queries else "")
    if recipe.startswith("adaptive-triplet"):
        return recipe.replace("adaptive-triplet", "adaptive-triplet-mwe", 1) if mwe_tokens else recipe
    return recipe + ("" if mwe_tokens else "-nomwe")
