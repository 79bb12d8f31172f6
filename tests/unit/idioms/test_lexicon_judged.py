"""benchmarks/lexicon/lexicon_judged.py: the judged sample is a bottom-k hash sample (an entry dropped from the
lexicon is replaced, the others stay), the rates count an entry right only when it is an idiom with a correct
paraphrase, and the committed judgements cover the sample of the shipped lexicon."""

from __future__ import annotations

from helpers import benchmark_script

from idiomkit.idioms.lexicon import Lexicon


def test_the_sample_keeps_its_entries_when_another_one_is_dropped():
    bench = benchmark_script("lexicon/lexicon_judged")
    lex = Lexicon.from_pairs([(f"idiom number {i}", f"meaning {i}") for i in range(40)])
    first = bench.sample(lex, "EN", 10)
    dropped = first[0][0]
    lex.remove([dropped], "EN")
    second = bench.sample(lex, "EN", 10)
    assert len(second) == 10 and dropped not in {r[0] for r in second}
    assert set(first[1:]) <= set(second)  # nine stay; one new entry takes the dropped one's place


def test_rates_count_an_idiom_with_a_correct_paraphrase():
    bench = benchmark_script("lexicon/lexicon_judged")
    rows = [
        {"is_idiom": "yes", "paraphrase": "yes"},
        {"is_idiom": "yes", "paraphrase": "no"},
        {"is_idiom": "no", "paraphrase": "yes"},
        {"is_idiom": "yes", "paraphrase": "yes"},
    ]
    out = bench.rates(rows)
    assert out["right"] == 2 and out["rate"] == 0.5 and out["idiom"] == 0.75 and out["paraphrase"] == 0.75
    assert out["low"] < 0.5 < out["high"]


def test_the_committed_judgements_cover_the_sample_of_the_shipped_lexicon():
    from idiomkit.idioms.sources import default_lexicon

    bench = benchmark_script("lexicon/lexicon_judged")
    judged = bench.read_judgements()
    lex = default_lexicon()
    for language, size in bench.SIZES.items():
        for idiom, meaning, _ in bench.sample(lex, language, size):
            row = judged[language, idiom, meaning]
            assert row["is_idiom"] in bench.ANSWERS and row["paraphrase"] in bench.ANSWERS and row["reason"]
