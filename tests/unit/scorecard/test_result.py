"""The scorecard's tables: headline numbers dug out of a card's metric blocks, the markdown and transposed tables,
the block selection and the core test's metrics computed by hand."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from idiomkit.scorecard.result import dig, headline, markdown_table, selected_blocks, tracks_of, transposed
from idiomkit.tasks.meaning_triples import triple_metrics

METRICS = {
    "semeval2b": {"ALL": {"idiom": 0.25, "sts": 0.8, "all": 0.7}},
    "idiolink": {"sentence": {"ndcg@10": 41.234, "r_precision": 20.0}},
    "meaning-triples": {
        "heldout": {"accuracy": 0.9, "accuracy_ci95": [0.8, 1.0], "controls": {"balanced": {"accuracy": 0.5}}},
        "heldout_pie": {"n": 0},  # the current core test's diagnostic column
        "seen": {"n": 0},
    },
}


def test_dig_follows_the_path_and_gives_none_when_absent():
    assert dig(METRICS, "semeval2b", ("ALL", "sts")) == 0.8
    assert dig(METRICS, "semeval2b", ("EN", "sts")) is None
    assert dig(METRICS, "semeval2a", ("ALL", "macro_f1")) is None
    assert dig(METRICS, "meaning-triples", ("seen", "accuracy")) is None


def test_tables_show_only_columns_some_row_has():
    table = markdown_table([("a", METRICS), ("b", {})])
    head = "| model | 2B idiom ρ | 2B STS ρ | 2B all ρ | IdioLink nDCG@10 | core acc (held-out, balanced) |"
    assert table.splitlines()[0] == head
    assert table.splitlines()[2] == "| a | 0.250 | 0.800 | 0.700 | 41.23 | 0.500 |"
    assert table.splitlines()[3] == "| b |  |  |  |  |  |"
    rows = transposed([("a", METRICS), ("b", {})])
    assert rows[0] == ["", "a", "b"] and rows[4] == ["IdioLink nDCG@10", "41.23", ""]
    assert headline(METRICS)["2B all ρ"] == 0.7
    earlier = {**METRICS, "meaning-triples": {"heldout": {"accuracy": 0.5, "accuracy_ci95": [0.4, 0.6]}}}
    assert headline(earlier)["core acc (held-out, balanced)"] is None  # an earlier core test compares with nothing


def test_block_selection_and_tracks():
    assert "semeval2a" not in selected_blocks(None, quick=True)
    assert "semeval2a" in selected_blocks(None, quick=False)
    assert selected_blocks(["xiao"], quick=True) == ["xiao"]
    with pytest.raises(KeyError, match="unknown scorecard block 'nope'"):
        selected_blocks(["nope"], quick=False)
    assert tracks_of("both") == ["plain", "marked"] and tracks_of("marked") == ["marked"]


def test_a_block_without_a_quick_slice_is_refused_in_quick_mode_before_any_model(monkeypatch):
    """Issue #42.6: ``evaluate all --quick --only semeval2a`` ran the whole 2A block (83 s) on a card labelled quick."""
    from helpers import runner
    from helpers.bad_inputs import assert_one_line_error

    from idiomkit.cli import app
    from idiomkit.errors import OptionError

    with pytest.raises(OptionError, match="--only semeval2a: the semeval2a block has no quick slice"):
        selected_blocks(["xiao", "semeval2a"], quick=True)
    assert selected_blocks(["semeval2a"], quick=False) == ["semeval2a"]
    monkeypatch.setattr("idiomkit.api.load_model", lambda *a, **k: pytest.fail("a model was loaded"))
    result = runner.invoke(app, ["evaluate", "all", "--quick", "--only", "semeval2a", "--no-write"])
    line = assert_one_line_error(result, "--only semeval2a: the semeval2a block has no quick slice")
    assert line.endswith("drop --quick for it, or leave it out of --only")


def test_triple_metrics_by_hand():
    pos, neg = np.array([0.9, 0.2, 0.6]), np.array([0.5, 0.4, 0.6])
    m = triple_metrics(pos, neg)
    # nearer: 0.9 > 0.5 yes, 0.2 > 0.4 no, 0.6 > 0.6 no -> 1/3; AUC over 9 (pos, neg) pairs: wins 3+0+2 (0.6 vs
    # 0.5, 0.4) ... counted: 0.9 beats all 3; 0.2 beats none; 0.6 beats 0.5 and 0.4 and ties 0.6 (half) -> 5.5 / 9
    assert m["n"] == 3 and m["accuracy"] == pytest.approx(1 / 3)
    assert m["auc"] == pytest.approx(5.5 / 9)
    assert m["margin"] == pytest.approx((0.4 - 0.2 + 0.0) / 3)
    assert triple_metrics(np.zeros(0), np.zeros(0)) == {"n": 0}


