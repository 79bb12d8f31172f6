"""IdioLink: loader validation, relevance rule, metrics (hand values and ranx), query modes, BM25, task files."""

import json
import math
from pathlib import Path
from types import SimpleNamespace

import pytest

from idiomkit.data.errors import DataError
from idiomkit.data.idiolink import build_qrels, load_idiolink, load_triplets
from idiomkit.embedding.cache import MEMORY_CACHE
from idiomkit.embedding.spans import encode_spans
from idiomkit.methods.idiolink.rerank import IdioLinkRerank
from idiomkit.metrics.retrieval import r_precision_and_ndcg10
from idiomkit.metrics.trec import read_trec_run, trec_run
from idiomkit.results import read_prediction
from idiomkit.tasks.idiolink import bm25_search, query_inputs, top_k_composition


def rec(id, sentence, idiom, span, usage, subject="Food", is_gold=False):
    return {
        "id": id,
        "sentence": sentence,
        "idiom": idiom,
        "span": span,
        "subject": subject,
        "usage": usage,
        "is_gold": is_gold,
    }


DOCS = [
    rec(
        "01_lit_1",
        "He had to spill the beans all over the kitchen floor.",
        "spill the beans",
        "spill the beans",
        "literal",
    ),
    rec("01_lit_2", "Do not spill the beans when you carry the pot.", "spill the beans", "spill the beans", "literal"),
    rec(
        "01_idiom_1",
        "She finally decided to spill the beans about the merger.",
        "spill the beans",
        "spill the beans",
        "idiomatic",
    ),
    rec(
        "01_sim_1",
        "She finally decided to reveal the secret about the merger.",
        "spill the beans",
        "reveal the secret",
        "simplification",
    ),
    rec("01_sense_1", "The clerk disclosed the confidential plan to reporters.", "spill the beans", [10, 19], "sense"),
    rec("02_lit_1", "The sailors had to break the ice around the hull.", "break the ice", "break the ice", "literal"),
    rec("02_lit_2", "A hammer can break the ice on the pond.", "break the ice", "break the ice", "literal"),
    rec("02_idiom_1", "A joke helped break the ice at the meeting.", "break the ice", "break the ice", "idiomatic"),
    rec(
        "02_sim_1",
        "A joke helped ease the tension at the meeting.",
        "break the ice",
        "ease the tension",
        "simplification",
    ),
    rec(
        "02_sense_1", "Games help strangers feel comfortable at parties.", "break the ice", "feel comfortable", "sense"
    ),
]
QUERIES = [
    rec("q_01_lit", "Careful, you will spill the beans on the table.", "spill the beans", "spill the beans", "literal"),
    rec(
        "q_01_idiom",
        "Nobody expected the intern to spill the beans.",
        "spill the beans",
        "spill the beans",
        "idiomatic",
    ),
    rec(
        "q_02_lit", "The icebreaker ship can break the ice in the harbour.", "break the ice", "break the ice", "literal"
    ),
    rec(
        "q_02_idiom",
        "He told a story to break the ice with the new team.",
        "break the ice",
        "break the ice",
        "idiomatic",
    ),
]


def write_split(root: Path, split="test", docs=None, queries=None, raw_docs=None) -> Path:
    base = root / "idiolink" / split
    base.mkdir(parents=True, exist_ok=True)
    (base / "indexes.json").write_text(raw_docs if raw_docs is not None else json.dumps(docs or DOCS), "utf-8")
    (base / "queries.json").write_text(json.dumps(queries or QUERIES), "utf-8")
    return base


# ---------------------------------------------------------------- loader


def test_loader_offsets_and_qrels(tmp_path):
    write_split(tmp_path)
    split = load_idiolink(tmp_path, "test")
    assert len(split.documents) == 10 and len(split.queries) == 4
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


def test_real_test_split_counts(data_dir):
    split = load_idiolink(data_dir, "test")
    assert (len(split.documents), len(split.queries)) == (7500, 1500)
    sizes = {q.usage: len(r) for q, r in zip(split.queries, split.qrels().values(), strict=True)}
    assert sizes == {"literal": 40, "idiomatic": 60}


# ---------------------------------------------------------------- metrics


def test_metrics_match_hand_values_and_ranx():
    from ranx import Qrels, Run, evaluate

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
    ref = evaluate(Qrels(qrels), Run({q: dict(d) for q, d in run.items()}), ["r-precision", "ndcg@10"])
    assert m["r_precision"] == pytest.approx(100 * ref["r-precision"], abs=1e-4)
    assert m["ndcg@10"] == pytest.approx(100 * ref["ndcg@10"], abs=1e-4)
    assert set(m) == {"r_precision", "ndcg@10", "literal", "idiomatic"}
    # the TREC file round-trips the ranking
    assert read_trec_run(trec_run(run)) == run


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


# ---------------------------------------------------------------- queries, BM25, task


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


