"""Whether an English meaning, shaped to a span (:func:`~idiomkit.idioms.shape.shape_meaning`), can stand in its
sentence (:func:`fits`): the rewriter tries an entry's meanings in turn and writes the first that fits; where none
does, the idiom stays as written (a broken sentence is worse than an idiom left unread).

Example::

    match = Matcher(Lexicon.from_pairs([("put a damper on", "to spoil")])).find("It puts a damper on my plans.")[0]
    fits("spoils", match, after=" my plans.", before="It ", meaning="to spoil")  # True
"""

from __future__ import annotations

import re

from idiomkit.idioms.context import FUNCTION_WORDS
from idiomkit.idioms.fills import span_fills
from idiomkit.idioms.matcher import Match
from idiomkit.idioms.morphology import word_set
from idiomkit.idioms.morphology_en import en_forms, en_verbs, verb_lemma
from idiomkit.idioms.shape import EN_DETERMINERS, FINAL_PREPOSITIONS


def _noun_use(before: str) -> bool:
    """Whether the span stands where a noun phrase does: right after a determiner ("any more rabbit holes", "the
    nest egg"; not "that", a relative pronoun as often: "lyrics that turn the tables")."""
    words = re.findall(r"[\w']+", before[-40:].casefold())
    return bool(words) and words[-1] != "that" and (words[-1] in EN_DETERMINERS or words[-1] == "more")


_RELATIVE = re.compile(r"\s+(?:i|you|he|she|we|they)\s+[\w']+", re.I)  # "the nest egg he had built"
_OF_A = re.compile(r"\s+of\s+an?\s+([\w'-]+)", re.I)  # "a page-turner of a book"
_POSTMODIFIER = word_set("that which who whose where when of for to with in on at from by as")


_CLAUSE_STARTS = word_set("because since as but and or so when whenever if while although though unless until")


def _clause_use(before: str, idiom: str) -> bool:
    """Whether the span is a clause of its own: an idiom that does not start with a verb ("familiarity breeds
    contempt") at the start of the text or of a clause ("... because familiarity breeds contempt")."""
    first = re.findall(r"[\w'-]+", idiom.casefold())[:1]
    if not first or first[0] in en_verbs() or verb_lemma(first[0]):
        return False
    tail = before[-40:].rstrip()
    words = re.findall(r"[\w']+", tail.casefold())
    return not tail or tail[-1] in '.!?:;"“' or (bool(words) and words[-1] in _CLAUSE_STARTS)


def _verb_phrase(meaning: str) -> bool:
    """Whether an English meaning is a verb phrase the rewriter would put in a noun's place: an infinitive other
    than "to be ..." ("to go somewhere strange"), or an -ly adverb and a verb ("mentally go somewhere")."""
    words = re.findall(r"[\w']+", meaning.casefold())
    if len(words) > 1 and words[0] == "to":
        return words[1] != "be" and words[1] in en_verbs()
    return len(words) > 1 and words[0].endswith("ly") and words[1] in en_verbs()


