"""How far training moved a model's space from its base's: each sentence's own drift and the batch drawing together.

    python benchmarks/analysis/drift.py runs/reproduce/flagship-v2-mpnet-keepcos10-bf16-seed0 --base mpnet

embeds ``--sentences`` STS-B *train* sentences (first column, a fixed sample; training data, not a held-out split)
with the trained model (its saved idiom reader in front) and with its untrained base (no reader), and prints:

- ``self_cos``: mean cosine of each sentence's trained and base embeddings (what a keep term holds);
- ``pair_cos_base`` / ``pair_cos_trained``: mean cosine between *different* sentences, base and trained: a rise
  is the space drawing together (anisotropy), which shrinks margins measured on raw cosines (Xiao's I/D margin);
- ``pair_mse``: mean squared change of those pairwise cosines (what ``--keep-relational`` penalises, there on the
  keep batch).

The numbers are appended to ``drift.json`` beside this script, keyed by the model folder.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

OUT = Path(__file__).with_name("drift.json")


def sample(data_dir: Path, n: int, seed: int) -> list[str]:
    """``n`` distinct first-column sentences of STS-B train, picked by a seeded generator."""
    with open(data_dir / "sts" / "stsb_multi_mt" / "stsb-en-train.csv", encoding="utf-8", newline="") as fh:
        first = sorted({row[0] for row in csv.reader(fh) if row})
    picked = np.random.default_rng(seed).choice(len(first), size=min(n, len(first)), replace=False)
    return [first[i] for i in sorted(picked)]


def drift(trained: np.ndarray, base: np.ndarray) -> dict[str, float]:
    """The module docstring's numbers from two row-aligned, unit-length embedding matrices."""
    off = ~np.eye(len(base), dtype=bool)
    pair_base, pair_trained = (base @ base.T)[off], (trained @ trained.T)[off]
    return {
        "self_cos": round(float((trained * base).sum(1).mean()), 4),
        "pair_cos_base": round(float(pair_base.mean()), 4),
        "pair_cos_trained": round(float(pair_trained.mean()), 4),
        "pair_mse": round(float(((pair_trained - pair_base) ** 2).mean()), 5),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="a trained model folder")
    parser.add_argument("--base", required=True, help="its untrained base (a registry name)")
    parser.add_argument("--sentences", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()

    import torch

    from idiomkit.models import load_model
    from idiomkit.settings import run_data_dir

    torch.set_num_threads(1)
    texts = sample(run_data_dir(args.data_dir), args.sentences, args.seed)
    embedded = [
        load_model(name).encode(texts, normalize_embeddings=True, batch_size=32) for name in (args.model, args.base)
    ]
    row = {"base": args.base, "sentences": len(texts), "seed": args.seed, **drift(*embedded)}
    print(json.dumps(row, indent=2))
    results = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    results[args.model] = row
    OUT.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
