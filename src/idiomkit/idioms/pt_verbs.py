"""Portuguese conjugation one form at a time (the rewriter's side): every form of a verb keyed by tense and person
(:func:`pt_conjugation`), a token read back to its tense and person (:func:`pt_verb_form`) and a verb put in one
(:func:`pt_inflect`). Regular -ar/-er/-ir conjugation with its spelling changes, the common irregular verbs and
their compounds (manter, propor, desfazer), stem changes (sentir: sinto; subir: sobe), -ear, -air and -uir.

Example::

    pt_inflect("errar", "pret", 2), pt_verb_form("pisou", "pisar")  # "errou", ("pret", 2)
"""

from __future__ import annotations

from functools import cache

from idiomkit.data.keys import strip_accents


def _seq(words: str) -> list[str]:
    """The space-separated ``words`` in order."""
    return words.split()


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
    "ter": frozenset(_seq("man con ob de re entre abs a")),
    "vir": frozenset(_seq("con inter pro ad sobre")),
    "pôr": frozenset(_seq("com dis pro su ex im o re de pos trans ante contra sobre decom")),
    "fazer": frozenset(_seq("des re satis per contra")),
    "dizer": frozenset(_seq("contra des pre ben mal")),
    "ver": frozenset(_seq("pre re ante entre")),
}
# irregular participles of otherwise regular verbs (ter aberto, foi escrito)
_PT_PARTICIPLES = {"abrir": "aberto", "escrever": "escrito", "cobrir": "coberto", "descobrir": "descoberto",
                   "ganhar": "ganho", "gastar": "gasto", "pagar": "pago", "morrer": "morto", "aceitar": "aceito",
                   "entregar": "entregue", "eleger": "eleito", "prender": "preso", "acender": "aceso",
                   "imprimir": "impresso", "suspender": "suspenso", "salvar": "salvo"}  # fmt: skip
_PT_INVARIANT_PARTICIPLE = frozenset(_seq("ser estar ter ir poder haver"))
_PT_SPELL = {("ar", "c"): "qu", ("ar", "g"): "gu", ("ar", "ç"): "c", ("er", "c"): "ç", ("er", "g"): "j",
             ("ir", "c"): "ç", ("ir", "g"): "j", ("ir", "gu"): "g", ("er", "gu"): "g"}  # fmt: skip
_ACCENT = {"a": "á", "e": "é", "i": "í", "o": "ô", "u": "ú"}


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
    stem, table = verb[:-2] if verb != "pôr" else "p", _pt_table(verb)
    out: dict[tuple[str, int], str] = {("inf", -1): verb}
    out |= _pt_simple_tenses(verb, stem, kind, table)
    out |= _pt_derived_tenses(verb, table, out["pret", 5])
    return out | _pt_nonfinite(verb, stem, kind, table)


def _pt_table(verb: str) -> dict[str, str]:
    """The forms of ``verb`` that are not regular (:data:`_PT_VERBS`), with the tenses of an -air (cair: caiu) or
    -uir verb (incluir: incluiu)."""
    table = dict(_PT_VERBS.get(verb, {}))
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
    return table


def _pt_simple_tenses(verb: str, stem: str, kind: str, table: dict[str, str]) -> dict[tuple[str, int], str]:
    """The presente, pretérito perfeito, imperfeito and presente do subjuntivo: ``table``'s, else regular, with the
    stem changes of -ear (passeio) and of :data:`_PT_STEM_1S` and :data:`_PT_STEM_O`."""
    regular = _PT_REGULAR[kind]
    out: dict[tuple[str, int], str] = {}
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
    return out


def _pt_derived_tenses(verb: str, table: dict[str, str], pret_3pl: str) -> dict[tuple[str, int], str]:
    """The futuro and condicional (on the future stem), the mais-que-perfeito and the imperfeito and futuro do
    subjuntivo (on the pretérito's third person plural, ``pret_3pl``), and the infinitivo pessoal."""
    out: dict[tuple[str, int], str] = {}
    fut = table.get("fut", verb if verb != "pôr" else "por")
    out |= {("fut", p): fut + e for p, e in enumerate(_seq("ei ás á emos eis ão"))}
    out |= {("cond", p): fut + e for p, e in enumerate(_seq("ia ias ia íamos íeis iam"))}
    base = pret_3pl[:-3]  # fizeram -> fize
    high = _pt_accented(base, strong="pret" in table)
    for tense, endings in (("pqp", "ra ras ra ramos reis ram"), ("sbjimpf", "sse sses sse ssemos sseis ssem")):
        out |= {(tense, p): (high if p in (3, 4) else base) + e for p, e in enumerate(endings.split())}
    plain = base[:-1] + strip_accents(base[-1])  # cair, cairmos; caíres, caírem
    out |= {("sbjfut", p): (base if p in (1, 5) else plain) + e for p, e in enumerate(_seq("r res r rmos rdes rem"))}
    infp = table.get("infp", " ".join(verb + e for e in ("", "es", "", "mos", "des", "em")))
    out |= {("infp", p): f for p, f in enumerate(infp.split())}
    return out


def _pt_nonfinite(verb: str, stem: str, kind: str, table: dict[str, str]) -> dict[tuple[str, int], str]:
    """The gerúndio and the particípio in its four agreeing forms (o a os as)."""
    regular = _PT_REGULAR[kind]
    out = {("ger", -1): table.get("ger", stem + regular["ger"])}
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
