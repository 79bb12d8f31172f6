"""LIdioms (Moussallem et al., LREC 2018): English and Portuguese idioms with English definitions (RDF/Turtle).

Files ``idioms_extra/lidioms/en/english.ttl`` and ``pt/portuguese.ttl`` (OntoLex-Lemon): a ``LexicalEntry`` has an
``rdfs:label`` (the idiom, tagged ``@en`` / ``@pt``) and an ``ontolex:sense``; the sense's
``ontolex:isLexicalizedSenseOf`` names a concept whose ``skos:definition`` (``@en``) is the meaning. The files are
read with a small Turtle reader (prefixes, IRIs, prefixed names, ``"…"@lang`` strings, ``;`` and ``,`` lists) that
covers what they use. Errors name the line as the row. An entry without a definition is skipped (counted in the
log); an entry written twice is read once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from idiomkit.data.csvio import decode
from idiomkit.data.errors import DataError
from idiomkit.data.extra.overlap import dataset_dir
from idiomkit.errors import check_choice

log = logging.getLogger(__name__)

LANGUAGES = {"EN": "en/english.ttl", "PT": "pt/portuguese.ttl"}
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
ENTRY = "http://www.w3.org/ns/lemon/ontolex#LexicalEntry"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SENSE = "http://www.w3.org/ns/lemon/ontolex#sense"
CONCEPT = "http://www.w3.org/ns/lemon/ontolex#isLexicalizedSenseOf"
DEFINITION = "http://www.w3.org/2004/02/skos/core#definition"

_TOKEN = re.compile(
    r"""(?P<space>\s+|\#[^\n]*)
    |<(?P<iri>[^<>"\s]*)>
    |"(?P<string>(?:[^"\\\n]|\\.)*)"(?:@(?P<lang>[A-Za-z]+(?:-[A-Za-z0-9]+)*)|\^\^\S+)?
    |(?P<prefix>@prefix)
    |(?P<pname>[A-Za-z][\w-]*:(?:[^\s;,<>"]*[^\s;,<>".])?)
    |(?P<a>a(?=\s))
    |(?P<punct>[;,.])""",
    re.X,
)
_KINDS = ("space", "iri", "string", "prefix", "pname", "a", "punct")
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}

Token = tuple[int, str, str, str | None]  # (line, kind, value, language tag)
Node = tuple[str, str | None]  # (IRI or literal text, language tag; None for an IRI)
Graph = dict[str, dict[str, list[tuple[Node, int]]]]


@dataclass(frozen=True)
class LidiomsEntry:
    """An idiom with one English definition."""

    idiom: str
    language: str  # the idiom's language: "EN" or "PT" (the definition is always English)
    definition: str
    split: str | None = None  # LIdioms has no splits


def _unescape(value: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        return chr(int(code[1:], 16)) if code[0] in "uU" and len(code) > 1 else _ESCAPES.get(code, code)

    return _ESCAPE.sub(one, value)


def _tokens(path: Path, text: str) -> Iterator[Token]:
    pos, line = 0, 1
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise DataError(path, line, None, f"unreadable Turtle at {text[pos : pos + 30]!r}")
        kind = next(k for k in _KINDS if match.group(k) is not None)
        if kind != "space":
            try:
                value = _unescape(match.group(kind)) if kind == "string" else match.group(kind)
            except ValueError:  # chr() of a \U escape past U+10FFFF
                raise DataError(path, line, None, f"invalid escape in {match.group(kind)[:40]!r}") from None
            yield line, kind, value, match.group("lang")
        line += match.group().count("\n")
        pos = match.end()


def _node(path: Path, token: Token, prefixes: dict[str, str]) -> Node:
    line, kind, value, lang = token
    if kind == "pname":
        prefix, _, local = value.partition(":")
        if prefix not in prefixes:
            raise DataError(path, line, None, f"undeclared prefix '{prefix}:'")
        return prefixes[prefix] + local, None
    if kind == "a":
        return RDF_TYPE, None
    return value, (lang or "") if kind == "string" else None


_NEXT = {  # state -> {token kind: next state}
    "subject": {"iri": "predicate", "pname": "predicate", "prefix": "prefix name"},
    "predicate": {"iri": "object", "pname": "object", "a": "object"},
    "object": {"iri": "after", "pname": "after", "string": "after"},
    "after": {",": "object", ";": "predicate or end", ".": "subject"},
    "predicate or end": {"iri": "object", "pname": "object", "a": "object", ".": "subject"},
    "prefix name": {"pname": "prefix iri"},
    "prefix iri": {"iri": "prefix end"},
    "prefix end": {".": "subject"},
}


def read_turtle(path: Path) -> Graph:
    """``{subject: {predicate: [(object, line), ...]}}`` of a Turtle file (the subset described above)."""
    graph: Graph = {}
    prefixes: dict[str, str] = {}
    state, line, subject, predicate, name = "subject", 1, "", "", ""
    for token in _tokens(path, decode(path, first_row=1)):
        line, kind, value, _ = token
        new = _NEXT[state].get(value if kind == "punct" else kind)
        if new is None:
            raise DataError(path, line, None, f"unexpected {value!r} in Turtle (expected a {state.split()[0]})")
        if state == "subject" and kind != "prefix":
            subject = _node(path, token, prefixes)[0]
        elif state.startswith("predicate") and new == "object":
            predicate = _node(path, token, prefixes)[0]
        elif state == "object":
            graph.setdefault(subject, {}).setdefault(predicate, []).append((_node(path, token, prefixes), line))
        elif state == "prefix name":
            if not value.endswith(":"):
                raise DataError(path, line, None, f"bad prefix name {value!r} (expected 'name:')")
            name = value[:-1]
        elif state == "prefix iri":
            prefixes[name] = value
        state = new
    if state != "subject":
        raise DataError(path, line, None, "Turtle ends inside a statement")
    return graph


def _check_tag(path: Path, line: int, field: str, tag: str | None, want: str) -> None:
    if tag != want:
        found = f"language tag '@{tag}'" if tag else "no language tag"
        raise DataError(path, line, field, f"{found}, expected '@{want}'")


def _entries(graph: Graph) -> dict[str, int]:
    """Each ``ontolex:LexicalEntry`` with the line where it is first typed so."""
    out = {}
    for subject, predicates in graph.items():
        lines = [line for node, line in predicates.get(RDF_TYPE, []) if node == (ENTRY, None)]
        if lines:
            out[subject] = lines[0]
    return out


def _label(path: Path, graph: Graph, entry: str, line: int, lang: str) -> str:
    labels = graph[entry].get(LABEL, [])
    if not labels:
        raise DataError(path, line, "rdfs:label", f"entry <{entry}> has no label")
    for (value, tag), label_line in labels:
        _check_tag(path, label_line, "rdfs:label", tag, lang)
        if not value.strip():
            raise DataError(path, label_line, "rdfs:label", "is empty")
    first = " ".join(labels[0][0][0].split())
    for (value, _), label_line in labels:
        if " ".join(value.split()) != first:
            raise DataError(path, label_line, "rdfs:label", f"a second label '{value}' (first: '{first}')")
    return first


def _definitions(path: Path, graph: Graph, entry: str) -> list[str]:
    """The entry's English definitions (entry → sense → concept → ``skos:definition``), zero-width spaces removed."""
    out: list[str] = []
    for (sense, _), _ in graph[entry].get(SENSE, []):
        for (concept, _), _ in graph.get(sense, {}).get(CONCEPT, []):
            for (value, tag), line in graph.get(concept, {}).get(DEFINITION, []):
                _check_tag(path, line, "skos:definition", tag, "en")
                value = " ".join(value.replace("\u200b", "").split())
                if value and value not in out:
                    out.append(value)
    return out


def load_lidioms_language(data_dir: str | Path, language: str) -> list[LidiomsEntry]:
    """The idioms of one file, one record per (idiom, definition)."""
    check_choice("LIdioms language", language, LANGUAGES)
    path = dataset_dir(data_dir, "lidioms") / LANGUAGES[language]
    graph = read_turtle(path)
    out, seen, undefined = [], set(), 0
    for entry, line in _entries(graph).items():
        idiom = _label(path, graph, entry, line, language.lower())
        definitions = _definitions(path, graph, entry)
        undefined += not definitions
        out += [LidiomsEntry(idiom, language, d) for d in definitions if (idiom, d) not in seen]
        seen.update((idiom, d) for d in definitions)
    if undefined:
        log.info("%s: skipped %d entry(ies) without a skos:definition", path, undefined)
    return out


def load_lidioms(data_dir: str | Path, languages: tuple[str, ...] = ("EN", "PT")) -> list[LidiomsEntry]:
    """LIdioms idiom → English definition records of ``languages``."""
    return [item for language in languages for item in load_lidioms_language(data_dir, language)]
