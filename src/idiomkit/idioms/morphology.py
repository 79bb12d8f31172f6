"""English and Portuguese inflection: every surface form an idiom word may take, and one verb form made on demand.

English has ONE table of irregular verbs (:data:`EN_VERBS`, principal parts) that both directions read: the
matcher's :func:`en_forms` (every form of an idiom word) and the rewriter's :func:`inflect` / :func:`verb_form`
(a meaning's verb put in the form of the idiom's verb: kicked -> died). Regular forms follow one set of rules
(:func:`inflect`); :func:`en_forms` adds harmless over-generated spellings ("stoping" beside "stopping") so that a
rule's edge case never hides a match. Portuguese: regular -ar/-er/-ir conjugation with spelling changes, a table
of common irregular verbs, gender/number agreement and every form also written without accents (:func:`pt_forms`);
an idiom's head word read back to the verbs it may be a form of (:func:`pt_lemmas`, :func:`pt_head_forms`).

Example::

    "broke" in en_forms("break"), inflect("swim", "past"), "bateu" in pt_forms("bater")  # True, "swam", True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import NamedTuple

from idiomkit.data.keys import strip_accents


def word_set(words: str) -> frozenset[str]:
    """The space-separated ``words`` as a frozenset."""
    return frozenset(words.split())


def _word_to_group(groups: Iterable[frozenset[str]]) -> dict[str, frozenset[str]]:
    """Each word of ``groups`` -> the (first) group holding it: the forms an interchangeable word may take."""
    out: dict[str, frozenset[str]] = {}
    for group in groups:
        out |= {word: group for word in group if word not in out}
    return out


def _rows(table: str) -> list[list[str]]:
    """The words of each ``|``-separated row of a table."""
    return [row.split() for row in table.split("|") if row.strip()]


# --- function words (they never inflect) --------------------------------------------------------------------------

EN_FUNCTION = word_set(
    "a an the of in on at to for from by with about into onto upon over under up down out off through across "
    "and or but nor so as than then if when while not no all one it its this that these those there here "
    "what which who whom how why where my your his her our their me you him us them i we he she they"
)
PT_DETS = word_set(
    "o a os as um uma uns umas este esta estes estas esse essa esses essas aquele aquela aqueles aquelas meu "
    "minha meus minhas teu tua teus tuas seu sua seus suas nosso nossa nossos nossas vosso vossa vossos vossas "
    "à ao às aos"
)
PT_CONTRACTIONS = tuple(
    frozenset(group.split())
    for group in (
        "no na nos nas num numa nuns numas",
        "do da dos das dum duma duns dumas",
        "ao à aos às",
        "pelo pela pelos pelas",
        "para pra pro pras pros",  # "para" (+ article) and its spoken Brazilian contractions
    )
)
PT_ARTICLE_CONTRACTIONS = frozenset().union(*PT_CONTRACTIONS[:4])  # a preposition + article: a determiner too
PT_FUNCTION = (
    word_set(
        "de em por para com sem sob sobre entre até e ou mas que se não nem como mais muito já lá cá ele ela eles "
        "elas eu tu nós vós lhe me te"
    )
    | PT_DETS
    | frozenset().union(*PT_CONTRACTIONS)
)
_PT_CLITICS = {"se": word_set("se me te nos vos"), "lhe": word_set("lhe lhes me te nos vos")}
_PT_SWAPS = _PT_CLITICS | _word_to_group(PT_CONTRACTIONS)  # a contraction stands for its others, a clitic for its own

# --- English ------------------------------------------------------------------------------------------------------


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
    for row in _rows(
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
_EN_SWAPS = _word_to_group([word_set("on upon onto")])  # interchangeable in idioms ("fell upon deaf ears")
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


def _regular_past(lemma: str, double: bool) -> str:
    """The regular -ed form; ``double``: a final consonant doubles after a short vowel (stop -> stopped)."""
    if y_stem := _y_stem(lemma):
        return y_stem + "ed"
    if lemma.endswith("e"):
        return lemma + "d"
    return lemma + lemma[-1] + "ed" if double and _doubles(lemma) else lemma + "ed"


def _regular_ing(lemma: str) -> str:
    """The -ing form (die -> dying, make -> making, stop -> stopping)."""
    if lemma.endswith("ie"):
        return lemma[:-2] + "ying"
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


def _en_lemmas(word: str) -> set[str]:
    """``word`` and the lemmas it may be an inflection of (kept -> keep; testing -> test; candles -> candle;
    shortest -> short)."""
    out = {word}
    if word in _EN_LEMMA_OF:
        out.add(_EN_LEMMA_OF[word])
    for suffix in ("ing", "ed", "est"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3:
            out |= {stem, stem + "e"} | ({stem[:-1]} if stem[-1] == stem[-2] else set())
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) >= 4:
        out.add(word[:-3] + "y" if word.endswith("ies") else word[:-2] if word.endswith("ches") else word[:-1])
    return out


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
    for lemma in {word} if keep_ending and word.endswith(("ed", "ing")) else _en_lemmas(word):
        verb = EN_VERBS.get(lemma)
        out |= _en_regular(lemma, verb is None or verb.regular) | _en_degrees(lemma)
        if verb:
            out |= {*verb.past, *verb.participle, *verb.present}
        if lemma in _EN_NOUNS:
            out |= {_EN_NOUNS[lemma], _EN_NOUNS[lemma] + "'s"}
    return frozenset(out)


# --- Portuguese ---------------------------------------------------------------------------------------------------

_PT_ENDINGS = {
    "ar": "o as a amos ais am ei aste ou astes aram ava avas ávamos áveis avam ara aras áramos áreis arei arás ará "
    "aremos areis arão aria arias aríamos aríeis ariam e es emos eis em asse asses ássemos ásseis assem ar ares "
    "armos ardes arem ando ado ada ados adas",
    "er": "o es e emos eis em i este eu estes eram ia ias íamos íeis iam era eras êramos êreis erei erás erá eremos "
    "ereis erão eria erias eríamos eríeis eriam a as amos ais am esse esses êssemos êsseis essem er eres ermos "
    "erdes erem endo ido ida idos idas",
    "ir": "o es e imos is em i iste iu istes iram ia ias íamos íeis iam ira iras íramos íreis irei irás irá iremos "
    "ireis irão iria irias iríamos iríeis iriam a as amos ais am isse isses íssemos ísseis issem ir ires irmos "
    "irdes irem indo ido ida idos idas",
}
_PT_IRREGULAR = {
    row[0]: frozenset(row)
    for row in _rows(
        """
    ser sou és é somos sois são era eras éramos éreis eram fui foste foi fomos fostes foram fora foras fôramos
    serei serás será seremos sereis serão seria serias seríamos seriam seja sejas sejamos sejais sejam fosse
    fosses fôssemos fossem for fores formos forem sendo sido seres sermos serem|
    estar estou estás está estamos estais estão estava estavas estávamos estavam estive estiveste esteve
    estivemos estiveram estivera estarei estarás estará estaremos estarão estaria estarias estaríamos estariam
    esteja estejas estejamos estejam estivesse estivesses estivéssemos estivessem estiver estiveres estivermos
    estiverem estando estado estares estarmos estarem tô tá tás tamos tava tavas tavam|
    ter tenho tens tem temos tendes têm tinha tinhas tínhamos tinham tive tiveste teve tivemos tiveram tivera
    terei terás terá teremos terão teria terias teríamos teriam tenha tenhas tenhamos tenham tivesse tivesses
    tivéssemos tivessem tiver tiveres tivermos tiverem tendo tido teres termos terem|
    ir vou vais vai vamos ides vão ia ias íamos iam fui foste foi fomos foram irei irás irá iremos irão iria
    irias iríamos iriam vá vás fosse fosses fôssemos fossem for fores formos forem indo ido ires irmos irem|
    fazer faço fazes faz fazemos fazem fazia fazias fazíamos faziam fiz fizeste fez fizemos fizeram fizera farei
    farás fará faremos farão faria farias faríamos fariam faça faças façamos façam fizesse fizesses fizéssemos
    fizessem fizer fizeres fizermos fizerem fazendo feito feita feitos feitas fazeres fazermos fazerem|
    dar dou dás dá damos dais dão dava davas dávamos davam dei deste deu demos deram dera darei darás dará
    daremos darão daria darias daríamos dariam dê dês dêmos deem dêem desse desses déssemos dessem der deres
    dermos derem dando dado dada dados dadas dares darmos darem|
    pôr ponho pões põe pomos pondes põem punha punhas púnhamos punham pus puseste pôs pusemos puseram pusera
    porei porás porá poremos porão poria porias poríamos poriam ponha ponhas ponhamos ponham pusesse pusesses
    puséssemos pusessem puser puseres pusermos puserem pondo posto posta postos postas pores pormos porem|
    ver vejo vês vê vemos vedes veem vêem via vias víamos viam vi viste viu vimos viram vira verei verás verá
    veremos verão veria verias veríamos veriam veja vejas vejamos vejam visse visses víssemos vissem vir vires
    virmos virem vendo visto vista vistos vistas veres vermos verem|
    vir venho vens vem vimos vindes vêm vinha vinhas vínhamos vinham vim vieste veio viemos vieram viera virei
    virás virá viremos virão viria virias viríamos viriam venha venhas venhamos venham viesse viesses
    viéssemos viessem vier vieres viermos vierem vindo vires virmos virem|
    dizer digo dizes diz dizemos dizem dizia dizias dizíamos diziam disse disseste dissemos disseram dissera
    direi dirás dirá diremos dirão diria dirias diríamos diriam diga digas digamos digam dissesse dissessem
    disser disserem dizendo dito dita ditos ditas|
    trazer trago trazes traz trazemos trazem trazia traziam trouxe trouxeste trouxemos trouxeram trarei trará
    traremos trarão traria traga tragas tragamos tragam trouxesse trouxessem trouxer trouxerem trazendo
    trazido|
    saber sei sabes sabe sabemos sabem sabia sabiam soube soubeste soubemos souberam saberei saberá saberia
    saiba saibas saibamos saibam soubesse soubessem souber souberem sabendo sabido|
    querer quero queres quer queremos querem queria queriam quis quiseste quisemos quiseram quererei quererá
    quereria queira queiras queiramos queiram quisesse quisessem quiser quiserem querendo querido|
    poder posso podes pode podemos podem podia podiam pude pudeste pôde pudemos puderam poderei poderá poderia
    possa possas possamos possam pudesse pudessem puder puderem podendo podido|
    haver hei hás há havemos hão havia haviam houve houveram haverá haveria haja hajam houvesse houver havendo
    havido|
    cair caio cais cai caímos caem caía caíam caí caiu caíram cairá cairia caia caiam caísse caíssem caindo
    caído caída|
    sair saio sais sai saímos saem saía saíam saí saiu saíram sairá sairia saia saiam saísse saíssem saindo
    saído saída|
    ler leio lês lê lemos leem lia liam li leu leram lerá leria leia leiam lesse lendo lido lida
    """
    )
}
_PT_SPELLING = {
    ("ar", "c"): "qu",
    ("ar", "g"): "gu",
    ("ar", "ç"): "c",
    ("er", "c"): "ç",
    ("er", "g"): "j",
    ("ir", "c"): "ç",
    ("ir", "g"): "j",
    ("ir", "gu"): "g",
}
_PT_PLURALS = (
    ("ões", "ão"),
    ("ães", "ão"),
    ("ãos", "ão"),
    ("ais", "al"),
    ("éis", "el"),
    ("óis", "ol"),
    ("uis", "ul"),
    ("ns", "m"),
)


def _pt_conjugate(verb: str) -> set[str]:
    """The regular conjugation of an -ar/-er/-ir verb, with c/qu, g/gu, ç/c, c/ç, g/j spelling changes."""
    kind, stem = verb[-2:], verb[:-2]
    out = {verb}
    for ending in _PT_ENDINGS[kind].split():
        out.add(stem + ending)
        soft = ending[0] in "eéê" if kind == "ar" else ending[0] in "ao"
        for tail in ("gu", "c", "g", "ç"):
            if soft and stem.endswith(tail) and (kind, tail) in _PT_SPELLING:
                out.add(stem[: -len(tail)] + _PT_SPELLING[kind, tail] + ending)
                break
    return out


def _pt_singular(word: str) -> str:
    """A plural's singular, by the common patterns (botas -> bota, pães -> pão, dentes -> dente)."""
    for plural, singular in _PT_PLURALS:
        if word.endswith(plural):
            return word[: -len(plural)] + singular
    if word.endswith(("os", "as")):
        return word[:-1]
    if word.endswith("es") and len(word) > 4:
        return word[:-2] if word[-3] in "rzs" else word[:-1]
    return word


