"""IdioLink: loader validation, relevance rule, metrics (hand values and ranx), query modes, BM25, task files."""

import dataclasses
import json
import math
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from helpers.idiolink import DOCS, QUERIES, rec, write_split

from idiomkit.data.errors import DataError
from idiomkit.data.idiolink import build_qrels, load_idiolink, load_triplets
from idiomkit.metrics.retrieval import r_precision_and_ndcg10
from idiomkit.metrics.trec import read_trec_run, trec_run
from idiomkit.results import read_prediction
from idiomkit.tasks.idiolink import bm25_search, query_inputs, top_k_composition


def test_loader_offsets_and_qrels(tmp_path):
    write_split(tmp_path)
    split = load_idiolink(tmp_path, "test")
    assert len(split.documents) == 10 and len(split.queries) == 4
    assert split.documents_file == split.files[0] and split.documents_file.name == "indexes.json"
    assert dataclasses.replace(split, files=[]).documents_file is None  # a split made in code: no cache key file
    sim = split.documents[3]
    assert sim.span_text == "reveal the secret" and sim.sentence[sim.span[0] : sim.span[1]] == "reveal the secret"
    sense = split.documents[4]  # span given as offsets
    assert sense.span == (10, 19) and sense.span_text == "disclosed"
    qrels = build_qrels(split.queries, split.documents)
    assert qrels["q_01_lit"] == {"01_lit_1": 1, "01_lit_2": 1}
    assert qrels["q_01_idiom"] == {"01_idiom_1": 1, "01_sim_1": 1, "01_sense_1": 1}
    assert set(qrels["q_02_idiom"]) == {"02_idiom_1", "02_sim_1", "02_sense_1"}


def _bad(index, **changes):
    docs = [dict(d) for d in DOCS]
    docs[index].update(changes)
    return docs


@pytest.mark.parametrize(
    "docs, raw, expected",
    [
        (_bad(1, span="spill the peas"), None, "row 2: field 'span': 'spill the peas' does not occur in the sentence"),
        (
            _bad(2, usage="figurative"),
            None,
            "row 3: field 'usage': unknown usage \"figurative\" (expected one of literal, idiomatic, simplification,"
            " sense)",
        ),
        (_bad(4, id="01_lit_1"), None, "row 5: field 'id': duplicate '01_lit_1' (first at row 1)"),
        (_bad(0, span=[5, 400]), None, "row 1: field 'span': offsets [5, 400] are outside the sentence (length 53)"),
        ([{k: v for k, v in d.items() if k != "subject"} for d in DOCS], None, "row 1: field 'subject': missing field"),
        (None, json.dumps(DOCS)[:200], "invalid or truncated JSON at line 1 column 201"),
    ],
    ids=["span-not-in-sentence", "unknown-usage", "duplicate-id", "bad-offsets", "missing-field", "truncated"],
)
def test_loader_errors(tmp_path, docs, raw, expected):
    base = write_split(tmp_path, docs=docs, raw_docs=raw)
    with pytest.raises(DataError) as err:
        load_idiolink(tmp_path, "test")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{base / 'indexes.json'}: {expected}")


def test_query_usage_and_missing_file(tmp_path):
    queries = [dict(q) for q in QUERIES]
    queries[1]["usage"] = "sense"  # documents only
    base = write_split(tmp_path, queries=queries)
    with pytest.raises(DataError, match=r"queries\.json: row 2: field 'usage': unknown usage \"sense\""):
        load_idiolink(tmp_path, "test")
    with pytest.raises(DataError, match=r"idiolink/val/indexes\.json: file not found"):
        load_idiolink(tmp_path, "val")
    assert base.is_dir()