def test_evaluate_minilm_span_with_disk_cache(tmp_path, minilm):
    from idiomkit.tasks.idiolink import IdioLinkTest

    write_split(tmp_path)
    task = IdioLinkTest()
    out = task.evaluate(
        minilm, data_dir=tmp_path, query_mode="span", cache_dir=tmp_path / "cache", show_progress_bar=False
    )
    assert len(list((tmp_path / "cache").glob("*.npy"))) == 1
    MEMORY_CACHE.clear()
    again = task.evaluate(
        minilm, data_dir=tmp_path, query_mode="span", cache_dir=tmp_path / "cache", show_progress_bar=False
    )
    assert again.metrics == out.metrics and out.params["variant"] == "span"
    assert out.metrics["ndcg@10"] > 50  # the idiom's own documents come first for this toy index


def test_sentence_plus_span_scores_are_the_mean_of_both_cosines(tmp_path, minilm):
    from idiomkit.tasks.idiolink import query_embeddings

    write_split(tmp_path)
    queries = load_idiolink(tmp_path, "test").queries
    sentence, span, fused = (query_embeddings(minilm, queries, m) for m in ("sentence", "span", "sentence+span"))
    docs = span[::-1]  # any unit vectors
    ratio = (fused @ docs.T) / ((sentence @ docs.T + span @ docs.T) / 2)
    assert ratio == pytest.approx(ratio[:, :1].repeat(ratio.shape[1], axis=1), rel=1e-5)  # same ranking per query
    assert (ratio >= 1 - 1e-6).all()  # |s + p| / 2 <= 1, so the fused score is the mean scaled up
    assert abs(fused - span).max() > 1e-3 and abs(fused - sentence).max() > 1e-3
    with pytest.raises(ValueError, match="unknown query mode"):
        query_inputs(queries, "sentence+span")  # fused modes have no single input


# ---------------------------------------------------------------- usage re-ranking


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


def test_usage_reranker_fits_on_train_selects_on_val_and_writes_usage_variant(tmp_path, minilm):
    from idiomkit.tasks.idiolink import IdioLinkTest

    for split in ("train", "val", "test"):
        write_split(tmp_path, split)
    task = IdioLinkTest()
    out = task.evaluate(
        minilm, data_dir=tmp_path, query_mode="sentence+span",
        rerank=IdioLinkRerank(usage_rerank=True), show_progress_bar=False,
        use_cache=False,
    )  # fmt: skip
    info = out.params["usage_rerank"]
    assert out.params["variant"] == "sentence+span-usage"
    assert info["train_examples"] == len(DOCS) + len(QUERIES) and info["selection_split"] == "val"
    assert len(info["val_grid"]) == 3 * 6 and info["val_ndcg@10"] == max(info["val_grid"].values())
    assert info["val_ndcg@10"] >= info["val_ndcg@10_without"]
    plain = task.evaluate(minilm, data_dir=tmp_path, query_mode="sentence+span", show_progress_bar=False)
    if info["weight"] == 0.0:
        assert out.metrics == plain.metrics
    with pytest.raises(ValueError, match="not bm25"):
        task.evaluate("bm25", data_dir=tmp_path, rerank=IdioLinkRerank(usage_rerank=True))
    with pytest.raises(ValueError, match="on test, not val"):
        task.evaluate(
            minilm, data_dir=tmp_path, split="val", query_mode="span",
            rerank=IdioLinkRerank(usage_rerank=True),
        )


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
    p_figurative = {"q_01_lit": 0.1, "q_01_idiom": 0.8, "q_02_lit": 0.3, "q_02_idiom": 0.9,
                    "01_lit_1": 0.2, "01_lit_2": 0.6, "01_idiom_1": 0.9, "02_lit_1": 0.1, "02_lit_2": 0.2,
                    "02_idiom_1": 0.7}  # fmt: skip
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


def test_classifier_usage_reranker_trains_on_train_selects_on_val(tmp_path, minilm):
    from idiomkit.methods.idiolink.usage_rerank import CLASSIFIER_WEIGHT_GRID as WEIGHT_GRID
    from idiomkit.tasks.idiolink import IdioLinkTest

    for split in ("train", "val", "test"):
        write_split(tmp_path, split)
    task = IdioLinkTest()
    out = task.evaluate(
        minilm, data_dir=tmp_path, query_mode="span",
        rerank=IdioLinkRerank(usage_rerank="classifier", twin_expansion=True),
        show_progress_bar=False, use_cache=False,
    )  # fmt: skip
    info = out.params["usage_rerank"]
    assert out.params["variant"] == "span-usageclf-twins"
    assert info["train_data"] == {"idiolink_train": 10}  # 4 queries + 6 literal/idiomatic documents; no 2A here
    assert info["selection_split"] == "val" and info["weight"] in WEIGHT_GRID
    assert list(info["val_grid"])[: len(WEIGHT_GRID)] == [f"weight={w}" for w in WEIGHT_GRID]
    mean = {key: (v["r_precision"] + v["ndcg@10"]) / 2 for key, v in info["val_grid"].items()}
    assert (info["val"]["r_precision"] + info["val"]["ndcg@10"]) / 2 == max(mean.values())
    assert set(info["val_accuracy"]) == {"queries", "documents", "documents_located"}
    with pytest.raises(ValueError, match="unknown usage re-ranker 'oracle'"):
        IdioLinkRerank(usage_rerank="oracle")


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