def _pt_nominal(word: str) -> set[str]:
    """Gender and number variants of a noun or adjective (bota -> bota/botas/boto/botos; pão -> pães...)."""
    base = _pt_singular(word)
    out = {word, base}
    if base.endswith("ão"):
        out |= {base[:-2] + e for e in ("ão", "ã", "ões", "ães", "ãos", "ãs", "ona")}
    elif base.endswith(("o", "a")):
        out |= {base[:-1] + e for e in ("o", "a", "os", "as")}
    elif base.endswith(("r", "z", "s")):
        out.add(base + "es")
    elif base.endswith(("al", "el", "ol", "ul")):
        out.add(base[:-2] + {"a": "ais", "e": "éis", "o": "óis", "u": "uis"}[base[-2]])
    elif base.endswith("m"):
        out.add(base[:-1] + "ns")
    else:
        out.add(base + "s")
    return out


def _unaccented_forms(forms: Iterable[str]) -> set[str]:
    """The forms written without accents, as informal text and the 1913 spelling's stray circumflexes need
    (``ôlho`` -> ``olho``); never a function word or a word of two letters (``dê`` is not ``de``, ``é`` not ``e``)."""
    out = {strip_accents(f) for f in forms}
    return {f for f in out if len(f) > 2 and f not in PT_FUNCTION}


