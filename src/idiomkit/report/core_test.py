"""The core test scorecard by scorecard: for each plain-track scorecard on the current core test, the accuracy of
every column with its 95 % bootstrap interval over idioms (``accuracy_ci95``, :mod:`idiomkit.tasks.meaning_triples`),
and the shortcut controls beside every column (:mod:`idiomkit.tasks.core_controls`): a column is a headline only while
both controls stay between .45 and .55 (within .05 of chance, either way); and the control-balanced accuracy of the
human-written held-out columns (the triples weighted so both controls score .5), the number no such shortcut reaches.

Columns: held-out EN and PT (idioms held out from every training stream, paraphrase and misreading written by
people: the headline), held-out PIE (the WordNet misreadings the misreading stream trains on: a diagnostic, the
same construction as training), seen (seen idioms in sentences no stream trains or validates on, lookup-equal
triples left out) and lookup-equal (apart: they grade the lexicon against itself).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from idiomkit.report.scorecard import CORE_BLOCK, full_scorecards, old_reader_mark, stale_core, titled_table

# (column, the core test's group)
CORE_GROUPS = (
    ("held-out EN, human-written", "heldout_EN"),
    ("held-out PT, human-written", "heldout_PT"),
    ("held-out, human-written", "heldout"),
    ("held-out PIE (diagnostic: same construction as training)", "heldout_pie"),
    ("seen (unseen sentences)", "seen"),
    ("lookup-equal", "lookup_equal"),
)
CONTROL_NAMES = (("bow", "bag of inserted words"), ("length_overlap", "length/overlap rule"))
# (column, group) whose control-balanced accuracy the scorecard-by-scorecard table adds
BALANCED_GROUPS = (
    ("held-out EN, control-balanced", "heldout_EN"),
    ("held-out PT, control-balanced", "heldout_PT"),
)


def balanced_cell(block: dict[str, Any]) -> str:
    """``0.530 [0.431, 0.627] (n_eff 103)`` from a group's ``controls.balanced`` (empty when absent)."""
    balanced = (block.get("controls") or {}).get("balanced") or {}
    if not balanced:
        return ""
    return f"{interval_cell(balanced)} (n_eff {balanced['n_eff']:.0f})"


def interval_cell(block: dict[str, Any], usual_n: int | None = None, key: str = "accuracy") -> str:
    """``0.787 [0.743, 0.830]``, with the number of triples when it differs from the column's usual one."""
    low, high = block[f"{key}_ci95"]
    cell = f"{block[key]:.3f} [{low:.3f}, {high:.3f}]"
    return cell if usual_n is None or block["n"] == usual_n else f"{cell} (n = {block['n']})"


def status(block: dict[str, Any]) -> str:
    """``headline`` or ``no headline`` from a group's controls (empty without them)."""
    controls = block.get("controls") or {}
    if not controls:
        return ""
    return "headline" if controls.get("headline") else "no headline"


def controls_rows(core: dict[str, Any], rule: str | None = None) -> list[list[str]]:
    """Rows (header first) per core-test column of one scorecard (``core``: its ``meaning-triples`` metrics): its
    triples, accuracy, each control with its interval (``rule``: the length/overlap rule's name), the opposite
    rule's score and the column's headline status; no rows without a column."""
    rule_name = f"length/overlap rule ({rule})" if rule else "length/overlap rule"
    rows = [["column", "triples (idioms)", "accuracy", "control: bag of inserted words", f"control: {rule_name}"]]
    rows[0] += ["opposite rule", "status", "control-balanced accuracy"]
    for column, group in CORE_GROUPS:
        block = core.get(group) or {}
        if not block.get("n"):
            continue
        controls = block.get("controls") or {}
        cells = [column, f"{block['n']} ({block.get('idioms', '')})", interval_cell(block)]
        cells += [interval_cell(controls, key=name) if controls else "" for name, _ in CONTROL_NAMES]
        cells += [f"{controls['reversed']:.3f}" if controls else "", status(block), balanced_cell(block)]
        rows.append(cells)
    return rows if len(rows) > 1 else []


def controls_lines(core: dict[str, Any], rule: str | None = None) -> list[str]:
    """:func:`controls_rows` as a markdown table."""
    rows = controls_rows(core, rule)
    if not rows:
        return []
    return ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])] + [
        "| " + " | ".join(r) + " |" for r in rows[1:]
    ]


def control_rule(params: dict[str, Any] | None) -> str | None:
    """The length/overlap rule a scorecard's core-test block was scored with (its params), None when absent."""
    block = ((params or {}).get("blocks") or {}).get(CORE_BLOCK) or {}
    return (block.get("controls") or {}).get("length_overlap_rule")


