"""The model card of a trained model (``README.md``): idiomkit's own top (front matter, title, what the model is and
under which terms), then its sections in a fixed order: the training (recipe, data hashes, validation, intended use),
the scorecard (:mod:`idiomkit.scorecard`, added when the model is scored) and the base model's model card as shipped.

Sentence-transformers saves a fine-tuned model with its base model's model card, so a run folder's README began as
``all-mpnet-base-v2``'s (title, usage loading the hub model, ``license: apache-2.0``) with idiomkit's part at the
bottom. The top is now idiomkit's, and the base card is kept whole under :data:`BASE_HEADING` (its front matter
shown as a YAML block, its headings two levels down). Each part is rewritten in place: training again rewrites the
top and the training section, scoring again the scorecard section; sentence-transformers keeps the card as it is
when the model is loaded and saved again (centring, interpolation).
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from idiomkit.data.errors import DataError
from idiomkit.models.registry import get_spec
from idiomkit.results import atomic_write_text
from idiomkit.training.recipes import RECIPES, Recipe

TRAINING_HEADING = "## idiomkit training"
SCORECARD_HEADING = "## idiomkit scorecard"
BASE_HEADING = "## The base model's card"
SECTIONS = (TRAINING_HEADING, SCORECARD_HEADING, BASE_HEADING)  # their order in the card
MARKER = "<!-- idiomkit model card: its top and sections are rewritten by idiomkit -->"
_SECTION = re.compile("^(" + "|".join(re.escape(h) for h in SECTIONS) + r")\b", re.M)
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def card_sections(text: str) -> tuple[str, dict[str, str]]:
    """``text``'s top (what comes before its first idiomkit section) and its sections, each from its heading line
    to the next section's."""
    starts = [m.start() for m in _SECTION.finditer(text)]
    ends = [*starts[1:], len(text)] if starts else []
    sections = {_SECTION.match(text, a).group(1): text[a:b].strip("\n") for a, b in zip(starts, ends, strict=True)}
    return text[: starts[0] if starts else len(text)], sections


def base_card_section(text: str) -> str:
    """A base model's card as a section of the trained model's: its front matter (licence, datasets) shown as a
    YAML block, its headings two levels down (outside code blocks)."""
    front = _FRONT_MATTER.match(text)
    lines, fenced = [], False
    for line in text[front.end() if front else 0 :].strip("\n").splitlines():
        fenced ^= line.lstrip().startswith("```")
        heading = not fenced and re.match(r"#{1,4} ", line)
        lines.append("##" + line if heading else line)
    intro = "The card the base model shipped with, kept as it was (headings two levels down)."
    if front:
        yaml = front.group(0).strip("\n").removeprefix("---\n").removesuffix("\n---")
        intro = intro.removesuffix(".") + f"; its front matter:\n\n```yaml\n{yaml}\n```"
    return f"{BASE_HEADING}\n\n{intro}\n\n" + "\n".join(lines)


def write_card_section(out: Path, section: str, top: str | None = None) -> Path:
    """Put ``section`` (it starts with one of :data:`SECTIONS`) into ``out/README.md`` in its place. With ``top``,
    the card's top becomes ``top``, and a top that was not idiomkit's (the base model's card) moves under
    :data:`BASE_HEADING` first."""
    card = out / "README.md"
    old_top, sections = card_sections(card.read_text(encoding="utf-8") if card.exists() else "")
    if top is not None and MARKER not in old_top and old_top.strip() and BASE_HEADING not in sections:
        sections[BASE_HEADING] = base_card_section(old_top)
    heading = _SECTION.match(section)
    if heading is None:
        raise ValueError(f"a model card section starts with one of {SECTIONS}, not {section[:40]!r}")
    sections[heading.group(1)] = section.strip("\n")
    parts = [(top if top is not None else old_top or "# idiomkit model\n").strip("\n")]
    return atomic_write_text(card, "\n\n".join(parts + [sections[h] for h in SECTIONS if h in sections]) + "\n")


def write_model_card(out: Path, info: dict[str, Any]) -> Path:
    """Write ``out/README.md``'s top and training section from ``info`` (a run's ``training.json``)."""
    return write_card_section(out, model_card_section(info), card_top(info))