@cache
def pt_forms(word: str) -> frozenset[str]:
    """Every surface form a Portuguese idiom word may take (function words stay as they are), also written
    without its accents.

    Example::

        "bateu" in pt_forms("bater"), "olho" in pt_forms("ôlho")  # True, True
    """
    if word in _PT_SWAPS:
        return _PT_SWAPS[word]
    if word in PT_FUNCTION:
        return frozenset({word})
    out = set(_PT_IRREGULAR.get(word, ())) or _pt_nominal(word)
    if word not in _PT_IRREGULAR and word[-2:] in _PT_ENDINGS and len(word) >= 4:
        out |= _pt_conjugate(word)
    if word in _PT_IRREGULAR or (word[-2:] in _PT_ENDINGS and len(word) >= 4):
        out |= set(pt_conjugation(word).values())  # every form the rewriter writes (pt_inflect), stem changes too
    return frozenset(out | _unaccented_forms(out))


# a finite form or gerund at the head of an idiom ("aguente firme", "chorando as pitangas") and the infinitives it
# may come from; the ambiguous present/subjunctive endings (a e o) only for -ar, the most common conjugation
_PT_HEAD_ENDINGS = {
    "ar": "o a e as es am em ei ou aram ava avam ando",
    "er": "eu eram ia iam endo",
    "ir": "iu iram ia iam indo",
}
# forms that are also common other words: no verb is read into them ("fora", "via", "era", "vista", "deste")
_PT_NOT_HEADS = word_set(
    "fora foras via vias era eras vista visto vistas vistos posto posta dado dada feito feita dito deste destes "
    "desse desses"
)


