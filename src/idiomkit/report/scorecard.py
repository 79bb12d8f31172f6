"""The scorecard tables (``idiomkit evaluate all`` scorecards): headline numbers, plain track first."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from idiomkit.data.meaning_triples import VERSION as CORE_TEST_VERSION
from idiomkit.idioms.version import READER_VERSION
from idiomkit.models.registry import REGISTRY
from idiomkit.report.experiments import (
    EXPERIMENT_NOTE,
    experiment_cell,
    experiments_beside,
    experiments_for,
    made_by_experiments,
)
from idiomkit.report.tables import RULES, mean_std, training_rule

# (column, block, path into the block's metrics): the headline numbers of a scorecard, in table order
HEADLINE: list[tuple[str, str, tuple[str, ...]]] = [
    ("2B idiom ρ", "semeval2b", ("ALL", "idiom")),
    ("2B STS ρ", "semeval2b", ("ALL", "sts")),
    ("2B all ρ", "semeval2b", ("ALL", "all")),
    ("IdioLink nDCG@10", "idiolink", ("sentence", "ndcg@10")),
    ("IdioLink nDCG@10 (gold span)", "idiolink", ("span", "ndcg@10")),
    ("2A F1 (probe)", "semeval2a", ("ALL", "macro_f1")),
    ("AdMIRe ρ (pool)", "admire", ("pool", "spearman")),
    ("AdMIRe top-1 (pool)", "admire", ("pool", "top1")),
    ("Xiao I/D margin", "xiao", ("id_margin",)),
    ("Xiao MRR", "xiao", ("mrr",)),
    ("core acc (held-out, balanced)", "meaning-triples", ("heldout", "controls", "balanced", "accuracy")),
    ("core acc (seen)", "meaning-triples", ("seen", "accuracy")),
    ("STS-B test ρ", "sts-guard", ("stsb-en",)),
    ("ASSIN 2 test ρ", "sts-guard", ("assin2",)),
]


Columns = Sequence[tuple[str, str, tuple[str, ...]]]  # (column, block, path) rows like HEADLINE's

# the AdMIRe pool columns split by how the item's sentence uses its compound (46 idiomatic items, 39 literal)
ADMIRE_BY_TYPE: Columns = [
    (f"AdMIRe {name} ({kind})", "admire", ("pool", kind, metric))
    for kind in ("idiomatic", "literal")
    for name, metric in (("ρ", "spearman"), ("top-1", "top1"))
]


def dig(metrics: dict[str, Any], block: str, path: tuple[str, ...]) -> float | None:
    """The number at ``metrics[block][path...]`` (None when the block or key is absent)."""
    value: Any = metrics.get(block)
    for part in path:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return float(value) if isinstance(value, int | float) else None


CORE_BLOCK = "meaning-triples"
OLD_CORE_MARK = "†"
OLD_CORE_NOTE = (
    f"{OLD_CORE_MARK}: scored on an earlier core test (before the held-out columns held human-written readings "
    "only), or a model trained before its held-out split: not comparable with the current core test; left out of "
    "every comparison and of the recommendation until the scorecard is run again (a trained model: trained again)."
)
CONTROL_MARK = "ᶜ"
CONTROL_NOTE = (
    f"{CONTROL_MARK}: not a headline: a shortcut control that knows no idioms (the bag of inserted words, or the "
    "length/overlap rule, both fitted on the training rows) scores above .55, or below .45 (the same shortcut the "
    "other way round), on this core-test column; the results pages' core-test table gives the controls beside "
    "every column. The control-balanced column holds both controls at .5, so it is never marked."
)


SHORT_READ_MARK = "‡"
SHORT_READ_NOTE = (
    f"{SHORT_READ_MARK}N: a trained model saved reading only its training length (runs saved before 2026-11-27), so "
    "scored on texts cut at N tokens; runs saved now read up to their base model's maximum (512 for me5-small-enpt)."
)


def short_read_mark(recs: Sequence[dict[str, Any]]) -> str:
    """``‡N`` when a trained model's scorecard was scored reading only its training length N (its training summary
    predates ``reads_max_seq_length``), else nothing."""
    for rec in recs:
        training = rec.get("params", {}).get("training")
        if training and "reads_max_seq_length" not in training:
            return f"{SHORT_READ_MARK}{(training.get('config') or {}).get('max_seq_length') or ''}"
    return ""


OLD_READER_MARK = "§"
OLD_READER_NOTE = (
    f"{OLD_READER_MARK}N: measured, or trained, with version N of the idiom reader (against the base: the row or "
    "its base; a row without a reader: its seen column, split from the lookup-equal triples by that version's "
    f"lexicon), older than the current one ({READER_VERSION}): its lexicon, matcher or sense check has changed "
    "since, so the row does not compare with the rows measured with the current reader until the scorecard is run "
    "again (a model trained with the older reader: trained again)."
)


def used_reader(params: dict[str, Any]) -> bool:
    """Whether a scorecard written before ``params.reader_version`` was measured with the idiom reader: put in front
    (``params.reader``: ``--reader``), found first in the model by the core test (its lookup lexicon is the
    reader's), or a flagship run, which trains with the reader and saves it (every flagship recipe but
    ``flagship-noreader``)."""
    core = (params.get("blocks") or {}).get(CORE_BLOCK)
    lookup = str(core.get("lookup_lexicon", "")) if isinstance(core, dict) else ""
    label = str((params.get("training") or {}).get("label") or "")
    flagship = label.startswith("flagship") and not label.startswith("flagship-noreader")
    return bool(params.get("reader")) or lookup.startswith("the reader's") or flagship


def reader_version(rec: dict[str, Any]) -> int | None:
    """The oldest version of the idiom reader a scorecard was measured with, None when no reader took part: the version
    at evaluation (``params.reader_version``) and, for a trained model, the version it trained with and keeps
    (``params.training.reader_version``: its lexicon was built then), when recorded, and the version whose evaluation
    lexicon split the core test's seen triples from the lookup-equal ones (``lookup_lexicon_version`` of the core-test
    block, recorded for a model without a reader). A scorecard written before ``params.reader_version`` is version 1
    when it used the reader (:func:`used_reader`)."""
    params = rec.get("params", {})
    evaluated = params["reader_version"] if "reader_version" in params else 1 if used_reader(params) else None
    trained = (params.get("training") or {}).get("reader_version")
    core = (params.get("blocks") or {}).get(CORE_BLOCK)
    lookup = core.get("lookup_lexicon_version") if isinstance(core, dict) else None
    versions = [version for version in (evaluated, trained, lookup) if version is not None]
    return min(versions) if versions else None


def old_reader_mark(recs: Sequence[dict[str, Any]]) -> str:
    """``§N`` when one of a configuration's scorecards was measured with an idiom reader older than
    :data:`~idiomkit.idioms.version.READER_VERSION` (N the oldest), else nothing."""
    old = [version for rec in recs if (version := reader_version(rec)) is not None and version < READER_VERSION]
    return f"{OLD_READER_MARK}{min(old)}" if old else ""


def old_core_test(metrics: dict[str, Any]) -> bool:
    """Whether a scorecard's core test is an earlier one: it has a core-test block without the diagnostic PIE column
    (``heldout_pie``, which every scorecard of the current core test has, with the controls beside each column)."""
    core = metrics.get(CORE_BLOCK)
    return isinstance(core, dict) and "heldout_pie" not in core


def trained_before_split(params: dict[str, Any]) -> bool:
    """Whether a scorecard's model was trained with an earlier held-out split than the current core test's (its
    training record lacks ``core_test_version`` or names an older one): its held-out numbers may rest on idioms it
    trained on."""
    training = params.get("training")
    return bool(training) and (training.get("core_test_version") or 0) < CORE_TEST_VERSION


def scored_before(params: dict[str, Any]) -> bool:
    """Whether a scorecard's core test was scored with an earlier construction (its block's recorded
    ``core_test_version`` is older than the current one)."""
    block = (params.get("blocks") or {}).get(CORE_BLOCK) or {}
    version = block.get("core_test_version")
    return isinstance(version, int) and version < CORE_TEST_VERSION


def stale_core(rec: dict[str, Any]) -> bool:
    """Whether a scorecard's core-test numbers compare with nothing current (:func:`old_core_test`,
    :func:`scored_before`, :func:`trained_before_split`)."""
    params = rec.get("params", {})
    return old_core_test(rec["metrics"]) or scored_before(params) or trained_before_split(params)


def any_old_core_test(recs: Sequence[dict[str, Any]]) -> bool:
    """Whether one of a configuration's scorecards (``recs``) is on an earlier core test (:func:`stale_core`)."""
    return any(stale_core(r) for r in recs)


