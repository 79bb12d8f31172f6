"""The lexicon build: the full (shipped) lexicon holds held-out idioms, the evaluation one drops them and their
variants; precision filters, spellings, meanings (order, language), licence terms, and the packaged TSV."""

from __future__ import annotations

import pytest

from idiomkit.data.heldout import HeldOut
from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms import Lexicon, lexicon_build
from idiomkit.idioms.lexicon_build import (
    Sense,
    allowed_sources,
    assemble,
    build_lexicon,
    clean_idiom,
    clean_meaning,
    drop_reason,
    is_phrasal_verb,
    screen,
)
from idiomkit.idioms.lexicon_sources import with_slots
from idiomkit.idioms.light import LightWords
from idiomkit.idioms.sources import DEFAULT_LEXICON, BuildReport, default_lexicon, heldout_variants


def held(*idioms: str) -> HeldOut:
    return HeldOut(frozenset(), frozenset(normalise_idiom(i) for i in idioms))


ROWS = [
    Sense("kick the bucket", "EN", "To die.", "pie"),
    Sense("kick the bucket", "EN", "die", "baiango"),
    Sense("spill the beans", "EN", "to reveal a secret", "epie"),
    Sense("spilling the beans", "EN", "telling a secret", "theidioms"),
    Sense("pull leg", "EN", "tease", "pie"),
    Sense("pull someone's leg", "EN", "to joke with someone", "mt_ambiguity"),
    Sense("give up", "EN", "to stop trying", "mt_ambiguity"),
    Sense("ace", "EN", "expert", "clue"),
    Sense("big fish", "EN", "", "astitch"),
    Sense("bater as botas", "PT", "to die", "lidioms"),
]


LIGHT = LightWords(  # a tiny WordNet: "sure" restated by "certain"; "kick" and "die" verbs
    frozenset({"bucket", "leg", "beans"}),
    {"sure": frozenset({"sure", "certa"})},
    frozenset({"kick", "die", "spill", "pull", "tease", "joke"}),
)


@pytest.fixture
def fake_sources(monkeypatch):
    """build_lexicon over ROWS as its only source, SemEval MWEs and a held-out index of 'spill the beans'."""
    monkeypatch.setattr(lexicon_build, "SOURCES", {"fake": lambda data_dir: list(ROWS)})
    monkeypatch.setattr(
        lexicon_build, "semeval_train_mwes", lambda data_dir: {("kick the bucket", "EN"), ("x y", "PT")}
    )
    monkeypatch.setattr(lexicon_build, "heldout_index", lambda data_dir: held("spill the beans"))
    monkeypatch.setattr(lexicon_build, "light_words", lambda: LIGHT)  # a tiny WordNet: "sure" restated by "certain"


def test_a_planted_heldout_idiom_is_in_the_full_lexicon_and_absent_from_the_evaluation_one(fake_sources):
    assert "spill the beans" in build_lexicon("unused") and "spilling the beans" in build_lexicon("unused")
    report = BuildReport()
    lex = build_lexicon("unused", report, evaluation=True)
    assert "spill the beans" not in lex and "spilling the beans" not in lex
    assert "kick the bucket" in lex and "pull someone's leg" in lex
    assert report.counts["epie"]["held-out entries"] == 1
    assert report.counts["theidioms"]["held-out variants"] == 1


def test_a_permissive_build_keeps_permissive_sources_only(fake_sources):
    lex = build_lexicon("unused", terms="permissive")
    assert {s for e in lex for s in e.sources} == {"baiango"}
    assert allowed_sources("permissive") == {"idiomkit", "clue", "baiango", "wordnet"}
    assert "lidioms" in allowed_sources("non-commercial") and "theidioms" not in allowed_sources("non-commercial")
    with pytest.raises(ValueError, match="unknown licence terms"):
        allowed_sources("free")


def test_filters_are_counted_per_source(fake_sources):
    report = BuildReport()
    lex = build_lexicon("unused", report)
    assert "give up" not in lex and "ace" not in lex and "big fish" not in lex
    assert report.counts["mt_ambiguity"]["dropped: phrasal verb"] == 1
    assert report.counts["clue"]["dropped: one word"] == 1
    assert report.counts["astitch"]["dropped: no meaning"] == 1
    assert report.counts["semeval-train"] == {"read": 2, "dropped: no lexicon meaning": 1, "kept": 1}
    assert report.sizes[("PT", "lidioms")] == 1 and report.sizes[("EN", "semeval-train")] == 1


