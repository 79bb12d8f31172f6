"""The flagship recipe: one checkpoint trained on every source at once, for idioms in ordinary text (EN + PT).

Streams (one batch of each per step, losses summed; every source through the held-out dedup,
:func:`~idiomkit.data.heldout.filter_heldout`):

- ``2b``: SemEval 2B train groups as (sentence, paraphrase, 1 correct / 0 incorrect) under ``CoSENTLoss``, plain
  text (no MWE tokens: the flagship reads idioms as users write them).
- ``idiolink``: IdioLink train tuples (query, positive, negatives) under InfoNCE (MNRL).
- ``meaning``: idiom -> meaning and idiomatic sentence -> literal paraphrase pairs (definitions train/val idioms,
  PIE train, LIdioms, mt_ambiguity meanings) under MNRL (in-batch negatives, no idiom twice a batch).
- ``misreading``: (idiomatic sentence, figurative paraphrase, literal misreading): the core test's *training*
  construction (:func:`~idiomkit.data.misreading.misreading_rows`: PIE ISP train rows with WordNet word-by-word
  misreadings; the core test's headline triples are written by people, its PIE triples are a diagnostic), plus
  mt_ambiguity (figurative use, its meaning, the literal use) under MNRL with the misreading as a hard negative.
- ``sts``: STS-B / ASSIN 2 train pairs (deduplicated) under ``CoSENTLoss``: idiom pairs and ordinary pairs share
  one cosine scale (2B "all" measures exactly that).

Every stream's rows go through the one held-out check (:func:`~idiomkit.data.heldout.filter_heldout`): a held-out
sentence, a held-out idiom by key, or a held-out idiom in any form inside any text of a row drops the row ("spilled
all the beans" inside another idiom's sentence, "pulling my leg"), each stream's drops counted in the log. Misreading
triples that
the reader's lexicon makes lookup-equal (the sentence is rewritten into its own gold paraphrase) are left out of
training and validation. ``lora_rank`` trains LoRA adapters under the reader (merged on save).

Leave-one-out recipes drop one group of streams: ``flagship-no2b``, ``flagship-noidiolink``, ``flagship-noextra``
(no ``meaning`` and ``misreading``), ``flagship-nosts``; ``flagship-noreader`` trains without the idiom reader.

Selection: ``val_mean``, the mean of the 2B validation idiom ρ (10% of 2B train MWEs), the STS validation ρ
(carved from STS train), the misreading accuracy on validation idioms (15% of the idioms by hash)
and the definition margin on the Xiao validation idioms: all carved by idiom from training sources, never a
benchmark's dev or test.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from sentence_transformers.base.evaluation import BaseEvaluator
from sentence_transformers.sentence_transformer import losses as st_losses

from idiomkit.data.definitions import id_pairs, sp_pairs
from idiomkit.data.extra import load_lidioms, load_mt_meanings, load_pie
from idiomkit.data.heldout import HeldOut, filter_heldout, heldout_index
from idiomkit.data.idiolink import load_triplets, triplets_path
from idiomkit.data.keys import normalise_idiom, normalise_sentence
from idiomkit.data.meaning_triples import VAL_PERCENT, Triple
from idiomkit.data.misreading import misreading_rows
from idiomkit.embedding.encode import shared_encodings
from idiomkit.idioms.evaluation_reader import with_reader
from idiomkit.idioms.reader import IdiomReader
from idiomkit.losses import OtherIdTargetsLoss, PinPositivesLoss
from idiomkit.models import load_model
from idiomkit.models.lora import add_lora
from idiomkit.settings import run_data_dir
from idiomkit.tasks.meaning_triples import lookup_equal, score_triples
from idiomkit.tasks.semeval2b import SemEval2BEvaluator
from idiomkit.tasks.sts import StsEvaluator
from idiomkit.tasks.xiao_pairs import XiaoPairsEvaluator
from idiomkit.training.checkpoints import set_training_length
from idiomkit.training.config import RecipeOptions
from idiomkit.training.examples import Examples, make_examples
from idiomkit.training.recipe_options import FlagshipRecipeOptions
from idiomkit.training.recipes.base import Phase, Recipe, Setup, SetupFn, Stream, sts_split
from idiomkit.training.recipes.pairs import SP_TRAIN_PER_IDIOM, idiom_data
from idiomkit.training.recipes.semeval2b import labelled_pair_examples, paraphrase_anchors, sts_examples
from idiomkit.training.relabel import validation_pairs

log = logging.getLogger(__name__)

STREAMS = ("2b", "idiolink", "meaning", "misreading", "sts")
LEAVE_OUT = {"no2b": ("2b",), "noidiolink": ("idiolink",), "noextra": ("meaning", "misreading"), "nosts": ("sts",)}
VALIDATION_TEXT = (
    "mean of 2B validation idiom rho (10% of train MWEs), STS validation rho (carved from STS train), "
    f"misreading accuracy ({VAL_PERCENT}% of the misreading idioms) and Xiao validation-idiom margin"
)


# (source, licence as the dataset states it): the model card lists them; several are research-only / non-commercial
SOURCES = (
    ("SemEval-2022 Task 2B train (2b)", "GPL-3.0 repository licence"),
    ("IdioLink train (idiolink)", "Apache-2.0 repository; dataset card CC-BY-4.0"),
    (
        "EPIE / Xiao train+val idioms: EPIE, baiango, Wiktionary (meaning)",
        "EPIE none stated (research only); baiango Unlicense; Wiktionary CC BY-SA 4.0",
    ),
    ("PIE ISP train (meaning)", "none stated (research only)"),
    ("LIdioms (meaning)", "CC BY-NC-SA 3.0 / AGPL-3.0, conflicting (non-commercial)"),
    ("mt_ambiguity meanings and usage triples (meaning, misreading)", "none; scraped (research only)"),
    ("NCS, Garcia et al. 2021 (misreading)", "none stated (research only)"),
    ("AStitch noun-compound senses, train rows (misreading)", "GPL-3.0 repository licence"),
    ("STS-B train (sts)", "CC BY-SA 4.0 scores; sentences keep their sources' licences"),
    ("ASSIN 2 train-only (sts)", "see sts/PROVENANCE.md"),
)
LIMITS = (
    "Idioms the reader's lexicon knows are rewritten to their meaning before encoding (when the sense check "
    "calls the use figurative); other idioms rely on what training taught the encoder, and the core test "
    "reports both. The lexicon and the training data are English and Portuguese only. Several sources are "
    "research-only or non-commercial: so is this model."
)


def card_lines() -> list[str]:
    """The flagship's part of the model card: training sources with their licences, loading, limits."""
    rows = [f"| {name} | {licence} |" for name, licence in SOURCES]
    return [
        "### Training sources (after the held-out dedup)",
        "",
        "| source (stream) | licence |",
        "|---|---|",
        *rows,
        "",
        "Load it with `idiomkit.load_model(path)` (the idiom reader is a module of idiomkit, which must be "
        "installed; no code from this folder runs). `SentenceTransformer(path, trust_remote_code=True)` loads it "
        "too, but lets a folder run its own code: only for folders you trust.",
        "",
        f"Limits: {LIMITS}",
        "",
    ]


