"""benchmarks/lexicon/pt_recall.py: a recall-list row is found when an entry related to its idiom matches in its
sentence, and counts for Portuguese recall only when the entry's first meaning is Portuguese; the committed list is
well-formed and as large as promised."""

from __future__ import annotations

import pytest
from helpers import benchmark_script

from idiomkit.data.errors import DataError
from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.matcher import Matcher


def test_a_row_counts_for_portuguese_recall_only_with_a_portuguese_first_meaning():
    bench = benchmark_script("lexicon/pt_recall")
    lex = Lexicon()
    lex.add("abrir o jogo", "PT", "falar com franqueza", "idiomkit")
    lex.add("pisar na bola", "PT", "to blunder", "lidioms", meaning_language="EN")
    matcher = Matcher(lex)
    row = {"idiom": "abrir o jogo", "sentence": "Ela abriu o jogo com o chefe.", "source": "x"}
    found = bench.score(row, lex, matcher, accept=lambda s, m: False)
    assert found["found"] and found["portuguese"] and found["sense"] is False
    assert found["meaning"] == "falar com franqueza"
    gloss = bench.score({"idiom": "pisar na bola", "sentence": "Ele pisou na bola.", "source": "x"}, lex, matcher)
    assert gloss["found"] and not gloss["portuguese"]
    other = bench.score({"idiom": "engolir sapo", "sentence": "Ele engoliu sapo.", "source": "x"}, lex, matcher)
    assert not other["found"] and bench.rates([found, gloss, other])["portuguese"] == round(1 / 3, 4)


def test_the_committed_list_is_well_formed_and_holds_150_idioms_or_more(tmp_path):
    bench = benchmark_script("lexicon/pt_recall")
    rows = bench.read_list()
    assert len({r["idiom"] for r in rows}) >= 150
    assert {"Ela abriu o jogo com o chefe.", "Ele pisou na bola de novo."} <= {r["sentence"] for r in rows}
    bad = tmp_path / "list.tsv"
    bad.write_text("idiom\tmeaning\tsentence\tsource\nabrir o jogo\t\tEla abriu o jogo.\tx\n", encoding="utf-8")
    with pytest.raises(DataError, match="row 1.*meaning"):
        bench.read_list(bad)
