"""Idiom/definition + sentence/paraphrase pairs (Xiao et al.): keys, split by idiom, loaders, metrics."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from helpers.definitions import MEANING, idiom_with_pairs, write_tree

from idiomkit.data.definitions import (
    epie_first_sense,
    id_pairs,
    idiom_key,
    load_baiango,
    load_epie_usages,
    load_idiom_data,
    sp_pairs,
    split_of,
    substitute_phrase,
)
from idiomkit.data.errors import DataError
from idiomkit.metrics.retrieval import mrr_and_recall, ranks_of_truth
from idiomkit.tasks.xiao_pairs import score_pairs, train_pairs_of


def test_keys_merge_slots_articles_and_case():
    assert idiom_key("keep [pron] eye on") == idiom_key("Keep an eye on") == "keep eye on"
    assert idiom_key("bring (somebody) to ([pron]) knees") == "bring to knees"
    assert idiom_key("Mad as a hatter!") == "mad as hatter"


def test_split_is_a_fixed_function_of_the_key():
    keys = [f"idiom {i}" for i in range(2000)]
    splits = [split_of(k) for k in keys]
    assert splits == [split_of(k) for k in keys]
    share = {s: splits.count(s) / len(keys) for s in ("train", "val", "heldout")}
    assert 0.65 < share["train"] < 0.75 and 0.07 < share["val"] < 0.13 and 0.16 < share["heldout"] < 0.24


def test_clean_meaning_and_substitution():
    assert epie_first_sense(MEANING) == "In the event that something happens."
    assert epie_first_sense('[<div class="ds-list">1. <i>slang</i> A rough guide.</div>]') == "A rough guide."
    assert epie_first_sense("[]") is None
    assert substitute_phrase("In the event that something happens. More.") == "in the event that something happens"


def test_toy_tree_loads_merges_and_builds_paraphrases(tmp_path):
    data = load_idiom_data(write_tree(tmp_path))
    keep = data.idioms["keep eye on"]
    assert keep.text == "keep one's eye on"
    assert [d.source for d in keep.definitions] == ["epie", "baiango"] and keep.definition == "To watch closely."
    # formal: literal sentence (label 0) dropped, last sentence has no translation
    assert [(p.sentence, p.paraphrase) for p in keep.pairs] == [("I keep an eye on him .", "I watch him closely .")]
    assert data.idioms["bring to knees"].pairs == []
    (case,) = data.idioms["just in case"].pairs
    assert case.paraphrase == "Bring it in the event that something happens ."
    assert data.idioms["rule of thumb"].definition == "A rough guide."


def test_bad_rows_name_file_row_and_field(tmp_path):
    with pytest.raises(DataError, match=r"idioms\.csv: row 2: field 'idiom'"):
        load_baiango(write_tree(tmp_path / "a", baiango='"{A}>>{b}"\n"no braces here"\n'))
    with pytest.raises(DataError, match=r"Static_Idioms_Tags\.txt: row 1: field 'tags': 3 tags for 6 tokens"):
        load_idiom_data(write_tree(tmp_path / "b", static_tags="O B-IDIOM O"))


def test_negatives_come_from_other_idioms():
    idioms = [idiom_with_pairs(k, f"meaning of {k}", 3) for k in ("a1", "b2", "c3")]
    for p in id_pairs(idioms, seed=1) + sp_pairs(idioms, seed=1, per_idiom=2):
        assert p.key not in p.negative
    assert len(sp_pairs(idioms, per_idiom=2)) == 6
    with pytest.raises(ValueError, match="at least two idioms"):
        id_pairs(idioms[:1])


def test_retrieval_ranks_by_hand():
    q = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    d = np.array([[1.0, 0.0], [1.0, 0.0], [0.6, 0.8]])
    ranks = ranks_of_truth(q, d)
    assert ranks.tolist() == [2, 3, 1]  # ties count against the truth; query 2 scores 0, 0, .8
    m = mrr_and_recall(ranks)
    assert m["mrr"] == pytest.approx((1 / 2 + 1 / 3 + 1) / 3) and m["recall@1"] == pytest.approx(1 / 3)


class FakeModel:
    """Encodes by a lookup table (unit vectors chosen by hand)."""

    def __init__(self, table: dict[str, list[float]]):
        self.table = table

    def encode(self, texts, **_):
        return np.array([self.table[t] for t in texts], dtype=np.float32)

    def get_embedding_dimension(self) -> int:
        return 2


def test_score_pairs_by_hand():
    idioms = [idiom_with_pairs("a1", "def a"), idiom_with_pairs("b2", "def b")]
    table = {"a1": [1, 0], "def a": [1, 0], "b2": [0, 1], "def b": [0.6, 0.8]}
    metrics, raw = score_pairs(FakeModel(table), idioms)
    # I/D: cos(a1, def a) = 1, cos(b2, def b) = .8; incorrect: cos(a1, def b) = .6, cos(b2, def a) = 0
    assert metrics["id"] == pytest.approx(0.9) and metrics["id_incorrect"] == pytest.approx(0.3)
    assert metrics["id_margin"] == pytest.approx(0.6)
    assert raw["ranks"].tolist() == [1, 1] and metrics["mrr"] == 1.0
    assert np.isnan(metrics["sp"])  # no sentences


def test_train_pairs_of_reads_training_json(tmp_path):
    (tmp_path / "training.json").write_text('{"recipe": "pairs-triplet-idsp"}')
    assert train_pairs_of(SimpleNamespace(tokenizer=SimpleNamespace(name_or_path=str(tmp_path)))) == "id+sp"
    assert train_pairs_of(SimpleNamespace(tokenizer=SimpleNamespace(name_or_path="minilm"))) == "none"


def test_report_puts_paper_rows_and_margins_beside_ours(tmp_path):
    import json

    from idiomkit.report import render

    metrics = {
        "id": 0.5,
        "sp": 0.9,
        "id_incorrect": 0.1,
        "sp_incorrect": 0.2,
        "id_margin": 0.4,
        "sp_margin": 0.7,
        "mrr": 0.6,
        "recall@1": 0.5,
        "recall@10": 0.9,
    }
    rec = {
        "task": "xiao-pairs",
        "model": "minilm",
        "recipe": "zero-shot",
        "seed": 0,
        "metrics": metrics,
        "params": {"train_pairs": "none"},
        "wall_s": 1.0,
    }
    (tmp_path / "results" / "xiao-pairs").mkdir(parents=True)
    (tmp_path / "results" / "xiao-pairs" / "minilm__zero-shot__seed0.json").write_text(json.dumps(rec))
    text = render(tmp_path / "results")
    header = next(line for line in text.splitlines() if line.startswith("| model") and "id_margin" in line)
    assert header.split(" | ")[4:13] == [
        "id",
        "sp",
        "id_incorrect",
        "sp_incorrect",
        "id_margin",
        "sp_margin",
        "mrr",
        "recall@1",
        "recall@10",
    ]
    paper = next(line for line in text.splitlines() if "paper Table 1: zero-shot" in line)
    assert "| 0.164 |" in paper  # .272 - .108


def test_epie_usages_map_labels_and_spans_and_name_bad_rows(tmp_path, caplog):
    root = write_tree(tmp_path / "a")
    f = root / "epie" / "Formal_Idioms_Corpus" / "Formal_Idioms"
    Path(f"{f}_Tags.txt").write_text(
        "O B-IDIOM I-IDIOM I-IDIOM I-IDIOM O O\nO O O O O O O\nB-IDIOM I-IDIOM I-IDIOM O O\n"
    )
    with caplog.at_level("INFO", logger="idiomkit.data.definitions"):
        usages, key_of, _ = load_epie_usages(root)
    assert "1 of 3 sentences have no tagged idiom span, dropped" in caplog.text
    # EPIE 1 = idiomatic -> 2A label 0; the untagged second sentence is dropped
    assert [(u.mwe, u.label, u.target[slice(*u.span)]) for u in usages] == [
        ("keep an eye on", 0, "keep an eye on"),
        ("Keep an eye", 0, "Keep an eye"),
    ]
    assert [key_of[u.id] for u in usages] == ["keep eye on", "keep eye on"]
    Path(f"{f}_Labels.txt").write_text("1\n0\nyes\n")
    with pytest.raises(DataError, match=r"Formal_Idioms_Labels\.txt: row 3: field 'label'"):
        load_epie_usages(root)
    Path(f"{f}_Labels.txt").write_text("1\n0\n0\n")
    assert [u.label for u in load_epie_usages(root)[0]] == [0, 1]
    Path(f"{f}_Tags.txt").write_text("O B-IDIOM X\nO O O O O O O\nO O O O O\n")
    with pytest.raises(DataError, match=r"Formal_Idioms_Tags\.txt: row 1: field 'tags': 3 tags for 7 tokens"):
        load_epie_usages(root)