def control_failed(metrics: dict[str, Any], block: str, path: tuple[str, ...]) -> bool:
    """Whether a core-test column (``path`` into the block) fails its shortcut controls: its group's
    ``controls.headline`` is false (:mod:`idiomkit.tasks.core_controls`); a control-balanced accuracy never does
    (its weights hold both controls at .5)."""
    if block != CORE_BLOCK or "balanced" in path:
        return False
    group = (metrics.get(CORE_BLOCK) or {}).get(path[0]) or {}
    return (group.get("controls") or {}).get("headline") is False


MARK_NOTES = (
    (OLD_CORE_MARK, OLD_CORE_NOTE),
    (CONTROL_MARK, CONTROL_NOTE),
    (SHORT_READ_MARK, SHORT_READ_NOTE),
    (OLD_READER_MARK, OLD_READER_NOTE),
)


def marks_explained(lines: Sequence[str]) -> list[str]:
    """The note (then a blank line) of each mark of :data:`MARK_NOTES` that some table line carries."""
    out: list[str] = []
    for mark, note in MARK_NOTES:
        if any(mark in line for line in lines):
            out += [note, ""]
    return out


def headline(
    metrics: dict[str, Any], columns: Columns = HEADLINE, stale: bool | None = None
) -> dict[str, float | None]:
    """``{column: number}`` of ``columns`` (:data:`HEADLINE`) for one scorecard's metrics; no core-test numbers from a
    scorecard on an earlier core test (:func:`old_core_test`; ``stale``: the caller's judgement with the scorecard's
    params, :func:`stale_core`), which another scorecard's cannot be compared with."""
    stale = old_core_test(metrics) if stale is None else stale
    return {
        column: None if stale and block == CORE_BLOCK else dig(metrics, block, path) for column, block, path in columns
    }