def _groups_of(keys: Sequence[str]) -> list[int]:
    index: dict[str, int] = {}
    return [index.setdefault(normalise_idiom(k), len(index)) for k in keys]


def _rows(model, cfg, name: str, rows: list[tuple[str, ...]], keys: list[str]) -> Examples:
    return make_examples(model, name, rows, [1.0] * len(rows), _groups_of(keys), cfg.max_seq_length, spread_groups=True)


def meaning_rows(
    cfg, index: HeldOut, splits: Sequence[str] = ("train", "val")
) -> tuple[list[tuple[str, str]], list[str]]:
    """(idiom or sentence, meaning or literal paraphrase) pairs and their idioms, after the held-out check (held-out
    idioms in any form included); Xiao pairs of the idioms of ``splits``."""
    data_dir = run_data_dir(cfg.data_dir)
    idioms = [i for split in splits for i in idiom_data(str(data_dir)).split(split)]
    pairs = [(p.anchor, p.positive, p.key) for p in id_pairs(idioms, seed=cfg.seed)]
    pairs += [(p.anchor, p.positive, p.key) for p in sp_pairs(idioms, seed=cfg.seed, per_idiom=SP_TRAIN_PER_IDIOM)]
    pairs += [(p.idiomatic_sentence, p.literal_sentence, p.idiom) for p in load_pie(data_dir, ("train",))]
    pairs += [(e.idiom, e.definition, e.idiom) for e in load_lidioms(data_dir)]
    pairs += [(m.idiom, m.meaning, m.idiom) for m in load_mt_meanings(data_dir)]
    kept = filter_heldout("flagship meaning", pairs, lambda r: r[:2], lambda r: [r[2]], index=index).kept
    return [(a, b) for a, b, _ in kept], [k for _, _, k in kept]


