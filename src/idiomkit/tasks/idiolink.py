"""IdioLink (Intellexus-DSI): retrieve documents conveying the same meaning as a query's idiom (literal or figurative).

Dense retrieval: documents are always encoded as plain full text (with the model's ``passage`` prompt if it has one);
queries in one of five modes (:data:`QUERY_MODES`):

- ``sentence``: the query sentence (model's sentence embedding);
- ``span``: late chunking -- the whole sentence is encoded and only the span's tokens are mean-pooled;
- ``instruction``: ``Instruct: <the paper's instruction naming the span>\\nQuery: <sentence>`` (sentence embedding);
- ``instruction+span``: the same text, pooled over the span inside the query part;
- ``sentence+span``: score fusion of the first two -- the unit sentence and unit span embeddings are summed and
  re-normalised, so a document's score is proportional to the mean of its two cosines (the span says *which*
  PIE, the sentence *which sense*; equal weights, fixed a priori, nothing tuned).

Queries get the model's ``query`` prompt when it defines one. Similarity is cosine; ties are broken by index order.
Second stages are methods, not part of the task: ``rerank=`` (built by the caller, e.g.
:class:`idiomkit.methods.idiolink.rerank.IdioLinkRerank`) re-scores the test scores -- a literal/figurative usage
re-ranker fitted on train and val (variant ``<mode>-usage``) and/or twin expansion (``-twins``).
Lexical baseline: ``bm25`` (bm25s, k1=0.9, b=0.4 as selected on val in the paper; query = sentence or span text).

Metrics (binary relevance, equal to ranx's): R-Precision and nDCG@10, macro over queries, overall and by query
usage, in %.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from sentence_transformers.base.evaluation import BaseEvaluator

from idiomkit.data.idiolink import Document, IdioLinkSplit, Query, load_idiolink
from idiomkit.embedding.cache import cached_array, embeddings_cache_dir, model_fingerprint
from idiomkit.embedding.encode import encode_texts, unit_rows
from idiomkit.embedding.spans import encode_spans
from idiomkit.errors import OptionError, check_choice
from idiomkit.metrics.retrieval import r_precision_and_ndcg10, rank_top_k
from idiomkit.metrics.trec import Run, trec_run
from idiomkit.tasks.base import EvalContext, Task, TaskMetadata, TaskOutput

log = logging.getLogger(__name__)

QUERY_MODES = ("sentence", "span", "instruction", "instruction+span", "sentence+span")
FUSED_MODES = {"sentence+span": ("sentence", "span")}  # modes whose embedding is the normalised sum of others
LEXICAL_MODELS = ("bm25",)
BM25_QUERY_MODES = ("sentence", "span")
TOP_K = 100
BM25_K1, BM25_B = 0.9, 0.4
# Appendix B of the paper; the span is quoted as in the authors' code.
INSTRUCTION = (
    "Based on the literal/idiomatic usage of the span '{span}' in the query, "
    "retrieve documents that contain a span conveying the same conceptual meaning."
)
INSTRUCT_FORMAT = "Instruct: {instruction}\nQuery: "  # generic format for models without their own (paper, B.iii)
TOKEN_RE = re.compile(r"\b\w+(?:'\w+)?\b")  # the paper's BM25 tokenizer (lowercased words, contractions kept)


class Rerank(Protocol):
    """A second stage fitted outside the task (:mod:`idiomkit.methods.idiolink`): re-scores a split's queries x
    documents, returning (scores, params to record); ``variant_suffix`` extends the result variant."""

    variant_suffix: str

    def __call__(
        self,
        model,
        data_dir: str | Path,
        split: IdioLinkSplit,
        scores: np.ndarray,
        *,
        query_mode: str,
        prompt_name: str | None,
        batch_size: int,
    ) -> tuple[np.ndarray, dict[str, Any]]: ...


# ---------------------------------------------------------------- runs


def make_run(queries: Sequence[Query], documents: Sequence[Document], scores: np.ndarray, k: int = TOP_K) -> Run:
    """The top ``k`` documents of each query by ``scores`` (queries x documents), best first."""
    top = rank_top_k(scores, k)
    return {q.id: [(documents[j].id, float(scores[i, j])) for j in top[i]] for i, q in enumerate(queries)}


def top_k_composition(split: IdioLinkSplit, run: Run, k: int = 10) -> dict[str, dict[str, float]]:
    """What fills the top ``k`` of each query: share (0-1) of ``same-PIE <usage>`` / ``other-PIE <usage>``
    documents, averaged over the queries of each usage (``literal``, ``idiomatic``). Shows *why* a model misses,
    e.g. figurative queries answered with literal uses of their own PIE, or paraphrase documents never reached."""
    docs = {d.id: d for d in split.documents}
    shares: dict[str, dict[str, float]] = {}
    for usage in ("literal", "idiomatic"):
        queries = [q for q in split.queries if q.usage == usage and run.get(q.id)]
        counts: dict[str, float] = {}
        for q in queries:
            top = run[q.id][:k]
            for doc_id, _ in top:
                d = docs[doc_id]
                key = f"{'same' if d.idiom == q.idiom else 'other'}-PIE {d.usage}"
                counts[key] = counts.get(key, 0.0) + 1.0 / (len(top) * len(queries))
        shares[usage] = dict(sorted(counts.items(), key=lambda kv: -kv[1]))
    return shares


# ---------------------------------------------------------------- queries


def instruction_prefix(span_text: str) -> str:
    return INSTRUCT_FORMAT.format(instruction=INSTRUCTION.format(span=span_text))


def query_inputs(queries: Sequence[Query], mode: str) -> tuple[list[str], list[tuple[int, int]] | None]:
    """Texts to encode for ``mode`` and, for span modes, the span's character offsets inside each text
    (fused modes have no single input: see :func:`query_embeddings`)."""
    if mode not in QUERY_MODES or mode in FUSED_MODES:
        raise OptionError(f"unknown query mode '{mode}' (expected one of {', '.join(QUERY_MODES)})")
    if mode in ("sentence", "span"):
        texts = [q.sentence for q in queries]
        spans = [q.span for q in queries]
    else:
        prefixes = [instruction_prefix(q.span_text) for q in queries]
        texts = [p + q.sentence for p, q in zip(prefixes, queries, strict=True)]
        spans = [(s + len(p), e + len(p)) for p, (s, e) in zip(prefixes, (q.span for q in queries), strict=True)]
    return texts, spans if mode.endswith("span") else None


# ---------------------------------------------------------------- dense retrieval


def document_embeddings(
    model,
    documents: Sequence[Document],
    *,
    data_file: Path | None = None,
    batch_size: int = 64,
    show_progress_bar: bool = False,
    cache_dir: str | Path | None = None,
    use_cache: bool = True,
) -> np.ndarray:
    """Unit-normalised embeddings of the documents' full text (``passage`` prompt if the model has one).

    Cached in memory (per process) and, unless ``cache_dir`` is False-y with ``use_cache`` off, as ``.npy`` under
    ``cache_dir`` (default ``<idiomkit cache>/embeddings/idiolink``), keyed by model fingerprint + document file sha
    + ``batch_size`` (the batch's padding moves float32 sums in the last bits: scores printed to 6 decimals flip
    their last digit, so a run must not read documents encoded at another batch size).
    """
    doc_prompt = "passage" if model.prompts.get("passage") else None

    def encode() -> np.ndarray:
        texts = [d.sentence for d in documents]
        emb = encode_texts(
            model, texts, prompt_name=doc_prompt, batch_size=batch_size, show_progress_bar=show_progress_bar
        )
        return unit_rows(emb)

    if not use_cache:
        return encode()
    digest = hashlib.sha256(model_fingerprint(model).encode())
    digest.update(str(doc_prompt).encode())
    digest.update(f"batch_size={batch_size}".encode())
    if data_file is not None:
        digest.update(Path(data_file).read_bytes())
    else:
        digest.update("\n".join(d.id + "\t" + d.sentence for d in documents).encode())
    directory = Path(cache_dir or embeddings_cache_dir("idiolink"))
    return cached_array(digest.hexdigest()[:32], encode, directory=directory, rows=len(documents))


def query_embeddings(
    model,
    queries: Sequence[Query],
    mode: str,
    *,
    prompt_name: str | None = None,
    batch_size: int = 64,
    show_progress_bar: bool = False,
) -> np.ndarray:
    """Unit-normalised query embeddings for ``mode`` (see :data:`QUERY_MODES`)."""
    if mode in FUSED_MODES:
        parts = [
            query_embeddings(
                model,
                queries,
                part,
                prompt_name=prompt_name,
                batch_size=batch_size,
                show_progress_bar=show_progress_bar,
            )
            for part in FUSED_MODES[mode]
        ]
        return unit_rows(np.sum(parts, axis=0))
    texts, spans = query_inputs(queries, mode)
    if spans is not None:
        prompt = model.prompts.get(prompt_name) if prompt_name else None
        emb = encode_spans(
            model, texts, spans, prompt=prompt, batch_size=batch_size, show_progress_bar=show_progress_bar
        )
    else:
        emb = encode_texts(
            model, texts, prompt_name=prompt_name, batch_size=batch_size, show_progress_bar=show_progress_bar
        )
    return unit_rows(emb)


def dense_scores(
    model,
    split: IdioLinkSplit,
    query_mode: str = "sentence",
    *,
    prompt_name: str | None = None,
    batch_size: int = 64,
    show_progress_bar: bool = False,
    cache_dir: str | Path | None = None,
    use_cache: bool = True,
) -> np.ndarray:
    """Cosine similarity of every query (``query_mode``) with every document of the index (queries x documents)."""
    q_emb = query_embeddings(
        model,
        split.queries,
        query_mode,
        prompt_name=prompt_name,
        batch_size=batch_size,
        show_progress_bar=show_progress_bar,
    )
    d_emb = document_embeddings(
        model,
        split.documents,
        data_file=split.documents_file,
        batch_size=batch_size,
        show_progress_bar=show_progress_bar,
        cache_dir=cache_dir,
        use_cache=use_cache,
    )
    return q_emb @ d_emb.T


def dense_search(model, split: IdioLinkSplit, query_mode: str = "sentence", *, top_k: int = TOP_K, **options) -> Run:
    """Rank the whole index for every query by cosine similarity; top ``top_k`` per query (options: dense_scores)."""
    return make_run(split.queries, split.documents, dense_scores(model, split, query_mode, **options), top_k)


# ---------------------------------------------------------------- BM25


def tokenize(text: str) -> list[str]:
    """The paper's BM25 tokenizer: lowercase words (``\\b\\w+(?:'\\w+)?\\b``)."""
    return TOKEN_RE.findall(text.lower())


def okapi_scores(
    documents: Sequence[str], queries: Sequence[str], *, k1: float = BM25_K1, b: float = BM25_B, epsilon: float = 0.25
) -> np.ndarray:
    """BM25 as rank-bm25's ``BM25Okapi`` computes it (the paper's implementation), for reproducing its numbers.

    idf = ln(N - n + 0.5) - ln(n + 0.5); negative idfs become ``epsilon`` x the mean idf; term weight
    idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avg_len)); a query token counts once per occurrence.
    """
    from scipy import sparse

    vocab: dict[str, int] = {}
    rows, cols, vals = [], [], []
    lengths = np.zeros(len(documents))
    for j, text in enumerate(documents):
        tokens = tokenize(text)
        lengths[j] = len(tokens)
        for token, count in Counter(tokens).items():
            rows.append(vocab.setdefault(token, len(vocab)))
            cols.append(j)
            vals.append(count)
    rows_a, cols_a, tf = np.array(rows), np.array(cols), np.array(vals, dtype=np.float64)
    n_docs, df = len(documents), np.bincount(rows_a, minlength=len(vocab))
    idf = np.log(n_docs - df + 0.5) - np.log(df + 0.5)
    idf[idf < 0] = epsilon * idf.mean()
    norm = k1 * (1 - b + b * lengths / lengths.mean())
    weights = idf[rows_a] * tf * (k1 + 1) / (tf + norm[cols_a])
    matrix = sparse.csr_matrix((weights, (rows_a, cols_a)), shape=(len(vocab), n_docs))
    q_rows, q_cols, q_vals = [], [], []
    for i, text in enumerate(queries):
        for token, count in Counter(t for t in tokenize(text) if t in vocab).items():
            q_rows.append(i)
            q_cols.append(vocab[token])
            q_vals.append(count)
    query_matrix = sparse.csr_matrix((q_vals, (q_rows, q_cols)), shape=(len(queries), len(vocab)))
    return np.asarray((query_matrix @ matrix).todense(), dtype=np.float64)


def bm25_scores(
    documents: Sequence[str], queries: Sequence[str], *, k1: float = BM25_K1, b: float = BM25_B, method: str = "lucene"
) -> np.ndarray:
    """BM25 scores ``(n_queries, n_documents)`` over :func:`tokenize` tokens: bm25s with ``method`` (lucene,
    robertson, ...), or ``okapi`` for rank-bm25's BM25Okapi formula (:func:`okapi_scores`)."""
    if method == "okapi":
        return okapi_scores(documents, queries, k1=k1, b=b)
    import bm25s

    logging.getLogger("bm25s").setLevel(max(logging.INFO, logging.getLogger().getEffectiveLevel()))
    retriever = bm25s.BM25(k1=k1, b=b, method=method)
    retriever.index([tokenize(d) for d in documents], show_progress=False)
    vocab = retriever.vocab_dict
    out = np.zeros((len(queries), len(documents)), dtype=np.float32)
    for i, text in enumerate(queries):
        tokens = [t for t in tokenize(text) if t in vocab]  # unknown tokens score 0 (bm25s would map them)
        if tokens:
            out[i] = retriever.get_scores(tokens)
    return out


