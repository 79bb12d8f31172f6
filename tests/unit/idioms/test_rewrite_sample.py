"""benchmarks/lexicon/rewrite_sample.py: judgements are keyed by (sentence, rewrite), so a re-drawn sample keeps the
judgement of every row whose rewrite did not change and asks for the others; the score counts judged rows only."""

from __future__ import annotations

from helpers import benchmark_script


def test_judgements_carry_over_by_sentence_and_rewrite_and_the_score_counts_judged_rows(tmp_path, monkeypatch):
    bench = benchmark_script("lexicon/rewrite_sample")
    monkeypatch.setattr(bench, "SAMPLE", tmp_path / "sample.tsv")
    monkeypatch.setattr(bench, "LEDGER", tmp_path / "ledger.tsv")
    row = dict.fromkeys(bench.COLUMNS, "")
    old = [
        {**row, "language": "EN", "sentence": "He kicked the bucket.", "rewrite": "He died.", "judgement": "1"},
        {**row, "language": "PT", "sentence": "Ele pisou na bola.", "rewrite": "Ele errou.", "judgement": "0"},
    ]
    bench._write_tsv(bench.LEDGER, bench.LEDGER_COLUMNS, [old[1]])
    bench._write_tsv(bench.SAMPLE, bench.COLUMNS, [old[0]])
    known = bench.judgements()
    assert known[("He kicked the bucket.", "He died.")]["judgement"] == "1"  # from the sample
    assert known[("Ele pisou na bola.", "Ele errou.")]["judgement"] == "0"  # from the ledger
    assert ("He kicked the bucket.", "He kicked off.") not in known  # a changed rewrite needs a new judgement

    rows = [*old, {**row, "language": "EN", "sentence": "New one.", "rewrite": "New two."}]
    assert bench.score(rows) == {"EN": (1, 1, 1), "PT": (0, 1, 0), "all": (1, 2, 1)}
