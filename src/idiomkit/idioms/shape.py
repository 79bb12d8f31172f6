"""A meaning shaped to stand in place of an idiom's span (the rewriter's ``replace`` mode), so that the sentence
stays whole: "She let the cat out of the bag" + "to tell someone a secret, especially without intending to" ->
"She told someone a secret".

:func:`core_meaning` cuts a meaning to its core paraphrase: what follows a semicolon, a bracket, a comma, an
"especially"/"usually"/"esp." clause or an "or to ..." alternative goes (a qualification, or another sense).

:func:`shape_meaning` then fits it to the span:

- **verbs** (English): a meaning that is a verb phrase ("to die", "tease someone", "be right") takes the tense,
  person and aspect of the idiom's verb in the span and of the words before it (:func:`en_verb_context`): kicked ->
  died, kicks -> dies, is kicking -> is dying, has kicked -> has died, has broken the ice -> has made friends (the
  participle of an irregular verb), "She hit the nail on the head" -> "She was right" ("hit" with a
  third-person-singular subject is a past), "They hit..." -> "They were right", "will hit" -> "will be right";
  after a form of "be" a non-verbal idiom's "to be X" is "X" ("is on cloud nine" -> "is very happy") and its
  "to V" is "V-ing". An idiom's own "be" in the span is kept as it is ("were on cloud nine" -> "were very happy").
- **verbs** (Portuguese): a meaning that starts with an infinitive ("errar", "falar francamente") takes the tense
  and person of the idiom's verb in the span (pisou -> errou, abriu -> falou; :func:`~idiomkit.idioms.morphology.
  pt_verb_form`); a clitic joined by a hyphen stays ("sair-se bem" -> "saiu-se bem").
- **slots**: the meaning's "someone's"/"one's" becomes the possessive the span gave the idiom's possessive slot,
  its "someone" that possessive's object form or the span's filler, "oneself" its reflexive ("pulling my leg" +
  "to tease someone" -> "teasing me"; "gave him the cold shoulder" + "to ignore someone" -> "ignored him").
- **number**: a noun idiom used in the plural ("white elephants") makes a meaning that starts with "a"/"an" (PT
  "um"/"uma") plural: its article goes, its head noun (and in Portuguese the words up to the first function word)
  takes the plural, and a relative clause's verb agrees ("possessions that are unwanted").
- **articles**: a meaning's leading article goes when the sentence has a determiner right before the span ("the
  white elephant" + "an expensive item" -> "the expensive item").
- **case**: a capitalised first word that is no acronym is lowered ("To die", "A gift"); the rewriter capitalises
  the replacement again where the span was.

Example::

    matcher = Matcher(Lexicon.from_pairs([("hit the nail on the head", "to be right")]))
    match = matcher.find("She hit the nail on the head")[0]
    shape_meaning("to be right", match, "She ")  # "was right"
"""

from __future__ import annotations

import re
from typing import NamedTuple

from idiomkit.idioms.matcher import Match, tokenize
from idiomkit.idioms.morphology import (
    EN_FUNCTION,
    EN_VERBS,
    PT_DETS,
    PT_FUNCTION,
    be_form,
    en_forms,
    en_plural,
    en_verbs,
    inflect,
    pt_conjugation,
    pt_inflect,
    pt_lemmas,
    pt_verb_form,
    verb_form,
    word_set,
)
from idiomkit.idioms.patterns import FILL, OPT, Slot, parse_idiom

# --- the core paraphrase ------------------------------------------------------------------------------------------

