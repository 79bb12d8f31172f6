"""Maps of held-out idioms, definitions, sentences and paraphrases (Xiao et al. Figures 1-3, on held-out idioms):
openTSNE and UMAP, coloured by kind, with a labelled zoom on 10 idioms; zero-shot vs the best trained model.

    python benchmarks/analysis/xiao_maps.py                     # best = highest validation margin among runs/xiao/*
    python benchmarks/analysis/xiao_maps.py runs/xiao/pairs-mnrl-id__seed0

Writes ``benchmarks/analysis/xiao/{tsne,umap}-<model>.png`` and ``benchmarks/analysis/xiao/maps.json`` (which models,
which idioms).
The best model is chosen by the validation idioms' ``val_margin`` in its ``training.json``, never by held-out.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

OUT = Path("benchmarks/analysis/xiao")
SENTENCES_PER_IDIOM = 2
ZOOM = 10
COLOURS = {"idiom": "tab:blue", "definition": "tab:orange", "sentence": "tab:green", "paraphrase": "tab:red"}


def best_run(root: Path = Path("runs/xiao")) -> Path | None:
    """The trained run with the highest validation margin (training.json ``best.value``)."""
    scored = []
    for info in root.glob("*/training.json"):
        best = json.loads(info.read_text(encoding="utf-8")).get("best", {})
        if best.get("metric") == "val_margin" and best.get("value") is not None:
            scored.append((best["value"], info.parent))
    return max(scored)[1] if scored else None


def points(data_dir: Path):
    """(text, kind, idiom key) for every held-out idiom with sentences, and the 10 zoom keys."""
    from idiomkit.data.definitions import load_idiom_data, sp_pairs

    idioms = [i for i in load_idiom_data(data_dir).split("heldout") if i.pairs]
    rows = []
    for i in idioms:
        rows += [(i.text, "idiom", i.key), (i.definition, "definition", i.key)]
    for p in sp_pairs(idioms, seed=0, per_idiom=SENTENCES_PER_IDIOM):
        rows += [(p.anchor, "sentence", p.key), (p.positive, "paraphrase", p.key)]
    zoom = sorted(i.key for i in idioms)[:: max(1, len(idioms) // ZOOM)][:ZOOM]
    return rows, zoom


def layouts(emb):
    import numpy as np
    import umap
    from openTSNE import TSNE

    tsne = np.asarray(TSNE(metric="cosine", n_jobs=1, random_state=0).fit(emb))
    um = umap.UMAP(metric="cosine", random_state=0, n_jobs=1).fit_transform(emb)
    return {"tsne": tsne, "umap": um}


def plot(xy, rows, zoom: list[str], title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(16, 7.5))
    for kind, colour in COLOURS.items():
        idx = [i for i, r in enumerate(rows) if r[1] == kind]
        left.scatter(xy[idx, 0], xy[idx, 1], s=6, c=colour, label=kind, alpha=0.6)
    left.legend(markerscale=3)
    left.set_title(f"{title}: held-out idioms, all points")
    cmap = plt.get_cmap("tab10")
    for n, key in enumerate(zoom):
        idx = [i for i, r in enumerate(rows) if r[2] == key]
        for i in idx:
            kind = rows[i][1]
            marker = {"idiom": "*", "definition": "s", "sentence": "o", "paraphrase": "^"}[kind]
            right.scatter(xy[i, 0], xy[i, 1], c=[cmap(n)], marker=marker, s=90 if kind == "idiom" else 40)
            if kind == "idiom":
                right.annotate(rows[i][0][:30], xy[i], fontsize=8, xytext=(4, 4), textcoords="offset points")
        pairs = [(a, b) for a in idx for b in idx if (rows[a][1], rows[b][1]) in (("idiom", "definition"),)]
        for a, b in pairs:
            right.plot([xy[a, 0], xy[b, 0]], [xy[a, 1], xy[b, 1]], c=cmap(n), lw=0.8, alpha=0.7)
    right.set_title("zoom: 10 idioms (* idiom, ■ definition, ● sentence, ▲ paraphrase; line idiom–definition)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str]) -> None:
    import torch

    from idiomkit.models import load_model
    from idiomkit.settings import default_data_dir
    from idiomkit.tasks.xiao_pairs import embed_unique

    torch.set_num_threads(1)
    best = Path(argv[0]) if argv else best_run()
    models = [("zero-shot", "minilm")] + ([(best.name.split("__")[0], str(best))] if best else [])
    rows, zoom = points(default_data_dir())
    made = []
    for label, source in models:
        emb, index = embed_unique(load_model(source), [r[0] for r in rows])
        emb = emb[[index[r[0]] for r in rows]]
        for method, xy in layouts(emb).items():
            path = OUT / f"{method}-{label}.png"
            plot(xy, rows, zoom, f"{method} {label}", path)
            made.append(str(path))
            print(path, flush=True)
    info = {
        "models": dict(models),
        "zoom_idioms": zoom,
        "points": len(rows),
        "files": made,
        "command": "python benchmarks/analysis/xiao_maps.py " + " ".join(argv),
    }
    (OUT / "maps.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
