"""Flagship v2: the flagship's streams (:mod:`.flagship`) plus what should keep a trained model from losing what
its base knew, and a selection that sees idioms the model has not.

- ``keep`` stream (``keep_weight`` > 0): :class:`~idiomkit.losses.KeepCloseLoss` (``keep_distance``: MSE,
  cosine or none; ``keep_relational``: plus the batch's cosine matrix held at the base's) between the model's embeddings
  and the *frozen* base model's on general sentences (STS train, EN + PT) and idiomatic sentences (PIE train, the
  misreading stream's sentences), :data:`KEEP_SENTENCES` of each, picked by hash. The base's embeddings are computed
  once, before the first step, and cached in the run folder (:mod:`.frozen`), so a resumed run reads them back.
- ``flagship-v2-student``: a ``distill`` phase of ``distill_steps`` steps before the flagship streams: the model
  (the student) learns student(EN) ≈ teacher(EN) and student(PT) ≈ teacher(EN) on parallel sentences (Reimers &
  Gurevych 2020), teacher = ``teacher`` (default all-mpnet-base-v2) with the idiom reader in front, its embeddings
  cached like the base's (PCA-reduced to the student's width when wider; with ``distill_align = procrustes`` then
  mapped into the untrained student's own space, centred, rotated and scaled, :func:`.frozen.procrustes_align`, so
  the student learns the teacher's geometry, not its axes). The parallel text is STS-B train and its Portuguese
  translation (``sts/stsb_multi_mt/stsb-pt-train.csv``: DeepL, European Portuguese, row ``i`` aligned with the
  English row ``i``); no other EN/PT parallel text is in the data (ASSIN 2 is Portuguese only, the definitions
  sources English only). Sentences of held-out splits and of the STS validation carve are left out.
- ``val_unseen`` (default on): the validation idioms -- the misreading validation idioms (15% of the misreading
  idioms), the Xiao validation idioms and the 2B validation MWEs -- are left out of every training stream (by key
  and in any form, :func:`~idiomkit.data.heldout.filter_heldout`) and of the reader's lexicon, so ``val_mean``
  selects on idioms neither training nor the lexicon saw, as the held-out core test measures. The saved reader's
  lexicon lacks those idioms too.

- ``flagship-v2-no<part>`` (``no2b``, ``noidiolink``, ``noextra``, ``nosts``): the leave-one-out rows, all but that
  group of streams (as ``flagship-no<part>``), the keep stream and selection unchanged.

``lora_rank`` composes with all of them (adapters under the reader, merged on save).
"""

from __future__ import annotations

import hashlib
import logging
import math

import numpy as np
import torch

from idiomkit.data.errors import DataError
from idiomkit.data.extra import load_pie
from idiomkit.data.heldout import filter_heldout, heldout_index
from idiomkit.data.keys import normalise_sentence
from idiomkit.data.misreading import misreading_rows
from idiomkit.data.sts import load_stsb
from idiomkit.idioms.evaluation_reader import with_reader
from idiomkit.idioms.sources import evaluation_lexicon
from idiomkit.losses import KeepCloseLoss
from idiomkit.models import get_spec, load_model
from idiomkit.settings import run_data_dir
from idiomkit.training.examples import make_examples
from idiomkit.training.recipe_options import FlagshipV2RecipeOptions, KeepRecipeOptions, StudentRecipeOptions
from idiomkit.training.recipes.base import Phase, Recipe, Setup, Stream, sts_split
from idiomkit.training.recipes.flagship import (
    LEAVE_OUT,
    PairStream,
    Sources,
    base_model,
    build_streams,
    data_counts,
    flagship_evaluator,
    flagship_recipe,
    group_texts,
    misreading_triples,
    reader_lexicon,
    wanted_streams,
)
from idiomkit.training.recipes.frozen import frozen_embeddings, procrustes_align, reduce_dim, with_targets
from idiomkit.training.recipes.pairs import idiom_data

log = logging.getLogger(__name__)

KEEP_SENTENCES = 4000  # general and idiomatic sentences each in the keep stream
PARALLEL = ("stsb_multi_mt/stsb-en-train.csv", "stsb_multi_mt/stsb-pt-train.csv")  # under data_dir/sts
VALIDATION_TEXT = (
    "mean of 2B validation idiom rho (10% of train MWEs), STS validation rho (carved from STS train), "
    "misreading accuracy (15% of the misreading idioms) and Xiao validation-idiom margin; with val_unseen the "
    "validation idioms are in no training stream and not in the reader's lexicon"
)