@cache
def _pt_head_lemmas() -> dict[str, tuple[str, ...]]:
    """Each irregular form -> its verbs (``foi`` -> ser, ir)."""
    out: dict[str, list[str]] = {}
    for lemma, forms in _PT_IRREGULAR.items():
        for form in forms - {lemma}:
            out.setdefault(form, []).append(lemma)
    return {form: tuple(lemmas) for form, lemmas in out.items()}


def pt_lemmas(word: str) -> set[str]:
    """The verbs whose finite form or gerund ``word`` may be (``aguente`` -> aguentar; ``vá`` -> ir); none for an
    infinitive or a function word.

    Example::

        pt_lemmas("chorando"), pt_lemmas("foi")  # {"chorar"}, {"ser", "ir"}
    """
    if word in PT_FUNCTION or word in _PT_IRREGULAR or word in _PT_NOT_HEADS:
        return set()
    out = set(_pt_head_lemmas().get(word, ()))
    for kind, endings in _PT_HEAD_ENDINGS.items():
        ending = max((e for e in endings.split() if word.endswith(e)), key=len, default="")  # "ando", not "o"
        if ending and len(word) - len(ending) >= 3:
            out.add(word[: -len(ending)] + kind)
    return out


@cache
def pt_head_forms(word: str) -> frozenset[str]:
    """The forms of an idiom's first word: :func:`pt_forms`, and every form of a verb it may be a form of
    (:func:`pt_lemmas`: "Aguente firme" matches "aguenta firme", "Vá com Deus" "vai com Deus").

    Example::

        "chorar" in pt_head_forms("chorando")  # True
    """
    out = set(pt_forms(word))
    for lemma in pt_lemmas(word):
        out |= pt_forms(lemma)
    return frozenset(out)


