"""Portuguese forms the matcher tolerates beyond regular inflection (issue #43): an idiom's head verb in any form,
spoken Brazilian contractions and estar, words written without accents (and the 1913 spelling's circumflexes),
a lost reflexive hyphen, and words inserted after a preposition + article; each with controls that must not match."""

from __future__ import annotations

import pytest

from idiomkit.data.keys import strip_accents
from idiomkit.idioms import Lexicon, Matcher
from idiomkit.idioms.morphology import pt_forms, pt_head_forms, pt_lemmas

PT = [
    ("aguente firme", "resista"),
    ("chorando as pitangas", "lamentar-se"),
    ("vá com deus", "adeus"),
    ("para inglês ver", "só na aparência"),
    ("estar por fora", "desconhecer"),
    ("abrir a bôca", "bocejar"),
    ("tornarse pensionista", "aposentar-se"),
    ("pisar na bola", "errar"),
]


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    lex = Lexicon()
    for idiom, meaning in PT:
        lex.add(idiom, "PT", meaning, "test")
    return Matcher(lex)


def found(matcher: Matcher, sentence: str) -> list[tuple[str, str]]:
    return [(m.text, m.idiom) for m in matcher.find(sentence, "PT")]


@pytest.mark.parametrize(
    ("sentence", "text", "idiom"),
    [
        ("Aguenta firme, que vai dar certo.", "Aguenta firme", "aguente firme"),  # head verb: another person
        ("Eles aguentaram firme.", "aguentaram firme", "aguente firme"),
        ("Pode chorar as pitangas aqui.", "chorar as pitangas", "chorando as pitangas"),  # gerund -> infinitive
        ("Ela chorou as pitangas.", "chorou as pitangas", "chorando as pitangas"),
        ("Vai com Deus, Junior.", "Vai com Deus", "vá com deus"),  # irregular: vá -> ir
        ("Foi com Deus.", "Foi com Deus", "vá com deus"),
        ("É só pra inglês ver.", "pra inglês ver", "para inglês ver"),  # spoken contraction of para
        ("Você tá por fora.", "tá por fora", "estar por fora"),  # spoken estar
        ("Eu tava por fora.", "tava por fora", "estar por fora"),
        ("Ele abriu a boca.", "abriu a boca", "abrir a bôca"),  # 1913 circumflex
        ("Ele se fez de bobo e abriu a bôca.", "abriu a bôca", "abrir a bôca"),
        ("O avô tornou-se pensionista.", "tornou-se pensionista", "tornarse pensionista"),  # lost hyphen
        ("O árbitro pisou na maior bola.", "pisou na maior bola", "pisar na bola"),  # after na: an insertion
        ("Ele pisou na bola.", "pisou na bola", "pisar na bola"),
    ],
)
def test_portuguese_forms(matcher, sentence, text, idiom):
    assert found(matcher, sentence) == [(text, idiom)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Ela aguentou a dor firme.",  # nothing may be inserted after a verb of a two-word idiom
        "O inglês veio para ver.",  # word order
        "Pra onde o inglês vai ver?",
        "Esta por fora é bonita.",  # "esta" (this) is no form of estar, though "está" loses its accent to it
        "Ele pisou na casa da bola.",  # an inserted preposition is never a gap
        "Ele pisou na velha e gasta bola.",  # a conjunction is never a gap, and three words are too many
        "Ela foi com o Deus dela.",  # the idiom's words must follow one another
    ],
)
def test_portuguese_controls(matcher, sentence):
    assert found(matcher, sentence) == []


def test_unaccented_forms_never_become_function_words():
    assert strip_accents("bôca") == "boca" and "boca" in pt_forms("bôca") and "mao" in pt_forms("mão")
    assert "de" not in pt_forms("dar") and "da" not in pt_forms("dar")  # dê, dá
    assert "e" not in pt_forms("ser") and "esta" not in pt_forms("estar")  # é, está
    assert "por" not in pt_forms("pôr") and "pe" not in pt_forms("pé")  # a function word, two letters


def test_head_verb_lemmas():
    assert pt_lemmas("aguente") >= {"aguentar"} and pt_lemmas("chorando") == {"chorar"}
    assert pt_lemmas("foi") == {"ser", "ir"} and pt_lemmas("vá") == {"ir"}
    assert pt_lemmas("bater") == set() and pt_lemmas("ser") == set() and pt_lemmas("de") == set()
    assert pt_lemmas("fora") == set() and pt_lemmas("via") == set()  # irregular forms that are other words too
    assert {"aguenta", "aguentou", "aguentar"} <= pt_head_forms("aguente")
    assert pt_head_forms("pão") == pt_forms("pão")  # a stem too short to be a verb's


def test_only_the_first_word_is_read_as_a_verb():
    matcher = Matcher(Lexicon.from_pairs([("nem que a vaca tussa", "jamais")], "PT"))
    assert [m.text for m in matcher.find("Nem que a vaca tussa!", "PT")] == ["Nem que a vaca tussa"]
    assert matcher.find("Nem que a vaca tossiu.", "PT") == []  # "tussa" is not the head: no verb read into it


def test_controls_from_ordinary_text():
    """New matches the fixes once made in ASSIN 2 / SemEval 2A sentences, wrong ones."""
    lex = Lexicon.from_pairs([("quer que", "whatever"), ("no caso de", "se"), ("deste modo", "assim")], "PT")
    matcher = Matcher(lex)
    assert matcher.find("É uma história que quero que sirva.", "PT") == []  # one content word: no verb read in
    assert matcher.find("No Centro Espírita Casa de Oxalá.", "PT") == []  # one word at most after a contraction
    assert matcher.find("Desse modo, o crédito caiu.", "PT") == []  # "deste" is no form of dar here
    assert [m.text for m in matcher.find("No próprio caso de fraude.", "PT")] == ["No próprio caso de"]


def test_a_gerund_is_never_an_inserted_word():
    matcher = Matcher(Lexicon.from_pairs([("estar a ôlho", "diz-se da âncora"), ("chutar o balde", "desistir")], "PT"))
    assert matcher.find("A menina está fechando os olhos.", "PT") == []  # the phrase's verb is fechar
    assert [m.text for m in matcher.find("A âncora está a olho.", "PT")] == ["está a olho"]
    assert [m.text for m in matcher.find("Ele chutou o lindo balde.", "PT")] == ["chutou o lindo balde"]