def test_a_trained_directory_names_its_card_by_recipe_label_and_base_model(monkeypatch, tmp_path):
    """``evaluate all`` names a model made by ``idiomkit train`` as ``evaluate`` names its results (recipe label,
    base model's name) unless a recipe or model name is given; a registry model keeps its own name."""
    import json
    import types

    import idiomkit.scorecard.run as run
    from idiomkit.models import resolve_name

    training = {"label": "adaptive-triplet+mwe", "config": {"model": "org/base-model"}}
    (tmp_path / "training.json").write_text(json.dumps(training), encoding="utf-8")
    specs = []
    monkeypatch.setattr(run, "load_model", lambda *a, **k: types.SimpleNamespace(prompts={}))
    monkeypatch.setattr(run, "write_scorecard", lambda st, ctx, spec, *rest: specs.append(spec))
    run.evaluate_all(str(tmp_path), write=False, only=["xiao"])
    run.evaluate_all(str(tmp_path), write=False, only=["xiao"], recipe="mine", model_name="named")
    run.evaluate_all("minilm", write=False, only=["xiao"])
    assert [(s.model_name, s.recipe, s.trained) for s in specs] == [
        ("base-model", "adaptive-triplet+mwe", True),
        ("named", "mine", True),
        (resolve_name("minilm"), "zero-shot", False),
    ]


class StandIn:
    """A model with no prompts whose modules are ``modules`` (the blocks never run: ``run_blocks`` is replaced)."""

    prompts: dict[str, str] = {}

    def __init__(self, *modules):
        self._modules = {f"m{i}": module for i, module in enumerate(modules)}


def test_a_card_records_the_reader_version_when_the_reader_takes_part(monkeypatch, tmp_path):
    """A model carrying the idiom reader (a trained flagship, or ``--reader``) writes ``params.reader_version`` and
    the digest of the reader's files; a model without one writes ``reader_version: null``."""
    import json

    import idiomkit.scorecard.result as card
    import idiomkit.scorecard.run as run
    from idiomkit.idioms import Lexicon
    from idiomkit.idioms.reader import IdiomReader
    from idiomkit.idioms.version import READER_VERSION, reader_digest

    reader = IdiomReader(Lexicon.from_pairs([("kick the bucket", "to die")]))
    monkeypatch.setattr(card, "run_blocks", lambda *a, **k: ({}, {}, [], {}, {}))
    models = {"with": StandIn(reader, object()), "without": StandIn(object())}
    monkeypatch.setattr(run, "load_model", lambda name, **k: models[name])

    def put_reader_first(st, mode, data_dir, recipe, extra):
        return StandIn(reader, *st._modules.values()), f"{recipe}+reader-{mode}"

    monkeypatch.setattr(run, "reader_in_front", put_reader_first)
    monkeypatch.setattr(run, "scoring_lexicon", lambda st, own, data_dir, extra: st)  # no evaluation lexicon here
    written = {}
    for name, options in (("with", {}), ("without", {}), ("without", {"reader": "gloss"})):
        (scored,) = run.evaluate_all(name, results_dir=tmp_path, only=["xiao"], model_name=name, **options)
        written[(name, scored.record.recipe)] = json.loads(scored.path.read_text(encoding="utf-8"))["params"]
    assert written[("with", "zero-shot")]["reader_version"] == READER_VERSION
    assert written[("with", "zero-shot")]["reader_digest"] == reader_digest()
    assert written[("without", "zero-shot+reader-gloss")]["reader_version"] == READER_VERSION
    assert written[("without", "zero-shot")]["reader_version"] is None
    assert "reader_digest" not in written[("without", "zero-shot")]


def test_published_cards_count_each_card_once_across_two_checkouts(monkeypatch, tmp_path):
    from idiomkit.scorecard import table

    card = sorted(Path("benchmarks/results/scorecard").glob("minilm__zero-shot__plain__seed0.json"))[0]
    roots = [tmp_path / "run", tmp_path / "main"]
    for root in roots:
        (root / "scorecard").mkdir(parents=True)
        shutil.copy(card, root / "scorecard" / card.name)
    monkeypatch.setattr(table, "default_results_dir", lambda: roots[1])
    published = table.published_scorecards(roots[0])
    assert [(r["model"], r["recipe"]) for r in published] == [("minilm", "zero-shot")]
