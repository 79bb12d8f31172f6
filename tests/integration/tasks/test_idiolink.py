"""IdioLink: loader validation, relevance rule, metrics (hand values and ranx), query modes, BM25, task files.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/tasks/test_idiolink.py.
"""

import pytest
from helpers.idiolink import DOCS, QUERIES, write_split

from idiomkit.data.idiolink import load_idiolink
from idiomkit.embedding.cache import MEMORY_CACHE
from idiomkit.embedding.spans import encode_spans
from idiomkit.methods.idiolink.rerank import IdioLinkRerank
from idiomkit.tasks.idiolink import query_inputs


def test_real_test_split_counts(data_dir):
    split = load_idiolink(data_dir, "test")
    assert (len(split.documents), len(split.queries)) == (7500, 1500)
    sizes = {q.usage: len(r) for q, r in zip(split.queries, split.qrels().values(), strict=True)}
    assert sizes == {"literal": 40, "idiomatic": 60}


def test_evaluate_minilm_span_with_disk_cache(tmp_path, minilm):
    from idiomkit.tasks.idiolink import IdioLinkTask

    write_split(tmp_path)
    task = IdioLinkTask()
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


def test_usage_reranker_fits_on_train_selects_on_val_and_writes_usage_variant(tmp_path, minilm):
    from idiomkit.tasks.idiolink import IdioLinkTask

    for split in ("train", "val", "test"):
        write_split(tmp_path, split)
    task = IdioLinkTask()
    out = task.evaluate(
        minilm,
        data_dir=tmp_path,
        query_mode="sentence+span",
        rerank=IdioLinkRerank(usage_rerank=True),
        show_progress_bar=False,
        use_cache=False,
    )
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
            minilm,
            data_dir=tmp_path,
            split="val",
            query_mode="span",
            rerank=IdioLinkRerank(usage_rerank=True),
        )


def test_classifier_usage_reranker_trains_on_train_selects_on_val(tmp_path, minilm):
    from idiomkit.methods.idiolink.usage_rerank import CLASSIFIER_WEIGHT_GRID as WEIGHT_GRID
    from idiomkit.tasks.idiolink import IdioLinkTask

    for split in ("train", "val", "test"):
        write_split(tmp_path, split)
    task = IdioLinkTask()
    out = task.evaluate(
        minilm,
        data_dir=tmp_path,
        query_mode="span",
        rerank=IdioLinkRerank(usage_rerank="classifier", twin_expansion=True),
        show_progress_bar=False,
        use_cache=False,
    )
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


def test_span_probe_usage_decision_uses_the_models_own_span_embeddings(tmp_path, minilm):
    import numpy as np

    from idiomkit.methods.idiolink.usage_rerank import SpanProbeDecision, usage_examples
    from idiomkit.tasks.idiolink import IdioLinkTask
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
    out = IdioLinkTask().evaluate(
        minilm,
        data_dir=tmp_path,
        query_mode="span",
        rerank=IdioLinkRerank(usage_rerank="span-probe"),
        show_progress_bar=False,
        use_cache=False,
    )
    info = out.params["usage_rerank"]
    assert out.params["variant"] == "span-usagespan" and info["decision"] == "span-probe"
    assert info["span_probe"]["C"] in PROBE_C and info["train_data"] == {"idiolink_train": 10}


def test_shared_classifier_decision_adds_only_its_top_layers_and_leaves_the_encoder_alone(tmp_path, minilm):
    import torch

    from idiomkit.tasks.idiolink import IdioLinkTask

    for split in ("train", "val", "test"):
        write_split(tmp_path, split)
    before = {name: p.detach().clone() for name, p in minilm.named_parameters()}
    out = IdioLinkTask().evaluate(
        minilm,
        data_dir=tmp_path,
        query_mode="span",
        rerank=IdioLinkRerank(usage_rerank="shared-classifier"),
        show_progress_bar=False,
        use_cache=False,
    )
    assert out.params["variant"] == "span-usagesharedclf"
    assert all(torch.equal(before[name], p) for name, p in minilm.named_parameters())  # trained a copy
    layer = sum(p.numel() for p in minilm[0].auto_model.encoder.layer[0].parameters())
    head = 2 * (2 * 384) + 2  # linear head over [span; mean] -> 2 labels
    counts = out.params["usage_rerank"]["shared_classifier"]["parameters"]
    assert counts["classifier_adds"] == 4 * layer + head  # the top 4 of 6 layers + head; the rest is shared
    assert counts["total"] == counts["retrieval_encoder"] + counts["classifier_adds"] < 40_000_000


def test_twin_expansion_is_chosen_on_val_and_writes_twins_variant(tmp_path, minilm):
    from idiomkit.tasks.idiolink import IdioLinkTask

    for split in ("val", "test"):
        write_split(tmp_path, split)
    task = IdioLinkTask()
    out = task.evaluate(
        minilm,
        data_dir=tmp_path,
        query_mode="span",
        rerank=IdioLinkRerank(twin_expansion=True),
        show_progress_bar=False,
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
        minilm,
        data_dir=tmp_path,
        query_mode="span",
        rerank=IdioLinkRerank(usage_rerank=True, twin_expansion=True),
        show_progress_bar=False,
    )
    assert both.params["variant"] == "span-usage-twins"
    assert {"usage_rerank", "twin_expansion"} <= set(both.params)
