"""Function words and the surface forms of Portuguese idiom words (the matcher's side).

The function words of both languages (:data:`EN_FUNCTION`, :data:`PT_FUNCTION`, the Portuguese determiners and
contractions) never inflect. Portuguese: regular -ar/-er/-ir conjugation with spelling changes, a table of common
irregular verbs, gender/number agreement and every form also written without accents (:func:`pt_forms`); an
idiom's head word read back to the verbs it may be a form of (:func:`pt_lemmas`, :func:`pt_head_forms`). English
forms and inflection are in :mod:`~idiomkit.idioms.morphology_en`, the Portuguese conjugation one form at a time
(the rewriter's) in :mod:`~idiomkit.idioms.pt_verbs`.

Example::

    "bateu" in pt_forms("bater"), "olho" in pt_forms("ôlho")  # True, True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from idiomkit.data.keys import strip_accents
from idiomkit.idioms.pt_verbs import pt_conjugation


def word_set(words: str) -> frozenset[str]:
    """The space-separated ``words`` as a frozenset."""
    return frozenset(words.split())


def word_to_group(groups: Iterable[frozenset[str]]) -> dict[str, frozenset[str]]:
    """Each word of ``groups`` -> the (first) group holding it: the forms an interchangeable word may take."""
    out: dict[str, frozenset[str]] = {}
    for group in groups:
        out |= {word: group for word in group if word not in out}
    return out


def table_rows(table: str) -> list[list[str]]:
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
_PT_SWAPS = _PT_CLITICS | word_to_group(PT_CONTRACTIONS)  # a contraction stands for its others, a clitic for its own


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
    for row in table_rows(
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
