"""Find a lexicon's idioms in running text, tolerant of inflection, slots, articles and short insertions.

Each entry compiles to a sequence of token slots: a *word* (the idiom's word with every English or Portuguese
inflection generated up front), an optional *determiner* (the idiom's "the" -> the/this/that/possessives; "a/an"
-> a/an; "one's"/"your"/"my"... -> any possessive or a noun's 's; "[pron]" -> any determiner or pronoun; PT
o/a/os/as/seu/sua...) or a *filler* ("someone"/"something"/"alguém"/"(somebody)": one or two words;
"someone's": one to three words ending in a possessive: "my", "the old man's"). A sentence is cut into Unicode
word tokens (letters/digits/underscore/combining marks, inner apostrophes; hyphens split), so an idiom never
matches inside a word. Each entry is indexed by the inflected forms of its rarest content word (its *anchor*),
so a sentence only tries the few entries whose anchor it contains.

Tolerated: English verb inflection (regular + a table of common irregulars), plurals, possessives, comparatives;
an optional "be" ("[be] on cloud nine"); up to ``max_gap`` inserted words around a determiner slot ("spill all
the beans", "kick the proverbial bucket", "keep a close eye on") or, in idioms of 3+ words, an object after the
first word when a function word follows ("keep the wolves at bay"); Portuguese regular -ar/-er/-ir conjugation
(with c/qu, g/gu, ç/c, c/ç, g/j spelling changes), common irregular verbs (ser estar ter ir fazer dar pôr ver
vir dizer trazer saber querer poder haver cair sair ler), gender/number agreement, the contractions
em/de/a/por + article (na/no/nas/nos...), hyphen or space in compounds ("pão-duro"/"pão duro").
Not tolerated: a match across a sentence break (. ! ? ; : … or a blank line); inserted words that are
prepositions, conjunctions or (beside a determiner slot) articles, or that cross a comma/bracket/quote/dash;
insertions into slot-less word pairs ("dark brown horse" is not "dark horse"); "a" for "the" ("on a table" is
not "on the table"); changed word order or passives ("the beans were spilled"); synonyms; a missing idiom word;
Portuguese clitics glued to the verb. An idiom that is one word after its slots are dropped keeps its article
as required ("a steal" does not match "they steal").

Example::

    matcher = Matcher(Lexicon.from_pairs([("kick the bucket", "to die")]))
    [m.text for m in matcher.find("Sadly, he kicked the bucket.")]  # ["kicked the bucket"]
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from idiomkit.idioms.lexicon import Entry, Lexicon, check_language

log = logging.getLogger(__name__)

# --- word lists -----------------------------------------------------------------------------------------------


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


def _rows(table: str) -> list[list[str]]:
    """The words of each ``|``-separated row of a table."""
    return [row.split() for row in table.split("|") if row.strip()]


_EN_POSSESSIVES = _set("my your his her its our their one's someone's somebody's thy whose")
_EN_ARTICLES = _set("a an the this that these those some any no every each another")
_EN_THE = _set("the this that these those") | _EN_POSSESSIVES  # what an idiom's "the" may become
_EN_A = _set("a an")
_EN_OBJECTS = _set(
    "me you him her it us them one someone somebody anyone anybody everyone everybody myself yourself himself "
    "herself itself ourselves yourselves themselves oneself"
)
_EN_REFLEXIVES = _set("myself yourself himself herself itself oneself ourselves yourselves themselves")
_EN_FILLERS = _set("someone somebody something sb sth anyone anybody anything")
_EN_POSS_FILLERS = _set("someone's somebody's sb's something's")
_EN_FUNCTION = _set(
    "a an the of in on at to for from by with about into onto upon over under up down out off through across "
    "and or but nor so as than then if when while not no all one it its this that these those there here "
    "what which who whom how why where my your his her our their me you him us them i we he she they"
)
_EN_STOP = (
    _EN_FUNCTION | _EN_REFLEXIVES | {"is", "be", "have", "do", "get", "go", "make", "take", "give", "put", "come"}
)

_PT_DETS = _set(
    "o a os as um uma uns umas este esta estes estas esse essa esses essas aquele aquela aqueles aquelas meu "
    "minha meus minhas teu tua teus tuas seu sua seus suas nosso nossa nossos nossas vosso vossa vossos vossas "
    "à ao às aos"
)
_PT_INDEFINITE = _set("um uma uns umas")
_PT_CONTRACTIONS = tuple(
    frozenset(group.split())
    for group in (
        "no na nos nas num numa nuns numas",
        "do da dos das dum duma duns dumas",
        "ao à aos às",
        "pelo pela pelos pelas",
    )
)
_PT_FILLERS = _set("alguém algo fulano sicrano")
_PT_CLITICS = {"se": _set("se me te nos vos"), "lhe": _set("lhe lhes me te nos vos")}
_PT_FUNCTION = (
    _set(
        "de em por para com sem sob sobre entre até e ou mas que se não nem como mais muito já lá cá ele ela eles "
        "elas eu tu nós vós lhe me te"
    )
    | _PT_DETS
    | frozenset().union(*_PT_CONTRACTIONS)
)
# never an inserted word: prepositions and conjunctions change what the words around them mean together ...
_GAP_LINKS = (
    _set("of in on at to for from by with about into onto upon over under up down out off through across and or")
    | _set("but nor so as than then if when while because de em por para com sem sob sobre entre até e ou mas que")
    | _set("como porque quando se")
    | frozenset().union(*_PT_CONTRACTIONS)
)
# ... and beside a determiner slot an article must be the determiner ("on the table" is not "on a table")
_GAP_BLOCK = _GAP_LINKS | _set("a an the o os as um uma uns umas")
_PT_STOP = _PT_FUNCTION | {"ser", "estar", "ter", "ir", "haver", "dar", "fazer"}

# --- English inflection -----------------------------------------------------------------------------------------

_EN_IRREGULAR = {
    row[0]: tuple(row[1:])
    for row in _rows(
        """
    arise arose arisen|awake awoke awoken|be is am are was were been being|bear bore born borne|beat beaten
    become became|begin began begun|bend bent|bet|bid|bind bound|bite bit bitten|bleed bled|blow blew blown
    break broke broken|breed bred|bring brought|build built|burn burnt|burst|buy bought|cast|catch caught
    choose chose chosen|cling clung|come came|cost|creep crept|cut|deal dealt|dig dug|do does did done
    draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen|feed fed
    feel felt|fight fought|find found|flee fled|fling flung|fly flew flown|forbid forbade forbidden
    forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|get got gotten|give gave given
    go goes went gone|grind ground|grow grew grown|hang hung|have has had|hear heard|hide hid hidden|hit
    hold held|hurt|keep kept|kneel knelt|know knew known|lay laid|lead led|lean leant|leap leapt|learn learnt
    leave left|lend lent|let|lie lay lain|light lit|lose lost|make made|mean meant|meet met|pay paid
    prove proven|put|quit|read|ride rode ridden|ring rang rung|rise rose risen|run ran|say said|see saw seen
    seek sought|sell sold|send sent|set|sew sewn|shake shook shaken|shed|shine shone|shoot shot|show shown
    shrink shrank shrunk|shut|sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid|sling slung|slit
    speak spoke spoken|speed sped|spell spelt|spend spent|spill spilt|spin spun|spit spat|split|spread
    spring sprang sprung|stand stood|steal stole stolen|stick stuck|sting stung|stink stank stunk
    strike struck stricken|string strung|swear swore sworn|sweep swept|swell swollen|swim swam swum
    swing swung|take took taken|teach taught|tear tore torn|tell told|think thought|throw threw thrown
    tread trod trodden|understand understood|wake woke woken|wear wore worn|weave wove woven|weep wept|win won
    wind wound|wring wrung|write wrote written|overcome overcame|undo undid undone|upset|withdraw withdrew
    """.replace("\n", "|")
    )
}
_EN_PREPOSITIONS = (_set("on upon onto"),)  # interchangeable in idioms ("fell upon deaf ears")
_EN_ALSO_REGULAR = _set("burn dream hang kneel lean leap learn lie light prove sew show smell spell spill swell wake")
_EN_LEMMA_OF = {form: lemma for lemma, forms in _EN_IRREGULAR.items() for form in forms if form not in _EN_IRREGULAR}
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


def _cvc(word: str) -> bool:
    """Ends consonant-vowel-consonant (not w/x/y): the final consonant may double (pat -> patted)."""
    return len(word) >= 3 and word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS and word[-3] not in _VOWELS


def _en_regular(lemma: str, past: bool = True) -> set[str]:
    """The regular -s/-ing/plural/possessive forms of ``lemma``, and -ed unless ``past`` is False (an irregular
    verb: "see" must not give "seed"). Over-generating a non-word is harmless."""
    y_stem = lemma[:-1] + "i" if len(lemma) > 2 and lemma.endswith("y") and lemma[-2] not in _VOWELS else ""
    e_stem = lemma[:-1] if lemma.endswith("e") and not lemma.endswith(("ee", "ye", "oe")) else lemma
    out = {lemma, lemma + "'s", (y_stem + "es") if y_stem else lemma + "s"}
    out.add(lemma[:-2] + "ying" if lemma.endswith("ie") else e_stem + "ing")
    if past:
        out.add(y_stem + "ed" if y_stem else lemma + "d" if lemma.endswith("e") else lemma + "ed")
    if lemma.endswith(("s", "x", "z", "ch", "sh", "o")):
        out.add(lemma + "es")
    if _cvc(lemma):
        out |= {lemma + lemma[-1] + "ing"} | ({lemma + lemma[-1] + "ed"} if past else set())
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
def en_forms(word: str) -> frozenset[str]:
    """Every surface form an English idiom word may take (function words stay as they are).

    Example::

        "broke" in en_forms("break")  # True
    """
    for group in _EN_PREPOSITIONS:
        if word in group:
            return group
    if word in _EN_FUNCTION or "'" in word:
        return frozenset({word})
    out: set[str] = set()
    for lemma in _en_lemmas(word):
        out |= _en_regular(lemma, lemma not in _EN_IRREGULAR or lemma in _EN_ALSO_REGULAR) | _en_degrees(lemma)
        out |= set(_EN_IRREGULAR.get(lemma, ()))
        if lemma in _EN_NOUNS:
            out |= {_EN_NOUNS[lemma], _EN_NOUNS[lemma] + "'s"}
    return frozenset(out)


# --- Portuguese inflection ----------------------------------------------------------------------------------------

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
    estiverem estando estado estares estarmos estarem|
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


@cache
def pt_forms(word: str) -> frozenset[str]:
    """Every surface form a Portuguese idiom word may take (function words stay as they are).

    Example::

        "bateu" in pt_forms("bater")  # True
    """
    for group in _PT_CONTRACTIONS:
        if word in group:
            return group
    if word in _PT_CLITICS:
        return _PT_CLITICS[word]
    if word in _PT_FUNCTION:
        return frozenset({word})
    if word in _PT_IRREGULAR:
        return _PT_IRREGULAR[word]
    out = _pt_nominal(word)
    if word[-2:] in _PT_ENDINGS and len(word) >= 4:
        out |= _pt_conjugate(word)
    return frozenset(out)


# --- tokens and compiled idioms -----------------------------------------------------------------------------------

_W = r"(?:\w[\u0300-\u036f]*)+"
_TOKEN = re.compile(rf"{_W}(?:['’]{_W})*")
_PIECE = re.compile(rf"\[([^\]]*)\]|\(([^)]*)\)|({_W}(?:['’]{_W})*)")
_BREAK = re.compile(r"[.!?;:…]|\n\s*\n")  # sentence end, or a blank line
_CLAUSE = re.compile(r"[.!?;:…,()\[\]{}\"“”«»—–]|\n\s*\n")  # ... or a comma, bracket, quote or dash
_HYPHENS = ("-", "‐", "‑")
WORD, OPT, FILL = 0, 1, 2


def _key(token: str) -> str:
    key = token.casefold()
    return key if key.isascii() else unicodedata.normalize("NFC", key).replace("’", "'")


def tokenize(sentence: str) -> list[tuple[str, int, int]]:
    """``(key, start, end)`` of every word token: the key case-folded and NFC, offsets into ``sentence``.

    Example::

        tokenize("Pão-duro!")  # [("pão", 0, 3), ("duro", 4, 8)]
    """
    return [(_key(m.group()), m.start(), m.end()) for m in _TOKEN.finditer(sentence)]


class Slot(NamedTuple):
    """One position of a compiled idiom: a WORD (one token in ``accept``), an OPT (zero or one token in
    ``accept``, or a possessive when ``poss``) or a FILL (``lo``..``hi`` tokens; the last a possessive if ``poss``).
    ``gap``: how many inserted words may come before a WORD (or an OPT and the WORD after it), none of them in
    ``block``; ``word``: the idiom's word."""

    kind: int
    accept: frozenset[str]
    lo: int = 1
    hi: int = 1
    gap: int = 0
    poss: bool = False
    word: str = ""
    block: frozenset[str] = _GAP_BLOCK