def bm25_search(
    split: IdioLinkSplit,
    query_mode: str = "sentence",
    *,
    k1: float = BM25_K1,
    b: float = BM25_B,
    method: str = "lucene",
    top_k: int = TOP_K,
) -> Run:
    """BM25 over the documents' sentences; the query is the sentence (``sentence``) or the span text (``span``)."""
    if query_mode not in BM25_QUERY_MODES:
        raise OptionError(f"bm25 supports query modes {', '.join(BM25_QUERY_MODES)}, not '{query_mode}'")
    texts = [q.sentence if query_mode == "sentence" else q.span_text for q in split.queries]
    scores = bm25_scores([d.sentence for d in split.documents], texts, k1=k1, b=b, method=method)
    return make_run(split.queries, split.documents, scores, top_k)


# ---------------------------------------------------------------- task


USAGE_FLAGS = {
    "--usage-rerank": True,
    "--usage-classifier": "classifier",
    "--usage-shared-classifier": "shared-classifier",
    "--usage-span-probe": "span-probe",
}


@dataclass
class IdioLinkOptions:
    """``idiomkit evaluate idiolink`` options. ``usage_rerank`` / ``twin_expansion`` ask for a second stage, a
    method the caller builds (``rerank``; :func:`idiomkit.methods.idiolink.rerank.rerank_from_options`)."""

    split: str = field(default="test", metadata={"choices": ("train", "val", "test"), "help": "the scored split"})
    query_mode: str = field(
        default="sentence", metadata={"choices": QUERY_MODES, "help": "how queries are embedded (bm25: sentence|span)"}
    )
    top_k: int = field(default=TOP_K, metadata={"help": "documents ranked per query"})
    bm25_method: str = field(
        default="lucene",
        metadata={
            "choices": ("lucene", "robertson", "atire", "bm25l", "bm25+", "okapi"),
            "help": "bm25 only: the BM25 variant",
        },
    )
    usage_rerank: bool | str = field(
        default=False,
        metadata={
            "flags": USAGE_FLAGS,
            "help": "re-rank by literal/figurative usage: a probe (--usage-rerank), a "
            "fine-tuned classifier, the classifier sharing the model, or a span probe; weight chosen on val",
        },
    )
    twin_expansion: bool = field(
        default=False, metadata={"help": "propagate scores to near-duplicate documents of the top k (chosen on val)"}
    )
    rerank: Rerank | None = field(default=None, metadata={"cli": False})
    cache_dir: str | Path | None = field(default=None, metadata={"cli": False})
    use_cache: bool = field(default=True, metadata={"cli": False})


