"""Weight interpolation between the starting model and a fine-tuned one (keep what the base knew while learning
idioms; Wortsman et al. 2022, "Robust fine-tuning of zero-shot models").

``θ(α) = (1 − α)·θ_start + α·θ_tuned``. The start model gets the same MWE tokens as the run added (same order,
same mean-of-sub-token initial rows), so both have the same shapes. The ratio is chosen on held-in data only, never
on a benchmark: for the 2B and IdioLink recipes the train-carved 2B validation split (idiom) and STS-B / ASSIN 2 dev
(STS); for a recipe that builds its own setup (the flagship family) the recipe's own validation (``val_mean``: 2B
validation, STS carved from train, misreading triples and Xiao pairs of idioms held out of training and of the
reader's lexicon), the start model being the recipe's untrained model with its reader in front.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from idiomkit.data.csvio import JSON_TOO_DEEP
from idiomkit.data.errors import DataError
from idiomkit.embedding.mwe import add_mwe_tokens
from idiomkit.errors import InputError, OptionError
from idiomkit.models import load_model, load_sentence_transformer
from idiomkit.results import atomic_write_text
from idiomkit.tasks.sts import StsEvaluator
from idiomkit.training.checkpoints import at_base_length, base_length, set_training_length
from idiomkit.training.config import TrainConfig
from idiomkit.training.model_card import check_card_record, write_model_card
from idiomkit.training.recipe_options import recipe_fields
from idiomkit.training.recipes import RECIPES, config_from_record, run_label
from idiomkit.training.recipes.base import sts_validation_pairs
from idiomkit.training.recipes.flagship import STS_METRIC
from idiomkit.training.run_dir import MADE_BY, derived_output, made_by
from idiomkit.training.setup import load_groups, validation_evaluator

log = logging.getLogger("idiomkit.training")

DEFAULT_ALPHAS = (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass
class InterpolationPoint:
    alpha: float
    metrics: dict[str, float]


@dataclass
class Sweep:
    """What scores each ratio: the start model (weights mixed into it), the validation evaluators, the metric the
    ratio is chosen on and the STS metric whose drop from α = 0 is bounded."""

    start: Any
    evaluators: list[Any]
    primary: str = "val_idiom"
    sts: str = "val_sts"
    save_tuned_modules: bool = False  # save the tuned model's modules (e.g. its reader) with the mixed weights


def check_ratios(alphas, max_sts_drop: float) -> tuple[float, ...]:
    """The ratios as floats, each in [0, 1] (at least one), and ``max_sts_drop`` >= 0; else a one-line OptionError."""
    try:
        ratios = tuple(float(a) for a in alphas)
    except (TypeError, ValueError):
        raise OptionError(f"alphas: {list(alphas)!r} is not a list of numbers") from None
    if not ratios:
        raise OptionError("alphas: give at least one ratio in [0, 1]")
    outside = [a for a in ratios if not 0 <= a <= 1]
    if outside:
        raise OptionError(f"alphas: each ratio must be in [0, 1], got {outside[0]:g}")
    if not max_sts_drop >= 0:
        raise OptionError(f"max-sts-drop must be >= 0, got {max_sts_drop:g}")
    return ratios


def run_info(tuned_dir: Path) -> dict[str, Any]:
    """``training.json`` of a run made by ``idiomkit train`` (a one-line typed error naming the file otherwise)."""
    path = tuned_dir / "training.json"
    if not path.is_file():
        raise InputError(f"{tuned_dir}: not a run made by `idiomkit train` (no training.json)")
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(path, None, None, f"not valid JSON ({exc})") from None
    except RecursionError:
        raise DataError(path, None, None, JSON_TOO_DEEP) from None
    if not isinstance(info, dict) or not isinstance(info.get("config"), dict):
        raise DataError(path, None, None, "has no 'config' object")
    return info


def run_config_of(tuned_dir: Path) -> TrainConfig:
    """The run's :class:`TrainConfig` (a one-line DataError naming ``training.json`` for an unknown field or a
    recipe idiomkit does not know: checked before any work). A record of every family's options (made before the
    recipe options were split off) reads as its recipe's own (:func:`~idiomkit.training.recipes.config_from_record`)."""
    config = run_info(tuned_dir)["config"]
    path = tuned_dir / "training.json"
    unknown = sorted(set(config) - set(TrainConfig.__dataclass_fields__) - set(recipe_fields()))
    if unknown:
        raise DataError(path, None, None, f"config has unknown field(s) {', '.join(unknown)}")
    recipe = config.get("recipe", TrainConfig.recipe)
    if not isinstance(recipe, str) or recipe not in RECIPES:
        raise DataError(
            path,
            None,
            "config.recipe",
            f"unknown recipe {recipe!r}: cannot rebuild the run's start model (known: {', '.join(RECIPES)})",
        )
    return config_from_record(config)