def _en_slot(word: str) -> Slot:
    if word in _EN_POSS_FILLERS:
        return Slot(FILL, _EN_POSSESSIVES, 1, 3, poss=True)
    if word in _EN_FILLERS:
        return Slot(FILL, frozenset(), 1, 2)
    if word in ("a", "an"):
        return Slot(OPT, _EN_A, word=word)
    if word == "the" or word in _EN_POSSESSIVES:
        return Slot(OPT, _EN_THE if word == "the" else _EN_POSSESSIVES, poss=True, word=word)
    if word in _EN_REFLEXIVES:
        return Slot(WORD, _EN_REFLEXIVES, word=word)
    return Slot(WORD, en_forms(word), word=word)


def _pt_slot(word: str) -> Slot:
    if word in _PT_FILLERS:
        return Slot(FILL, frozenset(), 1, 2)
    if word in _PT_DETS and word not in ("à", "ao", "às", "aos"):  # "um" stays indefinite, "o" definite
        return Slot(OPT, _PT_INDEFINITE if word in _PT_INDEFINITE else _PT_DETS - _PT_INDEFINITE, word=word)
    return Slot(WORD, pt_forms(word), word=word)


def _bracket(inner: str, language: str) -> Slot:
    """``[pron]``, ``[sth]``...: a filler for someone/something, else an optional determiner or pronoun."""
    word = _key(inner.strip())
    if word in _EN_POSS_FILLERS:
        return Slot(FILL, _EN_POSSESSIVES, 1, 3, poss=True)
    if word in _EN_FILLERS or word in _PT_FILLERS:
        return Slot(FILL, frozenset(), 1, 2)
    if language == "PT":
        return Slot(OPT, _PT_DETS | _set("me te se lhe nos vos"))
    return Slot(OPT, _EN_ARTICLES | _EN_POSSESSIVES | _EN_OBJECTS, poss=True)


