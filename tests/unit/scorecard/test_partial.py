"""Resumable cards: a card killed after some blocks starts again where it stopped, with the numbers an uninterrupted
run writes; another model, seed or reader finds nothing to reuse; the kept blocks go once the card is written."""

from __future__ import annotations

import json

import pytest

import idiomkit.scorecard.result as card
import idiomkit.scorecard.run as run
from idiomkit.scorecard.blocks import BlockOutput
from idiomkit.scorecard.partial import PARTIAL_DIR, BlockStore

BLOCKS = ["semeval2b", "xiao", "admire"]  # semeval2b reads by track, the others once for both tracks


class Killed(Exception):
    """Stands for a kill of the process."""


class Model:
    prompts: dict[str, str] = {}
    _modules: dict = {}


def fake_blocks(monkeypatch, calls: list, kill_at: int | None = None):
    def run_block(model, name, ctx, track, trained):
        if kill_at is not None and len(calls) == kill_at:
            raise Killed
        calls.append((name, track))
        value = 0.1 * len(name) + (0.01 if track == "marked" else 0.0) + ctx.seed
        return BlockOutput({"score": value}, {f".{name}.{track}.tsv": f"{name}\t{value}\n"}, [], {"n": len(name)})

    monkeypatch.setattr(card, "run_block", run_block)
    monkeypatch.setattr(run, "load_model", lambda *a, **k: Model())


def test_a_killed_card_resumes_at_its_first_unfinished_block(monkeypatch, tmp_path):
    calls: list = []
    fake_blocks(monkeypatch, calls, kill_at=3)
    with pytest.raises(Killed):  # semeval2b plain, xiao, admire, then killed in semeval2b marked
        run.evaluate_all("minilm", results_dir=tmp_path / "a", only=BLOCKS, track="both")
    kept = sorted(p.name for p in (tmp_path / "a" / "scorecard" / PARTIAL_DIR).glob("*/*.json"))
    assert kept == ["admire.all.json", "semeval2b.plain.json", "xiao.all.json"]

    calls.clear()
    fake_blocks(monkeypatch, calls)
    resumed = run.evaluate_all("minilm", results_dir=tmp_path / "a", only=BLOCKS, track="both")
    assert calls == [("semeval2b", "marked")]  # the rest read back
    assert not list((tmp_path / "a" / "scorecard" / PARTIAL_DIR).glob("*/*"))  # gone with the card written

    calls.clear()
    whole = run.evaluate_all("minilm", results_dir=tmp_path / "b", only=BLOCKS, track="both")
    assert len(calls) == 4  # no store under b: every block computed
    for a, b in zip(resumed, whole, strict=True):
        assert a.record.metrics == b.record.metrics and a.record.params["blocks"] == b.record.params["blocks"]
        assert sorted(p.name for p in a.path.parent.iterdir()) == sorted(p.name for p in b.path.parent.iterdir())
        assert json.loads(a.path.read_text())["metrics"] == json.loads(b.path.read_text())["metrics"]


def test_another_seed_or_model_finds_nothing_to_reuse(monkeypatch, tmp_path):
    calls: list = []
    fake_blocks(monkeypatch, calls, kill_at=2)
    with pytest.raises(Killed):
        run.evaluate_all("minilm", results_dir=tmp_path, only=BLOCKS)
    calls.clear()
    fake_blocks(monkeypatch, calls)
    (card_seed1,) = run.evaluate_all("minilm", results_dir=tmp_path, only=BLOCKS, seed=1)
    assert len(calls) == 3 and card_seed1.record.metrics["xiao"]["score"] == pytest.approx(1.4)
    calls.clear()
    run.evaluate_all("mpnet", results_dir=tmp_path, only=BLOCKS)
    assert len(calls) == 3


def test_a_store_without_a_folder_keeps_nothing(tmp_path):
    store = BlockStore.for_scorecard(None, {"model": "minilm"})
    store.put("xiao", "all", BlockOutput({"score": 1.0}))
    assert store.get("xiao", "all") is None
    kept = BlockStore.for_scorecard(tmp_path, {"model": "minilm"})
    kept.put("xiao", "all", BlockOutput({"score": 1.0}, {".x.tsv": "a\n"}, [tmp_path / "f.tsv"], {"n": 1}))
    assert kept.get("xiao", "all") == BlockOutput({"score": 1.0}, {".x.tsv": "a\n"}, [tmp_path / "f.tsv"], {"n": 1})
    kept.clear()
    assert kept.get("xiao", "all") is None
