"""The sense check: features, a tiny synthetic fit, JSON save/load, corrupt files and the threshold."""

from __future__ import annotations

import json

import pytest

from idiomkit.data.errors import DataError
from idiomkit.idioms import Lexicon, Matcher
from idiomkit.idioms.sense import SenseCheck, features
from idiomkit.idioms.sense_training import (
    Sample,
    fit,
    idiom_fold,
    language_thresholds,
    locate,
    scores,
    source_balanced_threshold,
    source_weights,
)
from idiomkit.metrics.classification import macro_f1

GROUPS = ("window", "span", "cues", "lang")


def _sample(left: str, figurative: bool, n: int) -> Sample:
    sentence = f"Then {left} big fish number {n}."
    start = sentence.index("big fish")
    return Sample(sentence, start, start + len("big fish"), "big fish", "EN", figurative, "synthetic")


@pytest.fixture(scope="module")
def tiny() -> SenseCheck:
    """Figurative samples have "zorp" left of the idiom, literal ones "blick"."""
    samples = [_sample("zorp", True, i) for i in range(12)] + [_sample("blick", False, i) for i in range(12)]
    return fit(samples, GROUPS, c=1.0)


def _match(sentence: str, idiom: str = "big fish"):
    return Matcher(Lexicon.from_pairs([(idiom, "meaning")])).find(sentence)[0]


def test_the_separating_feature_is_learned(tiny):
    assert tiny.weights["L1=zorp"] > 0 > tiny.weights["L1=blick"]
    fig, lit = "Then zorp big fish again.", "Then blick big fish again."
    assert tiny.figurative_probability(fig, _match(fig)) > 0.7
    assert tiny.figurative_probability(lit, _match(lit)) < 0.3


def test_save_load_round_trip_gives_identical_probabilities(tiny, tmp_path):
    tiny.summary["note"] = "tiny"
    path = tiny.save(tmp_path / "sense.json")
    loaded = SenseCheck.load(path)
    sentences = ["Then zorp big fish again.", "Then blick big fish again.", "A big fish, they said."]
    for s in sentences:
        assert loaded.figurative_probability(s, _match(s)) == tiny.figurative_probability(s, _match(s))
    assert (loaded.threshold, loaded.groups, loaded.summary) == (tiny.threshold, tiny.groups, {"note": "tiny"})


