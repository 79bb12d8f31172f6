"""The lexicon built from the real training sources: no held-out idiom in it, and none in the shipped TSV."""

from __future__ import annotations

from idiomkit.data.heldout import heldout_index
from idiomkit.idioms.sources import BuildReport, build_lexicon, default_lexicon


def test_no_heldout_idiom_in_the_built_or_the_shipped_lexicon(data_dir):
    index = heldout_index(data_dir)
    report = BuildReport()
    built = build_lexicon(data_dir, report)
    assert len(built) > 2000 and index.idioms
    for lex in (built, default_lexicon()):
        leaked = [e.idiom for e in lex if index.has_idiom(e.idiom)]
        assert not leaked, leaked[:10]
    assert all(counts["read"] > 0 for counts in report.counts.values())
    assert {src for (_, src) in report.sizes} >= {"astitch", "clue", "epie", "pie", "mt_ambiguity", "lidioms"}
