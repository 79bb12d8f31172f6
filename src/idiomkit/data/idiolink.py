"""IdioLink retrieval benchmark (Intellexus-DSI): documents, queries, relevance (qrels) and training triplets.

Layout (``<data_dir>/idiolink/<split>/``): ``indexes.json`` (documents), ``queries.json`` (queries), both a JSON list
of ``{id, sentence, idiom, span, subject, usage, is_gold}``; ``triplets_<split>_{full,span}.jsonl`` (one JSON object
a line: ``{query, positive, negatives, query_idiom, query_usage, positive_usage[, query_span]}``).

``span`` is the text of the PIE (or its paraphrase) inside ``sentence``; it may also be given as character offsets
``[start, end]``. Records carry both the text and the offsets (first occurrence), validated against the sentence.

Relevance (binary): a literal query -> every literal document of the same PIE (R=40 in the released data);
an idiomatic query -> every idiomatic, simplification and sense document of the same PIE (R=60); retrieval is over
the whole split's document index.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from idiomkit.data.csvio import JSON_TOO_DEEP, bad_byte, check_not_utf16_or_binary, read_bytes, read_jsonl_records
from idiomkit.data.errors import DataError
from idiomkit.errors import OptionError, check_choice

SPLITS = ("train", "val", "test")
DOC_USAGES = ("literal", "idiomatic", "simplification", "sense")
QUERY_USAGES = ("literal", "idiomatic")
FIELDS = ("id", "sentence", "idiom", "span", "subject", "usage", "is_gold")
TRIPLET_FIELDS = ("query", "positive", "negatives", "query_idiom", "query_usage")
# usages of the documents relevant to a query of each usage
RELEVANT_USAGES = {"literal": ("literal",), "idiomatic": ("idiomatic", "simplification", "sense")}


@dataclass(frozen=True)
class IdioLinkRecord:
    """One sentence of the benchmark; ``span`` is ``(start, end)`` character offsets of ``span_text``."""

    id: str
    sentence: str
    idiom: str
    span: tuple[int, int]
    span_text: str
    subject: str
    usage: str
    is_gold: bool


@dataclass(frozen=True)
class Document(IdioLinkRecord):
    """An indexed document (usage: literal, idiomatic, simplification or sense)."""


@dataclass(frozen=True)
class Query(IdioLinkRecord):
    """A query (usage: literal or idiomatic)."""


@dataclass(frozen=True)
class Triplet:
    """A training triplet: query, one positive, negatives (soft + hard)."""

    query: str
    positive: str
    negatives: tuple[str, ...]
    query_idiom: str
    query_usage: str
    positive_usage: str | None = None
    query_span: str | None = None


@dataclass
class IdioLinkSplit:
    """One split: its documents (the index), queries and relevance judgements."""

    name: str
    documents: list[Document]
    queries: list[Query]
    files: list[Path] = field(default_factory=list)

    @property
    def documents_file(self) -> Path | None:
        """The file the documents were read from (it keys their cached embeddings); None for a split made in code."""
        return self.files[0] if self.files else None

    def qrels(self) -> dict[str, dict[str, int]]:
        return build_qrels(self.queries, self.documents)


def _read_json(path: Path) -> Any:
    """The parsed JSON of a UTF-8 file (a leading byte-order mark is accepted, as in the CSV loaders).

    A byte that is not UTF-8 (a latin-1 file, say) is named by the record and field that hold it: the text is
    decoded with ``surrogateescape`` and parsed, then searched (see :func:`_bad_byte_record`)."""
    raw = read_bytes(path)
    check_not_utf16_or_binary(path, raw)
    try:
        text, bad = raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        text, bad = raw.decode("utf-8-sig", errors="surrogateescape"), exc
    if not text.strip():
        raise DataError(path, None, None, "file is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if bad is None:
            raise DataError(
                path, None, None, f"invalid or truncated JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from None
        data = None
    except RecursionError:
        raise DataError(path, None, None, JSON_TOO_DEEP) from None
    if bad is not None:
        _bad_byte_record(path, data)
        line = raw[: bad.start].count(b"\n") + 1
        raise DataError(
            path, None, None, f"not valid UTF-8 (byte 0x{raw[bad.start]:02x} at line {line}, offset {bad.start})"
        ) from None
    return data


def _bad_byte_record(path: Path, data: Any) -> None:
    """Raise the DataError naming the first record (1-based) and field of a JSON list whose value holds an
    undecodable byte (a lone surrogate of ``surrogateescape``); return when there is none such."""
    if not isinstance(data, list):
        return
    for row, record in enumerate(data, start=1):
        if isinstance(record, dict):
            bad_byte(
                path,
                row,
                {k: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for k, v in record.items()},
            )


def _text(path: Path, row: int, record: dict, name: str) -> str:
    value = record[name]
    if not isinstance(value, str):
        raise DataError(path, row, name, f"must be a string, got {type(value).__name__}")
    if not value.strip():
        raise DataError(path, row, name, "is empty")
    return value


def resolve_span(path: Path, row: int, sentence: str, span: Any, field: str = "span") -> tuple[tuple[int, int], str]:
    """``span`` (text, or ``[start, end]`` offsets) -> ((start, end), text); raises DataError (naming ``field``)
    if it is not in ``sentence``. Text spans resolve to their first occurrence."""
    if isinstance(span, str):
        if not span.strip():
            raise DataError(path, row, field, "is empty")
        start = sentence.find(span)
        if start < 0:
            raise DataError(path, row, field, f"'{span}' does not occur in the sentence")
        return (start, start + len(span)), span
    if (
        isinstance(span, list | tuple)
        and len(span) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in span)
    ):
        start, end = span
        if not 0 <= start < end <= len(sentence):
            raise DataError(path, row, field, f"offsets {list(span)} are outside the sentence (length {len(sentence)})")
        return (start, end), sentence[start:end]
    raise DataError(path, row, field, f"must be a string or [start, end] offsets, got {json.dumps(span)[:60]}")


def _records(path: Path, cls: type[IdioLinkRecord], usages: Iterable[str]) -> list:
    data = _read_json(path)
    if not isinstance(data, list):
        raise DataError(path, None, None, f"top level must be a JSON list of records, got {type(data).__name__}")
    usages = tuple(usages)
    seen: dict[str, int] = {}
    out = []
    for row, record in enumerate(data, start=1):
        if not isinstance(record, dict):
            raise DataError(path, row, None, f"must be a JSON object, got {type(record).__name__}")
        missing = [f for f in FIELDS if f not in record]
        if missing:
            raise DataError(path, row, missing[0], "missing field")
        rid = _text(path, row, record, "id")
        if rid in seen:
            raise DataError(path, row, "id", f"duplicate '{rid}' (first at row {seen[rid]})")
        seen[rid] = row
        sentence = _text(path, row, record, "sentence")
        usage = record["usage"]
        if usage not in usages:
            raise DataError(
                path, row, "usage", f"unknown usage {json.dumps(usage)} (expected one of {', '.join(usages)})"
            )
        is_gold = record["is_gold"]
        if not isinstance(is_gold, bool):
            raise DataError(path, row, "is_gold", f"must be true or false, got {json.dumps(is_gold)}")
        offsets, span_text = resolve_span(path, row, sentence, record["span"])
        if not isinstance(record["subject"], str):
            raise DataError(path, row, "subject", f"must be a string, got {json.dumps(record['subject'])[:60]}")
        out.append(
            cls(
                id=rid,
                sentence=sentence,
                idiom=_text(path, row, record, "idiom").strip(),
                span=offsets,
                span_text=span_text,
                subject=record["subject"],
                usage=usage,
                is_gold=is_gold,
            )
        )
    if not out:
        raise DataError(path, None, None, "has no records")
    return out


def load_documents(path: str | Path) -> list[Document]:
    return _records(Path(path), Document, DOC_USAGES)


def load_queries(path: str | Path) -> list[Query]:
    return _records(Path(path), Query, QUERY_USAGES)


def split_dir(data_dir: str | Path, split: str) -> Path:
    check_choice("IdioLink split", split, SPLITS)
    return Path(data_dir) / "idiolink" / split


def load_idiolink(data_dir: str | Path, split: str = "test") -> IdioLinkSplit:
    """Load documents and queries of ``split`` (train, val or test) from ``<data_dir>/idiolink/<split>/``."""
    base = split_dir(data_dir, split)
    docs_path, queries_path = base / "indexes.json", base / "queries.json"
    documents = load_documents(docs_path)
    queries = load_queries(queries_path)
    pies = {d.idiom for d in documents}
    for row, q in enumerate(queries, start=1):
        if q.idiom not in pies:
            raise DataError(queries_path, row, "idiom", f"'{q.idiom}' has no documents in {docs_path.name}")
    return IdioLinkSplit(split, documents, queries, [docs_path, queries_path])


def build_qrels(queries: Iterable[Query], documents: Iterable[Document]) -> dict[str, dict[str, int]]:
    """Binary relevance ``{query id: {doc id: 1}}``: literal query -> literal docs of its PIE; idiomatic query ->
    idiomatic + simplification + sense docs of its PIE."""
    by_key: dict[tuple[str, str], list[str]] = {}
    for d in documents:
        by_key.setdefault((d.idiom, d.usage), []).append(d.id)
    qrels = {}
    for q in queries:
        ids = [i for usage in RELEVANT_USAGES[q.usage] for i in by_key.get((q.idiom, usage), [])]
        qrels[q.id] = dict.fromkeys(ids, 1)
    return qrels


def load_triplets(path: str | Path) -> list[Triplet]:
    """Read a ``triplets_*.jsonl`` file (one JSON object a line; row = line number)."""
    path = Path(path)
    out = []
    for row, record in read_jsonl_records(path):
        missing = [f for f in TRIPLET_FIELDS if f not in record]
        if missing:
            raise DataError(path, row, missing[0], "missing field")
        negatives = record["negatives"]
        if not isinstance(negatives, list) or not negatives or not all(isinstance(n, str) for n in negatives):
            raise DataError(path, row, "negatives", "must be a non-empty list of strings")
        usage = record["query_usage"]
        if usage not in QUERY_USAGES:
            raise DataError(path, row, "query_usage", f"unknown usage {json.dumps(usage)}")
        query = _text(path, row, record, "query")
        span = record.get("query_span")
        span_text = resolve_span(path, row, query, span, "query_span")[1] if span is not None else None
        out.append(
            Triplet(
                query=query,
                positive=_text(path, row, record, "positive"),
                negatives=tuple(negatives),
                query_idiom=_text(path, row, record, "query_idiom"),
                query_usage=usage,
                positive_usage=record.get("positive_usage"),
                query_span=span_text,
            )
        )
    if not out:
        raise DataError(path, None, None, "has no records")
    return out


def triplets_path(data_dir: str | Path, split: str, kind: str = "span") -> Path:
    """``<data_dir>/idiolink/<split>/triplets_<split>_<kind>.jsonl`` (kind: full or span)."""
    if kind not in ("full", "span"):
        raise OptionError(f"unknown triplet kind '{kind}' (expected full or span)")
    return split_dir(data_dir, split) / f"triplets_{split}_{kind}.jsonl"