def test_triplets(tmp_path):
    path = tmp_path / "triplets_train_span.jsonl"
    good = {
        "query": "Nobody expected the intern to spill the beans.",
        "positive": "She finally decided to reveal the secret.",
        "negatives": ["A", "B"],
        "query_idiom": "spill the beans",
        "query_usage": "idiomatic",
        "positive_usage": "simplification",
        "query_span": "spill the beans",
    }
    path.write_text(json.dumps(good) + "\n" + json.dumps(good)[:-5] + "\n", "utf-8")
    with pytest.raises(DataError, match=r"triplets_train_span\.jsonl: row 2: invalid or truncated JSON"):
        load_triplets(path)
    path.write_text(json.dumps(good) + "\n", "utf-8")
    (t,) = load_triplets(path)
    assert t.negatives == ("A", "B") and t.query_span == "spill the beans"


def test_metrics_match_hand_values():
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"d": 1, "e": 1, "f": 1}}
    run = {
        "q1": [("a", 0.9), ("x", 0.8), ("b", 0.7), ("y", 0.6)],  # R=2: 1/2; DCG 1 + 1/log2(4)
        "q2": [("x", 0.9), ("c", 0.5)],  # R=1: 0; DCG 1/log2(3)
        "q3": [("d", 0.9), ("e", 0.8), ("f", 0.7)],  # perfect
    }
    usage = {"q1": "literal", "q2": "idiomatic", "q3": "idiomatic"}
    ndcg1 = (1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    ndcg2 = 1 / math.log2(3)
    m = r_precision_and_ndcg10(qrels, run, usage)
    assert m["r_precision"] == pytest.approx(100 * 1.5 / 3, abs=1e-4)
    assert m["ndcg@10"] == pytest.approx(100 * (ndcg1 + ndcg2 + 1) / 3, abs=1e-4)
    assert m["literal"] == pytest.approx({"r_precision": 50.0, "ndcg@10": 100 * ndcg1}, abs=1e-4)
    assert m["idiomatic"] == pytest.approx({"r_precision": 50.0, "ndcg@10": 100 * (ndcg2 + 1) / 2}, abs=1e-4)
    assert set(m) == {"r_precision", "ndcg@10", "literal", "idiomatic"}
    # the TREC file round-trips the ranking
    assert read_trec_run(trec_run(run)) == run


RANX_REFERENCE = """
import json, sys
from ranx import Qrels, Run, evaluate
qrels, run = json.load(sys.stdin)
print(json.dumps(evaluate(Qrels(qrels), Run(run), ["r-precision", "ndcg@10"], make_comparable=True)))
"""


def ranx_reference(qrels: dict, run: dict) -> dict[str, float]:
    """ranx's R-Precision and nDCG@10, in a child process with numba's JIT off: ranx's own Python code, run by
    the interpreter (the JIT compile costs 20 s to a minute in every fresh process; these 60 queries take 5 s)."""
    judged = {q: dict(docs) or {"__none__": 1.0} for q, docs in run.items()}
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", RANX_REFERENCE],
        input=json.dumps([qrels, judged]),
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def test_metrics_equal_ranx_on_random_runs():
    """idiomkit computes the two metrics itself; on random runs, with unjudged documents, more than 10 relevant
    documents and empty runs, the numbers are ranx's."""
    import random

    rng = random.Random(7)
    qrels, run = {}, {}
    for i in range(60):
        docs = [f"d{j}" for j in range(40)]
        qrels[f"q{i}"] = dict.fromkeys(rng.sample(docs, rng.randint(1, 14)), 1)
        ranked = rng.sample(docs + ["unjudged1", "unjudged2"], rng.randint(0, 30))
        run[f"q{i}"] = [(doc, float(len(ranked) - k)) for k, doc in enumerate(ranked)]
    ours = r_precision_and_ndcg10(qrels, run)
    ref = ranx_reference(qrels, run)
    assert any(not docs for docs in run.values()) and max(len(d) for d in qrels.values()) > 10
    assert ours["r_precision"] == pytest.approx(100 * ref["r-precision"], abs=1e-4)
    assert ours["ndcg@10"] == pytest.approx(100 * ref["ndcg@10"], abs=1e-4)


def test_top_k_composition_counts_what_fills_each_querys_top_k(tmp_path):
    write_split(tmp_path)
    split = load_idiolink(tmp_path, "test")
    run = {
        "q_01_lit": [("01_lit_1", 0.9), ("01_idiom_1", 0.8)],
        "q_02_lit": [("02_lit_1", 0.9), ("02_lit_2", 0.8)],
        "q_01_idiom": [("01_lit_2", 0.9), ("02_idiom_1", 0.8), ("01_sim_1", 0.1)],
    }
    shares = top_k_composition(split, run, k=2)
    assert shares["literal"] == {"same-PIE literal": 0.75, "same-PIE idiomatic": 0.25}
    assert shares["idiomatic"] == {"same-PIE literal": 0.5, "other-PIE idiomatic": 0.5}  # q_02_idiom has no run


def test_metrics_follow_given_order_on_ties():
    qrels = {"q": {"b": 1}}
    assert r_precision_and_ndcg10(qrels, {"q": [("b", 1.0), ("a", 1.0)]})["ndcg@10"] == 100.0
    assert r_precision_and_ndcg10(qrels, {"q": [("a", 1.0), ("b", 1.0)]})["ndcg@10"] < 100.0


def test_query_modes_offsets(tmp_path):
    write_split(tmp_path)
    queries = load_idiolink(tmp_path, "test").queries
    for mode in ("span", "instruction+span"):
        texts, spans = query_inputs(queries, mode)
        assert all(t[s:e] == q.span_text for t, (s, e), q in zip(texts, spans, queries, strict=True))
    texts, spans = query_inputs(queries, "instruction")
    assert spans is None
    assert texts[0].startswith(
        "Instruct: Based on the literal/idiomatic usage of the span 'spill the beans' in the query"
    )
    assert texts[0].endswith("\nQuery: " + queries[0].sentence)
    with pytest.raises(ValueError, match="unknown query mode"):
        query_inputs(queries, "tokens")


def test_bm25_ranks_exact_match_first(tmp_path):
    docs = DOCS + [
        rec(
            "03_lit_1",
            "Nobody expected the intern to spill the beans.",
            "spill the beans",
            "spill the beans",
            "literal",
        )
    ]
    write_split(tmp_path, docs=docs)
    split = load_idiolink(tmp_path, "test")
    for method in ("lucene", "okapi"):
        run = bm25_search(split, "sentence", method=method)
        assert run["q_01_idiom"][0][0] == "03_lit_1", method  # the document identical to the query
    span_run = bm25_search(split, "span")
    top5 = {d for d, _ in span_run["q_02_lit"][:3]}
    assert top5 == {"02_lit_1", "02_lit_2", "02_idiom_1"}  # the three documents containing "break the ice"


def test_evaluate_bm25_writes_named_result_and_run(tmp_path):
    from idiomkit.api import evaluate

    write_split(tmp_path / "data")
    ev = evaluate("idiolink", "bm25", data_dir=tmp_path / "data", results_dir=tmp_path / "res", query_mode="span")
    assert ev.path == tmp_path / "res" / "idiolink-test" / "bm25__zero-shot__span__seed0.json"
    record = json.loads(ev.path.read_text())
    assert record["params"]["query_mode"] == "span" and record["params"]["split"] == "test"
    assert set(record["metrics"]) == {"r_precision", "ndcg@10", "literal", "idiomatic"}
    run = read_trec_run(read_prediction(ev.path.with_suffix(".run.trec.gz")))
    assert set(run) == {q["id"] for q in QUERIES} and all(len(r) == 10 for r in run.values())


def test_usage_rerank_moves_agreeing_usage_by_hand_values():
    import numpy as np

    from idiomkit.methods.idiolink.usage_rerank import figurative_labels, usage_rerank

    scores = np.array([[0.50, 0.48], [0.50, 0.48]])
    p_query = np.array([0.9, 0.1])  # u = 0.8, -0.8
    p_doc = np.array([0.2, 1.0])  # u = -0.6, 1.0
    out = usage_rerank(scores, p_query, p_doc, weight=0.1)
    assert out == pytest.approx(np.array([[0.50 - 0.048, 0.48 + 0.08], [0.50 + 0.048, 0.48 - 0.08]]))
    assert list(np.argmax(out, axis=1)) == [1, 0]  # the figurative query now prefers the figurative document
    assert usage_rerank(scores, p_query, p_doc, 0.0) == pytest.approx(scores)
    docs = [SimpleNamespace(usage=d["usage"]) for d in DOCS]
    assert list(figurative_labels(docs)) == [0, 0, 1, 1, 1, 0, 0, 1, 1, 1]


@pytest.mark.parametrize(
    ("text", "pie", "found"),
    [
        ("They took the voters for a ride last year.", "take someone for a ride", "took the voters for a ride"),
        ("She spilled the beans at lunch.", "spill the beans", "spilled the beans"),
        ("He made tracks before dawn.", "make tracks", "made tracks"),
        ("Nobody lifted a finger to help.", "lift a finger", "lifted a finger"),
        ("It was on one's mind.", "on one's mind", "on one's mind"),
        ("You must be out of his mind.", "out of your mind", "out of his mind"),  # pronouns stand in for "your"
        ("It was child's play.", "child's play", "child's play"),
        ("He is behind the bars now.", "behind bars", "behind the bars"),  # one article may be inserted
        ("That rings the bell.", "ring a bell", "rings the bell"),  # articles are interchangeable
        ("She is going places.", "go places", "going places"),
        ("The beans were spilled.", "spill the beans", None),  # the PIE's words, not in its order
        ("She revealed the secret.", "spill the beans", None),
    ],
)
def test_locate_pie_finds_inflected_and_placeholder_forms(text, pie, found):
    from idiomkit.methods.idiolink.usage_rerank import locate_pie

    span = locate_pie(text, pie)
    assert (text[span[0] : span[1]] if span else None) == found


def test_classifier_usage_signs_read_the_querys_pie_in_each_document(tmp_path, monkeypatch):
    import numpy as np

    from idiomkit.methods.idiolink.usage_rerank import ClassifierUsageReranker

    write_split(tmp_path, "test")
    split = load_idiolink(tmp_path, "test")
    p_figurative = {
        "q_01_lit": 0.1,
        "q_01_idiom": 0.8,
        "q_02_lit": 0.3,
        "q_02_idiom": 0.9,
        "01_lit_1": 0.2,
        "01_lit_2": 0.6,
        "01_idiom_1": 0.9,
        "02_lit_1": 0.1,
        "02_lit_2": 0.2,
        "02_idiom_1": 0.7,
    }
    seen = []

    def stub(examples):
        seen.extend((ex.id, ex.mwe) for ex in examples)
        return np.array([p_figurative[ex.id] for ex in examples])

    reranker = ClassifierUsageReranker(decider=None)
    monkeypatch.setattr(reranker, "figurative_probability", stub)
    signs = reranker.usage_signs(split)
    assert signs.shape == (len(QUERIES), len(DOCS))
    u = {k: 2 * p - 1 for k, p in p_figurative.items()}
    # q_01_idiom (spill the beans) x 01_lit_2: both decisions read "spill the beans"
    assert signs[1, 1] == pytest.approx(u["q_01_idiom"] * u["01_lit_2"])
    # documents without the query's PIE (the other PIE, simplification, sense) get 0
    assert list(signs[1, 3:]) == [0.0] * 7 and list(signs[2, :5]) == [0.0] * 5
    assert ("02_lit_1", "break the ice") in seen and not any(doc.startswith(("01_s", "02_s")) for doc, _ in seen)
    acc = reranker.accuracy(split)
    # queries: all four right; PIE-bearing documents: 01_lit_2 (0.6) and none else wrong -> 5 of 6
    assert acc == {"queries": 1.0, "documents": round(5 / 6, 4), "documents_located": 1.0}
    reranker.weight = 0.1
    scores = np.zeros_like(signs)
    assert reranker.rerank(None, split, scores) == pytest.approx(0.1 * signs)


def test_choose_weight_takes_the_best_mean_and_extends_the_grid_past_a_top_edge():
    from idiomkit.methods.idiolink.usage_rerank import choose_weight

    def peak_at(top):  # mean of the two metrics rises until ``top``, then falls
        return lambda w: {"r_precision": 50 - abs(w - top), "ndcg@10": 70 - abs(w - top)}

    weight, grid = choose_weight(peak_at(0.2), (0.0, 0.1, 0.2, 0.3))
    assert weight == 0.2 and list(grid) == ["weight=0.0", "weight=0.1", "weight=0.2", "weight=0.3"]
    weight, grid = choose_weight(peak_at(1.0), (0.0, 0.1, 0.5))  # edge 0.5 -> 1.0 -> 2.0 (worse): stop
    assert weight == 1.0 and list(grid)[3:] == ["weight=1.0", "weight=2.0"]
    weight, grid = choose_weight(peak_at(100.0), (0.0, 0.5), max_weight=4.0)  # capped
    assert weight == 4.0 and list(grid)[-1] == "weight=4.0" and len(grid) == 5
    weight, _ = choose_weight(lambda w: {"r_precision": 50.0, "ndcg@10": 70.0}, (0.0, 0.1))  # a tie: the smaller
    assert weight == 0.0


def test_cli_refuses_two_usage_rerankers():
    from idiomkit.errors import OptionError
    from idiomkit.tasks import get_task, parse_task_options

    task = get_task("idiolink")
    assert parse_task_options(task, []).usage_rerank is False
    assert parse_task_options(task, ["--usage-span-probe"]).usage_rerank == "span-probe"
    assert parse_task_options(task, ["--usage-classifier"]).usage_rerank == "classifier"
    assert parse_task_options(task, ["--usage-shared-classifier"]).usage_rerank == "shared-classifier"
    assert parse_task_options(task, ["--usage-rerank", "--twin-expansion"]).usage_rerank is True
    with pytest.raises(OptionError, match="give one of --usage-rerank, --usage-classifier"):
        parse_task_options(task, ["--usage-rerank", "--usage-span-probe"])


def test_jaccard_links_by_hand():
    from idiomkit.methods.idiolink.twins import jaccard_links

    texts = ["a b c d", "a b c e", "x y z", "A, b; c d!"]  # 0~1: 3/5; 0~3 identical word sets; 2 alone
    links = jaccard_links(texts, 0.5, block=2).toarray()  # blocks of 2 rows must not change anything
    assert links[0, 1] == pytest.approx(0.6) and links[1, 0] == pytest.approx(0.6)
    assert links[0, 3] == pytest.approx(1.0) and links[1, 3] == pytest.approx(0.6)
    assert links[0, 0] == 0.0 and not links[2].any() and not links[:, 2].any()
    assert jaccard_links(texts, 0.7).toarray()[0, 1] == 0.0  # below the threshold: dropped


def test_propagate_lifts_twins_of_top_documents_only():
    import numpy as np
    from scipy import sparse

    from idiomkit.methods.idiolink.twins import propagate

    links = sparse.csr_matrix(np.array([[0, 0.8, 0, 0], [0.8, 0, 0, 0.55], [0, 0, 0, 0], [0, 0.55, 0, 0]]))
    scores = np.array([[0.9, 0.1, 0.5, 0.2], [0.1, 0.2, 0.9, 0.3]])
    out = propagate(scores, links, k=1, tau=0.5, lam=0.95)
    # query 0: top-1 is doc 0, linked to doc 1 (J .8): 0.1 -> 0.95 * 0.9; doc 3 is linked to doc 1 only (no chain)
    assert out[0] == pytest.approx([0.9, 0.855, 0.5, 0.2])
    assert out[1] == pytest.approx(scores[1])  # top-1 (doc 2) has no twin
    assert propagate(scores, links, k=2, tau=0.6, lam=0.95)[0] == pytest.approx([0.9, 0.855, 0.5, 0.2])
    assert propagate(scores, links, k=0, tau=0.5, lam=0.95) == pytest.approx(scores)
    assert scores[0, 1] == 0.1  # input untouched