_QUALIFIER = {
    "EN": r"especially|esp\.?|particularly|usually|typically|generally|often|mostly|mainly|chiefly|normally|"
    r"sometimes|as in|such as|e\.g\.|i\.e\.|for example|for instance|including|etc\.?",
    "PT": r"especialmente|sobretudo|principalmente|geralmente|normalmente|por exemplo|isto é|etc\.?",
}
# what an uncommaed qualifier is followed by when it starts a clause ("especially without ...", not "especially hard")
_QUALIFIED = {
    "EN": "when|if|with|without|at|in|for|by|on|to|as|among|after|before|during|because|of|from|one|someone|"
    "something|the|a|an|his|her|their|its|where|while|not",
    "PT": "quando|se|com|sem|em|no|na|nos|nas|para|por|de|do|da|a|o|ao|à|como|que|não",
}
_BRACKETS = re.compile(r"\s*[(\[][^)\]]*[)\]]")
_LEAD = re.compile(r"^[\s:;,.\-–—]+|^(?:or|ou)\s+", re.I)


def core_meaning(meaning: str, language: str = "EN") -> str:
    """The core paraphrase of a dictionary meaning (module docstring): the text before the first semicolon or
    comma, without brackets, an "especially ..." clause or an "or to ..." alternative; the meaning itself when
    nothing would be left.

    Example::

        core_meaning("to tell someone a secret, especially without intending to")  # "to tell someone a secret"
        core_meaning("to blame; to censure"), core_meaning("pertinaz, casmurro", "PT")  # "to blame", "pertinaz"
    """
    text = _BRACKETS.sub("", meaning)
    text = _LEAD.sub("", text.strip())
    text = re.split(r"\s*[;,|]\s*|\s+/\s+", text, maxsplit=1)[0]
    qualifier = _QUALIFIER.get(language, _QUALIFIER["EN"])
    text = re.split(rf"\s+(?:{qualifier})(?=\s+(?:{_QUALIFIED[language]})\b|$)", text, maxsplit=1, flags=re.I)[0]
    if language == "EN":
        text = re.split(r"\s+or\s+(?=to\s)", text, maxsplit=1)[0]
    text = text.strip(" .:;,-–—")
    return text if re.search(r"\w", text) else meaning.strip()


# --- where the idiom's words lie in the span ----------------------------------------------------------------------


class Fills(NamedTuple):
    """What the span put in the idiom's slots: its possessive ("my", "the boy's"), its filler ("him", "the new
    guy") and the span's tokens aligned with each idiom word (``words``: (idiom word, span token))."""

    possessive: str | None
    filler: str | None
    words: tuple[tuple[str, str], ...]


def _align(slots: list[Slot], keys: list[str], k: int, t: int, out: dict[int, tuple[int, int]]) -> bool:
    """Lay ``slots[k:]`` over ``keys[t:]`` to their end (the matcher's walk, recording each slot's tokens)."""
    if k == len(slots):
        return t == len(keys)
    slot = slots[k]
    if slot.kind == FILL:
        for count in range(slot.lo, slot.hi + 1):
            last = t + count - 1
            if last >= len(keys):
                break
            if slot.poss and count and keys[last] not in slot.accept and not keys[last].endswith("'s"):
                continue
            if _align(slots, keys, k + 1, t + count, out):
                out[k] = (t, t + count)
                return True
        return False
    for tt in range(t, min(t + slot.gap, len(keys) - 1) + 1):
        if (keys[tt] in slot.accept or (slot.poss and keys[tt].endswith("'s"))) and _align(
            slots, keys, k + 1, tt + 1, out
        ):
            out[k] = (tt, tt + 1)
            return True
    if slot.kind == OPT and _align(slots, keys, k + 1, t, out):
        out[k] = (t, t)
        return True
    return False


def span_fills(match: Match) -> Fills:
    """The span's possessive, filler and idiom words (:class:`Fills`); empty when the span cannot be laid over
    the idiom again."""
    tokens = tokenize(match.text)
    keys = [key for key, _, _ in tokens]
    slots = parse_idiom(match.idiom, match.language)
    out: dict[int, tuple[int, int]] = {}
    if not slots or not _align(slots, keys, 0, 0, out):
        return Fills(None, None, ())
    possessive = filler = None
    words = []
    for k, slot in enumerate(slots):
        a, b = out.get(k, (0, 0))
        if a == b:
            continue
        text = match.text[tokens[a][1] : tokens[b - 1][2]]
        if slot.kind == FILL:
            possessive, filler = (text, filler) if slot.poss else (possessive, text)
        elif slot.kind == OPT and slot.poss and slot.word not in ("", "the"):
            possessive = text
        elif slot.word:
            words.append((slot.word, text))
    return Fills(possessive, filler, tuple(words))