def check_card_record(path: Path, info: dict[str, Any]) -> None:
    """Refuse (one-line DataError naming ``path``, a run's ``training.json``) a record the model card cannot be
    written from: an unknown recipe, a missing field. A verb that derives a model from a run checks this before
    any work, so that it never leaves a saved model without its ``training.json``."""
    recipe = info.get("recipe")
    if not isinstance(recipe, str) or recipe not in RECIPES:
        raise DataError(path, None, "recipe", f"unknown recipe {recipe!r} (known: {', '.join(RECIPES)})")
    try:
        card_top(info)
        model_card_section(info)
    except KeyError as exc:
        raise DataError(path, None, str(exc.args[0]), "missing (a run made by `idiomkit train` records it)") from None
    except (TypeError, IndexError, AttributeError) as exc:
        raise DataError(path, None, None, f"not a complete run record ({type(exc).__name__}: {exc})") from None


def card_top(info: dict[str, Any]) -> str:
    """idiomkit's top of a trained model's card: front matter, title, the base model and the terms of use."""
    model = info["config"]["model"]
    spec = get_spec(model)
    base = f"`{model}` ({spec.title})" if spec else f"`{model}`"
    return "\n".join(
        [
            "---",
            "library_name: sentence-transformers",
            "pipeline_tag: sentence-similarity",
            "license: other",
            "tags:",
            "- sentence-transformers",
            "- sentence-similarity",
            "- idiomkit",
            "- idioms",
            "---",
            MARKER,
            "",
            f"# {info['label']}",
            "",
            f"{base} trained by idiomkit with the recipe `{info['label']}` (seed {info['config']['seed']}, "
            f"{info['steps']} steps): how it was trained and selected, its sources and its scores are below. Terms "
            "of use: both the base model's licence (in its card, the last section) and those of the training "
            "sources apply to these weights, hence `license: other`.",
        ]
    )


INTENDED_USE = (
    "research on idiom-aware sentence similarity and retrieval (SemEval-2022 Task 2B-style STS, IdioLink-style "
    "search) in the languages of its training data; not evaluated outside these benchmarks' domains and "
    "languages, and not meant for decisions about people"
)


def length_text(info: dict[str, Any]) -> str:
    """The training truncation and the length the saved model reads (its base model's), e.g. "trained at 64
    tokens (max_seq_length); reads up to 512"."""
    text = f"trained at {info['config']['max_seq_length']} tokens (max_seq_length)"
    reads = info.get("reads_max_seq_length")  # absent from older runs (saved at the training length)
    return f"{text}; reads up to {reads}" if reads else text


def recipe_options_text(recipe: Recipe, cfg: dict[str, Any]) -> str:
    """``; its own options: miner_margin 0.4, ...`` (the recipe's options as recorded; empty when it has none)."""
    own = [f"{f.name} {cfg[f.name]}" for f in fields(recipe.options) if f.name in cfg]
    return f"; its own options: {', '.join(own)}" if own else ""


def model_card_section(info: dict[str, Any]) -> str:
    """The idiomkit part of the model card: recipe, data hashes, validation metrics and intended use."""
    cfg, recipe = info["config"], RECIPES[info["recipe"]]
    last = info["validation"][-1] if info["validation"] else {}
    mix = info.get("interpolation")
    lines = [
        TRAINING_HEADING,
        "",
        f"- Recipe: `{info['label']}` (see `idiomkit.training.recipes`; pooling {cfg['pooling']}; MWE tokens "
        f"{'on' if cfg['mwe_tokens'] else 'off'}; LoRA rank {cfg['lora_rank'] or 'none (full fine-tuning)'}"
        f"{recipe_options_text(recipe, cfg)})",
        f"- Base model: `{cfg['model']}`; epochs {cfg['epochs']}, batch size {cfg['batch_size']} sentences, "
        f"lr {cfg['lr']}, warmup {cfg['warmup']}, {length_text(info)}, seed {cfg['seed']}; steps {info['steps']}",
        f"- Data sha256: {info['data_sha256']}; counts {info['counts']}",
        f"- Validation ({recipe.validation}): best "
        f"{info['best']['metric']} = {info['best']['value']} at step {info['best'].get('step')}; last {last}",
        *([f"- Interpolation: alpha {mix['alpha']} from `{mix['from']}` ({mix['rule']})"] if mix else []),
        f"- Intended use: {INTENDED_USE}.",
        "",
        *(recipe.card_lines() if recipe.card_lines else []),
    ]
    return "\n".join(lines)