def _optional(slot: Slot) -> Slot:
    """A slot made optional (an idiom's parenthesised part)."""
    return slot._replace(kind=OPT) if slot.kind == WORD else slot._replace(lo=0) if slot.kind == FILL else slot


def parse_idiom(text: str, language: str, max_gap: int = 2) -> list[Slot]:
    """The slots of an idiom, trimmed to its first and last word; words may be inserted (up to ``max_gap``) only
    around a determiner or other optional slot ("keep an eye on" -> "keep a close eye on").

    Example::

        [s.word for s in parse_idiom("pull someone's leg", "EN")]  # ["pull", "", "leg"]
    """
    slots = _parse(unicodedata.normalize("NFC", text).casefold().replace("’", "'"), language)
    if sum(s.kind == WORD and s.word != "be" for s in slots) >= 2:  # "be" is often contracted ("you're")
        slots = [s._replace(kind=OPT) if s.word == "be" else s for s in slots]
    words = [i for i, s in enumerate(slots) if s.kind == WORD]
    if len(words) == 1 and words[0] and slots[words[0] - 1].kind == OPT:  # "a steal": the article is required
        slots[words[0] - 1] = slots[words[0] - 1]._replace(kind=WORD)
        words.insert(0, words[0] - 1)
    if not words:
        return []
    return _gaps(slots[words[0] : words[-1] + 1], max_gap, _PT_FUNCTION if language == "PT" else _EN_FUNCTION)