# --- slots --------------------------------------------------------------------------------------------------------

_OBJECT = {"my": "me", "your": "you", "his": "him", "her": "her", "its": "it", "our": "us", "their": "them"}
_REFLEXIVE = {
    "my": "myself",
    "your": "yourself",
    "his": "himself",
    "her": "herself",
    "its": "itself",
    "our": "ourselves",
    "their": "themselves",
}
_PLACEHOLDER = re.compile(r"\b(?:someone's|somebody's|one's|someone|somebody|oneself|something)\b", re.I)


def _object_of(possessive: str) -> str:
    """A possessive's object form: my -> me; the boy's -> the boy."""
    low = possessive.casefold()
    if low in _OBJECT:
        return _OBJECT[low]
    return re.sub(r"['’]s$|['’]$", "", possessive)


def fill_slots(meaning: str, idiom: str, fills: Fills) -> str:
    """The meaning's someone/someone's/one's/oneself/something (the first of each) filled from the span (module
    docstring); each placeholder left as it is when the span has nothing for it."""
    idiom_words = set(re.findall(r"[\w']+", idiom.casefold()))
    filler_is_thing = bool(idiom_words & {"something", "sth"}) and not idiom_words & {"someone", "somebody", "sb"}
    done: set[str] = set()

    def swap(m: re.Match[str]) -> str:
        word = m.group().casefold()
        kind = "poss" if word.endswith("'s") else word
        if kind in done:
            return m.group()
        new = None
        if kind == "poss":
            new = fills.possessive
        elif kind in ("someone", "somebody"):
            if fills.filler and not filler_is_thing:
                new = fills.filler
            elif fills.possessive:
                new = _object_of(fills.possessive)
        elif kind == "oneself" and fills.possessive:
            new = _REFLEXIVE.get(fills.possessive.casefold())
        elif kind == "something" and fills.filler and filler_is_thing:
            new = fills.filler
        if new is None:
            return m.group()
        done.add(kind)
        return new

    return _PLACEHOLDER.sub(swap, meaning)


# --- English verbs ------------------------------------------------------------------------------------------------

_MODALS = word_set(
    "will would shall should can could may might must 'll won't wouldn't can't cannot couldn't shouldn't"
)
_MODALS |= word_set("mustn't shan't mightn't let's")
_DO = word_set("do does did don't doesn't didn't")
_HAVE = word_set("have has had having hasn't haven't hadn't")
_BE = word_set("am is are was were be been being isn't aren't wasn't weren't")
_GET = word_set("get gets got gotten getting")
_SKIP = word_set(
    "not never always just also already still even often only sometimes usually probably certainly actually "
    "simply really finally ever then now soon again once almost nearly all both each suddenly eventually clearly "
    "definitely totally completely truly literally basically accidentally immediately quickly rarely seldom "
    "hardly surely perhaps maybe indeed n't yet thus therefore however"
)
_NOT_ADVERBS = word_set("family assembly supply reply belly jelly bully rally ally july italy lily holly fly")
_SUBJECTS = {
    "i": "1s",
    **dict.fromkeys(
        word_set(
            "he she it this that one someone somebody everyone everybody nobody anyone anybody something everything "
            "nothing"
        ),
        "3s",
    ),
    **dict.fromkeys(word_set("we you they these those"), "pl"),
}
_PLURAL_NOUNS = word_set("people men women children police feet teeth mice geese cattle")
_NO_SUBJECT = EN_FUNCTION | word_set("and or but then so to who which that as than")
_BREAK = re.compile(r"[.!?;:()\[\]{}\"“”«»—–]")


class VerbContext(NamedTuple):
    """What the words before a span say of its verb: the auxiliary right before it (``modal``, ``do``, ``have``,
    ``be``, ``get``, ``has_or_is`` for "'s", ``had_or_would`` for "'d", or None) and the subject's person (1s, 3s,
    pl; None when there is no subject right before)."""

    aux: str | None
    person: str | None


