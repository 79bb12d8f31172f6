"""English inflection: every surface form an English idiom word may take, and one verb form made on demand.

English has ONE table of irregular verbs (:data:`EN_VERBS`, principal parts) that both directions read: the
matcher's :func:`en_forms` (every form of an idiom word) and the rewriter's :func:`inflect` / :func:`verb_form`
(a meaning's verb put in the form of the idiom's verb: kicked -> died). Regular forms follow one set of rules
(:func:`inflect`); :func:`en_forms` adds harmless over-generated spellings ("stoping" beside "stopping") so that a
rule's edge case never hides a match. Function words (:data:`~idiomkit.idioms.morphology.EN_FUNCTION`) stay as
they are.

Example::

    "broke" in en_forms("break"), inflect("swim", "past"), verb_form("kicked", "kick")  # True, "swam", "past"
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

from idiomkit.idioms.morphology import EN_FUNCTION, table_rows, word_set, word_to_group


class Verb(NamedTuple):
    """An irregular English verb's principal parts; ``present``: irregular present forms, the third person
    singular first (be: is am are); ``regular``: the regular -ed forms are used too (burned/burnt)."""

    past: tuple[str, ...]
    participle: tuple[str, ...]
    present: tuple[str, ...] = ()
    regular: bool = False


def _verb(row: list[str]) -> tuple[str, Verb]:
    """One table row: ``lemma[*] [past [participle [present]]]``, "/" between alternatives; a missing past is the
    lemma, a missing participle the past; "*": the regular forms are used too."""
    lemma, *parts = row
    past = tuple(parts[0].split("/")) if parts else (lemma.rstrip("*"),)
    participle = tuple(parts[1].split("/")) if len(parts) > 1 else past
    present = tuple(parts[2].split("/")) if len(parts) > 2 else ()
    return lemma.rstrip("*"), Verb(past, participle, present, lemma.endswith("*"))


# The one English irregular verb table (both the matcher and the rewriter read it).
EN_VERBS: dict[str, Verb] = dict(
    _verb(row)
    for row in table_rows(
        """
    arise arose arisen|awake awoke awoken|be was/were been is/am/are/being|bear bore born/borne|beat beat beaten
    become became become|begin began begun|bend bent|bet|bid|bind bound|bite bit bitten|bleed bled|blow blew blown
    break broke broken|breed bred|bring brought|build built|burn* burned/burnt|burst|buy bought|cast|catch caught
    choose chose chosen|cling clung|come came come|cost|creep crept|cut|deal dealt|dig dug|do did done does
    draw drew drawn|dream* dreamed/dreamt|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen
    feed fed|feel felt|fight fought|find found|flee fled|fling flung|fly flew flown|forbid forbade forbidden
    forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|get got gotten|give gave given
    go went gone goes|grind ground|grow grew grown|hang* hung|have had had has|hear heard|hide hid hidden|hit
    hold held|hurt|keep kept|kneel* knelt|know knew known|lay laid|lead led|lean* leaned/leant|leap* leaped/leapt
    learn* learned/learnt|leave left|lend lent|let|lie* lay lain|light* lit|lose lost|make made|mean meant|meet met
    pay paid|prove* proved proven|put|quit|read|ride rode ridden|ring rang rung|rise rose risen|run ran run|say said
    see saw seen|seek sought|sell sold|send sent|set|sew* sewed sewn|shake shook shaken|shed|shine shone
    shoot shot|show* showed shown|shrink shrank shrunk|shut|sing sang sung|sink sank sunk|sit sat|sleep slept
    slide slid|sling slung|slit|speak spoke spoken|speed sped|spell* spelled/spelt|spend spent|spill* spilled/spilt
    spin spun|spit spat|split|spread|spring sprang sprung|stand stood|steal stole stolen|stick stuck|sting stung
    stink stank stunk|strike struck struck/stricken|string strung|swear swore sworn|sweep swept
    swell* swelled swollen|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told
    think thought|throw threw thrown|tread trod trodden|understand understood|wake* woke woken|wear wore worn
    weave wove woven|weep wept|win won|wind wound|wring wrung|write wrote written|overcome overcame overcome
    undo undid undone|upset|withdraw withdrew withdrawn|abide* abided/abode|beget begot/begat begotten
    behold beheld|beseech besought|befall befell befallen|bespeak bespoke bespoken|bless* blessed/blest
    broadcast|browbeat browbeat browbeaten|clothe* clothed/clad|dive* dived/dove dived|dwell* dwelt|fit* fitted/fit
    forecast|forego forewent foregone|forgo forwent forgone|foresee foresaw foreseen|foretell foretold
    forsake forsook forsaken|forswear forswore forsworn|heave* heaved/hove|inlay inlaid|input|knit* knitted/knit
    mislay mislaid|mislead misled|misread|misunderstand misunderstood|mistake mistook mistaken|mow* mowed mown
    outdo outdid outdone|outgrow outgrew outgrown|outrun outran outrun|outshine outshone|overdo overdid overdone
    overhear overheard|override overrode overridden|overrun overran overrun|oversee oversaw overseen
    overshoot overshot|oversleep overslept|overtake overtook overtaken|overthrow overthrew overthrown
    partake partook partaken|plead* pleaded/pled|rebuild rebuilt|redo redid redone|remake remade|repay repaid
    rerun reran rerun|retell retold|rethink rethought|rewrite rewrote rewritten|rid|shave* shaved shaved/shaven
    shear* sheared shorn|shoe shod|slay slew slain|slink slunk|smell* smelled/smelt|smite smote smitten
    sneak* sneaked/snuck|sow* sowed sown|spoil* spoiled/spoilt|stride strode stridden|strive strove striven
    strew* strewed strewn|thrive* thrived/throve|thrust|undergo underwent undergone|underlie underlay underlain
    undersell undersold|undertake undertook undertaken|underwrite underwrote underwritten|unbind unbound
    unbend unbent|unfreeze unfroze unfrozen|unmake unmade|unsay unsaid|unwind unwound|uphold upheld
    waylay waylaid|wed* wed|wet* wet|withhold withheld|withstand withstood|bust* busted/bust|mishear misheard
    """.replace("\n", "|")
    )
)
_EN_LEMMA_OF = {
    form: lemma
    for lemma, verb in EN_VERBS.items()
    for form in (*verb.past, *verb.participle, *verb.present)
    if form not in EN_VERBS
}
_EN_SWAPS = word_to_group([word_set("on upon onto")])  # interchangeable in idioms ("fell upon deaf ears")
_EN_NOUNS = {
    "foot": "feet",
    "tooth": "teeth",
    "man": "men",
    "woman": "women",
    "child": "children",
    "mouse": "mice",
    "goose": "geese",
    "person": "people",
    "life": "lives",
    "wife": "wives",
}
_VOWELS = "aeiou"
FORMS = ("base", "past", "ing", "s")  # the verb forms of :func:`inflect` and :func:`verb_form` (and "participle")
EN_VERB_FILE = "en_verbs.txt"  # one English verb a line (:func:`en_verbs`)


def _cvc(word: str) -> bool:
    """Ends consonant-vowel-consonant (not w/x/y): the final consonant may double (pat -> patted)."""
    return len(word) >= 3 and word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS and word[-3] not in _VOWELS


# verbs of two or more syllables stressed on the last one: their final consonant doubles (admitted, preferring)
_EN_FINAL_STRESS = word_set(
    "admit commit permit submit omit emit transmit remit acquit regret beget occur recur incur concur defer refer "
    "prefer confer infer deter transfer compel expel repel propel dispel excel rebel control patrol enrol extol "
    "equip unzip outwit abet allot annul befit embed kidnap worship handicap"
)


def _doubles(lemma: str) -> bool:
    """Whether a verb's final consonant doubles before -ed/-ing: a consonant-vowel-consonant ending in one
    syllable (stop, plan, quit) or a final stressed one (:data:`_EN_FINAL_STRESS`); not "visit", "open", "offer"."""
    plain = lemma.replace("qu", "q")  # the u of "qu" is no vowel: quit -> quitting
    if not _cvc(plain):
        return False
    return len(re.findall(r"[aeiouy]+", plain)) == 1 or lemma in _EN_FINAL_STRESS


def _y_stem(lemma: str) -> str:
    """ "tr" + "i" for a consonant + y ending (try -> tries, tried), else ""."""
    return lemma[:-1] + "i" if len(lemma) > 2 and lemma.endswith("y") and lemma[-2] not in _VOWELS else ""


def _e_stem(lemma: str) -> str:
    """The stem before -ing: a final silent e dropped (make -> mak), not in ee/ye/oe (see, dye, hoe)."""
    return lemma[:-1] if lemma.endswith("e") and not lemma.endswith(("ee", "ye", "oe")) else lemma


def _ck(lemma: str) -> str:
    """A final -ic takes k before -ed and -ing (panic -> panick-ed, picnic -> picnick-ing)."""
    return lemma + "k" if lemma.endswith("ic") and len(lemma) > 3 else lemma


def _regular_past(lemma: str, double: bool) -> str:
    """The regular -ed form; ``double``: a final consonant doubles after a short vowel (stop -> stopped)."""
    lemma = _ck(lemma)
    if y_stem := _y_stem(lemma):
        return y_stem + "ed"
    if lemma.endswith("e"):
        return lemma + "d"
    return lemma + lemma[-1] + "ed" if double and _doubles(lemma) else lemma + "ed"


def _regular_ing(lemma: str) -> str:
    """The -ing form (die -> dying, make -> making, stop -> stopping)."""
    if lemma.endswith("ie"):
        return lemma[:-2] + "ying"
    lemma = _ck(lemma)
    return lemma + lemma[-1] + "ing" if _doubles(lemma) else _e_stem(lemma) + "ing"


def _regular_s(lemma: str) -> str:
    """The third person singular or plural (try -> tries, go -> goes, kick -> kicks)."""
    if y_stem := _y_stem(lemma):
        return y_stem + "es"
    return lemma + "es" if lemma.endswith(("s", "x", "z", "ch", "sh", "o")) else lemma + "s"


def inflect(verb: str, form: str) -> str:
    """``verb`` (a lemma) in ``form`` (one of :data:`FORMS`, or ``participle``): :data:`EN_VERBS` (first
    alternative) for an irregular past, participle or present, else the regular rules.

    Example::

        inflect("die", "ing"), inflect("stop", "past"), inflect("swim", "past")  # "dying", "stopped", "swam"
        inflect("go", "participle")  # "gone"
    """
    irregular = EN_VERBS.get(verb)
    if form in ("past", "participle"):
        if irregular:
            return (irregular.past if form == "past" else irregular.participle)[0]
        return _regular_past(verb, double=True)
    if form == "ing":
        return _regular_ing(verb)
    if form == "s":
        return irregular.present[0] if irregular and irregular.present else _regular_s(verb)
    return verb


# "be" by tense and person ("1s": I; "3s": he, she, it, a singular noun; "pl": we, you, they, a plural noun)
_BE = {"present": {"1s": "am", "3s": "is", "pl": "are"}, "past": {"1s": "was", "3s": "was", "pl": "were"}}


def be_form(form: str, person: str = "3s") -> str:
    """ "be" in ``form`` (base, past, participle, ing, s, or ``present``: the present of ``person``), agreeing
    with ``person`` (1s, 3s, pl) in the past and present.

    Example::

        be_form("past", "pl"), be_form("present", "1s"), be_form("participle")  # "were", "am", "been"
    """
    if form in _BE:
        return _BE[form][person]
    return {"s": "is", "ing": "being", "participle": "been"}.get(form, "be")


def verb_form(token: str, lemma: str) -> str:
    """Which of :data:`FORMS` (or ``participle``: a participle that is no past, "broken", "gone") the token is
    of ``lemma`` (``base`` when unsure or not a form of it; a present of "be" other than "is": ``base``).

    Example::

        verb_form("kicked", "kick"), verb_form("spilling", "spill"), verb_form("swam", "swim")  # past, ing, past
        verb_form("broken", "break")  # participle
    """
    token, lemma = token.casefold(), lemma.casefold()
    if token == lemma or token not in en_forms(lemma):
        return "base"
    if token.endswith("ing"):
        return "ing"
    irregular = EN_VERBS.get(lemma)
    if irregular and token in irregular.present:
        return "s" if token == irregular.present[0] else "base"
    if irregular and token in irregular.participle and token not in irregular.past:
        return "participle"
    if token.endswith("ed") or (irregular and token in irregular.past) or (token[-1:] != "s" and token != lemma):
        return "past"
    return "s" if token.endswith("s") else "base"


_EN_PLURAL_F = word_set("leaf wolf half self shelf thief calf loaf elf sheaf")
_EN_SAME_PLURAL = word_set("sheep fish deer series species aircraft offspring")
_EN_O_ES = word_set("potato tomato hero echo veto torpedo")


def en_plural(noun: str) -> str:
    """A noun's plural (item -> items, party -> parties, box -> boxes, knife -> knives, person -> people).

    Example::

        en_plural("possession"), en_plural("man"), en_plural("story")  # "possessions", "men", "stories"
    """
    if noun in _EN_NOUNS:
        return _EN_NOUNS[noun]
    if noun in _EN_SAME_PLURAL:
        return noun
    if noun.endswith("fe") or noun in _EN_PLURAL_F:
        return noun.removesuffix("e")[:-1] + "ves"
    if noun.endswith("o"):
        return noun + ("es" if noun in _EN_O_ES else "s")
    return _regular_s(noun)


@cache
def en_verbs() -> frozenset[str]:
    """The English verbs (lemmas) a meaning may start with: :data:`EN_VERBS` and WordNet 3.0's one-word verbs
    (``resources/en_verbs.txt``).

    Example::

        "tease" in en_verbs(), "easy" in en_verbs()  # True, False
    """
    text = (Path(__file__).resolve().parent / "resources" / EN_VERB_FILE).read_text(encoding="utf-8")
    return frozenset(text.split()) | frozenset(EN_VERBS)


def _en_regular(lemma: str, past: bool = True) -> set[str]:
    """The regular -s/-ing/plural/possessive forms of ``lemma``, and -ed unless ``past`` is False (an irregular
    verb: "see" must not give "seed"), with the spellings a rule might miss ("stoping", "kickes"). Over-generating
    a non-word is harmless."""
    out = {lemma, lemma + "'s", _regular_s(lemma), _regular_ing(lemma)}
    if not _y_stem(lemma):
        out.add(lemma + "s")
    if not lemma.endswith("ie"):
        out.add(_e_stem(lemma) + "ing")
    if past:
        out |= {_regular_past(lemma, double=False), _regular_past(lemma, double=True)}
    if lemma.endswith(("f", "fe")):
        out.add(lemma.rstrip("e")[:-1] + "ves")
    return out


def _ick(stem: str) -> bool:
    """Whether ``stem`` may be an -ic verb with the k it takes before -ed/-ing (panick, picnick; not kick, trick)."""
    return len(stem) >= 6 and stem.endswith("ick")


def en_lemmas(word: str) -> set[str]:
    """``word`` and the lemmas it may be an inflection of (kept -> keep; testing -> test; candles -> candle;
    shortest -> short)."""
    out = {word}
    if word in _EN_LEMMA_OF:
        out.add(_EN_LEMMA_OF[word])
    for suffix in ("ing", "ed", "est"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3:
            out |= {stem, stem + "e"} | ({stem[:-1]} if stem[-1] == stem[-2] or _ick(stem) else set())
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) >= 4:
        out.add(word[:-3] + "y" if word.endswith("ies") else word[:-2] if word.endswith("ches") else word[:-1])
    return out


def verb_lemma(word: str) -> str | None:
    """The verb an -ed or -ing word is a form of ("saved" -> save, "fled" -> flee, "lying" -> lie, "panicking" ->
    panic, "tried" -> try, "being" -> be), None when it is no such form of a known verb (:func:`en_verbs`); other
    irregular forms ("broke", "born") are left to the caller.

    Example::

        verb_lemma("fled"), verb_lemma("making"), verb_lemma("broke")  # "flee", "make", None
    """
    low = word.casefold()
    suffix = "ed" if low.endswith("ed") else "ing" if low.endswith("ing") else None
    if suffix is None:
        return None
    if low in _EN_LEMMA_OF:
        return _EN_LEMMA_OF[low]
    if len(low) < len(suffix) + 2:
        return None
    stem = low[: -len(suffix)]
    candidates = [
        stem,
        stem + "e",
        stem[:-1] if stem[-1] == stem[-2] or _ick(stem) else "",
        stem[:-1] + "y" if stem.endswith("i") else "",
        stem[:-1] + "ie" if stem.endswith("y") and suffix == "ing" else "",
    ]
    return next((c for c in candidates if c and c in en_verbs() and low in en_forms(c)), None)


def _en_degrees(lemma: str) -> set[str]:
    """Comparative and superlative (hard -> harder, hardest; big -> bigger; easy -> easier)."""
    stem = lemma[:-1] + "i" if lemma.endswith("y") else lemma[:-1] if lemma.endswith("e") else lemma
    stems = {stem, stem + stem[-1]} if _cvc(lemma) else {stem}
    return {s + e for s in stems for e in ("er", "est")}


@cache
def en_forms(word: str, keep_ending: bool = False) -> frozenset[str]:
    """Every surface form an English idiom word may take (function words stay as they are); with ``keep_ending``
    an -ed/-ing word is its own lemma ("posted": posted, posteds; not post, posting).

    Example::

        "broke" in en_forms("break")  # True
    """
    if word in _EN_SWAPS:
        return _EN_SWAPS[word]
    if word in EN_FUNCTION or "'" in word:
        return frozenset({word})
    out: set[str] = set()
    for lemma in {word} if keep_ending and word.endswith(("ed", "ing")) else en_lemmas(word):
        verb = EN_VERBS.get(lemma)
        out |= _en_regular(lemma, verb is None or verb.regular) | _en_degrees(lemma)
        if verb:
            out |= {*verb.past, *verb.participle, *verb.present}
        if lemma in _EN_NOUNS:
            out |= {_EN_NOUNS[lemma], _EN_NOUNS[lemma] + "'s"}
    return frozenset(out)