def start_model(cfg: TrainConfig, groups: list) -> Any:
    """The run's starting model with the run's MWE tokens (those of ``groups``, its train + validation 2B groups)
    added exactly as training added them."""
    model = load_model(cfg.model, pooling=cfg.pooling, device="cpu")
    set_training_length(model, cfg.max_seq_length)
    if cfg.mwe_tokens:
        add_mwe_tokens(model, [m for g in groups for m in g.mwes])
    return model


def recipe_sweep(cfg: TrainConfig) -> Sweep:
    """The sweep of a recipe that builds its own setup: its untrained model (LoRA off: a tuned run is saved
    merged) and its validation, chosen on its selection metric."""
    cfg.lora_rank = None
    run = RECIPES[cfg.recipe].setup(cfg, load_groups)
    return Sweep(run.model, run.evaluators, run.primary, STS_METRIC, save_tuned_modules=True)


def architecture_difference(start, tuned) -> str | None:
    """How ``tuned``'s weights differ from ``start``'s in kind (names, or shapes other than the word-embedding rows
    that MWE tokens add), in a few words; None when only those rows differ (or nothing). A BERT pooler only
    ``tuned`` has is no difference (see :func:`mix_weights`)."""
    a, b = start.state_dict(), tuned.state_dict()
    only_start = sorted(a.keys() - b.keys())
    only_tuned = sorted(k for k in b.keys() - a.keys() if "pooler" not in k.split("."))
    if only_start or only_tuned:
        first = only_start[0] if only_start else only_tuned[0]
        return f"{len(only_start)} weight(s) only in the start model, {len(only_tuned)} only in the tuned one ({first})"
    for k in a:
        rows_only = "word_embeddings" in k and a[k].shape[1:] == b[k].shape[1:]
        if a[k].shape != b[k].shape and not rows_only:
            return f"{k} is {tuple(a[k].shape)} in the start model, {tuple(b[k].shape)} in the tuned one"
    return None


def mix_weights(start, tuned, alpha: float) -> dict[str, torch.Tensor]:
    """``(1 − α)·start + α·tuned`` for every floating-point tensor of ``start`` (others taken from ``tuned``).

    A BERT pooler that only ``tuned`` has is left out: transformers adds it, freshly initialised, when it reloads a
    saved model whose checkpoint has none (the converted e5 models), and sentence pooling never uses it."""
    a, b = start.state_dict(), tuned.state_dict()
    reload_only = {k for k in b.keys() - a.keys() if "pooler" in k.split(".")}
    if a.keys() != b.keys() - reload_only or any(a[k].shape != b[k].shape for k in a):
        why = architecture_difference(start, tuned) or "their MWE tokens differ"
        raise InputError(f"start and tuned models differ in architecture ({why}); cannot interpolate")
    return {k: torch.lerp(a[k], b[k], alpha) if a[k].is_floating_point() else b[k] for k in a}


def load_pair(tuned_dir: str | Path) -> tuple[Sweep, Any, TrainConfig]:
    """(the sweep: start model and validation, the fine-tuned model, the run's config)."""
    tuned_dir = Path(tuned_dir)
    cfg = run_config_of(tuned_dir)
    tuned = load_sentence_transformer(str(tuned_dir), device="cpu")
    if RECIPES[cfg.recipe].setup is not None:
        return recipe_sweep(cfg), tuned, cfg
    train, val, _ = load_groups(cfg)
    start = start_model(cfg, train + val)
    if why := architecture_difference(start, tuned):  # another base model: not a matter of MWE tokens
        raise InputError(
            f"{tuned_dir}: its architecture differs from its start model '{cfg.model}' (training.json's config.model): "
            f"{why}; cannot interpolate"
        )
    if start.tokenizer.get_added_vocab() != tuned.tokenizer.get_added_vocab():
        raise InputError(f"{tuned_dir}: its MWE tokens differ from the ones its training config adds")
    evaluators = [validation_evaluator(val, tuned, cfg.mwe_tokens), StsEvaluator(sts_validation_pairs(cfg))]
    return Sweep(start, evaluators), tuned, cfg


def interpolation_sweep(sweep: Sweep, tuned, alphas=DEFAULT_ALPHAS, *, on_point=None) -> list[InterpolationPoint]:
    """Validation metrics at each ratio; ``on_point(alpha, model)``. ``sweep.start`` holds its own weights again
    when the sweep returns."""
    start = sweep.start
    start_weights = {k: v.clone() for k, v in start.state_dict().items()}
    points = []
    for alpha in alphas:
        start.load_state_dict(start_weights)
        start.load_state_dict(mix_weights(start, tuned, alpha))
        metrics: dict[str, float] = {}
        for evaluator in sweep.evaluators:
            metrics.update(evaluator(start))
        log.info("alpha %.2f: %s", alpha, json.dumps(metrics))
        points.append(InterpolationPoint(alpha, metrics))
        if on_point:
            on_point(alpha, start)
    start.load_state_dict(start_weights)
    return points