def _aux(word: str) -> str | None:
    if word in _MODALS or word.endswith("'ll"):
        return "modal"
    if word in _DO:
        return "do"
    if word in _HAVE or word.endswith("'ve"):
        return "have"
    if word in _BE or word.endswith(("'re", "'m")):
        return "be"
    if word in _GET:
        return "get"
    if word.endswith("'s") and word[:-2] in _SUBJECTS:
        return "has_or_is"
    if word.endswith("'d"):
        return "had_or_would"
    if word == "to":
        return "to"
    return None


def _person(word: str) -> str:
    stem = re.sub(r"'(?:s|re|m|ve|d|ll)$", "", word)
    if stem in _SUBJECTS:
        return _SUBJECTS[stem]
    if stem in _PLURAL_NOUNS or (stem.endswith("s") and not stem.endswith(("ss", "us", "is", "ous")) and len(stem) > 3):
        return "pl"
    return "3s"


def en_verb_context(before: str) -> VerbContext:
    """The auxiliary and subject right before a span (:class:`VerbContext`), read from the end of ``before``
    (its clause: a sentence end, bracket, quote, dash, colon or semicolon starts one), adverbs skipped.

    Example::

        en_verb_context("She has finally "), en_verb_context("The kids ")  # ("have", "3s"), (None, "pl")
    """
    clause = _BREAK.split(before[-200:])[-1]
    words = [key.replace("’", "'") for key, _, _ in tokenize(clause)]
    aux = None
    i = len(words) - 1
    while i >= 0 and (
        words[i] in _SKIP or (words[i].endswith("ly") and len(words[i]) > 4 and words[i] not in _NOT_ADVERBS)
    ):
        i -= 1
    if i < 0:
        return VerbContext(None, None)
    aux = _aux(words[i])
    if aux is not None and re.search(r"'(?:s|re|m|ve|d|ll)$", words[i]):  # "she's", "they'll": its own subject
        return VerbContext(aux, _person(words[i]))
    if aux == "to":
        return VerbContext(aux, None)
    if aux is not None:
        j = i - 1  # the subject before the auxiliary ("she has", "they were")
        while j >= 0 and words[j] in _SKIP:
            j -= 1
        subject = words[j] if j >= 0 and words[j] not in _NO_SUBJECT - _SUBJECTS.keys() else None
        return VerbContext(aux, _person(subject) if subject else None)
    word = words[i]
    if word in ("who", "which", "that") and i > 0:  # a relative pronoun agrees with the noun before it
        word = words[i - 1]
    if word in _NO_SUBJECT and word not in _SUBJECTS:
        return VerbContext(None, None)
    return VerbContext(None, _person(word))


def _target_form(token: str, lemma: str, context: VerbContext) -> str:
    """The form the meaning's verb takes: base, past, participle, ing, s, ``present`` (a present of ``context``'s
    person) or ``pred`` (after "be", an idiom that is no verb phrase there)."""
    form = verb_form(token, lemma)
    aux = context.aux
    if form == "past":
        participle = aux in ("have", "be", "get") or (aux in ("has_or_is", "had_or_would"))
        return "participle" if participle else "past"
    if form != "base":
        return form
    if aux in ("modal", "do", "to", "had_or_would"):
        return "base"
    if aux in ("be", "has_or_is"):
        return "pred"
    if aux == "have":
        return "participle"
    if aux == "get":
        return "base"
    if context.person is None:
        return "base"
    verb = EN_VERBS.get(lemma)
    if verb is not None and lemma in verb.past:  # hit, let, put, cut: with a subject, a past ("She hit")
        return "past"
    return "present"


def _en_head(words: list[str]) -> int | None:
    """The index of a verb phrase's verb: the first word, or the second after an adverb ("precisely describe")."""
    if not words:
        return None
    first = words[0].casefold()
    if first in en_verbs() and first not in EN_FUNCTION:
        return 0
    if len(words) > 1 and first.endswith("ly") and words[1].casefold() in en_verbs():
        return 1
    return None