def _gaps(slots: list[Slot], max_gap: int, function: frozenset[str]) -> list[Slot]:
    """Where words may be inserted: around a determiner (not an article, preposition or conjunction: "keep a
    close eye on"), and after the first word of an idiom of 3+ words when a function word follows (an object:
    "keep the wolves at bay"; not a preposition or conjunction). An OPT shares the gap of the WORD after it."""
    three = sum(s.kind == WORD for s in slots) >= 3
    for i in range(len(slots) - 1, 0, -1):
        slot, before, after = slots[i], slots[i - 1], slots[i + 1] if i + 1 < len(slots) else None
        if slot.kind == WORD and slot.gap and before.kind == OPT:
            slots[i] = slot._replace(gap=max_gap)
        elif slot.kind == WORD and slot.gap and i == 1 and three and slot.word in function:
            slots[i] = slot._replace(gap=max_gap, block=_GAP_LINKS)
        elif slot.kind == WORD:
            slots[i] = slot._replace(gap=0)
        elif slot.kind == OPT and after:
            slots[i] = slot._replace(gap=after.gap if after.kind == WORD else 0, block=after.block)
    return [slots[0]._replace(gap=0), *slots[1:]]


def _parse(text: str, language: str) -> list[Slot]:
    """The slots of an (already case-folded) idiom text; a WORD's ``gap`` is 1 unless it is hyphen-joined to the
    word before it or follows a filler."""
    slots: list[Slot] = []
    end = 0
    for m in _PIECE.finditer(text):
        bracket, group, word = m.groups()
        if bracket is not None:
            slots.append(_bracket(bracket, language))
        elif group is not None:
            slots += [_optional(s) for s in _parse(group, language)]
        else:
            slot = (_pt_slot if language == "PT" else _en_slot)(word)
            joined = text[end : m.start()].strip() in _HYPHENS or (slots and slots[-1].kind == FILL)
            slots.append(slot._replace(gap=0 if joined else 1) if slot.kind == WORD else slot)
        end = m.end()
    return slots


