"""The idiomkit section of a trained model's card (``README.md``): recipe, data hashes, validation and intended use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from idiomkit.results import atomic_write_text
from idiomkit.training.recipes import RECIPES


def write_model_card(out: Path, info: dict[str, Any]) -> Path:
    """Replace the idiomkit section of ``out/README.md`` (the library's card is kept above it)."""
    card = out / "README.md"
    text = card.read_text(encoding="utf-8") if card.exists() else "# idiomkit model\n"
    return atomic_write_text(
        card, text.split("\n## idiomkit training\n")[0].rstrip() + "\n\n" + model_card_section(info)
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
    reads = info.get("reads_max_seq_length")  # absent from runs trained before #44 (saved at the training length)
    return f"{text}; reads up to {reads}" if reads else text


def model_card_section(info: dict[str, Any]) -> str:
    """The idiomkit part of the model card: recipe, data hashes, validation metrics and intended use."""
    cfg, recipe = info["config"], RECIPES[info["recipe"]]
    last = info["validation"][-1] if info["validation"] else {}
    mix = info.get("interpolation")
    lines = [
        "## idiomkit training",
        "",
        f"- Recipe: `{info['label']}` (see `idiomkit.training.recipes`; miner margin {cfg['miner_margin']}, "
        f"loss margin {cfg['margin']}, miner distance {cfg['miner_distance']} for the adaptive triplet loss; "
        f"pooling {cfg['pooling']}; MWE tokens {'on' if cfg['mwe_tokens'] else 'off'}; "
        f"LoRA rank {cfg['lora_rank'] or 'none (full fine-tuning)'})",
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