def _inflect_head(words: list[str], at: int, form: str, person: str | None, keep: str | None) -> list[str]:
    """``words`` with the verb at ``at`` in ``form`` (``keep``: the span's own "be" form, used as it is)."""
    verb = words[at].casefold()
    if form == "pred":
        if verb == "be":
            return words[:at] + words[at + 1 :]
        return [*words[:at], inflect(verb, "ing"), *words[at + 1 :]]
    if verb == "be":
        new = keep or be_form(form, person or "3s")
    elif form == "present":
        new = inflect(verb, "s" if person == "3s" else "base")
    else:
        new = inflect(verb, form)
    return [*words[:at], new, *words[at + 1 :]]


def _shape_en_verb(words: list[str], fills: Fills, context: VerbContext) -> list[str] | None:
    """The English meaning ``words`` with their verb inflected to the span, or None when the meaning is no verb
    phrase the span can give a form to."""
    explicit = len(words) > 1 and words[0].casefold() == "to"
    body = words[1:] if explicit else words
    at = _en_head(body)
    if at is None:
        return None
    idiom_word, token = fills.words[0] if fills.words else ("", "")
    verbal_idiom = bool(token) and (idiom_word in en_verbs() or verb_form(token, idiom_word) != "base")
    if not explicit and not verbal_idiom:
        return None  # "open and honest" for "above board": no verb phrase
    if idiom_word == "be" and token.casefold() in en_forms("be"):
        keep = token if body[at].casefold() == "be" else None
        form = "present" if verb_form(token, "be") == "base" else _target_form(token, "be", context)
        person = "1s" if token.casefold() == "am" else context.person
        return _inflect_head(body, at, form, person, keep)
    if not verbal_idiom:  # an adjective or adverb idiom with a "to ..." meaning ("long in the tooth")
        return _inflect_head(body, at, "pred", None, None) if context.aux in ("be", "has_or_is") else body
    form = _target_form(token, idiom_word, context)
    return _inflect_head(body, at, form, context.person, None)


# --- number and articles ------------------------------------------------------------------------------------------

_EN_DETERMINERS = word_set(
    "a an the this that these those my your his her its our their some any no every each another"
)
_EN_BOUNDARY = word_set("of that which who whom whose with without in on at for from to by about like than as or and")
_EN_AGREE = {"is": "are", "was": "were", "has": "have", "does": "do"}
_PT_BOUNDARY = PT_FUNCTION | word_set("que")


def _is_plural_of(token: str, word: str, language: str) -> bool:
    token, word = token.casefold(), word.casefold()
    if token == word:
        return False
    if language == "PT":
        return token == pt_plural(word)
    return token in {en_plural(word), word + "s", word + "es"}


def _en_pluralise(words: list[str]) -> list[str]:
    """An English noun phrase that starts with "a"/"an"/"one", made plural (module docstring)."""
    words = words[1:]
    end = next((i for i, w in enumerate(words) if w.casefold() in _EN_BOUNDARY or w.endswith(",")), len(words))
    if end == 0:
        return words
    head = end - 1
    words = [*words[:head], en_plural(words[head]), *words[head + 1 :]]
    if end + 1 < len(words) and words[end].casefold() in ("that", "which", "who"):
        verb = words[end + 1]
        words[end + 1] = _EN_AGREE.get(verb.casefold(), verb)
    return words


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


def _pt_pluralise(words: list[str]) -> list[str]:
    """A Portuguese noun phrase (its "um"/"uma" dropped) made plural up to its first function word."""
    words = words[1:] if words[0].casefold() in ("um", "uma") else words
    out = []
    for i, w in enumerate(words):
        if w.casefold() in _PT_BOUNDARY or w.endswith(","):
            return out + words[i:]
        out.append(pt_plural(w))
    return out


