"""Issue #44 point 1: the flagship's streams on the real data hold no held-out core-test idiom in any form.

The misreading stream is built from the core test's *seen* triples only (no held-out idiom, no held-out sentence,
none graded against itself under the reader's lexicon), and every idiom stream's texts are free of held-out idioms
as the idiom matcher finds them (inflected, interrupted), which the exact-key dedup alone misses on this data."""

from __future__ import annotations

import logging

import pytest

from idiomkit.data.heldout import core_test, heldout_index
from idiomkit.data.keys import normalise_idiom, normalise_sentence
from idiomkit.idioms.sources import evaluation_lexicon
from idiomkit.tasks.meaning_triples import lookup_equal
from idiomkit.training.config import TrainConfig
from idiomkit.training.recipes.flagship import idiolink_rows, meaning_rows, misreading_triples
from idiomkit.training.recipes.guard import HeldOutGuard


@pytest.fixture(scope="module")
def held(data_dir):
    test = core_test(data_dir)
    return test, {normalise_idiom(i) for i in test.heldout_idioms}, HeldOutGuard.for_data(data_dir)


def test_the_misreading_stream_is_the_seen_split_without_self_graded_triples(data_dir, held):
    test, keys, guard = held
    lexicon = evaluation_lexicon(data_dir)
    cfg = TrainConfig(recipe="flagship", data_dir=str(data_dir))
    train, val = misreading_triples(cfg, heldout_index(data_dir), lexicon, guard)
    seen = {(t.sentence, t.idiom) for t in test.triples if not t.heldout}
    held_sentences = {normalise_sentence(s) for s in test.heldout_sentences}
    assert train and val
    core = [t for t in train + val if t.source != "mt-ambiguity"]
    assert core and all((t.sentence, t.idiom) in seen for t in core)
    for t in train + val:
        assert normalise_idiom(t.idiom) not in keys and normalise_sentence(t.sentence) not in held_sentences
        assert not lookup_equal(t, lexicon) and not guard.found(t.sentence)
    assert {t.idiom for t in train}.isdisjoint({t.idiom for t in val})


def test_no_idiom_stream_holds_a_heldout_idiom_in_any_form(data_dir, held, caplog):
    _, keys, guard = held
    cfg = TrainConfig(recipe="flagship", data_dir=str(data_dir))
    index = heldout_index(data_dir)
    with caplog.at_level(logging.INFO):
        meaning, meaning_keys = meaning_rows(cfg, index, guard)
        links, link_keys = idiolink_rows(cfg, index, guard)
    assert {normalise_idiom(k) for k in meaning_keys + link_keys}.isdisjoint(keys)
    for row in meaning + links:
        assert not any(guard.found(text) for text in row), row
    dropped = [r.getMessage() for r in caplog.records if r.getMessage().startswith("held-out guard flagship meaning")]
    assert dropped and " 0 hold" not in dropped[0]  # the exact-key dedup left some behind: the guard bites here