def scorecard_controls_lines(metrics: dict[str, Any], params: dict[str, Any] | None = None) -> list[str]:
    """The core-test table of one scorecard (:func:`controls_lines`) under a heading, for the scorecard's markdown
    beside its JSON and the command line; nothing without a current core-test block."""
    lines = controls_lines(metrics.get(CORE_BLOCK) or {}, control_rule(params))
    if not lines:
        return []
    note = (
        "A column is a headline only while both controls (choosers that know no idioms, fitted on the training "
        "rows) stay between .45 and .55 (a control far below chance is the same shortcut the other way round: "
        "the opposite rule); the control-balanced accuracy weights the column's triples so both controls score "
        ".5 (n_eff: the effective number of triples)."
    )
    return ["## The core test, with its shortcut controls", "", *lines, "", note]


def core_test_rows(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The table (header first): a row per plain-track scorecard on the current core test, sorted by model, recipe and
    seed; each heading names its group's usual size (triples, idioms)."""
    cards = [
        (model, recipe + old_reader_mark(recs), rec)
        for (model, recipe), recs in sorted(full_scorecards(results, "plain").items())
        for rec in sorted(recs, key=lambda r: r["seed"])
        if rec["metrics"].get(CORE_BLOCK) and not stale_core(rec)
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
    headings += [column for column, _ in BALANCED_GROUPS]
    lines = ["| model | recipe | seed | " + " | ".join(headings) + " |", "|" + "---|" * (len(headings) + 3)]
    for model, recipe, rec in cards:
        core = rec["metrics"][CORE_BLOCK]
        cells = [
            interval_cell(core[group], usual[group]) if (core.get(group) or {}).get("n") else ""
            for _, group in CORE_GROUPS
        ]
        cells += [balanced_cell(core.get(group) or {}) for _, group in BALANCED_GROUPS]
        lines.append(f"| {model} | {recipe} | {rec['seed']} | " + " | ".join(cells) + " |")
    return lines


def controls_table(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The controls of every column (:func:`controls_lines`) as the first current scorecard has them (they know no
    model: the same on every scorecard, but for the seen and lookup-equal columns, whose split follows each scorecard's
    lexicon)."""
    for (_, _), recs in sorted(full_scorecards(results, "plain").items()):
        for rec in recs:
            if rec["metrics"].get(CORE_BLOCK) and not stale_core(rec):
                return controls_lines(rec["metrics"][CORE_BLOCK], control_rule(rec["params"]))
    return []


def core_test_section(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """The core test table under a heading, with what each cell means, then its shortcut controls."""
    table = titled_table(
        "The core test scorecard by scorecard, with 95 % intervals (plain track)",
        core_test_rows(results),
        "The core test: for an idiomatic sentence, its figurative paraphrase must be nearer than its literal "
        "misreading. Each cell: the accuracy and its 95 % bootstrap interval (resamples of whole idioms, so the "
        "sentences of one idiom move together). *Held-out, human-written*: idioms held out from every training "
        "stream and from the scoring lexicon, the paraphrase and the misreading written by people (NCS, AStitch); "
        "a headline while its controls stay between .45 and .55. *Control-balanced*: the same triples weighted so "
        "that both controls score exactly .5 (raking), the accuracy no idiom-blind shortcut reaches, with n_eff the "
        "effective number of triples the weighting leaves. *Held-out PIE*: held-out idioms with idiomkit's "
        "WordNet misreadings, the construction the misreading stream trains on: a diagnostic, never a target. "
        "*Seen*: idioms the training streams see, in sentences no stream trains or validates on, lookup-equal "
        "triples left out; *lookup-equal*: triples whose paraphrase a lookup in the model's lexicon reproduces "
        "(which they are depends on the lexicon, so their number varies by row). One row per scorecard and seed: "
        "`idiomkit evaluate all -m MODEL` prints the same columns for any model.",
    )
    controls = titled_table(
        "The core test's shortcut controls",
        controls_table(results),
        "Two choosers that know no idioms, fitted only on the misreading stream's training rows: a logistic "
        "regression on the words each candidate inserts into the sentence, and the length/overlap rule (shorter, "
        "longer, less or more word overlap with the sentence) that does best on those rows, its direction fixed "
        "there. A column is a headline only while both stay between .45 and .55: the opposite rule shows what the "
        "same cue buys the other way round (a raw cosine favours the candidate that shares more words, and where "
        "people wrote the literal reading it keeps the sentence's words). The control-balanced accuracy is the "
        "model's number on each column with the controls held at .5.",
    )
    return table + controls