def _by_hash(texts: list[str], n: int | None) -> list[str]:
    ordered = sorted(dict.fromkeys(texts), key=lambda t: hashlib.sha256(t.encode()).hexdigest())
    return ordered[:n] if n else ordered


def validation_idioms(cfg, val_groups: list) -> set[tuple[str, str]]:
    """(idiom, language) of every validation part: misreading validation idioms, Xiao validation idioms, 2B
    validation MWEs."""
    data_dir = run_data_dir(cfg.data_dir)
    held = {(t.idiom, t.language) for t in misreading_rows(data_dir)[1]}
    held |= {(i.key, "EN") for i in idiom_data(str(data_dir)).split("val")}
    held |= {(m, g.language) for g in val_groups for m in g.mwes}
    return held


def keep_sentences(cfg, sources: Sources, idiomatic: list[str]) -> tuple[list[str], list[str]]:
    """(general, idiomatic) sentences of the keep stream: STS train sentences, and PIE train idiomatic sentences
    plus ``idiomatic`` (the misreading stream's), each through the held-out check (STS train went through it in
    :func:`~.base.sts_split`)."""
    n = cfg.limit_groups * 4 if cfg.limit_groups else KEEP_SENTENCES
    general = [s for p in sts_split(cfg)[0] for s in (p.sentence_1, p.sentence_2)]
    general = _by_hash(filter_heldout("keep general", general, lambda t: [t], index=sources.index).kept, n)
    pie = load_pie(run_data_dir(cfg.data_dir), ("train",))
    kept = filter_heldout(
        "keep idiomatic", pie, lambda p: [p.idiomatic_sentence], lambda p: [p.idiom], index=sources.index
    ).kept
    texts = [p.idiomatic_sentence for p in kept] + list(idiomatic)
    texts = filter_heldout("keep idiomatic (all)", texts, lambda t: [t], index=sources.index).kept
    return general, _by_hash(texts, n)


def keep_stream(model, cfg, sentences: list[str]) -> Stream:
    """The keep-what-you-know stream: ``sentences`` against the frozen base's embeddings of them (cached)."""
    rows = [(s,) for s in sentences]
    examples = make_examples(model, "keep", rows, [0.0] * len(rows), list(range(len(rows))), cfg.max_seq_length)
    targets = frozen_embeddings(
        model, examples, cfg.output_dir, f"base|{cfg.model}|{cfg.pooling}", share=get_spec(cfg.model) is not None
    )
    return Stream(
        with_targets(examples, targets),
        KeepCloseLoss(model, cfg.options.keep_distance, cfg.options.keep_relational),
        weight=cfg.options.keep_weight,
    )


def parallel_sentences(cfg, sources: Sources) -> list[tuple[str, str]]:
    """(English, Portuguese) STS-B train sentences (module docstring), after the held-out check,
    without the STS validation carve's sentences; deduplicated by the English side, in hash order."""
    root = run_data_dir(cfg.data_dir) / "sts"
    en, pt = (load_stsb(root / name) for name in PARALLEL)
    if len(en) != len(pt):
        raise DataError(root / PARALLEL[1], None, None, f"{len(pt)} pairs, but {PARALLEL[0]} has {len(en)}")
    pairs = [(a.sentence_1, b.sentence_1) for a, b in zip(en, pt, strict=True)]
    pairs += [(a.sentence_2, b.sentence_2) for a, b in zip(en, pt, strict=True)]
    carved = {normalise_sentence(s) for p in sts_split(cfg)[1] for s in (p.sentence_1, p.sentence_2)}
    pairs = [p for p in pairs if normalise_sentence(p[0]) not in carved]
    pairs = filter_heldout("distill parallel", pairs, lambda p: p, index=sources.index).kept
    by_en = dict(pairs)
    return [(e, by_en[e]) for e in _by_hash(list(by_en), None)]


def teacher_targets(cfg, english: list[str], dim: int, lexicon) -> np.ndarray:
    """The teacher's embeddings (idiom reader in front, ``lexicon``) of ``english``, cached in the run folder,
    reduced to ``dim`` dimensions."""
    teacher = load_model(cfg.options.teacher, device="cpu" if not torch.cuda.is_available() else None)
    teacher.max_seq_length = cfg.max_seq_length
    teacher = with_reader(teacher, run_data_dir(cfg.data_dir), lexicon=lexicon)
    rows = [(t,) for t in english]
    examples = make_examples(teacher, "teacher", rows, [0.0] * len(rows), list(range(len(rows))), cfg.max_seq_length)
    targets = frozen_embeddings(
        teacher,
        examples,
        cfg.output_dir,
        f"teacher|{cfg.options.teacher}",
        share=get_spec(cfg.options.teacher) is not None,
    )
    del teacher
    return reduce_dim(targets, dim)


