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


# --- adjectives agreeing with a replaced noun or a feminine subject -----------------------------------------------

# the endings of adjectives and participles whose gender shows in the last vowel (not a verb's -a: "trabalha")
_PT_ADJECTIVE = re.compile(r"(?:ad|id|íd|os|iv|eir|ent|ud)([oa])(s?)$")
_PT_DEGREE = r"(?:(?:mais|menos|muito|muita|tão|bem|meio|bastante|pouco|sempre|ainda|já|não)\s+)*"
_PT_COPULA = (
    r"(?:é|são|era|eram|foi|foram|será|serão|seria|seriam|seja|sejam|está|estão|estava|estavam|esteve|estiveram|"
    r"estará|estaria|esteja|fica|ficam|ficou|ficaram|ficava|ficará|anda|andam|andava|parece|parecem|parecia|"
    r"continua|continuam|continuava|permanece|permanecem|ser|estar|ficar)"
)
_PT_FEMININE_SUBJECT = re.compile(
    rf"(?:\bela|\b(?:a|uma|esta|essa|minha|sua|nossa)\s+(\w+))"
    rf"\s+(?:se\s+)?{_PT_DEGREE}{_PT_COPULA}\s+{_PT_DEGREE}$",
    re.I,
)


def _pt_regender(word: str, gender: str) -> str:
    """An adjective or participle in -o/-a (plural -os/-as) put in ``gender``; any other word as it is."""
    m = _PT_ADJECTIVE.search(word)
    if not m or not word.islower() or word in PT_FUNCTION:
        return word
    return word[: m.start(1)] + ("a" if gender == "f" else "o") + m.group(2)


def pt_predicate(words: list[str], before: str) -> list[str]:
    """A meaning that starts with an adjective, put in the feminine after a singular feminine subject and a copula ("Ela
    está" + "distraído" -> "distraída"; "A casa é" + "antigo" -> "antiga"); as it is otherwise.

    Example::

        pt_predicate(["distraído"], "Ela está ")  # ["distraída"]
    """
    m = _PT_FEMININE_SUBJECT.search(before[-80:])
    if not words or not m or (m.group(1) and _pt_gender(m.group(1)) != "f"):
        return words
    return [_pt_regender(words[0], "f"), *words[1:]]


def pt_agree_after(after: str, span: str, replacement: str) -> tuple[int, int, str] | None:
    """The adjective right after a replaced noun phrase (after "mais", "muito" ...), put in the replacement's
    gender when the span's noun had the other one ("a massa cinzenta alterada" -> "o cérebro alterado"; "o tapete
    vermelho mais famoso" -> "a entrada de evento mais famosa"): (start, end, new word) in ``after``, or None
    when nothing changes or a gender is unsure.

    Example::

        pt_agree_after(" alterada e", "massa cinzenta", "cérebro")  # (1, 9, "alterado")
    """
    old, new = (re.match(r"\w+", text) for text in (span, replacement))
    if old is None or new is None:
        return None
    last = span.split()[-1].casefold() if span.split() else ""
    old_gender = _pt_gender(old.group()) or ({"o": "m", "a": "f"}.get(last.rstrip("s")[-1:]) if " " in span else None)
    new_gender = _pt_gender(new.group())
    if old_gender is None or new_gender is None or old_gender == new_gender:
        return None
    m = re.match(rf"\s+{_PT_DEGREE}(\w+)\b", after, re.I)
    if m is None:
        return None
    word = m.group(1)
    agreed = _pt_regender(word, new_gender)
    if agreed == word or _pt_regender(word, old_gender) != word:  # it did not agree with the span's noun
        return None
    return m.start(1), m.end(1), agreed
