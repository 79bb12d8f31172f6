"""benchmarks/lexicon/lexicon_benchmark.py's precision: matches on the annotated span over all matches, and over the
matches the sense check accepts (the ones the reader rewrites), on hand-made sentences."""

from __future__ import annotations

from helpers import benchmark_script

from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.matcher import Matcher


def _benchmark():
    return benchmark_script("lexicon/lexicon_benchmark")


def test_precision_counts_span_matches_over_all_and_over_the_accepted_ones():
    bench = _benchmark()
    matcher = Matcher(Lexicon.from_pairs([("spill the beans", "reveal a secret"), ("in the end", "finally")]))
    sentence = "In the end he spilled the beans."
    start = sentence.index("spilled")
    usage = bench.Usage(sentence, "spill the beans", "EN", (start, start + len("spilled the beans")))

    # two matches, one on the span: 1/2; the check accepts only "in the end": 0/1 of the rewrites are right
    result = bench.precision(matcher, [usage], accept=lambda s, m: m.idiom == "in the end")
    assert result["matches"] == 2 and result["precision"] == 0.5
    assert result["rewrites"] == 1 and result["precision+sense"] == 0.0

    result = bench.precision(matcher, [usage])
    assert result["rewrites"] is None and result["precision+sense"] is None


def test_labelled_precision_counts_an_off_span_idiom_right_with_a_wilson_interval(tmp_path):
    bench = _benchmark()
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "set,entry,matched,label\npie,for sure,for sure,idiom\npie,be sure,are sure,not an idiom here\n",
        encoding="utf-8",
    )
    rows = [{"rewrites": 10}]  # 10 rewrites, 4 off the span: 6 on it
    off_span = [("pie", "for sure", "for sure"), ("pie", "be sure", "are sure")] * 2
    result = bench.labelled_precision(rows, off_span, labels)
    # 4 sampled, all labelled, half idioms: (6 + 4 * 0.5) / 10
    assert result["labelled"] == 4 and result["unlabelled"] == 0 and result["idiom_share"] == 0.5
    assert result["precision"] == 0.8 and result["low"] < 0.8 < result["high"]

    result = bench.labelled_precision(rows, [("pie", "in the end", "in the end")], labels)
    assert result["unlabelled"] == 1 and result["precision"] is None


def test_false_rewrites_and_the_threshold_curve_count_matched_spans_by_hand():
    bench = _benchmark()
    matcher = Matcher(Lexicon.from_pairs([("big fish", "an important person")]))

    class Check:  # P(figurative) from the sentence's first word
        threshold = 0.5

        def figurative_probability(self, sentence, match):
            return {"The": 0.2, "A": 0.6, "He": 0.9}[sentence.split()[0]]

    def usage(sentence):
        start = sentence.index("big fish")
        return bench.Usage(sentence, "big fish", "EN", (start, start + len("big fish")))

    literal = [
        usage("The boat landed a big fish."),
        usage("A big fish swam by."),
        bench.Usage("No idiom.", "big fish", "EN", (0, 2)),
    ]
    result = bench.false_rewrites(matcher, literal, Check())
    assert result == {"literal": 3, "matched": 2, "rewritten": 1, "false_rewrite_rate": 0.5}

    probabilities = bench.span_probabilities(matcher, [usage("He is a big fish here.")], Check())
    curve = bench.threshold_curve([0.2, 0.6], probabilities, (0.5, 0.7))
    assert [(r["false_rewrite_rate"], r["idiomatic_rewrite_rate"]) for r in curve] == [(0.5, 1.0), (0.0, 1.0)]


def test_leaving_a_source_out_drops_what_only_it_gave_and_what_only_the_semeval_tag_keeps():
    bench = _benchmark()
    lex = Lexicon()
    lex.add("spill the beans", "EN", "reveal a secret", "pie")
    lex.add("spill the beans", "EN", "tell a secret", "epie")  # another source has it too: stays
    lex.add("big fish", "EN", "an important person", "pie")  # only PIE: goes
    lex.add("old flame", "EN", "a former lover", "pie")
    lex.add("old flame", "EN", "a former lover", bench.SEMEVAL_TAG)  # PIE and the SemEval tag only: goes
    lex.add("wet blanket", "EN", "a spoilsport", bench.SEMEVAL_TAG)  # the tag only, PIE never had it: goes too
    kept = bench.without_source(lex, "pie")
    assert [e.idiom for e in kept.entries()] == ["spill the beans"]
    assert [row[3] for row in kept.rows()] == ["epie"]
    assert len(bench.without_source(lex, "clue")) == 3  # a source with no rows: every entry but the tag-only one


def test_the_labelled_sample_keeps_its_labelled_rewrites_when_others_come_and_go(tmp_path):
    bench = _benchmark()
    labels = tmp_path / "labels.csv"
    labels.write_text("set,entry,matched,label\npie,for sure,for sure,idiom\n", encoding="utf-8")
    others = [("pie", f"entry {i}", f"entry {i}") for i in range(200)]  # unlabelled, more than the sample holds
    for off_span in (others + [("pie", "for sure", "for sure")], [("pie", "for sure", "for sure")] + others[:150]):
        result = bench.labelled_precision([{"rewrites": 1000}], off_span, labels)
        assert result["labelled"] == 1 and result["unlabelled"] == bench.SAMPLE_SIZE - 1
