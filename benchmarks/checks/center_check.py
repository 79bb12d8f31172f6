"""Does centring (``idiomkit center``) undo a trained model's drawn-together space, and leave its base alone?

    python benchmarks/checks/center_check.py runs/reproduce/flagship-v2-mpnet-keepcos10-bf16-seed0 --base mpnet

For the trained model (its saved idiom reader in front) and its untrained base (no reader), each as it is and
centred on the reference ``idiomkit center`` uses (:func:`idiomkit.training.center.reference_sentences`: 1,000 STS
train sentences of the base's languages, seed 0), prints:

- ``xiao_margin`` / ``xiao_mrr``: the Xiao I/D margin and definition MRR on the held-out idioms (as the scorecard's
  Xiao block computes them: primary definitions, negatives of seed 0);
- ``stsb_test``: Spearman's rho on STS-B test (EN);
- ``pair_cos``: the mean cosine between different reference sentences (the drawn-together space of
  ``benchmarks/analysis/drift.py``; centred, it falls below 0 by construction).

Evaluation only, on held-out splits, after the reference and its size were fixed: nothing here is chosen. The rows
are appended to ``center_check.json`` beside this script, keyed by the model folder.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

OUT = Path(__file__).with_name("center_check.json")


def unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def scores(encode, mean: np.ndarray | None, ids, pairs, reference: np.ndarray) -> dict[str, float]:
    """The module docstring's numbers for one model (``encode``: texts -> unit rows), centred on ``mean`` or not."""
    from scipy.stats import spearmanr

    from idiomkit.metrics.retrieval import mrr_and_recall, ranks_of_truth

    def embed(texts):
        out = encode(texts)
        return out if mean is None else unit(out - mean)

    texts = sorted({t for p in ids for t in (p.anchor, p.positive, p.negative)})
    index = {t: i for i, t in enumerate(texts)}
    emb = embed(texts)
    anchor, positive, negative = (emb[[index[getattr(p, f)] for p in ids]] for f in ("anchor", "positive", "negative"))
    first, second = embed([p.sentence_1 for p in pairs]), embed([p.sentence_2 for p in pairs])
    ref = reference if mean is None else unit(reference - mean)
    cos = ref @ ref.T
    return {
        "xiao_margin": round(float(((anchor * positive).sum(1) - (anchor * negative).sum(1)).mean()), 4),
        "xiao_mrr": round(float(mrr_and_recall(ranks_of_truth(anchor, positive))["mrr"]), 4),
        "stsb_test": round(float(spearmanr((first * second).sum(1), [p.score for p in pairs])[0]), 4),
        "pair_cos": round(float(cos[~np.eye(len(ref), dtype=bool)].mean()), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="a trained model folder")
    parser.add_argument("--base", required=True, help="its untrained base (a registry name)")
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()

    import torch

    from idiomkit.data.definitions import id_pairs, load_idiom_data
    from idiomkit.data.sts import load_sts
    from idiomkit.embedding.encode import query_prompt_name
    from idiomkit.models import load_model
    from idiomkit.settings import run_data_dir
    from idiomkit.training.center import reference_sentences, reference_sources

    torch.set_num_threads(1)
    data_dir = run_data_dir(args.data_dir)
    ids = id_pairs(load_idiom_data(data_dir).split("heldout"), seed=0, all_definitions=False)
    pairs = load_sts(data_dir, "test", ("stsb-en",))
    texts = reference_sentences(data_dir, reference_sources(args.base), args.sentences, 0)
    row: dict[str, object] = {"base": args.base, "reference_sentences": len(texts)}
    for name, source in (("trained", args.model), ("base", args.base)):
        model = load_model(source)
        prompt_name = query_prompt_name(model)  # as the scorecard encodes (e5: "query: ")

        def encode(batch, model=model, prompt_name=prompt_name):
            return model.encode(list(batch), normalize_embeddings=True, batch_size=32, prompt_name=prompt_name)

        reference = encode(texts)
        mean = reference.mean(0)
        for mode, centre in (("as_is", None), ("centred", mean)):
            row[f"{name}_{mode}"] = scores(encode, centre, ids, pairs, reference)
            print(name, mode, row[f"{name}_{mode}"], flush=True)
    results = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    results[args.model] = row
    OUT.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