def misreading_triples(cfg, index: HeldOut, lexicon=None) -> tuple[list[Triple], list[Triple]]:
    """(train, validation) misreading triples (:func:`~idiomkit.data.misreading.misreading_rows`: PIE ISP train rows
    with WordNet misreadings and mt_ambiguity usage triples, after the held-out check by ``index``; validation =
    the rows of 15% of the idioms by hash). Triples that are lookup-equal in ``lexicon`` (the reader's: it rewrites
    the sentence into its gold paraphrase) or whose sentence is its paraphrase are dropped from both: a row graded
    against itself teaches and measures nothing."""
    train, val = misreading_rows(run_data_dir(cfg.data_dir), index)
    return [t for t in train if not self_graded(t, lexicon)], [t for t in val if not self_graded(t, lexicon)]


def self_graded(triple: Triple, lexicon=None) -> bool:
    """Whether ``triple`` would be graded against itself: its sentence is its paraphrase (normalised), or the
    ``lexicon``'s meaning of its idiom is the paraphrase (lookup-equal: the reader rewrites one into the other)."""
    same = normalise_sentence(triple.sentence) == normalise_sentence(triple.paraphrase)
    return same or (lexicon is not None and lookup_equal(triple, lexicon))


def idiolink_rows(cfg, index: HeldOut) -> tuple[list[tuple[str, ...]], list[str]]:
    """IdioLink train tuples (query, positive, negatives) after the held-out check."""
    triplets = load_triplets(triplets_path(run_data_dir(cfg.data_dir), "train", "span"))
    kept = filter_heldout(
        "flagship idiolink",
        triplets,
        lambda t: (t.query, t.positive, *t.negatives),
        lambda t: [t.query_idiom],
        index=index,
    ).kept
    return [(t.query, t.positive, *t.negatives) for t in kept], [t.query_idiom for t in kept]


def _limit(rows: list, keys: list, cfg) -> tuple[list, list]:
    n = cfg.limit_groups * 4 if cfg.limit_groups else None
    return rows[:n], keys[:n]


@dataclass
class Sources:
    """What the flagship's training rows are filtered by: the held-out ``index`` (held-out sentences, and held-out
    idioms by key or in any form inside a row's texts), and the Xiao idiom splits trained on."""

    index: HeldOut
    xiao_splits: tuple[str, ...] = ("train", "val")


def reader_lexicon(model):
    """The lexicon of ``model``'s idiom reader (None without one)."""
    first = model[0]
    return first.lexicon if isinstance(first, IdiomReader) else None


@dataclass(frozen=True)
class PairStream:
    """How the 2B stream trains its (MWE sentence, paraphrase) pairs (flagship-v2's options; the flagship's are
    the defaults).

    Args:
        anchors: each group's (sentence, correct paraphrase) pairs also join the STS stream at score 1.
        pin: weight of the pull of correct pairs towards cosine 1 (:class:`PinPositivesLoss`; 0: off).
        other_id: incorrect pairs' targets follow 2B's otherID rule (:class:`OtherIdTargetsLoss`), not 0.
        weight: the stream's loss weight in each step's sum.
    """

    anchors: bool = False
    pin: float = 0.0
    other_id: bool = False
    weight: float = 1.0

    @classmethod
    def of(cls, cfg) -> PairStream:
        """The options a flagship-v2 config asks for."""
        o = cfg.options
        return cls(o.paraphrase_anchors, o.pin_weight, o.other_id_targets, o.pair_weight)