@pytest.mark.parametrize(
    "text, field",
    [
        ("{not json", None),
        ('{"format": "other"}', "format"),
        ('{"format": "idiomkit-sense-check", "version": 1, "features": ["a"], "weights": []}', "weights"),
    ],
)
def test_a_corrupt_file_is_a_one_line_data_error_naming_it(tmp_path, text, field):
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        SenseCheck.load(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    assert err.value.field == field


def test_a_bad_threshold_or_weight_is_rejected(tiny, tmp_path):
    for key, value in (("threshold", 1.5), ("weights", ["x"] * len(tiny.weights)), ("groups", ["words"])):
        data = tiny.to_json() | {key: value}
        path = tmp_path / f"{key}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(DataError, match=key):
            SenseCheck.load(path)


NOT_FINITE = [
    ("bias", "NaN"),
    ("bias", "Infinity"),
    ("bias", "-Infinity"),
    ("threshold", "NaN"),
    ("weights", "Infinity"),
    ("weights", "NaN"),
]


@pytest.mark.parametrize(("key", "literal"), NOT_FINITE, ids=[f"{k}-{v}" for k, v in NOT_FINITE])
def test_a_non_finite_number_is_refused_where_it_is_read(tiny, tmp_path, key, literal):
    """Python's JSON reads NaN and Infinity: a NaN bias once made every match figurative (min(30, nan) = 30)."""
    data = tiny.to_json()
    data[key] = [0.0] * (len(data["weights"]) - 1) + ["X"] if key == "weights" else "X"
    path = tmp_path / "sense.json"
    path.write_text(json.dumps(data).replace('"X"', literal), encoding="utf-8")
    with pytest.raises(DataError) as err:
        SenseCheck.load(path)
    assert err.value.field == key and str(err.value).startswith(f"{path}: field '{key}': ")
    assert "\n" not in str(err.value)


def test_a_deeply_nested_file_is_a_one_line_error(tmp_path):
    path = tmp_path / "sense.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(DataError) as err:
        SenseCheck.load(path)
    assert str(err.value).startswith(f"{path}: JSON nested too deeply to read") and "\n" not in str(err.value)


def test_the_threshold_is_applied(tiny):
    sentence = "Then zorp big fish again."
    p = tiny.figurative_probability(sentence, _match(sentence))
    strict = SenseCheck(tiny.weights, tiny.bias, threshold=min(1.0, p + 0.01), groups=tiny.groups)
    lenient = SenseCheck(tiny.weights, tiny.bias, threshold=p, groups=tiny.groups)
    assert not strict.is_figurative(sentence, _match(sentence))
    assert lenient.is_figurative(sentence, _match(sentence))


def test_span_features_see_case_quotes_inflection_and_cues():
    sentence = 'They literally "spilled all the beans" at the Big Fish bar.'
    a = sentence.index("spilled")
    spill = set(features(sentence, a, a + len("spilled all the beans"), "spill the beans", "EN", GROUPS))
    assert {"inflected", "inserted=1", "quoted", "masked=X all X", "cue=literal", 'L1="', "lang=EN"} <= spill
    b = sentence.index("Big Fish")
    assert "shape=title" in features(sentence, b, b + 8, "big fish", "EN", GROUPS)


def test_locate_finds_inflected_and_split_idioms():
    sentence = "He finally lost his temper."
    assert locate(sentence, "lose temper", "EN") == (11, 26)
    assert locate("Nothing here.", "lose temper", "EN") is None
    assert locate("Ela bateu as botas.", "bater as botas", "PT") == (4, 18)


def test_helpers_macro_f1_weights_and_folds():
    assert macro_f1([True, False], [True, False]) == 1.0
    assert macro_f1([True, True, False, False], [True, True, True, True]) == pytest.approx((2 / 3) / 2)
    samples = [_sample("zorp", True, 0), _sample("zorp", True, 1), _sample("blick", False, 2)]
    assert list(source_weights(samples)) == pytest.approx([0.75, 0.75, 1.5])
    assert idiom_fold("spill the beans") == idiom_fold("Spill  the beans!") in ("train", "validation")
    threshold, score = source_balanced_threshold(samples, [0.9, 0.8, 0.1])
    assert score == 1.0 and 0.1 < threshold <= 0.8


def test_source_balanced_threshold_weighs_every_source_the_same():
    """Two small sources outvote a large one: pooled macro-F1 would keep a threshold near 0.5 (0.83 against
    0.63), the mean over sources picks the low one (7/9 against 5/9), the highest of the tied grid points."""
    big = [_sample("zorp", fig, n)._replace(source="big") for n, fig in enumerate([True] * 4 + [False] * 4)]
    small_b = [_sample("zorp", fig, n)._replace(source="b") for n, fig in enumerate([True, False])]
    small_c = [_sample("zorp", fig, n)._replace(source="c") for n, fig in enumerate([True, False])]
    probs = [0.9] * 4 + [0.2] * 4 + [0.15, 0.05] + [0.12, 0.03]
    threshold, score = source_balanced_threshold(big + small_b + small_c, probs)
    assert threshold == 0.12 and score == pytest.approx(7 / 9)


def test_each_language_gets_the_threshold_its_own_sources_choose():
    """English separates at 0.5..0.8, Portuguese only above 0.2: one threshold for both would cost one of them;
    by language each is perfect, and scoring with the per-language function agrees."""
    en = [_sample("zorp", fig, n) for n, fig in enumerate([True, True, False, False])]
    pt = [_sample("zorp", fig, n)._replace(language="PT") for n, fig in enumerate([True, False])]
    probs = [0.9, 0.8, 0.4, 0.3, 0.25, 0.1]
    chosen = language_thresholds(en + pt, probs)
    assert set(chosen) == {"EN", "PT"} and 0.4 < chosen["EN"] <= 0.8 and 0.1 < chosen["PT"] <= 0.25
    assert scores(en + pt, probs, chosen.get)["accuracy"] == 1.0
    assert scores(en + pt, probs, 0.5)["accuracy"] < 1.0


def test_scores_against_the_always_figurative_baseline_and_an_empty_set_raises():
    samples = [_sample("zorp", True, 0), _sample("zorp", True, 1), _sample("blick", False, 2)]
    got = scores(samples, [0.9, 0.2, 0.1], 0.5)
    assert got == {
        "n": 3,
        "figurative": 2,
        "accuracy": 0.6667,
        "macro_f1": 0.6667,
        "baseline_accuracy": 0.6667,
        "baseline_macro_f1": 0.4,
    }
    with pytest.raises(ValueError, match="no labels to score"):  # the old local macro-F1 gave 1.0 here
        scores([], [], 0.5)