QUICK_IDIOMS = 3  # quick mode: the queries of 3 idioms against the documents of 6


def quick_split(data: IdioLinkSplit) -> IdioLinkSplit:
    """The quick slice: the documents of the first 2 x :data:`QUICK_IDIOMS` idioms (sorted), the queries of the
    first :data:`QUICK_IDIOMS`."""
    idioms = sorted({d.idiom for d in data.documents})[: 2 * QUICK_IDIOMS]
    asked = set(idioms[:QUICK_IDIOMS])
    return IdioLinkSplit(
        data.name,
        [d for d in data.documents if d.idiom in idioms],
        [q for q in data.queries if q.idiom in asked],
        data.files,
    )


def lexical_run(model: str, data: IdioLinkSplit, options: IdioLinkOptions, context: EvalContext, params: dict) -> Run:
    """BM25 search (``model`` names a lexical model); records the BM25 settings in ``params``."""
    if options.rerank is not None:
        raise OptionError("usage re-ranking and twin expansion need a dense model, not bm25")
    check_choice("lexical model", model, LEXICAL_MODELS)
    method = options.bm25_method
    if method != "lucene":
        params["variant"] = f"{options.query_mode}-{method}"
    params.update(
        pooling=None,
        prompt_name=None,
        batch_size=None,
        bm25={
            "k1": BM25_K1,
            "b": BM25_B,
            "method": method,
            "library": "idiomkit (rank-bm25 BM25Okapi formula)" if method == "okapi" else "bm25s",
            "tokenizer": TOKEN_RE.pattern,
        },
    )
    return bm25_search(data, options.query_mode, top_k=options.top_k, method=method)