def test_the_build_drops_light_entries_and_counts_them(fake_sources, monkeypatch):
    light = [Sense("be sure", "EN", "certainly", "wordnet"), Sense("be sure", "EN", "admittedly", "gcide")]
    monkeypatch.setattr(lexicon_build, "SOURCES", {"fake": lambda data_dir: [*ROWS, *light]})
    report = BuildReport()
    lex = build_lexicon("unused", report)
    assert "be sure" not in lex and "kick the bucket" in lex
    assert report.counts["gcide"]["dropped: light entry"] == report.counts["wordnet"]["dropped: light entry"] == 1


def test_entries_keep_the_fullest_spelling_and_the_best_meaning_first(fake_sources):
    lex = build_lexicon("unused")
    assert lex.get("pull leg").idiom == "pull someone's leg"
    assert lex.get("pull leg").meanings == ("tease", "to joke with someone")  # verb phrases both: pie first
    kick = lex.get("kick the bucket")
    assert kick.meanings == ("to die", "die") and kick.sources == ("pie", "baiango", "semeval-train")


def test_heldout_variants_cover_inflections_parts_and_extensions():
    lex = Lexicon.from_pairs(
        [
            ("spilling the beans", "a"),
            ("cat out of the bag", "b"),
            ("on thin ice", "c"),
            ("letting the cat out of the bag", "d"),
            ("kick the bucket", "e"),
        ]
    )
    found = heldout_variants(lex, held("spill the beans", "let the cat out of the bag", "thin ice"))
    assert found == {
        normalise_idiom(i)
        for i in ("spilling the beans", "cat out of the bag", "on thin ice", "letting the cat out of the bag")
    }


LONGER = [
    ("chill to the bone", "to the bone"),
    ("go by the book", "by the book"),
    ("win hands down", "hands down"),
    ("everything under the sun", "under the sun"),
    ("sit on the fence", "on the fence"),
    ("sat on the fence", "on the fence"),
]


@pytest.mark.parametrize(("entry", "heldout"), LONGER)
def test_a_heldout_idiom_with_one_content_word_is_caught_inside_a_longer_entry(entry, heldout):
    lex = Lexicon.from_pairs([(entry, "x"), ("kick the bucket", "die"), ("by and large", "mostly")])
    assert heldout_variants(lex, held(heldout)) == {normalise_idiom(entry)}


def test_screen_drops_heldout_rows_as_written_or_cleaned():
    report = BuildReport()
    rows = [Sense("to bite the dust", "EN", "die", "lidioms"), Sense("bite the dust.", "EN", "die", "pie")]
    assert screen(rows, report, held("bite the dust")) == []
    assert report.counts["lidioms"]["dropped: held out"] == 1 and report.counts["pie"]["dropped: held out"] == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("To die. Used humorously.", ("to die", None)),
        ("1. n. something easy to do.", ("something easy to do", None)),
        ("(informal) Fig. to reveal a secret", ("to reveal a secret", None)),
        ("Fracture a bone, as in She fell and broke her leg.", ("fracture a bone", None)),
        ("to be ill; to feel unwell", ("to be ill", None)),  # a sense list: its first sense
        ("ready, prepared, equipped", ("ready", None)),  # short synonyms: the first
        ("ill or gloomy, especially from a cold", ("ill or gloomy", None)),  # a qualifier goes
        ("for a very (and perhaps surprisingly) low price", ("for a very low price", None)),
        (
            "to give up hope and stop trying to reach a goal — as a team does when it has been losing for "
            "years and years",
            ("to give up hope and stop trying to reach a goal", "meaning cut"),
        ),
        (" ".join(["word"] * 21) + ", " + " ".join(["word"] * 3), (None, "meaning too long")),  # no cut at a comma
        (
            "A chain of events that — once initiated — cannot be halted and whose final outcome is undesirable or "
            "precarious for everyone involved in it",
            (None, "meaning truncated"),
        ),
        ("to do", (None, "meaning truncated")),
        (" . ", (None, "no meaning")),
    ],
)
def test_clean_meaning(text, expected):
    assert clean_meaning(text) == expected


@pytest.mark.parametrize(
    ("idiom", "phrasal"),
    [
        ("give up", True),
        ("look after", True),
        ("put up with", True),
        ("sell someone out", True),
        ("hands down", False),
        ("toss-up", False),
        ("stab in the back", False),
        ("break one's back", False),
        ("way forward", False),
        ("in on", False),
        ("kick the bucket", False),
    ],
)
def test_is_phrasal_verb(idiom, phrasal):
    assert is_phrasal_verb(idiom) is phrasal


