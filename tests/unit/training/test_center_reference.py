"""The centre's reference sample: STS *train* sentences of the base model's languages, split evenly, seeded."""

from __future__ import annotations

import pytest

from idiomkit.data.sts import load_sts
from idiomkit.errors import OptionError
from idiomkit.training.center import reference_sentences, reference_sources


def test_reference_sources_follow_the_base_models_languages():
    assert reference_sources("mpnet") == ("stsb-en",)
    assert reference_sources("me5-small-enpt") == ("stsb-en", "assin2")
    assert reference_sources("/some/local/model") == ("stsb-en",)


def test_reference_sentences_are_distinct_train_sentences_split_evenly_and_seeded(data_dir):
    picked = reference_sentences(data_dir, ("stsb-en", "assin2"), 7, seed=1)
    english = {t for p in load_sts(data_dir, "train", ("stsb-en",)) for t in (p.sentence_1, p.sentence_2)}
    portuguese = {t for p in load_sts(data_dir, "train", ("assin2",)) for t in (p.sentence_1, p.sentence_2)}
    assert len(set(picked)) == 7
    assert sum(t in english for t in picked[:4]) == 4 and sum(t in portuguese for t in picked[4:]) == 3
    assert picked == reference_sentences(data_dir, ("stsb-en", "assin2"), 7, seed=1)
    assert picked != reference_sentences(data_dir, ("stsb-en", "assin2"), 7, seed=2)
    with pytest.raises(OptionError, match="sentences must be >= 1, got 0"):
        reference_sentences(data_dir, ("stsb-en",), 0, seed=1)
