"""The held-out dedup on the real data: every held-out split is indexed, planted leaks are dropped and counted, STS
validation comes from STS train, never from STS-B / ASSIN 2 dev or test (2B dev's STS rows), and the core test's
held-out idioms (stored list = rule) reach the index, so a planted training row of one is dropped."""

from __future__ import annotations

import csv
import logging
import shutil
from collections import Counter

import pytest

from idiomkit.data.extra.pie import load_pie
from idiomkit.data.heldout import benchmark_index, core_test, heldout_index
from idiomkit.data.keys import normalise_idiom, normalise_sentence
from idiomkit.data.literal_words import WORDNET_DIR, build_literal_words, is_content_word, load_literal_words
from idiomkit.data.meaning_triples import (
    MAX_PER_IDIOM,
    heldout_list,
    load_heldout_list,
    pie_span_words,
    training_sentences,
    validation_idioms,
)
from idiomkit.data.semeval2022 import B_FILES, load_subtask_b
from idiomkit.data.sts import load_sts
from idiomkit.training.config import TrainConfig
from idiomkit.training.recipes.base import sts_split
from idiomkit.training.recipes.flagship import meaning_rows
from idiomkit.training.setup import load_groups


def test_index_holds_every_heldout_split(data_dir):
    index = heldout_index(data_dir)
    dev = load_subtask_b(data_dir, "dev").pairs[0]
    assert index.has_sentence(dev.sentence1.upper())
    assert index.has_sentence(load_sts(data_dir, "test")[0].sentence_1)
    for name in (
        "2A dev idioms",
        "IdioLink test idioms",
        "AdMIRe test idioms",
        "Xiao held-out idioms",
        "core test held-out idioms",
        "STS dev sentences",
    ):
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


# --- the core test's held-out idioms -------------------------------------------------------------------------


def test_stored_core_lists_are_what_the_rules_give(data_dir):
    """The held-out list in the repository is the rule's today, and the literal words cover every PIE span word."""
    rows = heldout_list(data_dir, benchmark_index(data_dir).benchmark_idioms)
    assert load_heldout_list() == [tuple(r) for r in rows]
    words = load_literal_words()
    needed = {w for w in pie_span_words(data_dir) if is_content_word(w)}
    assert needed <= set(words), sorted(needed - set(words))[:10]
    if (WORDNET_DIR / "index.noun").is_file():
        rebuilt = {(r.word, r.pos): r.literal for r in build_literal_words(pie_span_words(data_dir))}
        rebuilt = {k: v for k, v in rebuilt.items() if k[1]}  # pos "": a word WordNet does not know
        assert rebuilt == {(w, p): lit for w, options in words.items() for p, (lit, _) in options.items()}


def test_core_test_holds_human_written_heldout_triples_and_reaches_the_index(data_dir):
    """At least 300 EN and 150 PT held-out triples written by people (NCS, AStitch in 2A sentences); the PIE/WordNet
    triples beside them; every held-out idiom and sentence in the index; no seen triple a training source holds."""
    core = core_test(data_dir)
    held = [t for t in core.triples if t.heldout]
    human = [t for t in held if t.human]
    assert sum(t.language == "EN" for t in human) >= 300 and sum(t.language == "PT" for t in human) >= 150
    assert {t.source for t in human} == {"ncs", "astitch-2a"} and {t.source for t in held} == {
        "pie",
        "ncs",
        "astitch-2a",
    }
    labels = {t.idiom: t.heldout for t in core.triples if t.idiom in ("wet blanket", "old flame", "elbow grease")}
    assert labels == {"wet blanket": True, "old flame": True, "elbow grease": True}  # 2A/2B test MWEs
    index = heldout_index(data_dir)
    assert all(index.has_idiom(t.idiom) for t in held)
    assert all(index.has_sentence(t.sentence) for t in held)
    assert {key for _, _, key, _, _ in load_heldout_list()} <= index.idioms
    trained = training_sentences(data_dir)
    assert not any(normalise_sentence(t.sentence) in trained for t in core.triples if not t.heldout)
    validation = validation_idioms(data_dir)
    assert validation and not any(normalise_idiom(t.idiom) in validation for t in core.triples if not t.heldout)
    assert core.discarded and all(n > 0 for n in core.discarded.values())
    per_idiom = Counter((t.idiom, t.heldout, t.human) for t in core.triples)
    assert max(per_idiom.values()) <= MAX_PER_IDIOM


def test_every_training_stream_drops_the_heldout_idioms_in_any_form(data_dir):
    """The held-out check on the real data: it finds the held-out PIE idioms in nearly all of their own sentences
    (slot-less and possessive forms included), finds ASSIN 2's "ao ar livre", and the evaluation lexicon keeps no
    held-out idiom in any form."""
    from idiomkit.idioms.sources import evaluation_lexicon

    core, index = core_test(data_dir), heldout_index(data_dir)
    pie = [t for t in core.triples if t.heldout and t.source == "pie"]
    assert sum(bool(index.find(t.sentence)) for t in pie) >= 0.95 * len(pie)
    assert index.find("O menino brinca ao ar livre") == ["ar livre"]
    lexicon = evaluation_lexicon(data_dir)
    assert not [e.idiom for e in lexicon if index.find(e.idiom)]
    for name in ("wash one's hands", "beat about the bush", "knight in shining armor", "pull someone's leg"):
        assert lexicon.get(name) is None and index.has_idiom(name)


@pytest.fixture
def planted_pie(tmp_path, data_dir):
    """A data directory like the real one whose PIE train file gains a row of a hashed held-out idiom and one of a
    seen idiom (tags all O, so neither becomes a core-test triple: only the idiom can drop it)."""
    for child in data_dir.iterdir():
        if child.name != "idioms_extra":
            (tmp_path / child.name).symlink_to(child)
    extra = tmp_path / "idioms_extra"
    extra.mkdir()
    for child in (data_dir / "idioms_extra").iterdir():
        if child.name != "pie_zhou2021":
            (extra / child.name).symlink_to(child)
    shutil.copytree(data_dir / "idioms_extra" / "pie_zhou2021", extra / "pie_zhou2021")
    held = next(idiom for _, idiom, _, sources, reason in load_heldout_list() if reason == "hash" and sources == "pie")
    index = heldout_index(data_dir)
    seen = next(p.idiom for p in load_pie(data_dir, ("train",)) if not index.has_idiom(p.idiom))
    train = extra / "pie_zhou2021" / "ISP" / "train.csv"
    with train.open("a", encoding="utf-8", newline="") as fh:
        for idiom in (held, seen):
            sentence = f"A planted sentence about {idiom} ."
            csv.writer(fh).writerow(
                [idiom, "a sense", sentence, "A planted paraphrase .", " ".join("O" * len(sentence.split())), "O O O O"]
            )
    return tmp_path, held, seen


def test_planted_training_row_of_a_core_heldout_idiom_is_dropped(planted_pie, caplog):
    planted, held, seen = planted_pie
    with caplog.at_level(logging.INFO, logger="idiomkit.data.heldout"):
        rows, keys = meaning_rows(TrainConfig(recipe="flagship", data_dir=str(planted)), heldout_index(planted))
    anchors = {a for a, _ in rows}
    assert f"A planted sentence about {seen} ." in anchors
    assert f"A planted sentence about {held} ." not in anchors
    assert not any(heldout_index(planted).has_idiom(k) for k in keys)
    assert any(r.message.startswith("held-out dedup flagship meaning") for r in caplog.records)
