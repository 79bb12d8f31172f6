"""Sentences/s and quality of the torch, ONNX and dynamic-int8 ONNX backends of one model (issue #9 item 3).

usage: python benchmarks/speed/encode_speed_backends.py [--model runs/adaptive-triplet-minilm-2ep-seed1] [--repeats 3]
Exports the model once (``idiomkit.models.onnx_backend.export_onnx``) into ``runs/onnx/<name>``, then times
``encode`` on the unique SemEval 2B dev sentences (backends interleaved) and scores 2B dev (idiom Spearman,
MWE tokens as the model was trained) and IdioLink test (sentence queries, nDCG@10) with each backend.
Target: >= 2x the torch sentences/s with <= 0.01 drop in idiom Spearman and nDCG@10 (fraction, not percent).
Writes ``benchmarks/speed/encode_speed_backends.{md,json}`` for the default model, ``encode_speed_backends_<name>``
for another. A model with the idiom reader in front (a shipped one: ``--model me5-idioms --pooling mean``) keeps it
in every backend, reading with the evaluation lexicon (the held-out idioms of 2B dev and IdioLink
test are not in them), so the reader's time is in every row.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

from idiomkit.data.semeval2022 import load_subtask_b  # noqa: E402
from idiomkit.idioms.reader import model_reader  # noqa: E402
from idiomkit.models import load_model, resolve_name  # noqa: E402
from idiomkit.models.onnx_backend import export_onnx, load_onnx_model  # noqa: E402
from idiomkit.results import atomic_write_text, git_commit  # noqa: E402
from idiomkit.scorecard.run import scoring_lexicon  # noqa: E402
from idiomkit.settings import default_data_dir  # noqa: E402
from idiomkit.tasks import get_task  # noqa: E402

BACKENDS = ("torch", "onnx", "onnx-int8")
DEFAULT_MODEL = "runs/adaptive-triplet-minilm-2ep-seed1"


def for_scoring(model, data_dir: Path):
    """``model`` with its idiom reader, if it has one, reading with the evaluation lexicon, as the scorecard swaps
    it in (:func:`~idiomkit.scorecard.run.scoring_lexicon`)."""
    reader = model_reader(model)
    return model if reader is None else scoring_lexicon(model, reader, data_dir, {})


def quality(model, data_dir: Path, mwe_tokens: bool) -> dict[str, float]:
    b2 = get_task("semeval2b").evaluate(model, data_dir=data_dir, show_progress_bar=False, mwe_tokens=mwe_tokens)
    il = get_task("idiolink").evaluate(
        model, data_dir=data_dir, show_progress_bar=False, query_mode="sentence", use_cache=False
    )
    return {"2b_idiom": b2.metrics["ALL"]["idiom"], "idiolink_ndcg10": il.metrics["ndcg@10"] / 100}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=DEFAULT_MODEL)
    parser.add_argument("--pooling", default="last2")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--no-quality", action="store_true")
    args = parser.parse_args()
    data_dir = default_data_dir()
    info_path = Path(args.model) / "training.json"
    mwe_tokens = bool(json.loads(info_path.read_text())["config"]["mwe_tokens"]) if info_path.exists() else False
    torch_model = for_scoring(load_model(args.model, pooling=args.pooling, device="cpu"), data_dir)
    export_dir = Path("runs/onnx") / resolve_name(args.model)
    if not (export_dir / "onnx" / "model_qint8.onnx").exists():
        start = time.perf_counter()
        export_onnx(torch_model, export_dir)
        print(f"exported in {time.perf_counter() - start:.1f} s -> {export_dir}")
    models = {"torch": torch_model, **{b: for_scoring(load_onnx_model(export_dir, b), data_dir) for b in BACKENDS[1:]}}
    split = load_subtask_b(data_dir, "dev")
    texts = list(dict.fromkeys([p.sentence1 for p in split.pairs] + [p.sentence2 for p in split.pairs]))
    for m in models.values():
        m.encode(texts[:64], batch_size=args.batch_size)  # warm-up
    times: dict[str, list[float]] = {b: [] for b in BACKENDS}
    outputs = {}
    for _ in range(args.repeats):  # interleaved so machine noise is spread evenly
        for name, m in models.items():
            start = time.perf_counter()
            outputs[name] = m.encode(texts, batch_size=args.batch_size, convert_to_numpy=True)
            times[name].append(time.perf_counter() - start)
    scores = {} if args.no_quality else {name: quality(m, data_dir, mwe_tokens) for name, m in models.items()}
    base = statistics.median(times["torch"])
    rows = []
    for name in BACKENDS:
        med = statistics.median(times[name])
        cos = (outputs[name] * outputs["torch"]).sum(1) / (
            np.linalg.norm(outputs[name], axis=1) * np.linalg.norm(outputs["torch"], axis=1)
        )
        rows.append(
            {
                "backend": name,
                "median_s": med,
                "sentences_per_s": len(texts) / med,
                "speedup": base / med,
                "min_cosine_vs_torch": float(cos.min()),
                **scores.get(name, {}),
            }
        )
    command = "python " + " ".join(
        ["benchmarks/speed/encode_speed_backends.py", "--model", args.model, "--pooling", args.pooling]
        + ["--repeats", str(args.repeats)]
        + (["--no-quality"] if args.no_quality else [])
    )
    header = (
        f"{len(texts)} unique 2B dev sentences, model `{args.model}` (pooling {args.pooling}), batch "
        f"{args.batch_size}, torch/onnxruntime threads {torch.get_num_threads()}, median of {args.repeats}; "
        f"commit {git_commit()}"
    )
    lines = [
        f"`{command}`",
        "",
        header,
        "",
        "| backend | median s | sentences/s | speed-up | min cos vs torch | 2B dev idiom ρ | IdioLink nDCG@10 |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        q = [f"{r[k]:.4f}" if k in r else "—" for k in ("2b_idiom", "idiolink_ndcg10")]
        lines.append(
            f"| {r['backend']} | {r['median_s']:.2f} | {r['sentences_per_s']:.1f} | {r['speedup']:.2f}× | "
            f"{r['min_cosine_vs_torch']:.4f} | {q[0]} | {q[1]} |"
        )
    text = "\n".join(lines) + "\n"
    print("\n" + text)
    stem = "encode_speed_backends" + ("" if args.model == DEFAULT_MODEL else f"_{resolve_name(args.model)}")
    here = Path(__file__).parent
    atomic_write_text(here / f"{stem}.md", text)
    payload = {"command": command, "header": header, "rows": rows, "times": times}
    atomic_write_text(here / f"{stem}.json", json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
