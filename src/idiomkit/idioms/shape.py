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
    guy"; or an object pronoun inserted into an idiom without a filler: "given *him* the slip"), the span's tokens
    aligned with each idiom word (``words``: (idiom word, span token)) and whether the filler or the possessive
    is the idiom's someone / someone's (``object``: it may follow a meaning that is a bare verb, "tease me")."""

    possessive: str | None
    filler: str | None
    words: tuple[tuple[str, str], ...]
    object: str | None = None
    reflexive: str | None = None  # the span's word for the idiom's reflexive ("make yourself at home": himself)


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
    possessive = filler = obj = reflexive = None
    words = []
    for k, slot in enumerate(slots):
        a, b = out.get(k, (0, 0))
        if a == b:
            continue
        text = match.text[tokens[a][1] : tokens[b - 1][2]]
        if slot.kind == FILL:
            possessive, filler = (text, filler) if slot.poss else (possessive, text)
            obj = _object_of(text) if slot.poss else text
        elif slot.kind == OPT and slot.poss and slot.word != "the" and (slot.word or _is_possessive(keys[a])):
            possessive = text  # one's, your, [pron] filled with a possessive
        elif slot.word:
            words.append((slot.word, text))
            if slot.word in _REFLEXIVES:
                reflexive = text
    covered = {t for a, b in out.values() for t in range(a, b)}
    inserted = [t for t in range(len(keys)) if t not in covered]
    if filler is None and len(inserted) == 1 and keys[inserted[0]] in _OBJECT_PRONOUNS:
        filler = obj = match.text[tokens[inserted[0]][1] : tokens[inserted[0]][2]]
    return Fills(possessive, filler, tuple(words), obj, reflexive)


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
_PLACEHOLDER = re.compile(
    r"\b(?:someone's|somebody's|one's|someone|somebody|oneself|something)\b(?!\s+else)", re.I
)  # "someone else's work" is no slot
_OBJECT_PRONOUNS = word_set("me you him her us them")
_SUBJECT_FORM = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they"}
_REFLEXIVES = word_set("myself yourself himself herself itself oneself ourselves yourselves themselves")
_FINITE_NEXT = word_set("must will would can could should shall may might is was has had does did are were have do")


def _is_possessive(key: str) -> bool:
    return key in _OBJECT or key.endswith("'s")


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
        elif kind == "oneself" and (fills.reflexive or fills.possessive):
            new = fills.reflexive or _REFLEXIVE.get(fills.possessive.casefold())
        elif kind == "something" and fills.filler and filler_is_thing:
            new = fills.filler
        if new is None:
            return m.group()
        done.add(kind)
        following = re.match(r"\s+(\w+)", meaning[m.end() :])
        if kind in ("someone", "somebody") and following and following.group(1).casefold() in _FINITE_NEXT:
            new = _SUBJECT_FORM.get(new.casefold(), new)  # "that somebody must leave": "that he must leave"
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
    while j >= 0 and words[j] in _EN_DETERMINERS:
        j -= 1
    if word in _OBJECT_PRONOUNS - {"you"} or (j >= 0 and words[j] in _CAUSATIVE):
        return VerbContext("causative", None)  # "let the introduction steal", "made me spill": a bare verb
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
    if len(words) > 1 and first.endswith("ly") and words[1].casefold() in en_verbs():
        return 1
    return None


def _gerund_lemma(word: str) -> str | None:
    """The verb an -ing word is a form of ("being" -> be, "making" -> make), None for another word."""
    word = word.casefold()
    if not word.endswith("ing") or len(word) < 5:
        return None
    stem = word[:-3]
    candidates = [
        stem,
        stem + "e",
        stem[:-1] if stem[-1:] == stem[-2:-1] else "",
        stem[:-1] + "ie" if stem.endswith("y") else "",
    ]
    if word == "being":
        return "be"
    return next((c for c in candidates if c and c in en_verbs() and word in en_forms(c)), None)


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


_EN_DETERMINERS = word_set(
    "a an the this that these those my your his her its our their some any no every each another"
)
_NOMINAL_BEFORE = (EN_FUNCTION | _EN_DETERMINERS) - word_set(
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
    if fills.object and len(body) == 1 and not _PLACEHOLDER.search(" ".join(words)):
        body = [*body, fills.object]  # "giving me a hand" + "to help" -> "helping me"
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
    """Whether a determiner comes right before the span, or before one or two modifiers ("a giant ___")."""
    if not before[-1:].isspace() or re.search(r"[^\w\s'’-]\s*$", before):
        return False
    words = [w.casefold() for w in re.findall(r"[\w'’-]+", before[-60:])][-3:]
    function = PT_FUNCTION if language == "PT" else EN_FUNCTION
    for back, word in enumerate(reversed(words)):
        if language == "PT" and (word in PT_DETS or word in _PT_CONTRACTED_DETS):
            return True
        if language == "EN" and (word in _EN_DETERMINERS or word.endswith(("'s", "’s"))):
            return True
        if back == 2 or word in function or word in en_verbs():
            return False
    return False


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


def _join_after(words: list[str], idiom: str, after: str) -> list[str]:
    """``words`` fitted to the text after the span: an idiom's final "of" kept after a meaning of two or more
    words ("borne the brunt of his misdeed" -> "taken the main force of his misdeed"; not after "dislike"), a
    meaning's final "of something/someone" dropped before the sentence's own "of" ("the lion's share of their
    income")."""
    follows_of = re.match(r"\s+of\b", after, re.I) is not None
    if follows_of and len(words) > 2 and words[-2].casefold() == "of" and _PLACEHOLDER.fullmatch(words[-1]):
        return words[:-2]
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
