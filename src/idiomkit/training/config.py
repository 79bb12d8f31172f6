"""What defines a training run: :class:`TrainConfig`, the options every recipe shares, and the base of each recipe
family's own options (:class:`RecipeOptions`, declared in :mod:`idiomkit.training.recipe_options`).

Each field carries its help text and allowed values in ``field(metadata=...)`` (the keys of
:mod:`idiomkit.options`: ``help``, ``range``, ``known``, ``short``, ``flag``, ``off``, ``path``, ``cli``), and, when
a run label may name it, ``label``: the suffix it adds when its value is not the default (a format of the value,
``"-dropout{:g}"``; for a bool, the suffix when true; or a function of the whole config). Which labelled fields a
recipe's label names, and in which order, its options class says (:attr:`RecipeOptions.LABEL`). The
``idiomkit train`` flags (:func:`idiomkit.training.recipe_options.train_options`), the range checks of the Python
API (:func:`check_options`), the ``[train]`` table of an experiment file (``reproduce.schema.TrainRun``) and the
run label (:func:`idiomkit.training.recipes.run_label`) are all generated from these declarations. A run records
its shared options and its recipe's (:meth:`TrainConfig.record`), in field order: append new fields, never reorder.

Nothing here imports torch: the command line reads this module to build its flags (``known`` names a registry by
``"module:attribute"``, imported only when a value is checked).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from idiomkit.options import Range, check_known, check_ranges, default_of

RECIPE_HELP = (
    "Recipe. SemEval 2B: adaptive-triplet, adaptive-triplet-sts, triplet, mnrl, cosent, cosent-sts, contrastive, "
    "contrastive-sts, cosine, ynu. IdioLink: idiolink-infonce, idiolink-mnrl, idiolink-adaptive-triplet, "
    "idiolink-infonce-index, idiolink-infonce-meaning. Idiom/definition pairs: "
    "pairs-<contrastive|triplet|cosine|mnrl|adaptive-triplet>-<id|sp|idsp>. Flagship: flagship, flagship-v2, "
    "flagship-v2-student and their leave-one-out rows."
)


def opt(default: Any, help: str = "", **meta: Any) -> Any:  # noqa: A002 - the metadata key is ``help``
    """A training option: its default and :mod:`idiomkit.options` metadata (and ``label``, module docstring)."""
    return field(default=default, metadata={"help": help, **meta})


def dedup_label(value: bool, config: Mapping[str, Any]) -> str:
    """``-dedup`` after the held-out dedup, ``-dedup-sentences`` when it dropped held-out sentences only."""
    return ("-dedup" if config["dedup_idioms"] else "-dedup-sentences") if value else ""


@dataclass
class TrainConfig:
    """What every recipe shares, and ``options``: the recipe family's own (a :class:`RecipeOptions`; None until
    the run's config is made, :func:`idiomkit.training.recipes.train_config`). A run records both
    (:meth:`record`: checkpoints, ``run_config.json``, ``training.json``, the model card)."""

    recipe: str = opt("adaptive-triplet", RECIPE_HELP, known=("recipe", "idiomkit.training.recipes:RECIPES"))
    model: str = opt("minilm", "Base model: registry name or directory.", short="m")
    # 10: also IdioLink's budget in the paper (Hashiloni et al., Table 3); an IdioLink label names another
    epochs: int = opt(10, range=Range(1), label="-ep{}")
    batch_size: int = opt(64, range=Range(1))  # sentences per step (a pair loss sees batch_size // 2 pairs)
    lr: float = opt(2e-5, range=Range(0, low_open=True))
    warmup: float = opt(0.1, "Warmup: fraction of steps (<1) or steps.", range=Range(0))
    weight_decay: float = opt(0.01, range=Range(0), cli=False)
    max_grad_norm: float = opt(1.0, range=Range(0, low_open=True), cli=False)
    max_seq_length: int = opt(128, range=Range(8))
    seed: int = opt(0)
    mwe_tokens: bool = opt(True)
    pooling: str = opt(
        "last2",
        "Sentence pooling: last2 (mean of the last two layers, He & Scarton) or mean (the model's own).",
        known=("pooling", "idiomkit.embedding:POOLINGS"),
        label="-pool-{}",
    )
    batching: str = opt("length", cli=False)  # "length": group-aware length buckets; "in-order": consecutive rows
    lora_rank: int | None = opt(
        None, "Train LoRA adapters of this rank (merged on save).", range=Range(1), label="-lora"
    )
    dropout: float | None = opt(
        None,
        "Dropout probability in [0, 1) (default: the model's own; 0 is faster).",
        range=Range(0, 1, high_open=True),
        label="-dropout{:g}",
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
        label=dedup_label,
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
    precision: str = opt(
        "fp32",
        "Training precision: fp32, or bf16 (the encoder's forward under bfloat16 autocast, losses and weights in"
        " float32; about twice as fast on a CPU with AVX-512 BF16; a different recipe, labelled -bf16).",
        known=("precision", "idiomkit.training.precision:PRECISIONS"),
        label="-{}",
    )
    options: RecipeOptions | None = field(default=None, metadata={"cli": False})

    def record(self) -> dict[str, Any]:
        """The run's config as recorded: every shared option, then the recipe's own (in field order)."""
        shared = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "options"}
        return {**shared, **(asdict(self.options) if self.options is not None else {})}


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


def label_order(*family: str) -> tuple[str, ...]:
    """The fields a run label names, in order: LoRA, then ``family`` (the recipe's own, or a shared field only its
    label names), then dropout and precision."""
    return ("lora_rank", *family, "dropout", "precision")


@dataclass
class RecipeOptions:
    """A recipe family's own options (a recipe without any has these: none). Subclasses declare their fields with
    :func:`opt` (the flags, checks and experiment fields follow) and :attr:`LABEL`, the fields their run label
    names, shared ones included, in order."""

    LABEL: ClassVar[tuple[str, ...]] = label_order()

    def check(self) -> None:
        """Refuse, in one line, what the fields' ranges cannot say (a subclass's combinations)."""


def label_suffix(f: Any, config: Mapping[str, Any]) -> str:
    """What field ``f`` adds to a run label for ``config`` (a run's recorded options; module docstring)."""
    rule: str | Callable[[Any, Mapping[str, Any]], str] = f.metadata["label"]
    value = config.get(f.name, default_of(f))
    if callable(rule):
        return rule(value, config)
    return "" if value is None or value == default_of(f) else rule.format(value)


def option_ranges(cls: type = TrainConfig) -> dict[str, Range]:
    """The ``range`` of every option that has one (``--epochs`` >= 1, ``--dropout`` in [0, 1), ...)."""
    return {f.name: f.metadata["range"] for f in fields(cls) if "range" in f.metadata}


def check_options(cfg: TrainConfig) -> None:
    """A one-line ``OptionError`` for an unknown recipe (or pooling, precision...), an option out of its ``range``
    (the CLI refuses the same at parse time; ``None`` passes where the field is optional), or what the recipe's own
    options refuse (:meth:`RecipeOptions.check`), before any data or model loads."""
    for options in (cfg, cfg.options) if cfg.options is not None else (cfg,):
        check_known(options)
        check_ranges(options)
    if cfg.options is not None:
        cfg.options.check()