def dense_run(model, data: IdioLinkSplit, options: IdioLinkOptions, context: EvalContext, params: dict) -> Run:
    """Cosine search with a dense model, then ``options.rerank`` if given; records its settings in ``params``."""
    query_mode, rerank = options.query_mode, options.rerank
    check_choice("query mode", query_mode, QUERY_MODES)
    if rerank is not None and options.split != "test":
        raise OptionError(f"re-rankers are chosen on train/val; evaluate them on test, not {options.split}")
    encoding = {"prompt_name": context.prompt_name, "batch_size": context.batch_size}
    scores = dense_scores(
        model,
        data,
        query_mode,
        **encoding,
        show_progress_bar=context.show_progress_bar,
        cache_dir=options.cache_dir,
        use_cache=options.use_cache,
    )
    if rerank is not None:
        scores, stage_params = rerank(model, context.data_dir, data, scores, query_mode=query_mode, **encoding)
        params.update(stage_params)
        params["variant"] = f"{query_mode}{rerank.variant_suffix}"
    params.update(document_prompt="passage" if model.prompts.get("passage") else None, similarity="cosine")
    if query_mode.startswith("instruction"):
        params["instruction"] = INSTRUCT_FORMAT.format(instruction=INSTRUCTION) + "{sentence}"
    return make_run(data.queries, data.documents, scores, options.top_k)


