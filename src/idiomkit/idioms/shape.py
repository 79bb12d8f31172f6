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
  and person of the idiom's verb in the span (pisou -> errou, abriu -> falou; :func:`~idiomkit.idioms.pt_verbs.
  pt_verb_form`); a clitic joined by a hyphen stays ("sair-se bem" -> "saiu-se bem"); with the Portuguese agreement in
  :mod:`~idiomkit.idioms.shape_pt`.
- **slots**: the meaning's "someone's"/"one's" becomes the possessive the span gave the idiom's possessive slot,
  its "someone" that possessive's object form or the span's filler, "oneself" its reflexive ("pulling my leg" +
  "to tease someone" -> "teasing me"; "gave him the cold shoulder" + "to ignore someone" -> "ignored him";
  :mod:`~idiomkit.idioms.fills`).
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

from idiomkit.idioms.fills import OBJECT_PRONOUNS, PLACEHOLDER, Fills, fill_slots, span_fills
from idiomkit.idioms.matcher import Match, tokenize
from idiomkit.idioms.morphology import EN_FUNCTION, PT_DETS, PT_FUNCTION, word_set
from idiomkit.idioms.morphology_en import (
    EN_VERBS,
    be_form,
    en_forms,
    en_plural,
    en_verbs,
    inflect,
    verb_form,
    verb_lemma,
)
from idiomkit.idioms.shape_pt import pt_plural, pt_pluralise, pt_predicate, pt_shape_verb

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
    text = re.split(r"\s*;\s*|\s*\|\s*|\s+/\s+", text, maxsplit=1)[0]
    head, comma, rest = text.partition(",")
    if comma and not _adjectives_before_noun(rest, language):
        text = head
    qualifier = _QUALIFIER.get(language, _QUALIFIER["EN"])
    text = re.split(rf"\s+(?:{qualifier})(?=\s+(?:{_QUALIFIED[language]})\b|$)", text, maxsplit=1, flags=re.I)[0]
    if language == "EN":
        text = re.split(r"\s+or\s+(?=to\s)", text, maxsplit=1)[0]
    text = text.strip(" .:;,-–—")
    return text if re.search(r"\w", text) else meaning.strip()


def _adjectives_before_noun(rest: str, language: str) -> bool:
    """Whether the text after a meaning's first comma ends the noun phrase the comma runs through: two or three
    words, none a function word or a verb first, no comma of its own ("in a state of extreme, euphoric happiness");
    a list of synonyms ("pertinaz, casmurro"), a clause ("to blame, especially ..."), another sense ("fazer má
    cara, mostrar pouca vontade") is cut there."""
    words = rest.split()
    function = PT_FUNCTION if language == "PT" else EN_FUNCTION
    if not 2 <= len(words) <= 3 or "," in rest or any(w.casefold().strip(".") in function for w in words):
        return False
    first = words[0].casefold()
    verb = re.search(r"[aeiô]r$", first) if language == "PT" else first in en_verbs()
    return not verb  # "fazer má cara, mostrar pouca vontade": another sense


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
_CAUSATIVE = word_set(
    "let lets letting make makes made making help helps helped helping watch watched see saw hear heard"
)
_NO_SUBJECT = EN_FUNCTION | word_set("and or but then so to who which that as than")
_BREAK = re.compile(r"[.!?;:()\[\]{}\"“”«»—–]")


class VerbContext(NamedTuple):
    """What the words before a span say of its verb: the auxiliary right before it (``modal``, ``do``, ``have``,
    ``be``, ``get``, ``has_or_is`` for "'s", ``had_or_would`` for "'d", ``to``, ``causative`` for the object of
    let/make/help/see/hear: "let him spill", or None) and the subject's person (1s, 3s, pl; None when there is no
    subject right before)."""

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
    j = i - 1
    while j >= 0 and words[j] in EN_DETERMINERS:
        j -= 1
    if word in OBJECT_PRONOUNS - {"you"} or (j >= 0 and words[j] in _CAUSATIVE):
        return VerbContext("causative", None)  # "let the introduction steal", "made me spill": a bare verb
    if word in ("who", "which", "that") and i > 0:  # a relative pronoun agrees with the noun before it
        word = words[i - 1]
    elif word in ("who", "what") and i == 0:  # a question's subject: "Who let the cat out of the bag?"
        return VerbContext(None, "3s")
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
    if aux in ("modal", "do", "to", "had_or_would", "causative"):
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
    if first in ("not", "never") and len(words) > 1 and words[1].casefold() in en_verbs():
        return 1  # "to not care" after "does": "does not care"
    if len(words) > 1 and first.endswith("ly") and words[1].casefold() in en_verbs():
        return 1
    return None


def _lemma(word: str) -> str:
    """The verb an idiom's first word is a past or -ing form of ("saved" -> save, "baying" -> bay), else the word."""
    return word if word.casefold() in en_verbs() else verb_lemma(word) or word


_POSSESSOR = {
    "my": ("i", "me", "my"),
    "your": ("you", "your"),
    "our": ("we", "us", "our"),
}


def _possessive_object(fills: Fills, before: str) -> str | None:
    """The object a first- or second-person possessive of the span stands for when the clause's last pronoun is
    another person's ("stop him from getting under your skin": you); None for the subject's own ("I lost my
    head") or a third-person possessive (whose it is, the words do not tell)."""
    possessive = (fills.possessive or "").casefold()
    if possessive not in _POSSESSOR:
        return None
    pronouns = [w for w in re.findall(r"[\w']+", _BREAK.split(before[-120:])[-1].casefold()) if w in _PRONOUNS]
    if pronouns and pronouns[-1] in _POSSESSOR[possessive]:
        return None
    return _OBJECT_OF[possessive]


_OBJECT_OF = {"my": "me", "your": "you", "our": "us"}
_PRONOUNS = word_set("i me my you your he him his she her it its we us our they them their")


def _gerund_lemma(word: str) -> str | None:
    """The verb an -ing word is a form of ("being" -> be, "making" -> make), None for another word."""
    return verb_lemma(word) if word.casefold().endswith("ing") and len(word) >= 5 else None


def _verb_in(verb: str, form: str, person: str | None, keep: str | None) -> str:
    """One verb in ``form`` (:func:`_target_form`), agreeing with ``person``; ``keep``: the span's own "be"."""
    if form == "pred":
        return inflect(verb, "ing")
    if verb == "be":
        return keep or be_form(form, person or "3s")
    if form == "present":
        return inflect(verb, "s" if person == "3s" else "base")
    return inflect(verb, form)


def _inflect_head(words: list[str], at: int, form: str, person: str | None, keep: str | None) -> list[str]:
    """``words`` with the verb at ``at`` in ``form`` (``keep``: the span's own "be" form, used as it is), and a
    verb joined to it by and/or ("bother and distract" -> "bothering and distracting"); a "be" before an -ing
    word goes where the span is an -ing form or after "be" ("is being handling" -> "is handling")."""
    verb = words[at].casefold()
    rest = words[at + 1 :]
    if verb == "be" and (form == "pred" or (form == "ing" and rest and rest[0].casefold().endswith("ing"))):
        return words[:at] + rest
    new = [_verb_in(verb, form, person, keep)]
    if len(rest) > 1 and rest[0].casefold() in ("and", "or") and rest[1].casefold() in en_verbs():
        second = rest[1].casefold()
        if second not in EN_FUNCTION:
            new += [rest[0], _verb_in(second, form, person, None)]
            rest = rest[2:]
    rest = list(rest)
    for i in range(1, len(rest)):  # "enter a place and make oneself comfortable": an irregular verb after "and"
        if rest[i - 1].casefold() == "and" and rest[i].casefold() in EN_VERBS and rest[i].casefold() != "be":
            rest[i] = _verb_in(rest[i].casefold(), form, person, None)
    return [*words[:at], *new, *rest]


EN_DETERMINERS = word_set("a an the this that these those my your his her its our their some any no every each another")
_NOMINAL_BEFORE = (EN_FUNCTION | EN_DETERMINERS) - word_set(
    "to and or but not i we he she they you it who that which then so"
)


def _verbal(token: str, idiom_word: str, before: str) -> bool:
    """Whether the span's first word is a verb: an inflected form of the idiom's first word, or its base form when
    that is a verb and no determiner or preposition comes right before ("in the rat race": a noun)."""
    if not token:
        return False
    if verb_form(token, idiom_word) != "base":
        return True
    if idiom_word not in en_verbs():
        return False
    last = [key for key, _, _ in tokenize(_BREAK.split(before[-60:])[-1])][-1:]
    return not (last and (last[0] in _NOMINAL_BEFORE or last[0].endswith("'s")))


def _shape_en_verb(words: list[str], fills: Fills, context: VerbContext, before: str = "") -> list[str] | None:
    """The English meaning ``words`` with their verb inflected to the span, or None when the meaning is no verb
    phrase the span can give a form to."""
    explicit = len(words) > 1 and words[0].casefold() == "to"
    body = words[1:] if explicit else words
    idiom_word, token = fills.words[0] if fills.words else ("", "")
    idiom_word = _lemma(idiom_word)  # an idiom listed in an inflected form: "baying for blood", "saved his neck"
    verbal_idiom = _verbal(token, idiom_word, before)
    at = _en_head(body)
    if at is None and verbal_idiom and not explicit and body and (lemma := _gerund_lemma(body[0])):
        body, at = [lemma, *body[1:]], 0  # "being the best" for "take the cake": "takes" -> "is the best"
    if at is None:
        if verbal_idiom and idiom_word in _LIGHT and body and _noun_phrase(body):
            return [token, *body]  # "has a crush" + "a brief feeling of love" -> "has a brief feeling of love"
        return None
    if not explicit and not verbal_idiom:
        return None  # "open and honest" for "above board": no verb phrase
    obj = fills.object or _possessive_object(fills, before)
    if obj and not PLACEHOLDER.search(" ".join(words)) and obj.casefold() not in " ".join(words).casefold():
        if len(body) == 1:
            body = [*body, obj]  # "giving me a hand" + "to help" -> "helping me"
        elif at is not None and len(body) > at + 1 and body[at + 1].casefold() == "from":
            body = [*body[: at + 1], obj, *body[at + 1 :]]  # "keep chaos at bay" -> "prevent chaos from happening"
    if idiom_word == "be" and token.casefold() in en_forms("be"):
        keep = token if body[at].casefold() == "be" else None
        form = "present" if verb_form(token, "be") == "base" else _target_form(token, "be", context)
        person = "1s" if token.casefold() == "am" else context.person
        return _inflect_head(body, at, form, person, keep)
    if not verbal_idiom:  # an adjective, adverb or noun idiom with a "to ..." meaning ("long in the tooth")
        previous = [w for w in re.findall(r"[\w']+", before[-40:].casefold()) if w not in ("a", "an", "the")][-1:]
        if previous and body[at].casefold() != "be" and previous[0] in en_forms(body[at].casefold()):
            return body[at + 1 :]  # "make a quick buck" + "to make money quickly" -> "make money quickly"
        if context.aux in ("be", "has_or_is"):
            return _inflect_head(body, at, "pred", None, None)
        if body[at].casefold() == "be" and context.aux not in ("modal", "to", "do", "causative"):
            return body[:at] + body[at + 1 :]  # "a warm-hearted lady" + "to be kind" -> "a kind lady"
        return body
    form = _target_form(token, idiom_word, context)
    return _inflect_head(body, at, form, context.person, None)


_LIGHT = word_set("have get take give make do pay spend catch keep hold find lose put show set throw play")


def _noun_phrase(words: list[str]) -> bool:
    """Whether a meaning reads as a noun phrase a light verb can take (an article, or a word that is no function
    word, adverb, -ing form or verb)."""
    first = words[0].casefold()
    if first in ("a", "an", "the", "some"):
        return True
    return first not in EN_FUNCTION and not first.endswith(("ly", "ing")) and first not in en_verbs()


# --- number and articles ------------------------------------------------------------------------------------------

_PT_CONTRACTED_DETS = word_set("no na nos nas do da dos das num numa pelo pela pelos pelas")
_EN_BOUNDARY = word_set("of that which who whom whose with without in on at for from to by about like than as or and")
_EN_AGREE = {"is": "are", "was": "were", "has": "have", "does": "do"}


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
    if end + 2 == len(words) and words[end].casefold() in ("or", "and"):  # "a fight or quarrel": "fights or quarrels"
        words[-1] = en_plural(words[-1])
        return words
    if end + 1 < len(words) and words[end].casefold() in ("that", "which", "who"):
        verb = words[end + 1]
        words[end + 1] = _EN_AGREE.get(verb.casefold(), verb)
    return words


def _ends_with_determiner(before: str, language: str) -> bool:
    """Whether a determiner comes right before the span, or before one or two modifiers ("a giant ___")."""
    if not before[-1:].isspace() or re.search(r"[^\w\s'’-]\s*$", before):
        return False
    words = [w.casefold() for w in re.findall(r"[\w'’-]+", before[-60:])][-3:]
    function = PT_FUNCTION if language == "PT" else EN_FUNCTION
    for back, word in enumerate(reversed(words)):
        if language == "PT" and (word in PT_DETS or word in _PT_CONTRACTED_DETS):
            return True
        if language == "EN" and (word in EN_DETERMINERS or word.endswith(("'s", "’s"))):
            return True
        if back == 2 or word in function or word in en_verbs():
            return False
    return False


# --- the whole shaping --------------------------------------------------------------------------------------------


def _lower_first(text: str) -> str:
    """The first word lowered when it is capitalised only ("To die", "A gift"; not "EU", not "I")."""
    m = re.match(r"(\w)(\w*)", text)
    if m and m.group(1).isupper() and m.group(2).islower() and m.group() != "I":
        return text[0].lower() + text[1:]
    return text


FINAL_PREPOSITIONS = word_set("on of with to for at about into onto upon over from against after")


def _join_after(words: list[str], idiom: str, after: str) -> list[str]:
    """``words`` fitted to the text after the span: an idiom's final "of" kept after a meaning of two or more
    words ("borne the brunt of his misdeed" -> "taken the main force of his misdeed"; not after "dislike"), a
    meaning's final "of something/someone" dropped before the sentence's own "of" ("the lion's share of their
    income")."""
    follows_of = re.match(r"\s+of\b", after, re.I) is not None
    if follows_of and len(words) > 2 and words[-2].casefold() == "of" and PLACEHOLDER.fullmatch(words[-1]):
        return words[:-2]
    text = " ".join(words)
    placeholder = re.search(r"\s+(?:someone|somebody|something)(?:\s+or\s+(?:someone|somebody|something))?$", text)
    idiom_end = re.findall(r"[\w']+", idiom.casefold())[-1:]
    if placeholder and idiom_end and idiom_end[0] in FINAL_PREPOSITIONS and re.match(r"\s+\w", after):
        return text[: placeholder.start()].split()  # "keeps tabs on me": "monitors or observes me"
    idiom_words = re.findall(r"[\w']+", idiom.casefold())
    last = words[-1].casefold() if words else ""
    if idiom_words[-1:] == ["of"] and len(words) > 1 and last not in EN_FUNCTION:
        return [*words, "of"]
    return words


def shape_meaning(meaning: str, match: Match, before: str = "", after: str = "") -> str:
    """The meaning as it should stand in place of ``match.text``, ``before`` and ``after`` being the text before
    and after the span (module docstring).

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
        shaped = _shape_en_verb(words, fills, en_verb_context(before), before)
    elif language == "PT":
        shaped = pt_shape_verb(words, fills)
        words = pt_predicate(words, before)  # "Ela está" + "distraído" -> "distraída"
    if shaped is None and words:
        shaped = words
        plural = any(_is_plural_of(token, word, language) for word, token in fills.words)
        article = words[0].casefold()
        starts_article = re.match(r"(?:a|an|the)\s", match.idiom, re.I) is None
        if plural and language == "EN" and article in ("a", "an", "one") and len(words) > 1:
            shaped = _en_pluralise(words)
        elif plural and language == "PT" and article not in PT_FUNCTION - {"um", "uma"}:
            shaped = pt_pluralise(words)
        elif starts_article and len(words) > 1 and _ends_with_determiner(before, language):
            articles = ("a", "an", "the") if language == "EN" else ("um", "uma", "o", "a", "os", "as")
            shaped = words[1:] if article in articles else words
    shaped = shaped or words
    if language == "EN":
        shaped = _join_after(shaped, match.idiom, after)
    return _case_like(" ".join(shaped), match.text, language)


def _case_like(text: str, span: str, language: str) -> str:
    """``text`` in the case of ``span``: all capitals, every word capitalised (function words aside), or its first
    letter capitalised."""
    letters = [c for c in span if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return text.upper()
    function = PT_FUNCTION if language == "PT" else EN_FUNCTION
    words = span.split()
    if len(words) > 1 and all(w[:1].isupper() for w in words):
        return " ".join(w if w.casefold() in function else w[:1].upper() + w[1:] for w in text.split())
    if span[:1].isupper() and text[:1].islower():
        return text[0].upper() + text[1:]
    return text