# --- Portuguese conjugation, one form at a time (the rewriter) ----------------------------------------------------

# the finite tenses, six persons each (eu, tu, ele, nós, vós, eles): presente, pretérito perfeito, imperfeito,
# mais-que-perfeito, futuro, condicional, presente / imperfeito / futuro do subjuntivo, infinitivo pessoal; and the
# forms of no person: infinitivo "inf", gerúndio "ger", particípio "part" (its person: o a os as agreement)
PT_TENSES = ("pres", "pret", "impf", "pqp", "fut", "cond", "sbj", "sbjimpf", "sbjfut", "infp")
_PT_NONFINITE = ("inf", "ger", "part")
_PT_PERSON_ORDER = (2, 5, 0, 3, 1, 4)  # a form several persons share reads as the third person first
_PT_REGULAR = {
    "ar": {
        "pres": "o as a amos ais am",
        "pret": "ei aste ou amos astes aram",
        "impf": "ava avas ava ávamos áveis avam",
        "sbj": "e es e emos eis em",
        "ger": "ando",
        "part": "ado",
    },
    "er": {
        "pres": "o es e emos eis em",
        "pret": "i este eu emos estes eram",
        "impf": "ia ias ia íamos íeis iam",
        "sbj": "a as a amos ais am",
        "ger": "endo",
        "part": "ido",
    },
    "ir": {
        "pres": "o es e imos is em",
        "pret": "i iste iu imos istes iram",
        "impf": "ia ias ia íamos íeis iam",
        "sbj": "a as a amos ais am",
        "ger": "indo",
        "part": "ido",
    },
}
# the irregular verbs: each tense (six forms), future stem ("fut"), gerund or participle that is not regular; the
# mais-que-perfeito and the imperfeito and futuro do subjuntivo follow the pretérito's third person plural
_PT_VERBS: dict[str, dict[str, str]] = {
    "ser": {
        "pres": "sou és é somos sois são",
        "pret": "fui foste foi fomos fostes foram",
        "impf": "era eras era éramos éreis eram",
        "sbj": "seja sejas seja sejamos sejais sejam",
    },
    "estar": {
        "pres": "estou estás está estamos estais estão",
        "pret": "estive estiveste esteve estivemos estivestes estiveram",
        "sbj": "esteja estejas esteja estejamos estejais estejam",
    },
    "ter": {
        "pres": "tenho tens tem temos tendes têm",
        "pret": "tive tiveste teve tivemos tivestes tiveram",
        "impf": "tinha tinhas tinha tínhamos tínheis tinham",
        "sbj": "tenha tenhas tenha tenhamos tenhais tenham",
    },
    "ir": {
        "pres": "vou vais vai vamos ides vão",
        "pret": "fui foste foi fomos fostes foram",
        "sbj": "vá vás vá vamos vades vão",
    },
    "fazer": {
        "pres": "faço fazes faz fazemos fazeis fazem",
        "pret": "fiz fizeste fez fizemos fizestes fizeram",
        "sbj": "faça faças faça façamos façais façam",
        "fut": "far",
        "part": "feito",
    },
    "dar": {
        "pres": "dou dás dá damos dais dão",
        "pret": "dei deste deu demos destes deram",
        "sbj": "dê dês dê demos deis deem",
    },
    "dizer": {
        "pres": "digo dizes diz dizemos dizeis dizem",
        "pret": "disse disseste disse dissemos dissestes disseram",
        "sbj": "diga digas diga digamos digais digam",
        "fut": "dir",
        "part": "dito",
    },
    "pôr": {
        "pres": "ponho pões põe pomos pondes põem",
        "pret": "pus puseste pôs pusemos pusestes puseram",
        "impf": "punha punhas punha púnhamos púnheis punham",
        "sbj": "ponha ponhas ponha ponhamos ponhais ponham",
        "infp": "pôr pores pôr pormos pordes porem",
        "fut": "por",
        "ger": "pondo",
        "part": "posto",
    },
    "ver": {
        "pres": "vejo vês vê vemos vedes veem",
        "pret": "vi viste viu vimos vistes viram",
        "sbj": "veja vejas veja vejamos vejais vejam",
        "part": "visto",
    },
    "vir": {
        "pres": "venho vens vem vimos vindes vêm",
        "pret": "vim vieste veio viemos viestes vieram",
        "impf": "vinha vinhas vinha vínhamos vínheis vinham",
        "sbj": "venha venhas venha venhamos venhais venham",
        "part": "vindo",
    },
    "trazer": {
        "pres": "trago trazes traz trazemos trazeis trazem",
        "pret": "trouxe trouxeste trouxe trouxemos trouxestes trouxeram",
        "sbj": "traga tragas traga tragamos tragais tragam",
        "fut": "trar",
    },
    "saber": {
        "pres": "sei sabes sabe sabemos sabeis sabem",
        "pret": "soube soubeste soube soubemos soubestes souberam",
        "sbj": "saiba saibas saiba saibamos saibais saibam",
    },
    "querer": {
        "pres": "quero queres quer queremos quereis querem",
        "pret": "quis quiseste quis quisemos quisestes quiseram",
        "sbj": "queira queiras queira queiramos queirais queiram",
    },
    "poder": {
        "pres": "posso podes pode podemos podeis podem",
        "pret": "pude pudeste pôde pudemos pudestes puderam",
        "sbj": "possa possas possa possamos possais possam",
    },
    "haver": {
        "pres": "hei hás há havemos haveis hão",
        "pret": "houve houveste houve houvemos houvestes houveram",
        "sbj": "haja hajas haja hajamos hajais hajam",
    },
    "caber": {
        "pres": "caibo cabes cabe cabemos cabeis cabem",
        "pret": "coube coubeste coube coubemos coubestes couberam",
        "sbj": "caiba caibas caiba caibamos caibais caibam",
    },
    "ler": {"pres": "leio lês lê lemos ledes leem", "sbj": "leia leias leia leiamos leiais leiam"},
    "crer": {"pres": "creio crês crê cremos credes creem", "sbj": "creia creias creia creiamos creiais creiam"},
    "rir": {"pres": "rio ris ri rimos rides riem", "sbj": "ria rias ria riamos riais riam"},
    "construir": {"pres": "construo constróis constrói construímos construís constroem"},
    "destruir": {"pres": "destruo destróis destrói destruímos destruís destroem"},
}
# a verb that changes its stem in the first person of the present and the whole present subjunctive
_PT_STEM_1S = {
    "sentir": "sint", "mentir": "mint", "vestir": "vist", "seguir": "sig", "conseguir": "consig", "servir": "sirv",
    "perseguir": "persig", "preferir": "prefir", "ferir": "fir", "repetir": "repit", "sugerir": "sugir",
    "divertir": "divirt", "advertir": "advirt", "competir": "compit", "dormir": "durm", "cobrir": "cubr",
    "descobrir": "descubr", "tossir": "tuss", "pedir": "peç", "despedir": "despeç", "impedir": "impeç",
    "medir": "meç", "ouvir": "ouç", "perder": "perc", "valer": "valh", "subir": "sub", "fugir": "fuj",
    "consumir": "consum", "sacudir": "sacud", "acudir": "acud", "cuspir": "cusp", "sumir": "sum",
}  # fmt: skip
# -ir verbs with o in the stem where the present has it (subir: sobes sobe sobem)
_PT_STEM_O = {"subir": "sob", "fugir": "fog", "consumir": "consom", "sacudir": "sacod", "acudir": "acod",
              "cuspir": "cosp", "sumir": "som"}  # fmt: skip
