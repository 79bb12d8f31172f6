"""An unknown choice above the data layer (query mode, lexical model, pool, type signal, recipe, track) is refused
with one line naming it and every known one, before any model or data is touched (``None`` stands for them)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from idiomkit.errors import OptionError
from idiomkit.methods.admire.structured import StructuredRanker
from idiomkit.methods.semeval2a.classifier import ClassifierConfig
from idiomkit.results import ResultKey
from idiomkit.tasks import admire, idiolink
from idiomkit.training.recipes import RECIPES, build_phases

CASES: list[tuple[str, Callable[[], object], str]] = [
    (
        "admire query mode",
        lambda: admire.query_inputs([], "nope"),
        "unknown query mode 'nope' (expected one of sentence, span, marked, marked+span)",
    ),
    (
        "idiolink query mode",
        lambda: idiolink.dense_run(None, None, idiolink.IdioLinkOptions(query_mode="nope"), None, {}),
        "unknown query mode 'nope' (expected one of sentence, span, instruction, instruction+span, sentence+span)",
    ),
    (
        "idiolink lexical model",
        lambda: idiolink.lexical_run("tfidf", None, idiolink.IdioLinkOptions(), None, {}),
        "unknown lexical model 'tfidf' (expected one of bm25)",
    ),
    (
        "classifier pool",
        lambda: ClassifierConfig(pool="max"),
        "unknown pool 'max' (expected one of span+mean, span, mean, cls)",
    ),
    (
        "structured type signal",
        lambda: StructuredRanker("gold"),
        "unknown type signal 'gold' (expected one of none, proxy, oracle)",
    ),
    (
        "recipe",
        lambda: build_phases("nope", None, None, None),
        f"unknown recipe 'nope' (expected one of {', '.join(RECIPES)})",
    ),
    (
        "result track",
        lambda: ResultKey("semeval2b-dev", "m", "r", track="gold"),  # type: ignore[arg-type]
        "unknown track 'gold' (expected one of plain, marked)",
    ),
]


@pytest.mark.parametrize(("call", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_unknown_choice_is_one_line_naming_the_known_ones(call, message):
    with pytest.raises(OptionError) as err:
        call()
    assert str(err.value) == message
