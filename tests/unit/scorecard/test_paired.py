"""Paired bootstrap intervals of a trained card against its base + reader, from the cards' prediction files."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from idiomkit.data.meaning_triples import VERSION as CORE_VERSION
from idiomkit.report import scorecard
from idiomkit.report.compare import COMPARED
from idiomkit.report.paired import ScorecardHeadline, admire_items, interval_mark, items_of, paired_interval
from idiomkit.report.versus_base import BASE_WITH_READER, versus_base_rows

HEADER = "\t".join(
    ("idiom", "language", "source", "heldout", "lookup_equal", "column", "sentence", "paraphrase", "misreading")
    + ("cos_paraphrase", "cos_misreading")
)
COLUMN = "core acc (held-out)"


def write_scorecard(folder: Path, recipe: str, correct: list[bool], reported: float | None = None) -> Path:
    """A plain-track card whose held-out core triples are right where ``correct`` says (two per idiom)."""
    stem = folder / f"me5__{recipe}__plain__seed0"
    lines = [HEADER]
    for i, ok in enumerate(correct):
        near, far = (0.9, 0.1) if ok else (0.1, 0.9)
        lines.append(f"idiom{i // 2}\tEN\tncs\t1\t0\theldout\ts{i}\tp{i}\tm{i}\t{near:.6f}\t{far:.6f}")
    lines.append(f"other\tEN\tpie\t1\t0\theldout_pie\tx\ty\tz\t{0.1:.6f}\t{0.9:.6f}")  # another column
    Path(f"{stem}.meaning-triples.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    accuracy = float(np.mean(correct)) if reported is None else reported
    training = None if recipe == BASE_WITH_READER else {"label": recipe, "reads_max_seq_length": 512}
    training = training and {**training, "core_test_version": CORE_VERSION}
    rec = {
        "task": "scorecard",
        "model": "me5",
        "recipe": recipe,
        "seed": 0,
        "params": {"track": "plain", "training": training},
        "metrics": {
            "meaning-triples": {"heldout": {"accuracy": accuracy, "accuracy_ci95": [0.0, 1.0]}, "heldout_pie": {}}
        },
    }
    path = Path(f"{stem}.json")
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path


def card_of(path: Path) -> ScorecardHeadline:
    rec = json.loads(path.read_text(encoding="utf-8"))
    return ScorecardHeadline(path.with_suffix(""), scorecard.headline(rec["metrics"], COMPARED))


@pytest.fixture(autouse=True)
def _fresh_cache():
    items_of.cache_clear()


def test_a_clear_gain_is_marked_and_an_equal_card_is_not(tmp_path, monkeypatch):
    monkeypatch.setattr(scorecard, "READER_VERSION", 1)
    base = write_scorecard(tmp_path, BASE_WITH_READER, [True, False] * 20)  # .5
    trained = write_scorecard(tmp_path, "flagship-v2", [True] * 40)  # 1.0
    low, high = paired_interval(COLUMN, [card_of(trained)], card_of(base))
    assert 0.3 < low <= 0.5 <= high < 0.7  # the difference is .5; resampling idioms keeps it near
    assert interval_mark((low, high)) == "▲"
    same = paired_interval(COLUMN, [card_of(base)], card_of(base))
    assert same == (0.0, 0.0) and interval_mark(same) == ""
    pair = [(base, json.loads(base.read_text())), (trained, json.loads(trained.read_text()))]
    rows = versus_base_rows(pair, columns=COMPARED)  # the raw held-out column: no data to balance with here
    cells = [c.strip() for c in rows[2].strip("|").split("|")]
    assert "1.000 (+0.500▲)" in cells and cells[-1] == "1 ▲, 0 ▼ of 1"


def test_a_small_difference_on_few_items_straddles_zero(tmp_path):
    base = write_scorecard(tmp_path, BASE_WITH_READER, [True, False] * 5)
    trained = write_scorecard(tmp_path, "flagship-v2", [True, False] * 4 + [True, True])
    low, high = paired_interval(COLUMN, [card_of(trained)], card_of(base))
    assert low <= 0 < 0.1 <= high and interval_mark((low, high)) == ""


def test_files_that_do_not_reproduce_the_card_give_no_interval(tmp_path, caplog):
    base = write_scorecard(tmp_path, BASE_WITH_READER, [True, False] * 20)
    trained = write_scorecard(tmp_path, "flagship-v2", [True] * 40, reported=0.9)
    with caplog.at_level(logging.WARNING):
        assert paired_interval(COLUMN, [card_of(trained)], card_of(base)) is None
    assert "files give 1.000000, its scorecard 0.9" in caplog.text


def test_cards_scored_on_other_items_give_no_interval_and_missing_files_none(tmp_path):
    base = write_scorecard(tmp_path, BASE_WITH_READER, [True, False] * 20)
    trained = write_scorecard(tmp_path, "flagship-v2", [True] * 38)
    assert paired_interval(COLUMN, [card_of(trained)], card_of(base)) is None
    assert paired_interval("Xiao MRR", [card_of(trained)], card_of(base)) is None  # no xiao.ranks.csv


def test_an_sts_guard_is_marked_down_only_below_its_tolerance():
    assert interval_mark((-0.008, -0.002), tolerance=0.01) == "▲"  # within .01 of the base however it is drawn
    assert interval_mark((-0.03, -0.012), tolerance=0.01) == "▼"
    assert interval_mark((-0.02, 0.01), tolerance=0.01) == ""


def test_admire_items_score_each_predicted_order_against_the_gold_one(tmp_path):
    gold = ["a.png", "b.png", "c.png", "d.png", "e.png"]
    rows = [
        ("night owl", "idiomatic", gold, gold),
        ("night owl", "literal", gold, ["b.png", "a.png", "c.png", "e.png", "d.png"]),
    ]
    lines = ["compound\tsentence_type\tgold_order\tpredicted_order\tscores"]
    lines += [f"{c}\t{t}\t{g}\t{p}\t0 0 0 0 0" for c, t, g, p in rows]
    (tmp_path / "card.admire-pool.predictions.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    spearman = admire_items("spearman")(tmp_path / "card", None)
    top1 = admire_items("top1")(tmp_path / "card", None)
    assert spearman.values["score"].tolist() == [1.0, 0.8]  # two swaps: 1 - 6 * 4 / (5 * 24)
    assert top1.values["score"].tolist() == [1.0, 0.0] and spearman.clusters == ["night owl", "night owl"]
    literal = admire_items("spearman", "literal")(tmp_path / "card", None)
    assert literal.values["score"].tolist() == [0.8] and literal.keys[0].startswith("night owl\tliteral")


def test_compare_prints_each_column_with_its_interval_and_refuses_a_file_that_is_not_a_card(tmp_path):
    from typer.testing import CliRunner

    from idiomkit.cli import app

    base = write_scorecard(tmp_path, BASE_WITH_READER, [True, False] * 20)
    trained = write_scorecard(tmp_path, "flagship-v2", [True] * 40)
    result = CliRunner().invoke(app, ["compare", str(trained), str(base), "--data-dir", str(tmp_path / "none")])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if "core acc (held-out)" in line)
    assert "1.000" in row and "0.500" in row and "+0.500" in row and "▲" in row
    assert "AdMIRe" not in result.output  # neither card has AdMIRe numbers
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"task": "semeval2b-dev", "metrics": {}}), encoding="utf-8")
    result = CliRunner().invoke(app, ["compare", str(other), str(base)])
    assert result.exit_code == 2 and "not a scorecard (task 'semeval2b-dev')" in result.output
    assert "Traceback" not in result.output


def test_compare_sets_admire_by_sentence_type_beside_the_headline_columns(tmp_path):
    from idiomkit.report.compare import compare_rows

    gold = ["a.png", "b.png", "c.png", "d.png", "e.png"]
    swapped = ["b.png", "a.png", "c.png", "d.png", "e.png"]
    paths = []
    for name, literal_order in (("trained", swapped), ("base", gold)):
        stem = tmp_path / name
        lines = ["compound\tsentence_type\tgold_order\tpredicted_order\tscores"]
        lines += [f"c{i}\tidiomatic\t{gold}\t{gold}\t0 0 0 0 0" for i in range(3)]
        lines += [f"c{i}\tliteral\t{gold}\t{literal_order}\t0 0 0 0 0" for i in range(3)]
        Path(f"{stem}.admire-pool.predictions.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        literal = 0.9 if name == "trained" else 1.0  # one swap: 1 - 6 * 2 / 120
        top1 = float(literal == 1.0)
        types = {"idiomatic": {"spearman": 1.0, "top1": 1.0}, "literal": {"spearman": literal, "top1": top1}}
        pool = {"spearman": (1.0 + literal) / 2, "top1": (1.0 + top1) / 2, **types}
        rec = {"task": "scorecard", "model": "m", "recipe": name, "seed": 0, "metrics": {"admire": {"pool": pool}}}
        Path(f"{stem}.json").write_text(json.dumps(rec), encoding="utf-8")
        paths.append(Path(f"{stem}.json"))
    rows = {row[0]: row for row in compare_rows(*paths)}
    assert rows["AdMIRe ρ (literal)"][1:4] == ["0.900", "1.000", "-0.100"]
    assert rows["AdMIRe ρ (idiomatic)"][3] == "+0.000" and rows["AdMIRe top-1 (literal)"][3] == "-1.000"
    assert rows["AdMIRe top-1 (literal)"][4] != "none"  # every card's number reproduced from its predictions


@pytest.mark.parametrize(
    ("column", "suffix", "text", "expected"),
    [
        (
            COLUMN,
            "meaning-triples.tsv",
            HEADER + "\nk\tEN\tncs\t1\t0\theldout\ts\tp\tm\tabc\t0.1\n",
            ("row 2", "cos_paraphrase"),
        ),
        (
            COLUMN,
            "meaning-triples.tsv",
            HEADER.replace("cos_misreading", "cos_wrong") + "\n",
            ("row 1", "cos_misreading"),
        ),
        ("Xiao MRR", "xiao.ranks.csv", "key,rank\nkick the bucket,0\n", ("row 2", "'rank'", "a rank (1 or more)")),
        ("2B all ρ", "semeval2b.submission.csv", "ID,Language,Setting,Sim\n1,EN,pre_train,high\n", ("row 2", "'Sim'")),
        (
            "2B all ρ",
            "semeval2b.submission.csv",
            "ID,Language,Setting,Similarity\n1,EN,pre_train,.5\n",
            ("row 1", "'Sim'"),
        ),
        (
            "2A F1 (probe)",
            "semeval2a.submission.csv",
            "ID,Language,Setting,Label\n1,EN,zero_shot,x\n",
            ("row 2", "'Label'"),
        ),
        ("STS-B test ρ", "sts-guard.tsv", "source\tscore\tcosine\nstsb-en\t4.0\tzz\n", ("row 2", "'cosine'")),
        (
            "AdMIRe ρ (pool)",
            "admire-pool.predictions.tsv",
            "compound\tsentence_type\tgold_order\tpredicted_order\nc\tidiomatic\t[\t[]\n",
            ("row 2", "'gold_order'", "a list"),
        ),
    ],
)
def test_a_malformed_prediction_file_is_one_line_naming_file_row_and_field(tmp_path, column, suffix, text, expected):
    """``compare`` reads the files beside each card: a value it cannot read is a DataError (one line, exit 2), not a
    traceback from deep inside the bootstrap."""
    from idiomkit.data.errors import DataError

    path = tmp_path / f"card.{suffix}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        items_of(column, tmp_path / "card", tmp_path)
    message = str(err.value)
    assert str(path) in message and all(part in message for part in expected), message


def test_compare_refuses_a_quick_card_against_a_full_one_and_counts_one_sided_columns(tmp_path, caplog):
    from typer.testing import CliRunner

    from idiomkit.cli import app

    base = write_scorecard(tmp_path, BASE_WITH_READER, [True, False] * 20)
    trained = write_scorecard(tmp_path, "flagship-v2", [True] * 40)
    quick = tmp_path / "quick.json"
    rec = json.loads(trained.read_text(encoding="utf-8"))
    quick.write_text(json.dumps({**rec, "params": {**rec["params"], "quick": True}}), encoding="utf-8")
    result = CliRunner().invoke(app, ["compare", str(quick), str(base)])
    assert result.exit_code == 2 and "is a --quick scorecard" in result.output and "Traceback" not in result.output
    rec["metrics"]["semeval2b"] = {"ALL": {"idiom": 0.3}}  # a column the base lacks
    trained.write_text(json.dumps(rec), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="idiomkit.report.compare"):
        result = CliRunner().invoke(app, ["compare", str(trained), str(base), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "1 column(s) left out, in one scorecard only: 2B idiom ρ" in caplog.text