# compounds conjugated as their base verb: prefixes of ter, vir, pôr, fazer, dizer, ver
_PT_COMPOUNDS = {
    "ter": word_set("man con ob de re entre abs a"),
    "vir": word_set("con inter pro ad sobre"),
    "pôr": word_set("com dis pro su ex im o re de pos trans ante contra sobre decom"),
    "fazer": word_set("des re satis per contra"),
    "dizer": word_set("contra des pre ben mal"),
    "ver": word_set("pre re ante entre"),
}
# irregular participles of otherwise regular verbs (ter aberto, foi escrito)
_PT_PARTICIPLES = {"abrir": "aberto", "escrever": "escrito", "cobrir": "coberto", "descobrir": "descoberto",
                   "ganhar": "ganho", "gastar": "gasto", "pagar": "pago", "morrer": "morto", "aceitar": "aceito",
                   "entregar": "entregue", "eleger": "eleito", "prender": "preso", "acender": "aceso",
                   "imprimir": "impresso", "suspender": "suspenso", "salvar": "salvo"}  # fmt: skip
_PT_INVARIANT_PARTICIPLE = word_set("ser estar ter ir poder haver")
_PT_SPELL = {("ar", "c"): "qu", ("ar", "g"): "gu", ("ar", "ç"): "c", ("er", "c"): "ç", ("er", "g"): "j",
             ("ir", "c"): "ç", ("ir", "g"): "j", ("ir", "gu"): "g", ("er", "gu"): "g"}  # fmt: skip