def test_span_probe_usage_decision_uses_the_models_own_span_embeddings(tmp_path, minilm):
    import numpy as np

    from idiomkit.methods.idiolink.usage_rerank import SpanProbeDecision, usage_examples
    from idiomkit.tasks.idiolink import IdioLinkTest
    from idiomkit.tasks.semeval2a import PROBE_C

    for split in ("train", "val", "test"):
        write_split(tmp_path, split)
    examples = usage_examples(load_idiolink(tmp_path, "train").documents)
    x = SpanProbeDecision._features(minilm, examples, batch_size=8)
    span = encode_spans(minilm, [ex.target for ex in examples], [ex.span for ex in examples], batch_size=8)
    dim = minilm.get_embedding_dimension()
    assert x.shape == (len(examples), 2 * dim)  # [unit span; unit sentence]
    assert x[:, :dim] == pytest.approx(span / np.linalg.norm(span, axis=1, keepdims=True), abs=1e-5)
    assert np.linalg.norm(x[:, dim:], axis=1) == pytest.approx(1.0)
    out = IdioLinkTest().evaluate(
        minilm, data_dir=tmp_path, query_mode="span",
        rerank=IdioLinkRerank(usage_rerank="span-probe"), show_progress_bar=False,
        use_cache=False,
    )  # fmt: skip
    info = out.params["usage_rerank"]
    assert out.params["variant"] == "span-usagespan" and info["decision"] == "span-probe"
    assert info["span_probe"]["C"] in PROBE_C and info["train_data"] == {"idiolink_train": 10}


def test_shared_classifier_decision_adds_only_its_top_layers_and_leaves_the_encoder_alone(tmp_path, minilm):
    import torch

    from idiomkit.tasks.idiolink import IdioLinkTest

    for split in ("train", "val", "test"):
        write_split(tmp_path, split)
    before = {name: p.detach().clone() for name, p in minilm.named_parameters()}
    out = IdioLinkTest().evaluate(
        minilm, data_dir=tmp_path, query_mode="span",
        rerank=IdioLinkRerank(usage_rerank="shared-classifier"), show_progress_bar=False,
        use_cache=False,
    )  # fmt: skip
    assert out.params["variant"] == "span-usagesharedclf"
    assert all(torch.equal(before[name], p) for name, p in minilm.named_parameters())  # trained a copy
    layer = sum(p.numel() for p in minilm[0].auto_model.encoder.layer[0].parameters())
    head = 2 * (2 * 384) + 2  # linear head over [span; mean] -> 2 labels
    counts = out.params["usage_rerank"]["shared_classifier"]["parameters"]
    assert counts["classifier_adds"] == 4 * layer + head  # the top 4 of 6 layers + head; the rest is shared
    assert counts["total"] == counts["retrieval_encoder"] + counts["classifier_adds"] < 40_000_000


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


# ---------------------------------------------------------------- twin expansion


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


def test_twin_expansion_is_chosen_on_val_and_writes_twins_variant(tmp_path, minilm):
    from idiomkit.tasks.idiolink import IdioLinkTest

    for split in ("val", "test"):
        write_split(tmp_path, split)
    task = IdioLinkTest()
    out = task.evaluate(
        minilm, data_dir=tmp_path, query_mode="span",
        rerank=IdioLinkRerank(twin_expansion=True), show_progress_bar=False,
        use_cache=False,
    )
    info = out.params["twin_expansion"]
    assert out.params["variant"] == "span-twins" and info["selection_split"] == "val"
    assert len(info["val_grid"]) == 1 + 4 * 3 * 3  # k = 0 once, then k x tau x lambda
    mean = {key: (v["r_precision"] + v["ndcg@10"]) / 2 for key, v in info["val_grid"].items()}
    assert (info["val"]["r_precision"] + info["val"]["ndcg@10"]) / 2 == max(mean.values())
    plain = task.evaluate(minilm, data_dir=tmp_path, query_mode="span", show_progress_bar=False)
    if info["k"] == 0:
        assert out.metrics == plain.metrics
    else:  # the toy's near-duplicates are the idiomatic/simplification pairs (J = 7/11 and 6/10): an expansion
        assert info["tau"] <= 7 / 11  # that changes nothing ties with k = 0, and ties go to k = 0
    with pytest.raises(ValueError, match="not bm25"):
        task.evaluate("bm25", data_dir=tmp_path, rerank=IdioLinkRerank(twin_expansion=True))
    write_split(tmp_path, "train")
    both = task.evaluate(
        minilm, data_dir=tmp_path, query_mode="span", rerank=IdioLinkRerank(usage_rerank=True, twin_expansion=True),
        show_progress_bar=False,
    )
    assert both.params["variant"] == "span-usage-twins"
    assert {"usage_rerank", "twin_expansion"} <= set(both.params)
