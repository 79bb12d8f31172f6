"""Portuguese agreement and verbs for a meaning shaped to stand in place of an idiom's span
(:mod:`~idiomkit.idioms.shape`): a noun's or adjective's plural (:func:`pt_plural`) and a noun phrase's
(:func:`pt_pluralise`), a determiner agreeing in gender and number with the meaning that follows it
(:func:`pt_article`), and a meaning's infinitive in the tense and person of the idiom's verb in the span
(:func:`pt_shape_verb`: pisou -> errou, abriu -> falou; a clitic joined by a hyphen stays, "saiu-se bem").

Example::

    pt_plural("animal"), pt_article("Ele é um ", "pessoa avarenta")  # "animais", "Ele é uma "
"""

from __future__ import annotations

import re

from idiomkit.idioms.fills import Fills
from idiomkit.idioms.morphology import PT_FUNCTION, pt_lemmas, word_set
from idiomkit.idioms.pt_verbs import pt_conjugation, pt_inflect, pt_verb_form

# --- number -------------------------------------------------------------------------------------------------------

_PT_BOUNDARY = PT_FUNCTION | word_set("que")


def pt_plural(word: str) -> str:
    """A Portuguese noun's or adjective's plural (avarento -> avarentos; -ão -> -ões, the commonest; papel ->
    papéis, homem -> homens, flor -> flores; a word in -s as it is).

    Example::

        pt_plural("pessoa"), pt_plural("animal"), pt_plural("mulher")  # "pessoas", "animais", "mulheres"
    """
    if word.endswith("ão"):
        return word[:-2] + "ões"
    if word.endswith(("al", "ol", "ul")):
        return word[:-2] + {"a": "ais", "o": "óis", "u": "uis"}[word[-2]]
    if word.endswith("el"):
        return word[:-2] + "éis"
    if word.endswith("il"):
        return word[:-1] + "s"
    if word.endswith("m"):
        return word[:-1] + "ns"
    if word.endswith(("r", "z")):
        return word + "es"
    return word if word.endswith("s") else word + "s"


def pt_pluralise(words: list[str]) -> list[str]:
    """A Portuguese noun phrase (its "um"/"uma" dropped) made plural up to its first function word."""
    words = words[1:] if words[0].casefold() in ("um", "uma") else words
    out = []
    for i, w in enumerate(words):
        if w.casefold() in _PT_BOUNDARY or w.endswith(","):
            return out + words[i:]
        out.append(pt_plural(w))
    return out


# --- gender and determiners ---------------------------------------------------------------------------------------

_PT_FEMININE_ENDINGS = ("a", "as", "ção", "ções", "são", "sões", "dade", "dades", "gem", "gens", "ez")
_PT_MASCULINE_A = word_set(
    "dia dias mapa mapas problema problemas sistema sistemas tema temas programa programas poeta poetas planeta "
    "planetas clima idioma idiomas drama dramas cinema telefonema esquema esquemas diploma diplomas"
)
# each determiner's forms: masculine singular, feminine singular, masculine plural, feminine plural
_PT_DET_FORMS = [
    row.split()
    for row in (
        "um uma uns umas", "o a os as", "meu minha meus minhas", "teu tua teus tuas", "seu sua seus suas",
        "nosso nossa nossos nossas", "vosso vossa vossos vossas", "este esta estes estas", "esse essa esses essas",
        "aquele aquela aqueles aquelas", "no na nos nas", "do da dos das", "ao à aos às", "pelo pela pelos pelas",
        "num numa nuns numas", "dum duma duns dumas", "outro outra outros outras", "todo toda todos todas",
    )
]  # fmt: skip
_PT_DET_SLOT = {form: (row, i) for row in _PT_DET_FORMS for i, form in enumerate(row)}
_PT_SINGULAR_S = word_set("lápis mês país ônibus vírus atlas tênis gás deus português inglês francês")


def _pt_gender(word: str) -> str | None:
    """A Portuguese noun's gender as its ending tells (f: -a, -ção, -dade, -gem; m: -o, -or), None when unsure."""
    word = word.casefold()
    if word in _PT_MASCULINE_A:
        return "m"
    if word.endswith(_PT_FEMININE_ENDINGS):
        return "f"
    if word.endswith(("o", "os", "or", "ores", "ão", "ões")):
        return "m"
    return None


def pt_article(before: str, replacement: str) -> str:
    """``before`` with a final determiner (article, possessive, demonstrative, preposition + article) made to
    agree in gender and number with the replacement's first word ("um" + "pessoa avarenta" -> "uma"; "nossa" +
    "cérebro" -> "nosso"); as it is when the gender is unsure.

    Example::

        pt_article("Ele é um ", "pessoa avarenta")  # "Ele é uma "
    """
    m = re.search(r"(?<!\w)(\w+)(\s+)$", before)
    first = re.match(r"\w+", replacement)
    gender = _pt_gender(first.group()) if first else None
    if not m or gender is None or m.group(1).casefold() not in _PT_DET_SLOT:
        return before
    row, _ = _PT_DET_SLOT[m.group(1).casefold()]
    noun = first.group().casefold()
    plural = noun.endswith(("s",)) and noun not in _PT_SINGULAR_S and len(noun) > 3
    word = row[(2 if plural else 0) + (gender == "f")]
    word = word.capitalize() if m.group(1)[0].isupper() else word
    return before[: m.start(1)] + word + m.group(2)


# --- Portuguese verbs ---------------------------------------------------------------------------------------------


def pt_shape_verb(words: list[str], fills: Fills) -> list[str] | None:
    """The Portuguese meaning ``words`` with its infinitive in the tense and person of the idiom's verb in the
    span, or None (no infinitive at its head, or the idiom's verb not in the span)."""
    if not words or not fills.words:
        return None
    idiom_word, token = fills.words[0]
    head, _, clitic = words[0].partition("-")
    if head.casefold() in PT_FUNCTION or not head.casefold().endswith(("ar", "er", "ir", "or", "ôr")):
        return None
    if not pt_conjugation(head.casefold()):
        return None
    lemmas = [idiom_word.partition("-")[0]] + sorted(pt_lemmas(idiom_word))
    key = next((k for lemma in lemmas if pt_conjugation(lemma) and (k := pt_verb_form(token, lemma))), None)
    if key is None or key == ("inf", -1):
        return None
    new = pt_inflect(head.casefold(), *key)
    return [new + (f"-{clitic}" if clitic else ""), *words[1:]]
