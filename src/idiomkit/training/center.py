"""Centre a trained run's embeddings on a reference sample of its training text (:mod:`idiomkit.embedding.center`).

The reference is ordinary text the recipes train on, never a held-out split: distinct sentences of the STS *train*
pairs in the base model's languages (STS-B for English, ASSIN 2 for Portuguese, the sample split evenly between
them), a fixed sample (``seed``). The centred model is saved with the run's modules (its idiom reader first) and a
``training.json`` whose label gains ``-center``, so its scorecards sit in their own row beside the run's.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import numpy as np

from idiomkit.data.errors import DataError
from idiomkit.data.sts import load_sts
from idiomkit.embedding.center import add_centering, mean_embedding
from idiomkit.embedding.encode import query_prompt_name
from idiomkit.errors import OptionError
from idiomkit.models import load_model
from idiomkit.models.registry import get_spec
from idiomkit.results import atomic_write_text
from idiomkit.training.interpolate import run_info
from idiomkit.training.model_card import check_card_record, write_model_card
from idiomkit.training.recipes import METHOD_SUFFIXES, run_label
from idiomkit.training.run_dir import MADE_BY, check_derived_output, derived_output, made_by

log = logging.getLogger("idiomkit.training")

CENTER_SUFFIX = METHOD_SUFFIXES["center"]
SOURCE_OF_LANGUAGE = {"en": "stsb-en", "pt": "assin2"}


def reference_sources(model_name: str) -> tuple[str, ...]:
    """The STS sources in ``model_name``'s languages (a registry model; English for any other)."""
    spec = get_spec(Path(model_name).name)
    languages = spec.languages if spec else ("en",)
    return tuple(SOURCE_OF_LANGUAGE[lang] for lang in ("en", "pt") if lang in languages)


def reference_sentences(data_dir: Path, sources: tuple[str, ...], n: int, seed: int) -> list[str]:
    """``n`` distinct sentences of the STS train pairs of ``sources`` (as evenly split as ``n`` allows), each
    source's share drawn by a seeded generator from its sorted sentences."""
    if n < 1:
        raise OptionError(f"sentences must be >= 1, got {n}")
    rng = np.random.default_rng(seed)
    picked: list[str] = []
    for i, source in enumerate(sources):
        pool = sorted({t for p in load_sts(data_dir, "train", (source,)) for t in (p.sentence_1, p.sentence_2)})
        share = n // len(sources) + (1 if i < n % len(sources) else 0)
        chosen = rng.choice(len(pool), size=min(share, len(pool)), replace=False)
        picked += [pool[j] for j in sorted(chosen)]
    return picked


def center_run(
    run_dir: str | Path, output_dir: str | Path, data_dir: str | Path, *, sentences: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """Save ``run_dir``'s model centred on :func:`reference_sentences` to ``output_dir`` (+ ``training.json``, its
    label with :data:`CENTER_SUFFIX`, and the model card); returns that ``training.json``. ``output_dir`` is never
    ``run_dir`` nor a folder holding another run (:func:`~idiomkit.training.run_dir.derived_output`), and is
    locked while the model is written."""
    run_dir, output_dir = Path(run_dir), Path(output_dir)
    info = run_info(run_dir)  # before any model loads
    label = centered_label(run_dir, info)
    check_derived_output(run_dir, output_dir, "center")  # before the reference is read
    texts = reference_sentences(Path(data_dir), reference_sources(info["config"]["model"]), sentences, seed)
    with derived_output(run_dir, output_dir, "center"):
        return save_centered(run_dir, output_dir, info, label, texts, seed)


def centered_label(run_dir: Path, info: dict[str, Any]) -> str:
    """The centred model's label: the run's own (or its recipe's) with :data:`CENTER_SUFFIX`; a ``training.json``
    without a label, a recipe or a base model name is refused in one line before any work."""
    path, cfg = run_dir / "training.json", info["config"]
    if not isinstance(cfg.get("model"), str):
        raise DataError(path, None, "config.model", "missing or not a string: the base model names the reference")
    check_card_record(path, info)  # the recipe is known and the model card can be written
    label = info.get("label")
    return (label if isinstance(label, str) else run_label(info["recipe"], cfg)) + CENTER_SUFFIX


def save_centered(run_dir: Path, output_dir: Path, info: dict[str, Any], label: str, texts: list[str], seed: int):
    """Centre ``run_dir``'s model on ``texts`` and save it with its ``training.json`` (``info`` as ``label``)."""
    sources = reference_sources(info["config"]["model"])
    model = load_model(str(run_dir), device="cpu")
    prompt_name = query_prompt_name(model)  # as the scorecard encodes (its prompt "auto")
    mean = mean_embedding(model, texts, prompt_name=prompt_name)
    add_centering(model, mean)
    model.save(str(output_dir))
    info["label"] = label
    info[MADE_BY] = made_by("center", run_dir)
    info["centering"] = {
        "from": str(run_dir),
        "reference": [f"{s} train" for s in sources],
        "sentences": len(texts),
        "seed": seed,
        "prompt_name": prompt_name,
        "mean_norm": round(float(np.linalg.norm(mean)), 4),
    }
    atomic_write_text(output_dir / "training.json", json.dumps(info, indent=2) + "\n")
    write_model_card(output_dir, info)
    log.info("centred %s on %d reference sentences -> %s", run_dir, len(texts), output_dir)
    return info