def test_one_word_and_phrasal_rules_apply_to_english_phrasal_verbs_only():
    assert drop_reason(Sense("a steal", "EN", "x", "s")) == "one word"
    assert drop_reason(Sense("give up", "EN", "x", "s")) == "phrasal verb"
    assert drop_reason(Sense("bater em", "PT", "x", "s")) is None
    assert drop_reason(Sense("I do", "EN", "x", "s")) == "light words only"
    assert drop_reason(Sense("dar em", "PT", "x", "s")) == "light words only"


def test_clean_idiom_and_slots():
    assert clean_idiom("to bite the dust") == "bite the dust"
    assert clean_idiom("to the core") == "to the core" and clean_idiom("to a T") == "to a T"
    assert clean_idiom("to heart's content") == "to heart's content"
    assert clean_idiom("not be made of money.") == "not be made of money"
    assert with_slots("eat words", [["ate", "my", "words"]]) == "eat [pron] words"
    assert (
        with_slots("put damper on", [["put", "a", "damper", "on"], ["put", "damper", "on"]]) == "put [pron] damper on"
    )
    assert with_slots("the lion's share", [["the", "lion's", "share"]]) == "the lion's share"


def test_assemble_caps_meanings_per_source():
    rows = [Sense("kick the bucket", "EN", m, "theidioms") for m in ("die", "pass away", "perish")]
    assert assemble(rows).get("kick the bucket").meanings == ("die", "pass away")


def test_meanings_in_the_idioms_language_come_first_and_idioms_as_meanings_last_among_them():
    rows = [
        Sense("bater as botas", "PT", "to die", "lidioms", "EN"),
        Sense("bater as botas", "PT", "morrer", "da"),
        Sense("pão-duro", "PT", "mão de vaca", "astitch"),
        Sense("pão-duro", "PT", "a stingy person", "lidioms", "EN"),
        Sense("mão-fechada", "PT", "pão duro", "astitch"),
        Sense("mão-fechada", "PT", "avarento", "da"),
    ]
    lex = assemble(rows)
    boots = lex.get("bater as botas")
    assert boots.meanings == ("morrer", "to die") and boots.meaning_languages == ("PT", "EN")
    assert lex.get("pão-duro").meanings == ("mão de vaca", "a stingy person")  # Portuguese, though an idiom
    assert lex.get("pão-duro").meaning_language() == "PT"
    assert lex.get("mão-fechada").meanings[0] == "avarento"  # "pão duro" is a lexicon idiom


def test_the_shipped_lexicon_is_small_clean_full_and_licensed():
    assert DEFAULT_LEXICON.stat().st_size < 2_000_000
    lex = default_lexicon()
    assert len(lex.entries("EN")) > 5000 and len(lex.entries("PT")) > 900  # curated: idioms with a usable meaning
    assert all(e.meaning_language() == "PT" for e in lex.entries("PT"))  # a PT idiom's first meaning is Portuguese
    assert "spill the beans" in lex and "under the weather" in lex and "bite the bullet" in lex
    assert not {s for e in lex for s in e.sources} & set(lexicon_build.EVALUATION_ONLY)
    assert all(drop_reason(Sense(e.idiom, e.language, "", "")) is None for e in lex)
    licences = DEFAULT_LEXICON.with_name("LICENSES.md").read_text(encoding="utf-8")
    assert all(f"`{s}`" in licences for e in lex for s in e.sources)
    assert lex.get("kick the bucket").meanings[0] == "to die"
    assert lex.get("hit the nail on the head").meanings[0] == "to be right"
    assert lex.get("break the ice").meanings[0] != "to do" and "to do" not in lex.get("break the ice").meanings
    assert lex.get("abrir o jogo", "PT").meanings[0] == "falar com franqueza"
    for term in ("class warfare", "cold work", "drop astern", "mosquito bite", "dead men"):
        assert lex.get(term, "EN") is None, term
    assert lex.get("bush league").meanings[0].startswith("A low-ranking or inferior level")  # was cut to "A low"
    for term in ("soda cáustica", "acerca de", "neste momento", "canal da mancha", "carro eléctrico", "bater palmas"):
        assert lex.get(term, "PT") is None, term
