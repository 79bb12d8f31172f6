"""Extra idiom datasets: every real folder under ``<data>/idioms_extra`` loads, with the sizes of its README /
PROVENANCE (less the rows the loaders skip, noted per test). Skipped when the folder is absent.

The tiny-fixture half is tests/unit/data/test_idioms_extra.py.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from idiomkit.data.extra import (
    load_astitch,
    load_clue,
    load_figqa,
    load_itu,
    load_lidioms,
    load_miqa,
    load_mt_meanings,
    load_mt_triples,
    load_ncs,
    load_overlap,
    load_pie,
)
from idiomkit.settings import default_data_dir


@pytest.fixture(scope="module")
def data() -> Path:
    path = default_data_dir()
    if not (path / "idioms_extra").is_dir():
        pytest.skip(f"no idioms_extra under {path}")
    return path


def test_pie_isp_splits(data):
    items = load_pie(data)
    # ISP: train 3,784 / valid 876 / test 876 rows; 9 / 5 / 1 rows whose paraphrase is the sentence are skipped
    assert Counter(p.split for p in items) == {"train": 3775, "valid": 871, "test": 875}
    assert len({p.idiom for p in items}) == 876
    assert sum(p.sense is None for p in items) == 4  # "beauty is in the eye of the beholder" has no sense
    assert len(load_overlap(data, "pie")) == 15


def test_astitch_splits_and_overlap(data):
    items = load_astitch(data)
    counts = Counter((c.language, c.split) for c in items)
    assert counts == {
        ("EN", "train"): 163,
        ("EN", "dev"): 30,
        ("EN", "test"): 30,
        ("PT", "train"): 73,
        ("PT", "dev"): 20,
        ("PT", "test"): 20,
    }
    overlap = load_overlap(data, "astitch")
    assert overlap == {c.idiom for c in items if c.split != "train"}  # the 100 dev/test compounds are SemEval's


def test_ncs_compounds(data):
    items = load_ncs(data)
    # EN 281, PT 180 compounds; "wedding day" (P1 rewrite == P3 rewrite) is skipped
    assert Counter(c.language for c in items) == {"EN": 280, "PT": 180}
    corpus = Counter()
    for c in items:
        corpus[c.language] += len(c.corpus_sentences)
    assert corpus == {"EN": 545 - 1, "PT": 498}  # the skipped compound had 1 verbatim sentence
    assert all(c.synonym_rewrite != c.literal_rewrite for c in items)
    overlap = load_overlap(data, "ncs")
    assert len(overlap) == 200 and len(overlap & {c.idiom for c in items}) == 199


def test_lidioms(data):
    items = load_lidioms(data)
    idioms = {lang: {e.idiom for e in items if e.language == lang} for lang in ("EN", "PT")}
    assert (len(idioms["EN"]), len(idioms["PT"])) == (292, 115)  # README: 293 EN (1 has no definition) / 115 PT
    assert Counter(e.language for e in items) == {"EN": 292, "PT": 118}  # 3 PT idioms have two definitions
    assert len(load_overlap(data, "lidioms")) == 4


def test_itu(data):
    items = load_itu(data)
    # 5,300 literal + 5,300 figurative; 2 / 29 repeated sentences read once
    assert Counter(u.usage for u in items) == {"literal": 5298, "figurative": 5271}
    assert len({u.idiom for u in items}) == 53
    assert load_overlap(data, "itu") == set()


def test_mt_ambiguity(data):
    meanings = load_mt_meanings(data)
    assert len(meanings) == 1584 - 3  # 3 pfbt idioms have no meaning
    assert Counter(m.source for m in meanings) == {"dict": 1366, "pfbt": 215}
    triples = load_mt_triples(data)
    assert len(triples) == 700 and sum(t.old_well_formed for t in triples) == 407
    assert len(load_overlap(data, "mt_ambiguity")) == 30


def test_miqa_figqa_clue(data):
    assert len(load_miqa(data)) == 150
    # train_xl 8,016 rows (8 with two equal endings skipped), dev 1,094
    assert Counter(f.split for f in load_figqa(data)) == {"train": 8008, "dev": 1094}
    pytest.importorskip("openpyxl")
    assert Counter(u.kind for u in load_clue(data)) == {"simplex": 30, "idiom": 30, "simile": 30, "proverb": 30}