def fits(shaped: str, match: Match, after: str = "", before: str = "", meaning: str = "") -> bool:
    """Whether an English meaning shaped to the span (:func:`shape_meaning`) can stand in the sentence: it keeps
    the filler the sentence gave the idiom's slot ("giving it the cold shoulder" + "to appear disinterested toward
    one" loses "it"), and where the idiom ends with a preposition whose object follows the span ("puts a damper
    on my plans"), it ends with a preposition or a verb that takes that object ("to resolve a conflict with", "to
    come to accept"; not "to stop people from enjoying an activity", nor an infinitive's "to": "that they want
    to"); nor does a meaning that ends with "for someone" where the sentence gives the idiom a preposition's object
    of its own ("have a crush on anyone"). Portuguese meanings always fit. Where no meaning of an entry fits, the
    reader leaves the idiom as it is (:class:`~idiomkit.idioms.rewrite.Rewriter`): a broken sentence is worse than
    an idiom left unread.

    Where the span stands as a noun phrase (after a determiner, ``before``, and not a gerund: "his breaking the
    ice" -> "his making people feel comfortable"), the meaning must be one too: no
    verb-phrase ``meaning`` ("any more rabbit holes" + "mentally go somewhere surreal"); a noun idiom a clause
    modifies ("the nest egg he had built") takes only a bare noun of at most three words ("savings", not "an
    amount of money that has been saved he had built"); and "a page-turner of a book" is left as it is ("a thrilling
    book of a book": no meaning takes the "of a book" that follows). An idiom that is a clause of its own
    ("because familiarity breeds contempt") takes no infinitive ("to start disliking ..."). No meaning fits that
    repeats two neighbouring content words of its idiom ("get cold feet" + "to develop cold feet": no paraphrase),
    nor a meaning without a verb where the span is a predicate, right after a subject pronoun or an auxiliary ("It
    costs an arm and a leg" + "very expensive" would leave the subject without its verb)."""
    if match.language != "EN":
        return True
    if _circular(meaning, match.idiom) or (_predicate_use(before) and not _has_verb(meaning)):
        return False  # "get cold feet" + "to develop cold feet"; "costs an arm and a leg" + "very expensive"
    if meaning.casefold().startswith("to ") and _clause_use(before, match.idiom):
        return False  # "because familiarity breeds contempt" + "to start disliking ...": no subject left
    first = re.findall(r"[\w'’]+", match.text.casefold())[:1]
    gerund = bool(first) and first[0].endswith("ing") and verb_lemma(first[0]) is not None
    if _noun_use(before) and not gerund:  # "no more beating around the bush": a gerund takes a verb's meaning
        words = [w.casefold() for w in re.findall(r"[\w'’]+", shaped)]
        head = words[1:2] if words[:1] and words[0].endswith("ly") else words[:1]
        if _verb_phrase(meaning) and head and _verb_word(head[0]):
            return False  # kept where the shaping took the verb out: "make a quick buck" -> "make money quickly"
        if _RELATIVE.match(after) and (len(words) > 3 or _POSTMODIFIER & set(words)):
            return False
        if _OF_A.match(after):
            return False
    filler = span_fills(match).filler
    text = f" {shaped.casefold()} "
    if filler and not any(f" {form.casefold()} " in text for form in (filler, _SUBJECT_OF.get(filler, filler))):
        return False
    if re.search(r"\s(?:for|to|with|on|at|toward|towards)\s+(?:someone|somebody|something)\s*$", text) and re.match(
        r"\s*(?:on|for|to|with|at|about|toward|towards|over)\s", after, re.I
    ):
        return False  # "have a crush on anyone" + "a feeling of love for someone": two objects
    idiom_end = re.findall(r"[\w']+", match.idiom.casefold())[-1:]
    if not (idiom_end and idiom_end[0] in FINAL_PREPOSITIONS and re.match(r"\s*[\w'’]", after)):
        return True
    words = [w.casefold() for w in re.findall(r"[\w'’]+", shaped)]
    if not words:
        return False
    if words[-1] == "to":
        return len(words) < 2 or words[-2] not in en_verbs()
    return words[-1] in FINAL_PREPOSITIONS | _OTHER_PREPOSITIONS or _verb_word(words[-1])


def _content_pairs(text: str) -> set[tuple[str, str]]:
    """Neighbouring pairs of words of ``text`` that are both content words (not function words, not slots)."""
    words = re.findall(r"[\w'’]+", text.casefold())
    content = [w if w not in FUNCTION_WORDS["EN"] and w not in _SLOTS else "" for w in words]
    return {(a, b) for a, b in zip(content, content[1:], strict=False) if a and b}


def _circular(meaning: str, idiom: str) -> bool:
    """Whether ``meaning`` repeats two neighbouring content words of ``idiom`` ("to develop cold feet")."""
    return bool(_content_pairs(idiom) & _content_pairs(meaning))


def _predicate_use(before: str) -> bool:
    """Whether the span stands where a verb phrase does: right after a subject pronoun or an auxiliary ("It
    costs an arm and a leg", "it will cost ...", "She got cold feet")."""
    words = re.findall(r"[\w'’]+", before[-30:].casefold().replace("’", "'"))
    return bool(words) and words[-1] in _SUBJECTS_AND_AUXILIARIES


def _has_verb(meaning: str) -> bool:
    """Whether an English meaning holds a verb in any form ("costing a lot", "to die"; not "very expensive")."""
    return any(_verb_word(w) for w in re.findall(r"[\w'’]+", meaning.casefold()))


def _verb_word(word: str) -> bool:
    """Whether ``word`` is an English verb in any of its forms (watch, watches, watched, watching)."""
    if word in en_verbs():
        return True
    stems = (word[:-1], word[:-2], word[:-3] + "y", word[:-2], word[:-2] + "e", word[:-3], word[:-3] + "e", word[:-4])
    return any(stem and stem in en_verbs() and word in en_forms(stem) for stem in stems)


_SUBJECTS_AND_AUXILIARIES = word_set(
    "i you he she it we they who will would can could shall should may might must do does did don't doesn't "
    "didn't won't wouldn't can't couldn't shouldn't 'll i'll you'll he'll she'll it'll we'll they'll"
)
_SLOTS = word_set("someone somebody something one one's someone's oneself")
_OTHER_PREPOSITIONS = word_set("in by toward towards through under with without between among around across")
_SUBJECT_OF = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they"}