class IdioLinkTask(Task):
    metadata = TaskMetadata(
        name="idiolink",
        result_task="idiolink-test",
        description="IdioLink retrieval (75 PIEs, 7,500 docs, 1,500 queries); R-Precision and nDCG@10 in %",
        main_score="ndcg@10",
        languages=("en",),
        reference="IdioLink (Intellexus-DSI); relevance by PIE and usage; metrics equal to ranx's",
        data_files=("idiolink/test/indexes.json", "idiolink/test/queries.json"),
        title="IdioLink retrieval, test split (percent)",
        mteb_name="IdioLinkTest",
    )
    Options = IdioLinkOptions
    lexical_models = LEXICAL_MODELS

    def option_choices(self, lexical: bool = False) -> dict[str, tuple[Any, ...]]:
        choices = super().option_choices(lexical)
        return choices | {"query_mode": BM25_QUERY_MODES} if lexical else choices

    def run(self, model, options: IdioLinkOptions, context: EvalContext) -> TaskOutput:
        """``options.rerank``: a second stage fitted on train/val by a method (usage re-ranking and/or twin
        expansion, :class:`idiomkit.methods.idiolink.rerank.IdioLinkRerank`), applied to the test scores (dense
        models only; variant ``<mode><rerank.variant_suffix>``, e.g. ``span-usageclf-twins``). ``context.quick``:
        the queries of :data:`QUICK_IDIOMS` idioms against the documents of twice as many."""
        moved = [key for key in ("usage_rerank", "twin_expansion") if getattr(options, key)]
        if moved and options.rerank is None:
            raise OptionError(
                f"{moved[0]} is a method now: pass rerank=IdioLinkRerank(...) (idiomkit.methods.idiolink)"
            )
        data = load_idiolink(context.data_dir, options.split)
        data = quick_split(data) if context.quick else data
        start = time.perf_counter()
        params: dict[str, Any] = {
            "split": options.split,
            "query_mode": options.query_mode,
            "top_k": options.top_k,
            "variant": options.query_mode,
            "queries": len(data.queries),
            "documents": len(data.documents),
        }
        search = lexical_run if isinstance(model, str) else dense_run
        run = search(model, data, options, context, params)
        params["search_s"] = round(time.perf_counter() - start, 3)
        metrics = r_precision_and_ndcg10(data.qrels(), run, {q.id: q.usage for q in data.queries})
        return TaskOutput(
            metrics=metrics,
            params=params,
            data_files=list(data.files),
            predictions={"run.trec.gz": trec_run(run)},
        )

    def summary_table(self, metrics: dict[str, Any]) -> list[list[str]]:
        rows = [["queries", "R-Precision", "nDCG@10"]]
        for label, block in (
            ("all", metrics),
            ("literal", metrics.get("literal")),
            ("idiomatic", metrics.get("idiomatic")),
        ):
            if block:
                rows.append([label, f"{block['r_precision']:.2f}", f"{block['ndcg@10']:.2f}"])
        return rows


class IdioLinkEvaluator(BaseEvaluator):
    """Training-time evaluator (a sentence-transformers ``BaseEvaluator``) on an IdioLink split — ``val`` for model
    selection; test stays held out. Returns ``{<name>_ndcg@10, <name>_r_precision, ...}`` in percent."""

    def __init__(self, data_dir: str | Path, *, split: str = "val", query_mode: str = "span", name: str = "val"):
        super().__init__()
        self.data_dir, self.split, self.query_mode, self.name = data_dir, split, query_mode, name
        self.greater_is_better = True
        self.primary_metric = f"{name}_ndcg@10"

    def __call__(self, model, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict[str, float]:
        out = IdioLinkTask().evaluate(
            model,
            data_dir=self.data_dir,
            split=self.split,
            query_mode=self.query_mode,
            show_progress_bar=False,
            use_cache=False,
        )
        m = out.metrics
        flat = {"ndcg@10": m["ndcg@10"], "r_precision": m["r_precision"]}
        for usage in ("literal", "idiomatic"):
            flat.update({f"{usage}_{k}": v for k, v in m[usage].items()})
        return self.prefix_name_to_metrics(flat, self.name)