_ACCENT = {"a": "á", "e": "é", "i": "í", "o": "ô", "u": "ú"}


def _seq(words: str) -> list[str]:
    """The space-separated ``words`` in order."""
    return words.split()


def _prefixed(stem: str, endings: str) -> str:
    """``stem`` before each of the space-separated ``endings``, space-separated."""
    return " ".join(stem + e for e in _seq(endings))


def _pt_regular_form(stem: str, kind: str, ending: str) -> str:
    """``stem`` + ``ending`` with the spelling changes that keep the stem's sound (ficar: fiquei; descer: desço;
    fugir: fujo; erguer: ergo)."""
    soft = ending[:1] in "eéê" if kind == "ar" else ending[:1] in "ao"
    for tail in ("gu", "c", "g", "ç"):
        if soft and stem.endswith(tail) and (kind, tail) in _PT_SPELL:
            return stem[: -len(tail)] + _PT_SPELL[kind, tail] + ending
    return stem + ending


def _pt_compound(verb: str) -> tuple[str, str] | None:
    """(base verb, prefix) of a compound conjugated as its base (manter: ter; propor: pôr), else None."""
    for base, prefixes in _PT_COMPOUNDS.items():
        plain = strip_accents(base)
        if verb.endswith(plain) and verb[: -len(plain)] in prefixes:
            return base, verb[: -len(plain)]
    return None


def _pt_accented(base: str, strong: bool) -> str:
    """The stem of the first and second person plural of the mais-que-perfeito and the past subjunctives
    (falá-ramos, comê-ssemos, fizé-ssemos, fô-ssemos): its last vowel accented (a strong pretérito's e: é)."""
    last = base[-1:]
    if last not in _ACCENT:
        return base
    return base[:-1] + ("ê" if last == "e" and not strong else _ACCENT[last])


