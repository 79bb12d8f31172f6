"""Whether a matched idiom stands with nothing around it to judge its sense by (:func:`bare_use`): every other word
of the text is a function word (a pronoun, an article, an auxiliary, a negation, a preposition, a conjunction), a
time or degree adverb ("yesterday", "again", "finally") or a name.

A literal use of an idiom's words needs something in the text that makes them literal (a floor for the spilled
beans, a barn for the kicked bucket); with nothing of the kind, a reader takes a known idiom in its conventional,
figurative sense (the salient meaning of a familiar idiom is its figurative one). The sense check, trained on
sentences with context, has no such default: on "She spilled the beans." it answers from the words alone, and
calls it literal. The reader therefore reads a bare use as figurative, whatever the sense check says
(:class:`~idiomkit.idioms.rewrite.Rewriter`).

Example::

    bare_use("She spilled the beans.", match)                     # True: nothing else to go by
    bare_use("She spilled the beans all over the floor.", match)  # False: "floor"
"""

from __future__ import annotations

import re

from idiomkit.idioms.matcher import Match
from idiomkit.idioms.morphology import word_set

_EN = word_set(
    # pronouns, determiners, question words
    "i you he she it we they me him her us them my your his its our their mine yours hers ours theirs myself "
    "yourself himself herself itself ourselves themselves someone somebody everyone everybody nobody anyone "
    "who what this that these those a an the "
    # auxiliaries, modals, negation, with their contractions
    "am is are was were be been being do does did done have has had having will would can could shall should may "
    "might must not no never don't doesn't didn't isn't aren't wasn't weren't won't wouldn't can't cannot couldn't "
    "shouldn't haven't hasn't hadn't i'm you're he's she's it's we're they're that's what's who's i've you've "
    "we've they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll let's "
    # prepositions, conjunctions, interjections, time and degree adverbs
    "of to in on at for with by from about over into onto out up down off "
    "and but or so then oh well yes just finally again already really always often sometimes soon later now once "
    "still also too very yesterday today tonight tomorrow last next week month year night morning ago"
)
_PT = word_set(
    "eu tu ele ela nós vós eles elas você vocês me te se nos vos lhe lhes o a os as um uma uns umas meu minha "
    "meus minhas seu sua seus suas dele dela deles delas nosso nossa quem que isso isto aquilo alguém ninguém "
    "é são foi foram era eram está estão estava estavam esteve vai vão vou ia iam ter tem têm tinha teve há "
    "não nunca e mas ou então já sempre também ontem hoje amanhã agora depois de novo novamente finalmente "
    "ainda logo muito do da dos das em no na nos nas com por para pelo pela ao à"
)
FUNCTION_WORDS = {"EN": _EN, "PT": _PT}
MAX_OUTSIDE = 120  # characters outside the span: a longer text is never bare (and a long text costs no scan)


def bare_use(text: str, match: Match) -> bool:
    """Whether every word of ``text`` outside the span of ``match`` is a function word, a time or degree adverb
    of the match's language, or a name (a capitalised word that does not start the text): module docstring. A match
    with words inserted in the idiom is never bare (a gap makes the match itself uncertain)."""
    known = FUNCTION_WORDS.get(match.language)
    if known is None or len(text) - (match.end - match.start) > MAX_OUTSIDE:
        return False
    if len(re.findall(r"[\w']+", match.text)) > len(re.findall(r"[\w']+", match.idiom)):
        return False  # words inserted in the idiom ("A man is dancing in the street" for "man in the street")
    outside = f"{text[: match.start]} \x00 {text[match.end :]}".replace("’", "'")
    words = re.findall(r"[\w']+|\x00", outside)
    first = True
    for word in words:
        if word == "\x00":
            first = False
            continue
        if word.casefold() not in known and (first or not word[:1].isupper()):
            return False
        first = False
    return True