def skip_reason(slots: list[Slot], language: str) -> str | None:
    """Why a compiled idiom would match too much (None: keep it)."""
    function = _PT_FUNCTION if language == "PT" else _EN_FUNCTION
    words = [s.word for s in slots if s.kind == WORD]
    if not any(w and w not in function for w in words):
        return "stopwords only"
    if len(words) == 1 and len(words[0]) < 4:
        return "single short word"
    return None


class _Text(NamedTuple):
    """A tokenised sentence: each token's key, and how many sentence breaks and clause breaks come before it."""

    keys: list[str]
    sentence: list[int]
    clause: list[int]


def _text(sentence: str, tokens: list[tuple[str, int, int]]) -> _Text:
    """Sentence breaks: . ! ? ; : … or a blank line; clause breaks: those, commas, brackets, quotes, dashes."""
    out = _Text([t[0] for t in tokens], [], [])
    hard = soft = prev = 0
    for _, start, end in tokens:
        if prev and _CLAUSE.search(sentence, prev, start):
            soft += 1
            hard += bool(_BREAK.search(sentence, prev, start))
        out.sentence.append(hard)
        out.clause.append(soft)
        prev = end
    return out


def _walk(slots: tuple[Slot, ...], k: int, t: int, text: _Text, base: int, skipped: int = 0) -> int:
    """The end token of the first way ``slots[k:]`` match from token ``t`` inside sentence ``base``, or -1.
    ``skipped``: the words inserted since the last idiom word (none a ``block`` word, none after a clause break)."""
    if k == len(slots):
        return t
    kind, accept, lo, hi, gap, poss, _, block = slots[k]
    keys, sentence, clause = text
    if kind == FILL:
        return _fill(slots, k, t, text, base)
    for tt in range(t, min(t + gap - skipped, len(keys) - 1) + 1):
        if sentence[tt] != base or (tt > t and clause[tt] != clause[t - 1]):
            break
        if keys[tt] in accept or (poss and keys[tt].endswith("'s")):
            end = _walk(slots, k + 1, tt + 1, text, base, 0 if kind == WORD else skipped + tt - t)
            if end >= 0:
                return end
        if keys[tt] in block:
            break
    return _walk(slots, k + 1, t, text, base, gap) if kind == OPT else -1  # no determiner: no inserted words


