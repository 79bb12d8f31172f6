"""The variant-aware held-out guard: a held-out idiom in another form inside any text of a row drops the row."""

from __future__ import annotations

from idiomkit.training.recipes.guard import HeldOutGuard


def test_inflected_and_interrupted_forms_are_found():
    guard = HeldOutGuard([("spill the beans", "EN"), ("pisar na bola", "PT")])
    assert guard.found("She finally spilled all the beans to her boss.") == ["spill the beans"]
    assert guard.found("Ele pisou na bola ontem.") == ["pisar na bola"]
    assert guard.found("She spilled coffee on the beanbag.") == []
    assert guard.found("") == []


def test_filter_drops_rows_holding_one_in_any_text():
    guard = HeldOutGuard([("spill the beans", "EN")])
    rows = [("He kicked the bucket.", "He died."), ("Tom slept.", "Who spilt the beans?"), ("Fine.", "Good.")]
    assert guard.filter("toy", rows, lambda r: r) == [rows[0], rows[2]]
