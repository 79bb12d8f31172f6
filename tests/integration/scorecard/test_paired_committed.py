"""The paired bootstrap reads committed cards: every headline column (and AdMIRe's by sentence type) of mpnet's
trained card and of its base + reader is reproduced from their prediction files (2B, 2A and IdioLink with the
benchmarks' gold) before any resample; the core-test columns of cards on an earlier core test compare with
nothing."""

from __future__ import annotations

import json
from pathlib import Path

from idiomkit.report.compare import COMPARED
from idiomkit.report.paired import PAIRED, ScorecardHeadline, items_of, paired_interval
from idiomkit.report.scorecard import headline

CARDS = Path(__file__).resolve().parents[3] / "benchmarks" / "results" / "scorecard"
TRAINED = "mpnet__flagship-v2-keep10-keep-cosine-pool-mean__plain__seed0"
BASE = "mpnet__zero-shot-reader-replace__plain__seed0"


def card(name: str) -> ScorecardHeadline:
    metrics = json.loads((CARDS / f"{name}.json").read_text(encoding="utf-8"))["metrics"]
    return ScorecardHeadline(CARDS / name, headline(metrics, COMPARED))


def test_every_column_of_a_committed_pair_of_cards_gets_an_interval_around_its_difference(data_dir):
    trained, base = card(TRAINED), card(BASE)
    for column in PAIRED:
        interval = paired_interval(column, [trained], base, data_dir, resamples=200)
        if trained.headline[column] is None:  # the core test of cards scored before the current one
            assert column.startswith("core") and interval is None, column
            continue
        assert interval is not None, column  # None: the files did not reproduce the card's number
        difference = trained.headline[column] - base.headline[column]
        assert interval[0] <= difference <= interval[1], column
    items_of.cache_clear()
    assert paired_interval("2B all ρ", [trained], base, None) is None  # the gold is in the data directory