def _fill(slots: tuple[Slot, ...], k: int, t: int, text: _Text, base: int) -> int:
    """A filler: ``lo``..``hi`` words (the last a possessive if ``poss``), then the rest of the idiom."""
    _, accept, lo, hi, _, poss, _, _ = slots[k]
    keys = text.keys
    for count in range(lo, hi + 1):
        last = t + count - 1
        if last >= len(keys) or (count and text.sentence[last] != base):
            break
        if poss and count and keys[last] not in accept and not keys[last].endswith("'s"):
            continue
        if (end := _walk(slots, k + 1, t + count, text, base)) >= 0:
            return end
    return -1


@dataclass(frozen=True)
class Match:
    """One idiom found in a sentence: ``sentence[start:end] == text`` (character offsets); ``sources`` are the
    lexicon sources of its entry and ``meaning_languages`` the languages of its meanings (not compared)."""

    start: int
    end: int
    text: str
    idiom: str
    language: str
    meanings: tuple[str, ...]
    sources: tuple[str, ...] = field(default=(), compare=False)
    meaning_languages: tuple[str, ...] = field(default=(), compare=False)


class _Pattern(NamedTuple):
    entry: Entry
    slots: tuple[Slot, ...]
    anchor: int  # the slot whose forms index the pattern
    left: int  # the most tokens from the match's first token to the anchor's
    words: int  # how many idiom words (WORD slots): longer idioms win overlaps


def _anchor(slots: list[Slot], stop: frozenset[str], freq: Counter[str]) -> int:
    """The slot of the idiom's rarest content word (a stopword only when it has nothing else)."""
    words = [i for i, s in enumerate(slots) if s.kind == WORD]
    return min(
        words, key=lambda i: (slots[i].word in stop or not slots[i].word, freq[slots[i].word], -len(slots[i].word))
    )


def _left(slots: list[Slot], anchor: int) -> int:
    width = {WORD: lambda s: 1 + s.gap, OPT: lambda s: 1, FILL: lambda s: s.hi}
    return sum(width[s.kind](s) for s in slots[:anchor]) + slots[anchor].gap