def choose_alpha(
    points: list[InterpolationPoint], max_sts_drop: float = 0.03, primary: str = "val_idiom", sts: str = "val_sts"
) -> InterpolationPoint:
    """The ratio with the best ``primary`` validation score whose STS validation (``sts``) stays within
    ``max_sts_drop`` of α = 0."""
    base = min(points, key=lambda p: p.alpha).metrics[sts]
    ok = [p for p in points if p.metrics[sts] >= base - max_sts_drop] or [min(points, key=lambda p: p.alpha)]
    return max(ok, key=lambda p: p.metrics[primary])


def save_mixed(sweep: Sweep, tuned, alpha: float, output_dir: Path) -> None:
    """Save the model at ratio ``alpha``. A recipe with its own setup saves the tuned model's modules (its reader
    knows the shipped lexicon; the sweep's start model reads with the validation lexicon) with the mixed weights."""
    mixed = mix_weights(sweep.start, tuned, alpha)
    if not sweep.save_tuned_modules:
        sweep.start.load_state_dict(mixed)
        with at_base_length(sweep.start):  # the start model reads at the training length: saved at its base's
            sweep.start.save(str(output_dir))
        return
    missing, unexpected = tuned.load_state_dict(mixed, strict=False)
    if unexpected or any("pooler" not in k.split(".") for k in missing):
        raise InputError(f"start and tuned models differ in architecture ({(unexpected or missing)[0]})")
    with at_base_length(tuned, base_length(sweep.start)):  # an older run reads at its training length
        tuned.save(str(output_dir))


def interpolation_suffix(alphas: tuple[float, ...]) -> str:
    """The label suffix: ``-interp`` for a ratio chosen on validation, ``-wise<α>`` for one fixed ratio (nothing
    chosen, e.g. WiSE-FT's default 0.5)."""
    return f"-wise{alphas[0]:g}" if len(alphas) == 1 else "-interp"


def interpolation_rule(alphas: tuple[float, ...], sweep: Sweep, max_sts_drop: float) -> str:
    """How the ratio was set, in words (recorded in ``training.json`` and the model card)."""
    if len(alphas) == 1:
        return f"fixed alpha {alphas[0]:g} (not chosen on validation)"
    return f"max {sweep.primary} with {sweep.sts} >= {sweep.sts}(alpha=0) - {max_sts_drop}"


def interpolate_run(
    tuned_dir: str | Path, output_dir: str | Path, alphas=DEFAULT_ALPHAS, max_sts_drop: float = 0.03, on_point=None
) -> dict[str, Any]:
    """Sweep, choose the ratio on validation, save the interpolated model (+ ``training.json``) to ``output_dir``:
    never ``tuned_dir`` nor a folder holding another run (:func:`~idiomkit.training.run_dir.derived_output`), locked
    while the model is written. The run's ``training.json`` and recipe are checked before any model loads."""
    tuned_dir, output_dir = Path(tuned_dir), Path(output_dir)
    alphas = check_ratios(alphas, max_sts_drop)
    info = run_info(tuned_dir)  # before any model loads
    run_config_of(tuned_dir)  # its fields and recipe, too
    check_card_record(tuned_dir / "training.json", info)  # never a saved model without its training.json
    info["label"] = (info.get("label") or run_label(info["recipe"], info["config"])) + interpolation_suffix(alphas)
    with derived_output(tuned_dir, output_dir, "interpolate"):
        sweep, tuned, _ = load_pair(tuned_dir)
        points = interpolation_sweep(sweep, tuned, alphas, on_point=on_point)
        best = choose_alpha(points, max_sts_drop, sweep.primary, sweep.sts)
        save_mixed(sweep, tuned, best.alpha, output_dir)
        return record_interpolation(tuned_dir, output_dir, info, alphas, sweep, points, best, max_sts_drop)


def record_interpolation(tuned_dir, output_dir, info, alphas, sweep, points, best, max_sts_drop) -> dict[str, Any]:
    """Write the interpolated model's ``training.json`` (the run's, with the sweep and the chosen ratio) and model
    card."""
    info[MADE_BY] = made_by("interpolate", tuned_dir)
    info["interpolation"] = {
        "from": str(tuned_dir),
        "alpha": best.alpha,
        "primary": sweep.primary,
        "sts": sweep.sts,
        "rule": interpolation_rule(alphas, sweep, max_sts_drop),
        "sweep": [{"alpha": p.alpha, **p.metrics} for p in points],
    }
    info["best"] = {"metric": sweep.primary, "value": best.metrics[sweep.primary], "alpha": best.alpha}
    atomic_write_text(output_dir / "training.json", json.dumps(info, indent=2) + "\n")
    write_model_card(output_dir, info)
    return info
