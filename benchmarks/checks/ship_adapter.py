"""Ship a LoRA run's best delta as an idiom-aware model's adapter, with the embeddings it gives recorded beside it.

    python benchmarks/checks/ship_adapter.py runs/reproduce/flagship-v2-lora-me5-small-enpt-seed0 --name me5-idioms

Copies the run's ``best-adapter/`` (checked: every shard's sha256, :func:`idiomkit.models.shipped.read_adapter`)
to ``src/idiomkit/models/resources/adapters/<name>/`` with the run's model card (``README.md``: how it was trained,
its sources and their licences, its scorecard), then applies it to its base as ``load_model`` does and
records, in ``embeddings.json`` there, the embeddings of :data:`SENTENCES` by the encoder alone (no reader: what
the adapter changes, whatever the reader's version): the test suite loads the shipped model and compares to 1e-4.
It also prints the largest difference from the run's own merged model (``best/``, fp32 weights: the fp16 adapter
differs from it by rounding) and the size of every file. A folder already there is left alone unless
``--replace`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

SENTENCES = [
    "After years of illness, the old farmer finally kicked the bucket.",
    "He spilled the beans about the surprise party.",
    "The weather is nice today.",
    "Ela abriu o jogo com o chefe.",
    "O gato dormiu no sofá a tarde toda.",
]
EMBEDDINGS_FILE = "embeddings.json"


def without_reader(model):
    """``model``'s modules after its idiom reader, as a model of their own."""
    from sentence_transformers import SentenceTransformer

    from idiomkit.idioms.reader import IdiomReader

    return SentenceTransformer(modules=[m for m in model if not isinstance(m, IdiomReader)], device="cpu")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a LoRA training run with best-adapter/ and best/")
    parser.add_argument("--name", required=True, help="the adapter folder's name (a SHIPPED entry's adapter)")
    parser.add_argument("--replace", action="store_true", help="replace an adapter folder already there")
    args = parser.parse_args()

    from idiomkit.models import load_model
    from idiomkit.models.shipped import ADAPTERS, apply_adapter, read_adapter
    from idiomkit.results import atomic_write_text

    source = args.run / "best-adapter"
    record, _ = read_adapter(source)
    target = ADAPTERS / args.name
    if target.exists() and not args.replace:
        raise SystemExit(f"error: {target} exists (--replace to write over it)")
    staging = target.with_name(target.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name in ["adapter.json", *record["files"]]:
        shutil.copyfile(source / name, staging / name)
    shutil.copyfile(args.run / "README.md", staging / "README.md")  # the run's model card: sources, licences, scores
    shipped = without_reader(apply_adapter(load_model(record["base"]), staging)).encode(SENTENCES)
    trained = without_reader(load_model(str(args.run / "best"))).encode(SENTENCES)
    data = {
        "sentences": SENTENCES,
        "embeddings": [[round(float(x), 7) for x in row] for row in shipped],
        "encoder": "the base with the adapter merged, no reader",
        "max_abs_diff_from_run": float(np.abs(shipped - trained).max()),
    }
    atomic_write_text(staging / EMBEDDINGS_FILE, json.dumps(data) + "\n")
    if target.exists():
        shutil.rmtree(target)
    staging.rename(target)
    sizes = {p.name: p.stat().st_size for p in sorted(target.iterdir())}
    print(
        json.dumps(
            {"adapter": str(target), "run": record["run"], "files": sizes}
            | {"max_abs_diff_from_run": data["max_abs_diff_from_run"]},
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