class Matcher:
    """Finds a lexicon's idioms in sentences (see the module docstring for what it tolerates).

    Args:
        lexicon: a :class:`Lexicon` or its entries.
        max_gap: the most inserted words before each idiom word ("spill *all* the beans").

    Example::

        matcher = Matcher(Lexicon.from_pairs([("pull someone's leg", "tease")]))
        matcher.find("He pulled my leg.")[0].text  # "pulled my leg"
    """

    def __init__(self, lexicon: Lexicon | Iterable[Entry], max_gap: int = 2) -> None:
        entries = lexicon.entries() if isinstance(lexicon, Lexicon) else list(lexicon)
        self.max_gap = max_gap
        self.skipped: dict[str, list[str]] = {}
        compiled = [(e, slots) for e in entries if (slots := self._compile(e))]
        self._patterns = self._build(compiled)
        self._index: dict[str | None, dict[str, list[int]]] = {None: {}, "EN": {}, "PT": {}}
        for number, pattern in enumerate(self._patterns):
            for form in pattern.slots[pattern.anchor].accept:
                self._index[None].setdefault(form, []).append(number)
                self._index[pattern.entry.language].setdefault(form, []).append(number)
        skipped = {reason: len(idioms) for reason, idioms in self.skipped.items()}
        log.info("idiom matcher: %d idioms compiled, %d skipped %s", len(self), sum(skipped.values()), skipped)

    def __len__(self) -> int:
        return len(self._patterns)

    def _compile(self, entry: Entry) -> list[Slot]:
        slots = parse_idiom(entry.idiom, entry.language, self.max_gap)
        reason = skip_reason(slots, entry.language)
        if reason:
            self.skipped.setdefault(reason, []).append(entry.idiom)
            return []
        return slots

    @staticmethod
    def _build(compiled: list[tuple[Entry, list[Slot]]]) -> list[_Pattern]:
        freq = Counter(w for _, slots in compiled for w in {s.word for s in slots if s.kind == WORD})
        out = []
        for entry, slots in compiled:
            anchor = _anchor(slots, _PT_STOP if entry.language == "PT" else _EN_STOP, freq)
            words = sum(s.kind == WORD for s in slots)
            out.append(_Pattern(entry, tuple(slots), anchor, _left(slots, anchor), words))
        return out

    def find(self, sentence: str, language: str | None = None) -> list[Match]:
        """The idioms in ``sentence`` (of ``language``, if given): non-overlapping, chosen longest idiom first
        (then longest span, then leftmost), returned in sentence order.

        Example::

            matcher.find("Ela bateu as botas ontem.", language="PT")  # [Match(4, 18, "bateu as botas", ...)]
        """
        tokens = tokenize(sentence)
        keys = [t[0] for t in tokens]
        starts = self._starts(keys, check_language(language) if language else None)
        if not starts:
            return []
        text = _text(sentence, tokens)
        hits = []
        for number, start in starts:
            end = _walk(self._patterns[number].slots, 0, start, text, text.sentence[start])
            if end > start:
                hits.append((number, start, end))
        return self._select(sentence, tokens, hits)

    def _starts(self, keys: list[str], language: str | None) -> set[tuple[int, int]]:
        """(pattern, first token) pairs worth trying: the pattern's anchor is in the sentence and its first word
        is close enough before it."""
        index, out = self._index[language], set()
        for i, key in enumerate(keys):
            for number in index.get(key, ()):
                pattern = self._patterns[number]
                first = pattern.slots[0].accept
                out.update((number, s) for s in range(max(0, i - pattern.left), i + 1) if keys[s] in first)
        return out

    def _select(self, sentence: str, tokens: list[tuple[str, int, int]], hits: list) -> list[Match]:
        hits.sort(key=lambda h: (-self._patterns[h[0]].words, -(h[2] - h[1]), h[1], h[0]))
        taken: set[int] = set()
        out = []
        for number, start, end in hits:
            if taken.isdisjoint(range(start, end)):
                taken.update(range(start, end))
                entry = self._patterns[number].entry
                first, last = tokens[start][1], tokens[end - 1][2]
                out.append(
                    Match(
                        first,
                        last,
                        sentence[first:last],
                        entry.idiom,
                        entry.language,
                        entry.meanings,
                        entry.sources,
                        entry.meaning_languages,
                    )
                )
        return sorted(out, key=lambda m: m.start)