def markdown_table(rows: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """A markdown table: one row per (label, metrics) with the :data:`HEADLINE` columns present in any row."""
    flat = [(label, headline(metrics)) for label, metrics in rows]
    columns = [c for c, _, _ in HEADLINE if any(values[c] is not None for _, values in flat)]
    lines = ["| model | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for label, values in flat:
        cells = ["" if values[c] is None else number_cell(c, values[c]) for c in columns]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def transposed(rows: Sequence[tuple[str, dict[str, Any]]]) -> list[list[str]]:
    """The same numbers as :func:`markdown_table`, one line per headline number and one column per model (reads
    at 80 columns)."""
    flat = [(label, headline(metrics)) for label, metrics in rows]
    out = [["", *(label for label, _ in flat)]]
    for column, _, _ in HEADLINE:
        if any(values[column] is not None for _, values in flat):
            out.append([column, *("" if v[column] is None else number_cell(column, v[column]) for _, v in flat)])
    return out


def column_digits(column: str) -> int:
    """Decimals a column is printed with (nDCG is a percentage)."""
    return 2 if "nDCG" in column else 3


def number_cell(column: str, value: float) -> str:
    return f"{value:.{column_digits(column)}f}"


SCORECARD_TASK = "scorecard"


SCORECARD_MARKERS = ("<!-- scorecard:start (idiomkit report) -->", "<!-- scorecard:end -->")


TRACK_TEXT = {
    "plain": "**Plain track**: the model sees the text a user has, plus what the task asks about (the 2A MWE, the "
    "AdMIRe compound); no 2B MWE columns, no gold spans, no gold sentence types.",
    "marked": "**Marked track**: the benchmarks' own protocols (2B MWE tokens the model knows; IdioLink queries "
    "also by their gold span).",
}


def full_scorecards_with_paths(
    results: list[tuple[Path, dict[str, Any]]], track: str
) -> dict[tuple[str, str], list[tuple[Path, dict[str, Any]]]]:
    """The full (not quick) scorecards of ``track`` with their paths, grouped by (model, recipe)."""
    groups: dict[tuple[str, str], list[tuple[Path, dict[str, Any]]]] = defaultdict(list)
    for path, rec in results:
        params = rec.get("params", {})
        if rec.get("task") == SCORECARD_TASK and params.get("track") == track and not params.get("quick"):
            groups[(rec["model"], rec["recipe"])].append((path, rec))
    return groups


def full_scorecards(
    results: list[tuple[Path, dict[str, Any]]], track: str
) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """The full (not quick) scorecards of ``track``, grouped by (model, recipe)."""
    return {group: [rec for _, rec in pairs] for group, pairs in full_scorecards_with_paths(results, track).items()}


def off_the_readme(recs: Sequence[dict[str, Any]]) -> str | None:
    """Why a configuration's row (``recs``: its scorecards) stays off the README, which shows what a reader can act on
    (the results pages keep every row): a scorecard on an earlier core test (:func:`stale_core`), or a trained
    configuration on fewer than :data:`RECOMMEND_MIN_SEEDS` seeds (:func:`enough_seeds`: a one-seed ablation); None
    when the README shows it."""
    if any_old_core_test(recs):
        return "on an earlier core test"
    if not enough_seeds(recs):
        return f"trained on fewer than {RECOMMEND_MIN_SEEDS} seeds"
    return None


def scorecard_rows(results: list[tuple[Path, dict[str, Any]]], track: str, readme: bool = False) -> list[str]:
    """The table (header first) of the full (not quick) scorecards of ``track``: one line per (model, recipe), mean
    ± std over seeds, the :data:`HEADLINE` columns some row has, then the experiment that makes a trained row
    (:func:`~idiomkit.report.experiments.experiment_cell`); no lines when the track has no scorecard. With
    ``readme`` only the rows :func:`off_the_readme` keeps and no experiment column (the README's choice)."""
    groups = full_scorecards_with_paths(results, track)
    rows = []
    for (model, recipe), pairs in sorted(groups.items(), key=lambda item: (item[0][1] != "zero-shot", item[0])):
        recs = [rec for _, rec in pairs]
        if readme and off_the_readme(recs):
            continue
        cells, stale = {}, any_old_core_test(recs)
        heads = [headline(r["metrics"], stale=stale_core(r)) for r in recs]
        for column, block, path in HEADLINE:
            values = [v for head in heads if (v := head[column]) is not None]
            cells[column] = mean_std(values, "nDCG" in column) if values else ""
            cells[column] += OLD_CORE_MARK if stale and block == CORE_BLOCK else ""
            failed = values and any(control_failed(r["metrics"], block, path) for r in recs)
            cells[column] += CONTROL_MARK if failed else ""
        rule = training_rule((recs[0]["params"].get("training") or {}).get("label"))
        marks = short_read_mark(recs) + old_reader_mark(recs)
        end = "" if readme else f" {experiment_cell(recs, pairs[0][0])} |"
        rows.append((f"| {model} | {recipe}{marks} | {rule} | {len(recs)} | ", cells, end))
    columns = [c for c, _, _ in HEADLINE if any(cells[c] for _, cells, _ in rows)]
    if not rows:
        return []
    extra = [] if readme else ["experiment"]
    head = ["| model | recipe | rule | seeds | " + " | ".join([*columns, *extra]) + " |"]
    head.append("|" + "---|" * (len(columns) + len(extra) + 4))
    return head + [start + " | ".join(cells[c] for c in columns) + " |" + end for start, cells, end in rows]


def rows_off_the_readme(results: list[tuple[Path, dict[str, Any]]], track: str) -> list[str]:
    """One line counting the configurations of ``track`` that :func:`off_the_readme` leaves to the results pages,
    by reason (then a blank line); no lines when none is left out."""
    reasons = Counter(filter(None, map(off_the_readme, full_scorecards(results, track).values())))
    if not reasons:
        return []
    counted = "; ".join(f"{n} {reason}" for reason, n in sorted(reasons.items()))
    return [f"{sum(reasons.values())} more row(s) on the results pages ({counted}).", ""]


def column_means(recs: list[dict[str, Any]], columns: Columns = HEADLINE) -> dict[str, float]:
    """The mean over seeds of each of ``columns`` (:data:`HEADLINE`) some of ``recs`` (one configuration's scorecards)
    have."""
    runs = [headline(r["metrics"], columns, stale_core(r)) for r in recs]
    return {c: sum(vs) / len(vs) for c, _, _ in columns if (vs := [r[c] for r in runs if r[c] is not None])}


def speaks_portuguese(model: str) -> bool:
    """Whether a scorecard's (base) model was made for Portuguese (registry languages; an unknown name: no)."""
    spec = REGISTRY.get(model)
    return spec is not None and "pt" in spec.languages


RECOMMEND_MIN_SEEDS = 2  # a trained configuration is recommended on at least this many seeds, never on one


def enough_seeds(recs: Sequence[dict[str, Any]]) -> bool:
    """Whether a configuration has the seeds a recommendation needs: an untrained encoder has one deterministic
    scorecard; a trained one needs :data:`RECOMMEND_MIN_SEEDS` (a one-seed ablation or leave-one-out row is no
    candidate: one seed's luck is within the seed spread)."""
    trained = any(rec["params"].get("training") for rec in recs)
    return not trained or len({rec["seed"] for rec in recs}) >= RECOMMEND_MIN_SEEDS


def validation_value(recs: Sequence[dict[str, Any]], metric: str) -> float | None:
    """The mean over a configuration's scorecards (``recs``) of its runs' best value of the validation ``metric`` (their
    checkpoint's, ``params.training.best``); None when a run selected on another metric or recorded none."""
    values = []
    for rec in recs:
        best = (rec.get("params", {}).get("training") or {}).get("best") or {}
        if best.get("metric") != metric or not isinstance(best.get("value"), int | float):
            return None
        values.append(float(best["value"]))
    return sum(values) / len(values) if values else None


def selection_metric(model: str, recipe: str, card: Path) -> str | None:
    """The validation metric the experiment that makes (``model``, ``recipe``) names in its ``[select]`` table
    (None: no such experiment, or one without a rule)."""
    name = experiment_of(model, recipe, card)
    made = {m.name: m for m in made_by_experiments(experiments_beside(card))}
    return made[name].select if name is not None else None


def candidates_on_validation(
    results: list[tuple[Path, dict[str, Any]]], portuguese: bool
) -> dict[tuple[str, str], tuple[str, float, int]]:
    """``{(model, recipe): (metric, validation value, seeds)}`` of every configuration the validation rule may
    recommend: trained, on :data:`RECOMMEND_MIN_SEEDS` seeds or more, its scorecards on the current core test, its
    experiment file naming a ``[select]`` metric its runs recorded (``portuguese``: models made for Portuguese)."""
    out = {}
    for (model, recipe), pairs in full_scorecards_with_paths(results, "plain").items():
        recs = [rec for _, rec in pairs]
        trained = all(rec["params"].get("training") for rec in recs)
        if not trained or not enough_seeds(recs) or any_old_core_test(recs):
            continue
        if portuguese and not speaks_portuguese(model):
            continue
        metric = selection_metric(model, recipe, pairs[0][0])
        value = validation_value(recs, metric) if metric else None
        if value is not None:
            out[(model, recipe)] = (metric, value, len({rec["seed"] for rec in recs}))
    return out


def recommended(results: list[tuple[Path, dict[str, Any]]], portuguese: bool) -> tuple[str, str] | None:
    """The (model, recipe) recommended on validation (:func:`candidates_on_validation`): among the candidates whose
    experiment files name the most common selection metric, the highest mean over seeds of that metric at each
    run's selected checkpoint (ties: more seeds, then name). No test column plays a part. ``portuguese``: only
    models made for Portuguese."""
    found = candidates_on_validation(results, portuguese)
    if not found:
        return None
    metric = Counter(m for m, _, _ in found.values()).most_common(1)[0][0]
    ranked = sorted((-value, -seeds, group) for group, (m, value, seeds) in found.items() if m == metric)
    return ranked[0][2]


def recommendation_line(results: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """One line naming the configurations recommended on validation (English; English and Portuguese), each with
    its validation number and the command that trains and scores it (:func:`experiment_of`)."""
    english, both = recommended(results, portuguese=False), recommended(results, portuguese=True)
    rule = (
        "**Recommended on validation** (the rule each candidate's experiment file names in `[select]`, written "
        "before its runs: the highest mean over seeds of the validation metric its runs selected their checkpoint "
        f"on; trained configurations on {RECOMMEND_MIN_SEEDS} seeds or more, on the current core test; no test "
        "column below plays a part)"
    )
    if not english:
        return [f"{rule}: none yet (no such configuration has scorecards on the current core test).", ""]
    found = {**candidates_on_validation(results, False), **candidates_on_validation(results, True)}

    def named(group: tuple[str, str]) -> str:
        metric, value, seeds = found[group]
        return f"{how_to_get(group, results)}, {metric} {value:.4f} over {seeds} seeds"

    parts = [f"English: {named(english)}"] + ([f"English + Portuguese: {named(both)}"] if both else [])
    return [f"{rule}: " + "; ".join(parts) + ".", ""]


def how_to_get(group: tuple[str, str], results: list[tuple[Path, dict[str, Any]]]) -> str:
    """``model`` recipe, and for a trained configuration with an experiment file the command that makes it."""
    model, recipe = group
    cards = [path for path, rec in results if (rec.get("model"), rec.get("recipe")) == group]
    experiment = experiment_of(model, recipe, cards[0]) if cards else None
    command = f" (`idiomkit reproduce --full --only {experiment} --seed 0`)" if experiment else ""
    return f"`{model}` {recipe}{command}"


def experiment_of(model: str, label: str, card: Path, config: dict[str, Any] | None = None) -> str | None:
    """The first experiment (``benchmarks/experiments/<benchmark>/NAME.toml``, beside the scorecard's results
    folder) that makes ``model`` into run label ``label`` (:func:`~idiomkit.report.experiments.experiments_for`:
    its ``[train]`` table, or another experiment's run it reads with a post-training verb; ``config``: the row's
    recorded training options); None when none does (or the scorecard has no such folder beside it)."""
    names = experiments_for(model, label, made_by_experiments(experiments_beside(card)), config)
    return names[0] if names else None


def scorecard_section(
    results: list[tuple[Path, dict[str, Any]]],
    heading: bool = True,
    tracks: tuple[str, ...] = ("plain", "marked"),
    readme: bool = False,
) -> list[str]:
    """The scorecard tables of ``tracks``, plain track first (``idiomkit evaluate all`` result files); with
    ``readme`` only the rows :func:`off_the_readme` keeps (the others counted in a line; the pages keep them)."""
    out = ["## Scorecard: every benchmark at once", ""] if heading else []
    out += recommendation_line(results)
    for track in tracks:
        rows = scorecard_rows(results, track, readme)
        if rows:
            out += [TRACK_TEXT[track], "", *rows, ""]
            out += marks_explained(rows[2:])
            out += rows_off_the_readme(results, track) if readme else []
        elif readme and (left := rows_off_the_readme(results, track)):
            out += [TRACK_TEXT[track], "", "No scorecard is on the current core test yet. " + left[0], ""]
    if not any(line.startswith(("|", "No scorecard")) for line in out):
        return []
    # each rule's text opens with its own name (a table cell elsewhere): the key in italics stands for it here
    rules = "; ".join(f"*{key}*: {text.partition(': ')[2]}" for key, text in RULES.items() if key != "untrained")
    return out + [
        "Each row: `idiomkit evaluate all -m MODEL --track both` (a trained model: its directory); "
        "mean ± std over seeds; core acc = the core test (figurative paraphrase nearer than the literal "
        "misreading): *held-out*, idioms held out from every training stream with human-written readings, "
        "control-balanced (weighted so both shortcut controls score .5); *seen*, "
        "seen idioms in sentences no stream trains or validates on, lookup-equal triples apart (the results pages "
        "give every column with its shortcut controls). The rule is what the training "
        f"data went through: {rules}.",
        "",
        *([] if readme else [EXPERIMENT_NOTE, ""]),
    ]


def titled_table(heading: str, rows: list[str], note: str) -> list[str]:
    """A table's lines under a ``###`` heading, then what its cells mean and the marks its rows carry; nothing
    without rows."""
    return [f"### {heading}", "", *rows, "", note, "", *marks_explained(rows[2:])] if rows else []
