"""Does the STS validation carved from STS train see what training does to general similarity? (issue #44)

The training recipes carve their STS validation from STS-B / ASSIN 2 *train* by pair
(:func:`idiomkit.training.recipes.base.sts_split`), and train on the other pairs. STS-B repeats sentences across
pairs, so a validation sentence can also be a training sentence. This script counts that overlap and scores each
model (Spearman's ρ of cosine vs gold) on all validation pairs and on the pairs whose two sentences occur in no
training pair; with ``--mix``, also the weights mixed between the first two models (θ = (1 − α)·first + α·second,
the encoder's weights only, as WiSE-FT; the first model's other modules: its pooling, no reader) at each ratio.
The models are encoded as loaded (a saved idiom reader included). Prints a table and writes
``benchmarks/checks/sts_validation_overlap.json``.

    .venv/bin/python benchmarks/checks/sts_validation_overlap.py me5-small-enpt \
        runs/reproduce/flagship-v2-me5-small-enpt-seed0 runs/reproduce/flagship-v2-me5-small-enpt-seed1 --mix
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
from pathlib import Path

from idiomkit.idioms.reader import encoder_module
from idiomkit.models import load_model
from idiomkit.results import atomic_write_text
from idiomkit.tasks.sts import StsEvaluator
from idiomkit.training.config import TrainConfig
from idiomkit.training.interpolate import mix_weights
from idiomkit.training.recipes.base import sts_split

OUT = Path(__file__).with_name("sts_validation_overlap.json")
RATIOS = (0.0, 0.25, 0.5, 0.75, 1.0)


def sentences(pairs) -> set[str]:
    return {s for p in pairs for s in (p.sentence_1, p.sentence_2)}


def rho(model, pairs) -> float:
    """Spearman's ρ of cosine vs gold (the training's STS validation evaluator; each distinct sentence once)."""
    return round(StsEvaluator(pairs)(model)["val_sts"], 4)


def mixed_scores(first, second, sets: dict[str, list]) -> list[dict]:
    """ρ of ``first`` with its encoder's weights mixed towards ``second``'s at each ratio (``interpolate``'s mix)."""
    encoder, tuned = encoder_module(first).auto_model, encoder_module(second).auto_model
    start = copy.deepcopy(encoder)
    rows = []
    for alpha in RATIOS:
        encoder.load_state_dict(mix_weights(start, tuned, alpha))
        rows.append({"alpha": alpha, **{name: rho(first, pairs) for name, pairs in sets.items()}})
    encoder.load_state_dict(start.state_dict())
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="+", help="registry names or model directories")
    parser.add_argument("--mix", action="store_true", help="also mix the first two models' encoder weights")
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    train, val = sts_split(TrainConfig(recipe="flagship-v2", model="me5-small-enpt", data_dir=args.data_dir))
    seen = sentences(train)
    unseen = [p for p in val if p.sentence_1 not in seen and p.sentence_2 not in seen]
    sets = {"all": val, "unseen sentences": unseen}
    overlap = {
        "train_pairs": len(train),
        "val_pairs": len(val),
        "val_sentences": len(sentences(val)),
        "val_sentences_in_train": len(sentences(val) & seen),
        "val_pairs_unseen_sentences": len(unseen),
    }
    models = [load_model(name) for name in args.models]
    scores = [
        {"model": name, **{k: rho(m, pairs) for k, pairs in sets.items()}}
        for name, m in zip(args.models, models, strict=True)
    ]
    mix = mixed_scores(models[0], models[1], sets) if args.mix and len(models) > 1 else []
    print("overlap: " + ", ".join(f"{k} {v}" for k, v in overlap.items()))
    print(f"\n| model | ρ all ({len(val)}) | ρ unseen sentences ({len(unseen)}) |\n|---|---|---|")
    for row in scores:
        print(f"| {row['model']} | {row['all']:.4f} | {row['unseen sentences']:.4f} |")
    if mix:
        print(f"\n| α ({args.models[0]} → {args.models[1]}) | ρ all | ρ unseen sentences |\n|---|---|---|")
        for row in mix:
            print(f"| {row['alpha']} | {row['all']:.4f} | {row['unseen sentences']:.4f} |")
    out = {
        "command": " ".join(
            ["benchmarks/checks/sts_validation_overlap.py", *args.models] + (["--mix"] if args.mix else [])
        )
    }
    out |= {"overlap": overlap, "scores": scores, "mix": mix}
    atomic_write_text(OUT, json.dumps(out, indent=1) + "\n")
    print(f"\nwrote {OUT}")


if __name__ == "__main__":
    main()
