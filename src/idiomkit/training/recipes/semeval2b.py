"""The SemEval 2B recipes (source ``semeval2b``): which examples, which loss, in which phases.

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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
from sentence_transformers.sentence_transformer import losses as st_losses

from idiomkit.embedding.mwe import replace_mwes
from idiomkit.training.examples import Examples, make_examples
from idiomkit.training.recipe_options import SemEval2BRecipeOptions, SemEval2BStsRecipeOptions, YnuRecipeOptions
from idiomkit.training.recipes.base import (
    Phase,
    PhasesFn,
    Recipe,
    Stream,
    adaptive_loss,
    semeval_labels,
    single_stream,
    sts_split,
)
from idiomkit.training.relabel import Group, relabel


def _text(cfg, text: str, mwes: Sequence[str]) -> str:
    return replace_mwes(text, mwes) if cfg.mwe_tokens else text


def adaptive_examples(model, groups: Sequence[Group], cfg) -> Examples:
    rows = relabel(groups)
    return make_examples(
        model,
        "relabelled",
        [(_text(cfg, r.text, r.mwes),) for r in rows],
        [r.label for r in rows],
        [r.group for r in rows],
        cfg.max_seq_length,
        label_dtype=torch.long,
    )


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


def labelled_pair_examples(model, groups: Sequence[Group], cfg, other_id: bool = False) -> Examples:
    """(MWE sentence, paraphrase, 1.0 if correct else 0.0) pairs; ``other_id``: each row also carries the
    sentence's correct paraphrase (a correct row: itself; an incorrect row: its ``alternative_1``, as 2B's otherID
    rule pairs them) for :class:`~idiomkit.losses.OtherIdTargetsLoss`, a target column that does not shrink the
    batch (as many pairs per step as without it)."""
    rows, labels, grp = [], [], []
    for g_id, g in enumerate(groups):
        pairs = [(c, 1.0, c) for c in g.correct]
        pairs += [(i, 0.0, g.other_id_reference(alt)) for i, alt in g.incorrect if i not in g.correct]
        for text, label, reference in pairs:
            if text != g.sentence:
                row = (_text(cfg, g.sentence, g.mwes), _text(cfg, text, g.mwes))
                rows.append((*row, _text(cfg, reference, g.mwes)) if other_id else row)
                labels.append(label)
                grp.append(g_id)
    return make_examples(
        model, "labelled-pairs", rows, labels, grp, cfg.max_seq_length, target_columns=1 if other_id else 0
    )


def sts_examples(model, cfg, anchors: Sequence[tuple[str, str]] = ()) -> Examples:
    """STS-B (EN) + ASSIN 2 (PT) train pairs (:func:`sts_split`), scores in [0, 1], then ``anchors`` at score 1;
    each pair its own group."""
    pairs = sts_split(cfg)[0]
    rows = [(p.sentence_1, p.sentence_2) for p in pairs] + list(anchors)
    labels = [p.score for p in pairs] + [1.0] * len(anchors)
    return make_examples(model, "sts", rows, labels, list(range(len(rows))), cfg.max_seq_length)


def paraphrase_anchors(groups: Sequence[Group], cfg) -> list[tuple[str, str]]:
    """(MWE sentence, correct paraphrase) of every group: the pairs ``--paraphrase-anchors`` adds to the STS
    stream at score 1."""
    pairs = [(g.sentence, c, g.mwes) for g in groups for c in g.correct if c != g.sentence]
    return [(_text(cfg, sentence, mwes), _text(cfg, c, mwes)) for sentence, c, mwes in pairs]


def _triplet_loss(model, cfg) -> torch.nn.Module:
    return st_losses.TripletLoss(model, st_losses.TripletDistanceMetric.EUCLIDEAN, triplet_margin=0.1)


def _with_sts(name: str, build: Callable, make_loss: Callable) -> Callable:
    """A 2B recipe round-robin with STS-B/ASSIN 2 pairs under ``CoSENTLoss`` (weighted by its ``sts_weight``)."""

    def phases(model, groups, cfg) -> list[Phase]:
        streams = [
            Stream(build(model, groups, cfg), make_loss(model, cfg)),
            Stream(sts_examples(model, cfg), st_losses.CoSENTLoss(model), weight=cfg.options.sts_weight),
        ]
        return [Phase("2b+sts", streams, cfg.epochs)]

    phases.__name__ = name
    return phases


def _cosent_loss(model, cfg) -> torch.nn.Module:
    return st_losses.CoSENTLoss(model)


def ynu_phases(model, groups, cfg) -> list[Phase]:
    pretrain = Phase("sts", [Stream(sts_examples(model, cfg), st_losses.CoSENTLoss(model))], cfg.options.sts_epochs)
    finetune = [
        Stream(triplet_examples(model, groups, cfg), _triplet_loss(model, cfg)),
        Stream(positive_examples(model, groups, cfg), st_losses.MultipleNegativesRankingLoss(model)),
    ]
    return [pretrain, Phase("2b", finetune, cfg.epochs)]


PHASES: dict[str, PhasesFn] = {
    "adaptive-triplet": single_stream("adaptive-triplet", adaptive_examples, adaptive_loss),
    "adaptive-triplet-sts": _with_sts("adaptive-triplet-sts", adaptive_examples, adaptive_loss),
    "triplet": single_stream("triplet", triplet_examples, _triplet_loss),
    "mnrl": single_stream("mnrl", positive_examples, lambda m, c: st_losses.MultipleNegativesRankingLoss(m)),
    "cosent": single_stream("cosent", labelled_pair_examples, _cosent_loss),
    "cosent-sts": _with_sts("cosent-sts", labelled_pair_examples, _cosent_loss),
    "contrastive": single_stream("contrastive", labelled_pair_examples, lambda m, c: st_losses.ContrastiveLoss(m)),
    "contrastive-sts": _with_sts("contrastive-sts", labelled_pair_examples, lambda m, c: st_losses.ContrastiveLoss(m)),
    "cosine": single_stream("cosine", labelled_pair_examples, lambda m, c: st_losses.CosineSimilarityLoss(m)),
    "ynu": ynu_phases,
}

VALIDATION_TEXT = "10% of train MWEs, pseudo-gold with the otherID rule; SemEval 2B dev never used"
OPTIONS: dict[str, type[SemEval2BRecipeOptions]] = {  # what the recipes take beyond the family's own
    "adaptive-triplet-sts": SemEval2BStsRecipeOptions,  # steps add an STS batch, weighted by sts_weight
    "cosent-sts": SemEval2BStsRecipeOptions,
    "contrastive-sts": SemEval2BStsRecipeOptions,
    "ynu": YnuRecipeOptions,  # STS pre-training epochs
}

RECIPES: dict[str, Recipe] = {
    name: Recipe(
        "semeval2b",
        fn,
        VALIDATION_TEXT,
        labels=semeval_labels(name),
        options=OPTIONS.get(name, SemEval2BRecipeOptions),
    )
    for name, fn in PHASES.items()
}
