"""Train the cross-encoder sense check (sense check v2), ship it and record its numbers.

Selection rule (fixed before the run): the checkpoint (validated every 200 steps and at the end of the 2 epochs)
and the threshold (0.05..0.95) with the highest mean per-source macro-F1 on the validation idioms carved from the
training sources (15% of idioms by hash); ties go to the earlier step. Added on 2026-12-07, after the first
retrained model's 2A dev numbers had been seen (their curve showed the single threshold fitted to the English
sources): each language then gets its own threshold by the same rule on its own validation samples (English: ITU,
mt-ambiguity, EPIE formal and 2A train EN; Portuguese: 2A train PT). 2A dev (zero-shot, unseen idioms) is scored
once, with the chosen model; re-running on a finished training folder only recomputes the thresholds and the
numbers.

    .venv/bin/python benchmarks/sense/sense_check_encoder.py --output runs/sense-encoder [--data-dir ../shared/data]

Writes the model to ``src/idiomkit/idioms/resources/sense_encoder.json`` (+ ``.safetensors``), the numbers to
``benchmarks/sense/sense_check_encoder.json`` and the 2A dev predictions beside them (gzipped JSON lines).
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import time
from pathlib import Path

from idiomkit.idioms.sense_encoder import ENCODER_RESOURCE
from idiomkit.idioms.sense_encoder_training import EncoderTrainOptions, train_encoder_sense_check
from idiomkit.results import atomic_write_text, git_commit
from idiomkit.settings import run_data_dir

OUT = Path(__file__).with_name("sense_check_encoder.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--output", type=Path, required=True, help="training folder (checkpoints; resumes)")
    parser.add_argument("--model-out", type=Path, default=ENCODER_RESOURCE)
    for name, value in vars(EncoderTrainOptions()).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    options = EncoderTrainOptions(**{k: getattr(args, k) for k in vars(EncoderTrainOptions())})
    start = time.perf_counter()
    check, report = train_encoder_sense_check(run_data_dir(args.data_dir), args.output, options)
    check.save(args.model_out)
    report["train_s"] = round(time.perf_counter() - start, 1)
    report["commit"] = git_commit()
    atomic_write_text(OUT, json.dumps(report, indent=1) + "\n")
    with gzip.open(OUT.with_name("sense_check_encoder_dev_predictions.jsonl.gz"), "wt", encoding="utf-8") as f:
        f.write((args.output / "dev_predictions.jsonl").read_text(encoding="utf-8"))
    print(json.dumps({"selected": report["selected"], "2A dev": report["evaluation"]["2A dev"]}, indent=1))


if __name__ == "__main__":
    main()
