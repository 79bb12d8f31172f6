"""The held-out dedup on the real data: every held-out split is indexed, planted leaks are dropped and counted, and
STS validation comes from STS train, never from STS-B / ASSIN 2 dev or test (2B dev's STS rows)."""

from __future__ import annotations

import csv
import logging
import shutil

import pytest

from idiomkit.data.heldout import core_test, heldout_index
from idiomkit.data.semeval2022 import B_FILES, load_subtask_b
from idiomkit.data.sts import load_sts
from idiomkit.training.config import TrainConfig
from idiomkit.training.recipes.base import sts_split
from idiomkit.training.setup import load_groups


def test_index_holds_every_heldout_split(data_dir):
    index = heldout_index(data_dir)
    dev = load_subtask_b(data_dir, "dev").pairs[0]
    assert index.has_sentence(dev.sentence1.upper())
    assert index.has_sentence(load_sts(data_dir, "test")[0].sentence_1)
    for name in ("2A dev idioms", "IdioLink test idioms", "AdMIRe test idioms", "Xiao held-out idioms",
                 "core test held-out idioms", "STS dev sentences"):  # fmt: skip
        assert index.sizes[name] > 0, name
    assert core_test(data_dir).heldout_idioms <= {t.idiom for t in core_test(data_dir).triples}


@pytest.fixture
def planted(tmp_path, data_dir):
    """A data directory like the real one whose 2B train file gains a 2B dev sentence and an IdioLink test idiom."""
    for child in data_dir.iterdir():
        if child.name != "semeval2022_task2":
            (tmp_path / child.name).symlink_to(child)
    shutil.copytree(data_dir / "semeval2022_task2", tmp_path / "semeval2022_task2")
    train = tmp_path / "semeval2022_task2" / B_FILES["train"]
    rows = list(csv.reader(train.open(encoding="utf-8")))
    header, first = rows[0], rows[1]
    dev_sentence = load_subtask_b(data_dir, "dev").pairs[0].sentence1
    idiom = heldout_index(data_dir).benchmark_idioms and "big fish"
    col = {name: i for i, name in enumerate(header)}
    leak_sentence, leak_idiom = list(first), list(first)
    leak_sentence[col["sentence_1"]], leak_sentence[col["ID"]] = dev_sentence, "planted-1"
    leak_idiom[col["sentence_1"]] = f"The {idiom} of the town spoke."
    leak_idiom[col["MWE1"]], leak_idiom[col["ID"]] = idiom, "planted-2"
    with train.open("a", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([leak_sentence, leak_idiom])
    return tmp_path


def test_planted_2b_train_leaks_are_dropped_and_counted(planted, caplog):
    with caplog.at_level(logging.INFO, logger="idiomkit.data.heldout"):
        train, val, _ = load_groups(TrainConfig(recipe="cosent", data_dir=str(planted)))
    texts = {g.sentence for g in train + val}
    assert not any(t.startswith("The big fish of the town") for t in texts)
    assert load_subtask_b(planted, "dev").pairs[0].sentence1 not in texts
    line = next(r.message for r in caplog.records if r.message.startswith("held-out dedup 2B train"))
    clean, _, _ = load_groups(TrainConfig(recipe="cosent", heldout_dedup=False, data_dir=str(planted)))
    assert f"of {len(clean)} " not in line  # the planted groups were there to drop
    assert "with a held-out sentence" in line


def test_task_rules_drop_heldout_sentences_but_keep_heldout_idioms(planted):
    """--no-dedup-idioms (SemEval 2B's fine_tune rule): the planted dev sentence goes, the planted idiom stays."""
    train, val, _ = load_groups(TrainConfig(recipe="cosent", dedup_idioms=False, data_dir=str(planted)))
    texts = {g.sentence for g in train + val}
    assert "The big fish of the town spoke." in texts
    assert load_subtask_b(planted, "dev").pairs[0].sentence1 not in texts
    strict, _, _ = load_groups(TrainConfig(recipe="cosent", data_dir=str(planted)))
    assert len(train) > len(strict)  # the 2B train groups of held-out MWEs are kept


def test_sts_validation_is_carved_from_deduplicated_train(data_dir):
    train, val = sts_split(TrainConfig(recipe="cosent-sts", data_dir=str(data_dir)))
    index = heldout_index(data_dir)
    pairs = {(p.sentence_1, p.sentence_2) for p in train}
    assert val and train and not {(p.sentence_1, p.sentence_2) for p in val} & pairs
    assert not any(index.has_sentence(s) for p in train + val for s in (p.sentence_1, p.sentence_2))
    assert {p.source for p in val} == {"stsb-en", "assin2"}
    _, old_val = sts_split(TrainConfig(recipe="cosent-sts", heldout_dedup=False, data_dir=str(data_dir)))
    assert len(old_val) == len(load_sts(data_dir, "dev"))  # the recorded rows' STS dev validation