def distill_phase(model, cfg, sources: Sources) -> Phase:
    """``distill_steps`` steps of (EN, PT) rows against the teacher's EN embeddings (MSE, as ``MSELoss``), first
    mapped into the student's space when ``distill_align`` is ``procrustes``."""
    pairs = parallel_sentences(cfg, sources)
    per_step = max(1, cfg.batch_size // 2)  # a two-column row is two sentences
    pairs = pairs[: cfg.options.distill_steps * per_step]
    dim = model.get_embedding_dimension()
    targets = teacher_targets(cfg, [e for e, _ in pairs], dim, reader_lexicon(model))
    examples = make_examples(model, "distill", pairs, [0.0] * len(pairs), list(range(len(pairs))), cfg.max_seq_length)
    if cfg.options.distill_align == "procrustes":  # the untrained student's own EN embeddings (first column), cached
        targets = procrustes_align(targets, frozen_embeddings(model, examples, cfg.output_dir, f"student|{cfg.model}"))
    epochs = max(1, math.ceil(cfg.options.distill_steps * per_step / len(pairs)))
    return Phase("distill", [Stream(with_targets(examples, targets), KeepCloseLoss(model, "mse"))], epochs)


def without_idioms(lexicon, idioms: set[tuple[str, str]]):
    """``lexicon`` without ``idioms`` (by key, per language)."""
    for language in ("EN", "PT"):
        lexicon.remove([i for i, lang in idioms if lang == language], language)
    return lexicon


def v2_setup(cfg, load_groups) -> Setup:
    """The trainer's :class:`Setup` for ``flagship-v2`` and ``flagship-v2-student`` (module docstring)."""
    cfg.mwe_tokens = False
    data_dir = run_data_dir(cfg.data_dir)
    base = Sources(heldout_index(data_dir))
    train, val, files = load_groups(cfg)
    held = validation_idioms(cfg, val) if cfg.options.val_unseen else set()
    lexicon = without_idioms(evaluation_lexicon(data_dir), held) if held else None
    model = base_model(cfg, lexicon)
    sources = Sources(base.index.with_idioms(held, "flagship validation"), ("train",) if held else ("train", "val"))
    train = filter_heldout("flagship 2b", train, group_texts, lambda g: g.mwes, index=sources.index).kept
    streams, _ = build_streams(model, cfg, train, sources, wanted_streams(cfg.recipe), PairStream.of(cfg))
    _, val_triples = misreading_triples(cfg, base.index, reader_lexicon(model))
    if cfg.options.keep_weight > 0:
        train_triples, _ = misreading_triples(cfg, sources.index, reader_lexicon(model))
        general, idiomatic = keep_sentences(cfg, sources, [t.sentence for t in train_triples])
        streams.append(keep_stream(model, cfg, general + idiomatic))
    phases = [Phase("flagship", streams, cfg.epochs)]
    if cfg.recipe == "flagship-v2-student":
        phases.insert(0, distill_phase(model, cfg, sources))
    counts = data_counts(
        model,
        [s for p in phases for s in p.streams],
        train_groups=len(train),
        val_groups=len(val),
        val_triples=len(val_triples),
        val_unseen_idioms=len(held),
    )
    return Setup(
        model,
        phases,
        [flagship_evaluator(cfg, val, val_triples)],
        files + list(idiom_data(str(data_dir)).files) + [run_data_dir(cfg.data_dir) / "sts" / p for p in PARALLEL],
        counts,
        "val_mean",
    )


def v2_options(name: str) -> type[KeepRecipeOptions]:
    """What a flagship-v2 recipe takes: the student its distillation too; one without an STS stream no STS weight."""
    if name == "flagship-v2-student":
        return StudentRecipeOptions
    return FlagshipV2RecipeOptions if "sts" in wanted_streams(name) else KeepRecipeOptions


RECIPES: dict[str, Recipe] = {
    name: flagship_recipe(v2_setup, VALIDATION_TEXT, v2_options(name))
    for name in ("flagship-v2", "flagship-v2-student", *(f"flagship-v2-{part}" for part in LEAVE_OUT))
}

__all__ = ["KEEP_SENTENCES", "RECIPES", "keep_stream", "parallel_sentences", "v2_setup", "validation_idioms"]
