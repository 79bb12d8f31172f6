"""AdMIRe subtask A: metrics, ranked triplet loss, loader quirks and errors, query inputs, folds.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/methods/test_admire.py.
"""

import numpy as np
import pytest
import torch
from helpers import tokenize_on
from helpers.admire import write_admire_tsv

from idiomkit.data.admire import load_admire, load_admire_file
from idiomkit.losses import RankedTripletLoss, ranked_triplet_loss


def test_ranked_triplet_module_matches_function(minilm):
    loss = RankedTripletLoss(minilm, margin=0.3)
    texts = ["a bad apple ruined the team", "a rotten person", "a rotten fruit", "a shiny car"]
    features = [tokenize_on(minilm, [t]) for t in texts]
    value = loss(features, None).detach()
    emb = torch.tensor(minilm.encode(texts))
    assert float(value) == pytest.approx(float(ranked_triplet_loss(emb[:1], emb[1:].unsqueeze(0), 0.3)), abs=1e-5)


def test_real_files_survive_crlf_and_escaped_newlines(data_dir):
    raw = (data_dir / "admire" / "en" / "subtask_a_train.tsv").read_bytes()
    assert b"\r\n" in raw and b"\\n" in raw  # the quirks are really there
    split = load_admire(data_dir, "train")
    assert len(split.items) == 70
    captions = [c for it in split.items for c in it.captions]
    assert not any("\\n" in c or "\r" in c or "\n" in c for c in captions)
    assert sum(it.sentence_type == "idiomatic" for it in split.items) == 39
    for it in split.items:
        assert sorted(it.gold) == sorted(it.images) and it.images[it.gold_indices[0]] == it.gold[0]
        assert it.sentence[it.span[0] : it.span[1]].lower().split()[0] == it.compound.lower().split()[0]
    xe = load_admire(data_dir, "xe")
    assert len(xe.items) == 100 and all(it.gold is None for it in xe.items)


def test_cnn_head_starts_at_zero_shot_span_embedding(minilm, tmp_path):
    from idiomkit.embedding.spans import encode_spans
    from idiomkit.methods.admire.query_encoder import QueryEncoder, RankConfig

    item = load_admire_file(write_admire_tsv(tmp_path))[0]
    encoder = QueryEncoder(minilm, RankConfig(mode="cnn", query_mode="span"))
    with torch.no_grad():
        got = encoder([item]).cpu().numpy()
    want = encode_spans(minilm, [item.sentence], [item.span])
    want = want / np.linalg.norm(want, axis=1, keepdims=True)
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_feature_similarities_match_plain_cosines(minilm, tmp_path):
    from idiomkit.embedding.encode import encode_texts
    from idiomkit.methods.admire.features import blank_compound, similarities
    from idiomkit.methods.admire.query_encoder import caption_embeddings

    item = load_admire_file(write_admire_tsv(tmp_path))[0]
    captions = caption_embeddings(minilm, [item])
    sims = similarities(minilm, [item], captions)
    assert all(x.shape == (1, 5) for x in (sims.ctx, sims.span, sims.lit, sims.mctx))
    for text, got in [(item.sentence, sims.ctx), (item.compound, sims.lit), (blank_compound(item), sims.mctx)]:
        q = encode_texts(minilm, [text])[0]
        want = captions[0] @ (q / np.linalg.norm(q))
        np.testing.assert_allclose(got[0], want, atol=1e-5)
    assert np.all(np.abs(sims.span) <= 1.0 + 1e-6)
