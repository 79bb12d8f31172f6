"""``idiomkit read`` on long texts (issue #42.5): seconds per text size, which must grow linearly with the matches.

usage: python benchmarks/speed/read_speed.py [--sizes 24 48 97] [--repeats 3] [--mode replace] [--sense default|none]

Reads a generated English text of each size in KB (short idiomatic sentences, about 950 idioms per 24 KB, some
in literal use) with :func:`idiomkit.read` (the shipped lexicon and sense check), times it (median of
``--repeats``, after one warm-up read that builds the lexicon's matcher), prints a markdown table of size ->
seconds, idioms found and rewritten, and writes ``benchmarks/speed/read_speed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

from idiomkit.idioms.sense import default_sense_check
from idiomkit.idioms.sources import default_lexicon
from idiomkit.reader_api import read

OUT = Path(__file__).with_name("read_speed.json")

SENTENCES = (
    "She finally kicked the bucket.",
    "The test was a piece of cake.",
    "His joke broke the ice.",
    "Break a leg!",
    "We are all in the same boat.",
    "It costs an arm and a leg.",
    "She hit the nail on the head.",
    "Call it a day.",
    "Once in a blue moon we meet.",
    "We burned the midnight oil.",
    "The fisherman literally kicked the bucket over.",
    "Ele é um pão duro.",
    "That's the last straw.",
    'He said "break the ice" twice.',
    "Break a leg, kick the bucket!",
    "The pond ice broke the ice axe.",
    "In 2024 it was a piece of cake (really).",
    "Piece of cake, call it a day.",
    "Kick the bucket.",
    "Piece of cake!",
    "Break the ice.",
)
NAMES = ("Ann", "Bob", "Carla", "Dev", "Eun-ji", "Farid", "Gus", "Hana")


def sample_text(kb: float) -> str:
    """``kb`` KB (1,024 characters) of the sentences in turn, every eighth one after a name (more words: a
    sense check's bag of words grows with the text), cut at the last whole sentence."""
    size, parts, total, i = int(kb * 1024), [], 0, 0
    while True:
        sentence = SENTENCES[i % len(SENTENCES)]
        if i % 8 == 7:
            sentence = f"{NAMES[(i // 8) % len(NAMES)]}{i} says: {sentence}"
        if total + len(sentence) + 1 > size:
            return " ".join(parts)
        parts.append(sentence)
        total += len(sentence) + 1
        i += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=float, nargs="+", default=[24, 48, 97])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--mode", default="replace")
    parser.add_argument("--sense", default="default", help="default | none")
    args = parser.parse_args()
    lexicon = default_lexicon()
    sense = default_sense_check() if args.sense == "default" else None
    read("She kicked the bucket.", args.mode, lexicon, sense)  # warm-up
    rows = []
    for kb in args.sizes:
        text = sample_text(kb)
        times, reading = [], None
        for _ in range(args.repeats):
            start = time.perf_counter()
            reading = read(text, args.mode, lexicon, sense)
            times.append(time.perf_counter() - start)
        rewritten = sum(f.figurative for f in reading.found)
        rows.append(
            {
                "kb": kb,
                "characters": len(text),
                "idioms": len(reading.found),
                "rewritten": rewritten,
                "seconds": round(statistics.median(times), 3),
            }
        )
    lines = [
        f"`idiomkit read` (API `read`), mode {args.mode}, sense {args.sense}, median of {args.repeats}, "
        f"{os.cpu_count()} CPU(s), Python {platform.python_version()}",
        "",
        "| KB | characters | idioms | rewritten | seconds |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['kb']:g} | {r['characters']} | {r['idioms']} | {r['rewritten']} | {r['seconds']:.3f} |" for r in rows
    ]
    print("\n".join(lines))
    info = {
        "mode": args.mode,
        "sense": args.sense,
        "repeats": args.repeats,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "rows": rows,
    }
    OUT.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
