"""The IdioLink recipes (source ``idiolink``: train triplets, selection on IdioLink val; ``span_queries`` pools the
query over its PIE span, as late chunking does at search time):

- ``idiolink-infonce``: (query, positive, 3 soft + 2 hard negatives); InfoNCE with in-batch + explicit negatives
  at temperature 0.05 = ``MultipleNegativesRankingLoss(scale=20)`` (Hashiloni et al.); no (PIE, sense) twice a batch.
- ``idiolink-infonce-index``: the same loss on the 440 tuples plus ~1,300 more mined from the train index
  (each literal/idiomatic train document as a span-marked query; :func:`index_tuples`).
- ``idiolink-mnrl``: (query, positive) with in-batch negatives only.
- ``idiolink-infonce-meaning``: ``idiolink-infonce`` round-robin with (idiom, definition) and (sentence, literal
  paraphrase) pairs of the definition idioms under the same loss, PIEs of IdioLink val/test removed
  (:mod:`idiomkit.training.recipes.pairs`, which registers it).
- ``idiolink-adaptive-triplet``: every sentence of a triplet labelled by (PIE, literal | figurative) — the
  relevance classes — with :class:`AdaptiveTripletLoss`; a triplet's sentences stay in one batch.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import torch
from sentence_transformers.sentence_transformer import losses as st_losses

from idiomkit.data.idiolink import Triplet, load_idiolink, load_triplets, triplets_path
from idiomkit.settings import run_data_dir
from idiomkit.training.examples import Examples, make_examples
from idiomkit.training.recipe_options import IdioLinkRecipeOptions
from idiomkit.training.recipes.base import PhasesFn, Recipe, adaptive_loss, single_stream

INFONCE_SCALE = 20.0  # 1 / temperature 0.05


def infonce_loss(model, _cfg=None) -> torch.nn.Module:
    """The paper's InfoNCE (temperature 0.05): in-batch + the tuple's explicit negatives."""
    return st_losses.MultipleNegativesRankingLoss(model, scale=INFONCE_SCALE)


def _relevance_class(usage: str | None) -> str:
    return "literal" if usage == "literal" else "figurative"


def idiolink_triplets(cfg) -> list[Triplet]:
    triplets = load_triplets(triplets_path(run_data_dir(cfg.data_dir), "train", "span"))
    return triplets[: cfg.limit_groups] if cfg.limit_groups else triplets


def _query_span(cfg, t) -> tuple[int, int] | None:
    if not cfg.options.span_queries or not t.query_span:
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
        model,
        "idiolink-triplets" if negatives else "idiolink-pairs",
        rows,
        [0.0] * len(rows),
        groups,
        cfg.max_seq_length,
        spread_groups=True,
        spans=[_query_span(cfg, t) for t in triplets],
        prompts=["query"] + ["passage"] * (len(rows[0]) - 1),
    )


def index_tuples(cfg, n_soft: int = 3, n_hard: int = 2) -> list:
    """Extra training tuples mined from the IdioLink *train* index (seeded): every literal or idiomatic document
    becomes a query (its PIE span marked) with a positive of the same PIE and relevance class, ``n_soft`` soft
    negatives (other PIEs) and ``n_hard`` hard negatives (same PIE, other class) — the paper's tuple recipe."""
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
        out.append(
            Triplet(d.sentence, positive.sentence, tuple(negatives), d.idiom, d.usage, positive.usage, d.span_text)
        )
    return out[: cfg.limit_groups] if cfg.limit_groups else out


def idiolink_index_examples(model, _groups, cfg) -> Examples:
    """The 440 train tuples plus tuples mined from the train index (:func:`index_tuples`)."""
    return idiolink_infonce_examples(model, _groups, cfg, extra=index_tuples(cfg))


def idiolink_labelled_examples(model, _groups, cfg) -> Examples:
    """Each sentence of each triplet, labelled by its (PIE, literal | figurative) relevance class."""
    docs = {d.sentence: d for d in load_idiolink(run_data_dir(cfg.data_dir), "train").documents}
    triplets = idiolink_triplets(cfg)
    labels: dict[tuple[str, str], int] = {}
    rows, row_labels, groups, spans, kinds = [], [], [], [], []

    def add(text: str, key: tuple[str, str], group: int, span=None, kind: str = "passage") -> None:
        rows.append((text,))
        row_labels.append(labels.setdefault(key, len(labels)))
        groups.append(group)
        spans.append(span)
        kinds.append(kind)

    for g, t in enumerate(triplets):
        query_key = (t.query_idiom, _relevance_class(t.query_usage))
        add(t.query, query_key, g, _query_span(cfg, t), kind="query")
        add(t.positive, query_key, g)
        for n in t.negatives:
            doc = docs.get(n)
            add(n, (doc.idiom, _relevance_class(doc.usage)) if doc else ("unknown", n), g)
    return make_examples(
        model,
        "idiolink-labelled",
        rows,
        row_labels,
        groups,
        cfg.max_seq_length,
        label_dtype=torch.long,
        spans=spans if cfg.options.span_queries else None,
        row_prompts=kinds,
    )


PHASES: dict[str, PhasesFn] = {
    "idiolink-infonce": single_stream(
        "idiolink-infonce",
        idiolink_infonce_examples,
        infonce_loss,
        "idiolink",
    ),
    "idiolink-mnrl": single_stream(
        "idiolink-mnrl",
        lambda m, g, c: idiolink_infonce_examples(m, g, c, negatives=False),
        infonce_loss,
        "idiolink",
    ),
    "idiolink-infonce-index": single_stream(
        "idiolink-infonce-index",
        idiolink_index_examples,
        infonce_loss,
        "idiolink",
    ),
    "idiolink-adaptive-triplet": single_stream(
        "idiolink-adaptive-triplet", idiolink_labelled_examples, adaptive_loss, "idiolink"
    ),
}

VALIDATION_TEXT = "IdioLink val split (10 PIEs disjoint from train and test); IdioLink test never used"


def idiolink_recipe(phases: PhasesFn) -> Recipe:
    """An IdioLink recipe's registry entry (no MWE tokens; its options label ``-span`` / ``-ep<N>``)."""
    return Recipe("idiolink", phases, VALIDATION_TEXT, options=IdioLinkRecipeOptions)


RECIPES: dict[str, Recipe] = {name: idiolink_recipe(fn) for name, fn in PHASES.items()}