def _ends_with_determiner(before: str, language: str) -> bool:
    last = re.findall(r"[\w'’]+", before[-24:])
    if not last or not before[-1:].isspace():
        return False
    word = last[-1].casefold()
    if language == "PT":
        return word in PT_DETS or word in word_set("no na nos nas do da dos das num numa pelo pela pelos pelas")
    return word in _EN_DETERMINERS or word.endswith(("'s", "’s"))


_PT_FEMININE_ENDINGS = ("a", "as", "ção", "ções", "são", "sões", "dade", "dades", "gem", "gens", "ez")
_PT_MASCULINE_A = word_set(
    "dia dias mapa mapas problema problemas sistema sistemas tema temas programa programas poeta poetas planeta "
    "planetas clima idioma idiomas drama dramas cinema telefonema esquema esquemas diploma diplomas"
)
_PT_GENDERED = {("um", "f"): "uma", ("uma", "m"): "um", ("o", "f"): "a", ("a", "m"): "o", ("os", "f"): "as",
                ("as", "m"): "os", ("uns", "f"): "umas", ("umas", "m"): "uns"}  # fmt: skip


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
    """``before`` with a final article (um/uma/o/a/os/as/uns/umas) made to agree in gender with the
    replacement's first word ("um" + "pessoa avarenta" -> "uma"); as it is when the gender is unsure.

    Example::

        pt_article("Ele é um ", "pessoa avarenta")  # "Ele é uma "
    """
    m = re.search(r"\b(um|uma|uns|umas|o|a|os|as)(\s+)$", before, re.I)
    first = re.match(r"\w+", replacement)
    gender = _pt_gender(first.group()) if first else None
    if not m or gender is None or (m.group(1).casefold(), gender) not in _PT_GENDERED:
        return before
    word = _PT_GENDERED[m.group(1).casefold(), gender]
    word = word.capitalize() if m.group(1)[0].isupper() else word
    return before[: m.start(1)] + word + m.group(2)


# --- Portuguese verbs ---------------------------------------------------------------------------------------------


def _pt_shape_verb(words: list[str], fills: Fills) -> list[str] | None:
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


# --- the whole shaping --------------------------------------------------------------------------------------------


def _lower_first(text: str) -> str:
    """The first word lowered when it is capitalised only ("To die", "A gift"; not "EU", not "I")."""
    m = re.match(r"(\w)(\w*)", text)
    if m and m.group(1).isupper() and m.group(2).islower() and m.group() != "I":
        return text[0].lower() + text[1:]
    return text


def shape_meaning(meaning: str, match: Match, before: str = "") -> str:
    """The meaning as it should stand in place of ``match.text``, ``before`` being the text before the span
    (module docstring).

    Example::

        shape_meaning("to be right", match, "She ")  # "was right" (match: "hit the nail on the head")
    """
    language = match.language
    text = _lower_first(core_meaning(meaning, language))
    fills = span_fills(match)
    if language == "EN":
        text = fill_slots(text, match.idiom, fills)
    words = text.split()
    shaped = None
    if language == "EN":
        shaped = _shape_en_verb(words, fills, en_verb_context(before))
    elif language == "PT":
        shaped = _pt_shape_verb(words, fills)
    if shaped is None and words:
        shaped = words
        plural = any(_is_plural_of(token, word, language) for word, token in fills.words)
        article = words[0].casefold()
        starts_article = re.match(r"(?:a|an|the)\s", match.idiom, re.I) is None
        if plural and language == "EN" and article in ("a", "an", "one") and len(words) > 1:
            shaped = _en_pluralise(words)
        elif plural and language == "PT" and article not in PT_FUNCTION - {"um", "uma"}:
            shaped = _pt_pluralise(words)
        elif starts_article and len(words) > 1 and _ends_with_determiner(before, language):
            articles = ("a", "an", "the") if language == "EN" else ("um", "uma", "o", "a", "os", "as")
            shaped = words[1:] if article in articles else words
    text = " ".join(shaped or words)
    if match.text[:1].isupper() and text[:1].islower():
        text = text[0].upper() + text[1:]
    return text