def build_streams(
    model, cfg, groups: list, sources: Sources, wanted: Sequence[str], pairs: PairStream | None = None
) -> tuple[list[Stream], list]:
    """The streams of ``wanted`` (in :data:`STREAMS` order) and the misreading validation triples; ``pairs``: how
    the 2B pairs are trained (:class:`PairStream`; the flagship's: the defaults)."""
    pairs = pairs or PairStream()
    mnrl = st_losses.MultipleNegativesRankingLoss(model)
    index = sources.index
    train_triples, val_triples = misreading_triples(cfg, index, reader_lexicon(model))
    misreading = ([(t.sentence, t.paraphrase, t.misreading) for t in train_triples], [t.idiom for t in train_triples])
    builders: dict[str, Callable[[], Stream]] = {
        "2b": lambda: Stream(
            labelled_pair_examples(model, groups, cfg, pairs.other_id), _pair_loss(model, pairs), weight=pairs.weight
        ),
        "idiolink": lambda: Stream(_rows(model, cfg, "idiolink", *_limit(*idiolink_rows(cfg, index), cfg)), mnrl),
        "meaning": lambda: Stream(
            _rows(model, cfg, "meaning", *_limit(*meaning_rows(cfg, index, sources.xiao_splits), cfg)), mnrl
        ),
        "misreading": lambda: Stream(_rows(model, cfg, "misreading", *_limit(*misreading, cfg)), mnrl),
        "sts": lambda: Stream(
            sts_examples(model, cfg, paraphrase_anchors(groups, cfg) if pairs.anchors else ()),
            st_losses.CoSENTLoss(model),
            weight=cfg.options.sts_weight,
        ),
    }
    return [builders[name]() for name in STREAMS if name in wanted], val_triples


def _pair_loss(model, pairs: PairStream) -> torch.nn.Module:
    """The 2B stream's loss: CoSENT, with the correct pairs pinned towards cosine 1 when ``pairs.pin`` > 0, on
    the otherID rule's targets when ``pairs.other_id``."""
    loss = st_losses.CoSENTLoss(model)
    loss = PinPositivesLoss(model, loss, pairs.pin) if pairs.pin else loss
    return OtherIdTargetsLoss(model, loss) if pairs.other_id else loss


STS_METRIC = "valsts_sts"  # the STS validation's metric (StsEvaluator named ``valsts``)


