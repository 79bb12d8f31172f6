"""What defines a training run: :class:`TrainConfig`, the one declaration of every training option.

Each field carries its help text and allowed values in ``field(metadata=...)`` (the keys of
:mod:`idiomkit.options`: ``help``, ``range``, ``known``, ``short``, ``flag``, ``off``, ``path``, ``cli``). The
``idiomkit train`` flags (:func:`idiomkit.options.typer_parameters`), the range checks of the Python API
(:func:`check_options`) and the ``[train]`` table of an experiment file (``reproduce.schema.TrainRun``) are all
generated from it. The field order is the order of ``run_config.json`` / ``training.json``: append new fields,
never reorder.

Nothing here imports torch: the command line reads this module to build its flags (``known`` names a registry by
``"module:attribute"``, imported only when a value is checked).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from idiomkit.errors import OptionError
from idiomkit.options import Range, check_known, check_ranges

RECIPE_HELP = (
    "Recipe. SemEval 2B: adaptive-triplet, adaptive-triplet-sts, triplet, mnrl, cosent, cosent-sts, contrastive, "
    "contrastive-sts, cosine, ynu. IdioLink: idiolink-infonce, idiolink-mnrl, idiolink-adaptive-triplet, "
    "idiolink-infonce-index, idiolink-infonce-meaning. Idiom/definition pairs: "
    "pairs-<contrastive|triplet|cosine|mnrl|adaptive-triplet>-<id|sp|idsp>."
)


def opt(default: Any, help: str = "", **meta: Any) -> Any:  # noqa: A002 - the metadata key is ``help``
    """A training option: its default and :mod:`idiomkit.options` metadata."""
    return field(default=default, metadata={"help": help, **meta})


@dataclass
class TrainConfig:
    """Everything that defines a run (stored in checkpoints and the model card)."""

    recipe: str = opt("adaptive-triplet", RECIPE_HELP, known=("recipe", "idiomkit.training.recipes:RECIPES"))
    model: str = opt("minilm", "Base model: registry name or directory.", short="m")
    epochs: int = opt(10, range=Range(1))
    batch_size: int = opt(64, range=Range(1))  # sentences per step (a pair loss sees batch_size // 2 pairs)
    lr: float = opt(2e-5, range=Range(0, low_open=True))
    warmup: float = opt(0.1, "Warmup: fraction of steps (<1) or steps.", range=Range(0))
    weight_decay: float = opt(0.01, range=Range(0), cli=False)
    max_grad_norm: float = opt(1.0, range=Range(0, low_open=True), cli=False)
    max_seq_length: int = opt(128, range=Range(8))
    seed: int = opt(0)
    mwe_tokens: bool = opt(True)
    miner_margin: float = opt(0.4, cli=False)
    margin: float = opt(0.3, cli=False)
    miner_distance: str = opt("cosine", cli=False)
    pooling: str = opt(
        "last2",
        "Sentence pooling: last2 (mean of the last two layers, He & Scarton) or mean (the model's own).",
        known=("pooling", "idiomkit.embedding:POOLINGS"),
    )
    batching: str = opt("length", cli=False)  # "length": group-aware length buckets; "in-order": consecutive rows
    query_mode: str = opt(
        "span",
        "IdioLink recipes: query mode of the validation search.",
        known=("query mode", "idiomkit.tasks.idiolink:QUERY_MODES"),
    )
    span_queries: bool = opt(False, "IdioLink recipes: train on span embeddings.", off="--sentence-queries")
    sts_epochs: int = opt(1, "ynu recipe: epochs of STS pre-training.", range=Range(0))
    sts_weight: float = opt(
        1.0, "Weight of the STS CoSENT loss in each step's sum (*-sts 2B recipes, the flagship).", range=Range(0)
    )
    lora_rank: int | None = opt(None, "Train LoRA adapters of this rank (merged on save).", range=Range(1))
    dropout: float | None = opt(
        None,
        "Dropout probability in [0, 1) (default: the model's own; 0 is faster).",
        range=Range(0, 1, high_open=True),
    )
    fast_dropout: bool = opt(True, "On CPU: the same dropout with cheaper mask sampling (about 9% more steps/s here).")
    unpad: bool = opt(True, "On CPU: BERT layers skip padding tokens (same result without dropout; faster).")
    output_dir: str = opt("runs/adaptive-triplet", "Run / model directory.", flag="--output", short="o", path=True)
    eval_every: int = opt(0, "Validate every N steps (0: each epoch).", range=Range(0))
    eval_at_start: bool = opt(
        False,
        "Validate the untrained model before the first step too: it can be selected, so a run that never beats its"
        " base on validation saves the base.",
    )
    checkpoint_every: int = opt(50, "Checkpoint every N steps.", range=Range(1))
    patience: int | None = opt(None, "Stop after N validations without gain.", range=Range(1))
    keep_epochs: bool = opt(False, "Also save the model after every epoch (epoch-N/).")
    val_sts: bool = opt(True, "Report STS validation Spearman.")  # not used for selection
    heldout_dedup: bool = opt(
        True,
        "Drop training examples of held-out splits; STS validation carved from STS train (--no-heldout-dedup:"
        " the recorded pre-dedup rows).",
    )
    dedup_idioms: bool = opt(
        True,
        "With --heldout-dedup: also drop 2B train groups of held-out idioms, by key or in any form in their"
        " sentences (--no-dedup-idioms: SemEval 2B's fine_tune rule, MWE overlap with dev allowed; held-out"
        " sentences are still dropped).",
    )
    max_steps: int | None = opt(None, range=Range(1))
    limit_groups: int | None = opt(None, "Use only the first N training groups.", range=Range(1))
    val_fraction: float = opt(0.1, range=Range(0, 1, high_open=True), cli=False)
    threads: int | None = opt(2, "CPU threads torch may use.", range=Range(1))
    data_dir: str | None = opt(None, "Benchmark data root (default ../shared/data).", path=True)
    keep_weight: float = opt(
        1.0,
        "flagship-v2 recipes: weight of the keep-what-you-know loss (embeddings near the frozen base model's on STS"
        " and idiomatic sentences; 0: off). With --keep-distance mse the term is per dimension (about 5e-4 on"
        " normalised 384-d embeddings): weight it accordingly.",
        range=Range(0),
    )
    keep_distance: str = opt(
        "mse",
        "flagship-v2 recipes: distance of the keep-what-you-know loss.",
        known=("distance", "idiomkit.losses.keep_close:DISTANCES"),
    )
    keep_relational: float = opt(
        0.0,
        "flagship-v2 recipes: weight, inside the keep loss, of a relational term: the keep batch's cosines between"
        " different sentences stay at the frozen base's (mean squared difference; 0: off). A sentence kept near its"
        " own base embedding can still draw nearer to all others.",
        range=Range(0),
    )
    teacher: str = opt(
        "mpnet",
        "flagship-v2-student: the teacher (idiom reader in front) distilled into the model on EN/PT parallel"
        " sentences.",
    )
    distill_steps: int = opt(
        300, "flagship-v2-student: steps of EN/PT distillation before the flagship streams.", range=Range(1)
    )
    val_unseen: bool = opt(
        True,
        "flagship-v2 recipes: the validation idioms are left out of every training stream and of the reader's"
        " lexicon (val_mean gets a held-out-idiom part).",
    )
    distill_align: str = opt(
        "none",
        "flagship-v2-student: map the teacher's targets into the untrained student's own space before"
        " distilling (procrustes: centred, rotated and scaled, fitted on both models' embeddings of the same"
        " sentences) or not (none).",
        known=("alignment", "idiomkit.training.recipes.frozen:ALIGNMENTS"),
    )
    paraphrase_anchors: bool = opt(
        False,
        "flagship-v2 recipes: each 2B train sentence and its correct paraphrase join the STS stream at score 1, so"
        " that an idiomatic sentence and its paraphrase rank with STS's closest pairs, not below them.",
    )
    pin_weight: float = opt(
        0.0,
        "flagship-v2 recipes: weight of a pin on the 2B stream (PinPositivesLoss): each MWE sentence and its correct"
        " paraphrase are pulled towards cosine 1 (mean 1 - cos) beside CoSENT's ranking, so the correct pairs keep"
        " the value the reader gives them instead of being ranked down with the rest (0: off).",
        range=Range(0),
    )
    pair_weight: float = opt(
        1.0,
        "flagship-v2 recipes: weight of the SemEval 2B pair stream's loss in each step's sum (the stream that teaches"
        " 2B's idiom pairs; 0 keeps its batches but learns nothing from them, unlike the no2b leave-one-out recipe).",
        range=Range(0),
    )
    other_id_targets: bool = opt(
        False,
        "flagship-v2 recipes: the 2B stream scores each incorrect pair as SemEval-2022 2B grades it (the otherID"
        " rule, OtherIdTargetsLoss): its target is the model's own similarity of the sentence's correct paraphrase"
        " and the incorrect one, not 0.",
    )
    precision: str = opt(
        "fp32",
        "Training precision: fp32, or bf16 (the encoder's forward under bfloat16 autocast, losses and weights in"
        " float32; about twice as fast on a CPU with AVX-512 BF16; a different recipe, labelled -bf16).",
        known=("precision", "idiomkit.training.precision:PRECISIONS"),
    )


@dataclass
class TrainState:
    """Where training stands: resumable position and model-selection bookkeeping."""

    step: int = 0
    phase: int = 0
    epoch: int = 0  # epoch within the phase
    batch: int = 0  # next batch index within ``epoch``
    epochs_done: int = 0  # over all phases
    best: float | None = None
    best_step: int | None = None
    bad_evals: int = 0
    stopped: bool = False
    train_s: float = 0.0  # seconds spent in training steps, summed over resumed sessions
    history: list[dict[str, Any]] = field(default_factory=list)


def option_ranges(cls: type = TrainConfig) -> dict[str, Range]:
    """The ``range`` of every option that has one (``--epochs`` >= 1, ``--dropout`` in [0, 1), ...)."""
    return {f.name: f.metadata["range"] for f in fields(cls) if "range" in f.metadata}


def check_options(cfg: TrainConfig) -> None:
    """A one-line ``OptionError`` for an unknown recipe (or query mode), an option out of its ``range`` (the CLI
    refuses the same at parse time; ``None`` passes where the field is optional) or a keep term that keeps nothing
    (distance ``none`` without a relational weight), before any data or model loads."""
    check_known(cfg)
    check_ranges(cfg)
    if cfg.keep_weight > 0 and cfg.keep_distance == "none" and not cfg.keep_relational:
        raise OptionError("keep distance 'none' keeps nothing without a relational weight (--keep-relational)")
