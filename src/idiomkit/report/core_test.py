"""The core test card by card: for each plain-track scorecard, the accuracy on idioms held out
from every training source (English and Portuguese apart) and on seen idioms, each with its 95 % bootstrap interval
over idioms (``accuracy_ci95``, :mod:`idiomkit.tasks.meaning_triples`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from idiomkit.report.scorecard import CORE_BLOCK, full_cards, old_reader_mark, titled_table

# (column, the core test's group)
CORE_GROUPS = (
    ("held-out EN", "heldout_EN"),
    ("held-out PT", "heldout_PT"),
    ("held-out", "heldout"),
    ("seen", "seen"),
    ("seen, lookup-free", "seen_lookup_free"),
)


def interval_cell(block: dict[str, Any], usual_n: int | None) -> str:
    """``0.787 [0.743, 0.830]``, with the number of triples when it differs from the column's usual one."""
    low, high = block["accuracy_ci95"]
    cell = f"{block['accuracy']:.3f} [{low:.3f}, {high:.3f}]"
    return cell if block["n"] == usual_n else f"{cell} (n = {block['n']})"


def core_test_rows(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The table (header first): a row per plain-track card scored on the current core test (its groups carry an
    interval), sorted by model, recipe and seed; each heading names its group's usual size (triples, idioms)."""
    cards = [
        (model, recipe + old_reader_mark(recs), rec)
        for (model, recipe), recs in sorted(full_cards(results, "plain").items())
        for rec in sorted(recs, key=lambda r: r["seed"])
        if "accuracy_ci95" in ((rec["metrics"].get(CORE_BLOCK) or {}).get("heldout") or {})
    ]
    if not cards:
        return []
    headings, usual = [], {}
    for column, group in CORE_GROUPS:
        blocks = [rec["metrics"][CORE_BLOCK].get(group) or {} for *_, rec in cards]
        sizes = Counter((b["n"], b.get("idioms")) for b in blocks if b.get("n"))
        (n, idioms), _ = sizes.most_common(1)[0] if sizes else ((None, None), 0)
        usual[group] = n
        headings.append(f"{column} ({n} triples, {idioms} idioms)" if n else column)
    lines = ["| model | recipe | seed | " + " | ".join(headings) + " |", "|" + "---|" * (len(CORE_GROUPS) + 3)]
    for model, recipe, rec in cards:
        core = rec["metrics"][CORE_BLOCK]
        cells = [
            interval_cell(core[group], usual[group]) if (core.get(group) or {}).get("n") else ""
            for _, group in CORE_GROUPS
        ]
        lines.append(f"| {model} | {recipe} | {rec['seed']} | " + " | ".join(cells) + " |")
    return lines


def core_test_section(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The core test table under a heading, with what each cell means."""
    return titled_table(
        "The core test card by card, with 95 % intervals (plain track)",
        core_test_rows(results),
        "The core test: for an idiomatic sentence, its figurative paraphrase must be nearer than its literal "
        "misreading. Each cell: the accuracy and its 95 % bootstrap interval (resamples of whole idioms, so the "
        "sentences of one idiom move together), for idioms held out from every training source and from the "
        "scoring lexicon (English, Portuguese, both) and for idioms seen in training; *lookup-free*: the seen triples "
        "whose paraphrase a lookup in the model's lexicon does not reproduce (which triples those are depends on "
        "the lexicon, so their number varies by row). One row per card and seed: "
        "`idiomkit evaluate all -m MODEL` prints the same table for any model.",
    )