class FlagshipEvaluator(BaseEvaluator):
    """The flagship's validation: each part's metrics and ``val_mean``, the mean of :attr:`PARTS` (the selection
    metric). ``val2b_all`` ranks the 2B validation pairs and the STS validation pairs together, as 2B dev's
    ``all`` does: it sees whether the idiom pairs' similarities sit on the STS pairs' scale (reported, not
    selected on)."""

    PARTS = ("val2b_idiom", STS_METRIC, "valmis_accuracy", "valdef_margin")

    def __init__(self, evaluators: Sequence[BaseEvaluator], triples: Sequence[Triple]):
        super().__init__()
        self.evaluators, self.triples = list(evaluators), list(triples)
        self.greater_is_better, self.primary_metric = True, "val_mean"

    def __call__(self, model, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict[str, float]:
        out: dict[str, float] = {}
        with shared_encodings():  # the 2B part's STS rows are the STS part's pairs: encoded once
            for evaluator in self.evaluators:
                out.update(evaluator(model))
            if self.triples:
                metrics, _ = score_triples(model, self.triples)
                out["valmis_accuracy"] = metrics["all"]["accuracy"]
        out.pop("val2b_sts", None)  # the STS validation pairs again: reported as valsts_sts
        out["val_mean"] = float(np.mean([out[k] for k in self.PARTS if k in out]))
        return out


def wanted_streams(recipe: str) -> tuple[str, ...]:
    """The streams a flagship recipe trains on (``flagship-no<part>``, ``flagship-v2-no<part>``: all but that
    part)."""
    left_out = LEAVE_OUT.get(recipe.rsplit("-", 1)[-1], ())
    return tuple(s for s in STREAMS if s not in left_out)


def base_model(cfg, lexicon=None):
    """The model a flagship run trains: LoRA adapters when ``cfg.lora_rank`` (merged on save), then the idiom
    reader in front (:func:`with_reader`; ``lexicon``: another than the evaluation lexicon) unless the recipe is
    ``flagship-noreader``."""
    model = load_model(cfg.model, pooling=cfg.pooling, device="cpu" if not torch.cuda.is_available() else None)
    set_training_length(model, cfg.max_seq_length)
    if cfg.lora_rank:
        add_lora(model, cfg.lora_rank)  # before the reader: LoRA wraps the Transformer module
    if cfg.recipe != "flagship-noreader":
        model = with_reader(model, run_data_dir(cfg.data_dir), lexicon=lexicon)
    return model


def flagship_evaluator(cfg, val: list, val_triples: list[Triple]) -> FlagshipEvaluator:
    """:class:`FlagshipEvaluator` on the 2B validation groups ``val`` (with the STS validation pairs as its STS
    rows), the STS validation carved from STS train, the misreading validation triples and the Xiao validation
    idioms."""
    sts_val = sts_split(cfg)[1]
    pairs, gold = validation_pairs(val, sts_val)
    defs = idiom_data(str(run_data_dir(cfg.data_dir))).split("val")
    defs = defs[: max(4, cfg.limit_groups // 5) if cfg.limit_groups else None]
    evaluators = [
        SemEval2BEvaluator(pairs, gold, name="val2b"),
        StsEvaluator(sts_val, name="valsts"),
        XiaoPairsEvaluator(defs, name="valdef"),
    ]
    return FlagshipEvaluator(evaluators, val_triples)


def data_counts(model, streams: list[Stream], **counts: int) -> dict[str, int]:
    """Rows and truncations per stream, the reader's lexicon size and ``counts``; logged."""
    if isinstance(model[0], IdiomReader):
        counts["reader_lexicon_entries"] = len(model[0].lexicon)
    for s in streams:
        counts[f"{s.examples.name}_rows"] = len(s.examples)
        counts[f"{s.examples.name}_truncated"] = s.examples.truncated
    log.info("flagship data: %s", counts)
    return counts


def flagship_setup(cfg, load_groups: Callable) -> Setup:
    """The trainer's :class:`Setup` for a flagship recipe (``load_groups``: the trainer's deduplicated 2B groups)."""
    cfg.mwe_tokens = False
    model = base_model(cfg)
    data_dir = run_data_dir(cfg.data_dir)
    sources = Sources(heldout_index(data_dir))
    train, val, files = load_groups(cfg)  # the 2B groups through the held-out check (held-out idioms in any form)
    streams, val_triples = build_streams(model, cfg, train, sources, wanted_streams(cfg.recipe))
    counts = data_counts(model, streams, train_groups=len(train), val_groups=len(val), val_triples=len(val_triples))
    return Setup(
        model,
        [Phase("flagship", streams, cfg.epochs)],
        [flagship_evaluator(cfg, val, val_triples)],
        files + list(idiom_data(str(data_dir)).files),
        counts,
        "val_mean",
    )


def group_texts(group) -> tuple[str, ...]:
    """Every sentence of a 2B train group."""
    return (group.sentence, *group.correct, *(i for i, _ in group.incorrect))


def flagship_recipe(setup: SetupFn, validation: str, options: type[RecipeOptions]) -> Recipe:
    """The registry entry of a flagship-family recipe: ``setup`` builds its model, streams and validation (no
    phases function: the trainer calls the setup), the flagship's model card section."""
    return Recipe("flagship", None, validation, setup=setup, card_lines=card_lines, options=options)


RECIPES: dict[str, Recipe] = {
    # a recipe with an STS stream takes its weight (labelled when not 1); flagship-nosts takes no option of its own
    name: flagship_recipe(
        flagship_setup, VALIDATION_TEXT, FlagshipRecipeOptions if "sts" in wanted_streams(name) else RecipeOptions
    )
    for name in ("flagship", *(f"flagship-{k}" for k in LEAVE_OUT), "flagship-noreader")
}