@cache
def pt_conjugation(verb: str) -> dict[tuple[str, int], str]:
    """Every form of a Portuguese verb (its infinitive: -ar/-er/-ir or pôr and its compounds), keyed by (tense,
    person): person 0-5 for :data:`PT_TENSES`, -1 for "inf" and "ger", 0-3 (o a os as) for "part". Regular
    conjugation with its spelling changes, the irregular verbs of :data:`_PT_VERBS` and their compounds (manter,
    propor, desfazer), stem changes (sentir: sinto; subir: sobe), -ear (passeio), -air (caiu) and -uir (incluiu).
    An empty dict for a word that is no verb.

    Example::

        pt_conjugation("errar")["pret", 2], pt_conjugation("fazer")["pret", 5]  # "errou", "fizeram"
    """
    verb = verb.casefold()
    if compound := _pt_compound(verb):
        base, prefix = compound
        forms = {key: prefix + form for key, form in pt_conjugation(base).items()}
        fix = {"tens": "téns", "tem": "tém", "vens": "véns", "vem": "vém", "pôr": "por"}
        return {key: prefix + fix.get(form[len(prefix) :], form[len(prefix) :]) for key, form in forms.items()}
    kind = "ar" if verb == "pôr" else verb[-2:]
    if kind not in _PT_REGULAR or len(verb) < 2 or (verb != "ir" and len(verb) < 3):
        return {}
    stem, table = verb[:-2] if verb != "pôr" else "p", dict(_PT_VERBS.get(verb, {}))
    if verb.endswith("air") and verb not in _PT_VERBS and len(verb) > 3:
        s = verb[:-3]
        table |= {
            "pres": _prefixed(s, "aio ais ai aímos aís aem"),
            "pret": _prefixed(s, "aí aíste aiu aímos aístes aíram"),
            "impf": _prefixed(s, "aía aías aía aíamos aíeis aíam"),
            "sbj": _prefixed(s, "aia aias aia aiamos aiais aiam"),
            "part": s + "aído",
        }
    elif verb.endswith("uir") and not verb.endswith(("guir", "quir")) and len(verb) > 4:
        s = verb[:-3]
        table = {
            "pres": _prefixed(s, "uo uis ui uímos uís uem"),
            "pret": _prefixed(s, "uí uíste uiu uímos uístes uíram"),
            "impf": _prefixed(s, "uía uías uía uíamos uíeis uíam"),
            "sbj": _prefixed(s, "ua uas ua uamos uais uam"),
            "part": s + "uído",
        } | table
    regular = _PT_REGULAR[kind]
    out: dict[tuple[str, int], str] = {("inf", -1): verb}
    for tense in ("pres", "pret", "impf", "sbj"):
        given = table.get(tense)
        forms = given.split() if given else [_pt_regular_form(stem, kind, e) for e in regular[tense].split()]
        out |= {(tense, p): f for p, f in enumerate(forms)}
    if verb.endswith("ear") and "pres" not in table:  # passear: passeio passeias ... passeamos
        for p in (0, 1, 2, 5):
            out["pres", p] = stem + "i" + regular["pres"].split()[p]
            out["sbj", p] = stem + "i" + regular["sbj"].split()[p]
    if verb in _PT_STEM_1S and "pres" not in table:
        s1 = _PT_STEM_1S[verb]
        out["pres", 0] = s1 + "o"
        out |= {("sbj", p): s1 + e for p, e in enumerate(regular["sbj"].split())}
    if verb in _PT_STEM_O:
        out |= {("pres", p): _PT_STEM_O[verb] + regular["pres"].split()[p] for p in (1, 2, 5)}
    fut = table.get("fut", verb if verb != "pôr" else "por")
    out |= {("fut", p): fut + e for p, e in enumerate(_seq("ei ás á emos eis ão"))}
    out |= {("cond", p): fut + e for p, e in enumerate(_seq("ia ias ia íamos íeis iam"))}
    base = out["pret", 5][:-3]  # fizeram -> fize
    high = _pt_accented(base, strong="pret" in table)
    for tense, endings in (("pqp", "ra ras ra ramos reis ram"), ("sbjimpf", "sse sses sse ssemos sseis ssem")):
        out |= {(tense, p): (high if p in (3, 4) else base) + e for p, e in enumerate(endings.split())}
    plain = base[:-1] + strip_accents(base[-1])  # cair, cairmos; caíres, caírem
    out |= {("sbjfut", p): (base if p in (1, 5) else plain) + e for p, e in enumerate(_seq("r res r rmos rdes rem"))}
    infp = table.get("infp", " ".join(verb + e for e in ("", "es", "", "mos", "des", "em")))
    out |= {("infp", p): f for p, f in enumerate(infp.split())}
    out["ger", -1] = table.get("ger", stem + regular["ger"])
    participle = table.get("part", _PT_PARTICIPLES.get(verb, stem + regular["part"]))
    if verb in _PT_INVARIANT_PARTICIPLE:  # sido, estado, tido: no agreement ("sida" is no form of ser)
        out |= {("part", p): participle for p in range(4)}
    elif participle.endswith("o"):
        out |= {("part", p): participle[:-1] + e for p, e in enumerate(("o", "a", "os", "as"))}
    else:  # entregue(s)
        out |= {("part", p): participle + e for p, e in enumerate(("", "", "s", "s"))}
    return out


_PT_READ_ORDER = (("inf", -1), *((t, p) for t in PT_TENSES for p in _PT_PERSON_ORDER), ("ger", -1),
                  *(("part", p) for p in range(4)))  # fmt: skip


def pt_verb_form(token: str, verb: str) -> tuple[str, int] | None:
    """The (tense, person) of ``token`` as a form of ``verb`` (:func:`pt_conjugation`; a form several readings
    share: the infinitive, then the tenses in :data:`PT_TENSES` order, the third person first), also written
    without its accents; None when it is no form of it.

    Example::

        pt_verb_form("pisou", "pisar"), pt_verb_form("abriu", "abrir"), pt_verb_form("mesa", "pisar")
        # ("pret", 2), ("pret", 2), None
    """
    token = token.casefold()
    table = pt_conjugation(verb)
    for key in _PT_READ_ORDER:
        if table.get(key) == token:
            return key
    bare = strip_accents(token)
    return next((key for key in _PT_READ_ORDER if key in table and strip_accents(table[key]) == bare), None)


def pt_inflect(verb: str, tense: str, person: int = -1) -> str:
    """``verb`` in ``tense`` and ``person`` (:func:`pt_conjugation`; the verb itself when it has no such form).

    Example::

        pt_inflect("errar", "pret", 2), pt_inflect("falar", "ger")  # "errou", "falando"
    """
    return pt_conjugation(verb).get((tense, person), verb)
