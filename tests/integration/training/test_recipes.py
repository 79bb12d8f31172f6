"""Comparison recipes: examples built from hand-made groups, spread batching, STS data, multi-stream phases,
LoRA (merged on save), result labels.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/training/test_recipes.py.
"""

import math
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from helpers.training import HAND

from idiomkit.data.sts import load_sts
from idiomkit.training import run_label
from idiomkit.training.recipes.semeval2b import labelled_pair_examples, positive_examples, triplet_examples
from idiomkit.training.relabel import group_pairs


class Cfg:
    mwe_tokens = False
    max_seq_length = 128


@pytest.fixture(scope="module")
def tokenizer_model():
    from idiomkit.models import load_model

    return load_model("minilm")


def decoded(model, examples):
    tok = model.tokenizer
    return [
        tuple(tok.decode(col[i], skip_special_tokens=True).replace(" ' ", "'") for col in examples.columns)
        for i in range(len(examples))
    ]


def test_triplets_positives_and_labelled_pairs_from_hand_groups(tokenizer_model):
    groups = group_pairs(HAND)
    trip = triplet_examples(tokenizer_model, groups, Cfg)
    assert decoded(tokenizer_model, trip) == [
        ("ruth's home run record.", "ruth's baseball run record.", "ruth's house run record."),
        ("the small fry win.", "the insignificant win.", "the little fry win."),
        ("the small fry win.", "the insignificant win.", "the little kid win."),
    ]
    assert trip.groups == [0, 1, 1] and not trip.spread_groups
    pos = positive_examples(tokenizer_model, groups, Cfg)
    assert decoded(tokenizer_model, pos) == [
        ("ruth's home run record.", "ruth's baseball run record."),
        ("the small fry win.", "the insignificant win."),
    ]
    assert pos.spread_groups
    pairs = labelled_pair_examples(tokenizer_model, groups, Cfg)
    assert pairs.labels == [1.0, 0.0, 1.0, 0.0, 0.0]
    assert decoded(tokenizer_model, pairs)[1] == ("ruth's home run record.", "ruth's house run record.")
    # otherID: each row also carries the correct paraphrase its similarity is graded against (a correct row: itself)
    three = labelled_pair_examples(tokenizer_model, groups, Cfg, other_id=True)
    assert (three.target_columns, pairs.target_columns) == (1, 0)
    assert three.labels == pairs.labels and [row[:2] for row in decoded(tokenizer_model, three)] == decoded(
        tokenizer_model, pairs
    )
    assert [row[2] for row in decoded(tokenizer_model, three)] == [
        "ruth's baseball run record.",
        "ruth's baseball run record.",
        "the insignificant win.",
        "the insignificant win.",
        "the insignificant win.",
    ]


def test_sts_loaders_normalise_scores(data_dir):
    train = load_sts(data_dir, "train")
    assert len(train) == 5749 + 6500
    assert {p.source for p in train} == {"stsb-en", "assin2"}
    assert min(p.score for p in train) == 0.0 and max(p.score for p in train) == 1.0


SMALL = {
    "model": "minilm",
    "epochs": 1,
    "batch_size": 8,
    "limit_groups": 12,
    "checkpoint_every": 2,
    "max_seq_length": 32,
}


def test_two_stream_recipe_resumes_exactly(tmp_path):
    from helpers import full_and_resumed

    from idiomkit.training import train

    small = {**SMALL, "limit_groups": 20}  # enough 2B rows for 5 steps of 8 in one epoch
    full, resumed = full_and_resumed(train, tmp_path, 3, "adaptive-triplet-sts", **small, max_steps=5)
    assert resumed.state.step == full.state.step == 5
    assert full.counts["2b+sts/sts_rows"] == 80  # limit_groups * 4 STS pairs
    a = torch.load(tmp_path / "full" / "checkpoint.pt", weights_only=True)["model"]
    b = torch.load(tmp_path / "cut" / "checkpoint.pt", weights_only=True)["model"]
    assert all(torch.equal(v, b[k]) for k, v in a.items())


@pytest.mark.parametrize("plain", ["adaptive-triplet", "cosent", "contrastive"])
def test_sts_weight_zero_reduces_sts_mixing_to_the_plain_recipe(tmp_path, plain):
    """With dropout off (no random masks) and the STS loss weighted 0, <recipe>-sts takes exactly the steps of
    <recipe>: the weight really scales the STS stream's gradient; weight 1 moves the weights elsewhere."""
    from idiomkit.training import train

    runs = {}
    for name, recipe, weight in [("plain", plain, 1.0), ("w0", plain + "-sts", 0.0), ("w1", plain + "-sts", 1.0)]:
        train(
            recipe,
            **SMALL,
            max_steps=2,
            lr=1e-3,
            dropout=0.0,
            sts_weight=weight,
            val_sts=False,
            output_dir=tmp_path / name,
        )
        runs[name] = torch.load(tmp_path / name / "checkpoint.pt", weights_only=True)["model"]
    close = [torch.allclose(v, runs["w0"][k], atol=1e-6) for k, v in runs["plain"].items()]
    assert all(close)
    assert not all(torch.allclose(v, runs["w1"][k], atol=1e-6) for k, v in runs["plain"].items())
    assert (
        run_label("adaptive-triplet-sts", {"mwe_tokens": True, "sts_weight": 0.1}) == "adaptive-triplet-mwe-sts-stsw0.1"
    )
    assert (
        run_label("mnrl", {"mwe_tokens": True, "sts_weight": 0.1}) == "mnrl"
    )  # no STS stream: the weight does not apply


def test_lora_trains_adapters_only_and_saves_a_plain_model(tmp_path):
    from sentence_transformers import SentenceTransformer

    from idiomkit.models import load_model
    from idiomkit.training import train

    losses = []
    train(
        "cosine",
        **SMALL,
        max_steps=4,
        lr=5e-3,
        lora_rank=4,
        output_dir=tmp_path / "lora",
        progress=lambda s, v: losses.append(v),
    )
    assert all(math.isfinite(v) for v in losses)
    base_model = load_model("minilm", device="cpu")
    base = base_model.state_dict()
    saved = SentenceTransformer(str(tmp_path / "lora"), device="cpu")
    assert saved.max_seq_length == base_model.max_seq_length  # the merged copy reads as far as the base (#44)
    weights = saved.state_dict()
    assert not any("lora" in k for k in weights)
    changed = [k for k in base if "attention.self.query.weight" in k and not torch.equal(base[k], weights[k])]
    assert changed  # adapters were merged into the attention weights
    layer_norm = [k for k in base if "LayerNorm.weight" in k]
    assert all(torch.equal(base[k], weights[k]) for k in layer_norm)  # frozen base parameters did not move


def test_dropout_override_makes_training_forwards_deterministic_and_keeps_the_saved_config():
    from idiomkit.models import load_model
    from idiomkit.training.setup import set_dropout

    model = load_model("minilm", device="cpu")
    model.train()
    features = model.tokenize(["he kicked the bucket", "she spilled the beans"])

    def embed():
        return model(dict(features))["sentence_embedding"]

    assert not torch.allclose(embed(), embed())  # the model's own dropout samples masks
    assert set_dropout(model, 0.0) > 0
    assert torch.equal(embed(), embed())
    assert model[0].auto_model.config.hidden_dropout_prob == 0.1  # the saved model keeps its own dropout
    with pytest.raises(ValueError, match="dropout must be in"):
        set_dropout(model, 1.0)


class IdioCfg:
    data_dir = None
    limit_groups = 6
    max_seq_length = 128
    options = SimpleNamespace(span_queries=True)  # the IdioLink recipes' own options


def test_span_aware_training_embeddings_equal_late_chunking(tokenizer_model):
    """The query column pooled through the span mask equals encode_spans (inference-time late chunking)."""
    from idiomkit.embedding.spans import encode_spans, install_span_pooling
    from idiomkit.models import load_model
    from idiomkit.training.examples import collate
    from idiomkit.training.recipes.idiolink import idiolink_infonce_examples, idiolink_triplets

    model = load_model("minilm", pooling="last2")
    examples = idiolink_infonce_examples(model, None, IdioCfg)
    assert examples.n_columns == 7 and examples.spread_groups
    triplets = idiolink_triplets(IdioCfg)
    spans = [(t.query.find(t.query_span), t.query.find(t.query_span) + len(t.query_span)) for t in triplets]
    handle = install_span_pooling(model)
    features, _ = collate(model, examples, list(range(len(examples))))
    with torch.no_grad():
        trained_view = model(features[0])["sentence_embedding"].cpu().numpy()
        doc_view = model(features[1])["sentence_embedding"].cpu().numpy()  # no span mask: whole sentence
    handle.remove()
    reference = encode_spans(model, [t.query for t in triplets], spans)
    assert np.allclose(trained_view, reference, atol=1e-5)
    assert np.allclose(doc_view, model.encode([t.positive for t in triplets]), atol=1e-5)


def test_idiolink_labels_follow_relevance_classes(tokenizer_model):
    from idiomkit.data.idiolink import load_idiolink
    from idiomkit.settings import default_data_dir
    from idiomkit.training.recipes.idiolink import idiolink_labelled_examples, idiolink_triplets

    examples = idiolink_labelled_examples(tokenizer_model, None, IdioCfg)
    triplets = idiolink_triplets(IdioCfg)
    docs = {d.sentence: d for d in load_idiolink(default_data_dir(), "train").documents}
    assert len(examples) == 7 * len(triplets) and examples.groups[:7] == [0] * 7
    for k, t in enumerate(triplets):
        labels = examples.labels[7 * k : 7 * k + 7]
        assert labels[0] == labels[1]  # query and its positive share the relevance class
        for n, label in zip(t.negatives, labels[2:], strict=True):
            d = docs[n]
            same = d.idiom == t.query_idiom and (d.usage == "literal") == (t.query_usage == "literal")
            assert (label == labels[0]) == same


def test_index_tuples_follow_the_paper_recipe_on_train_documents_only():
    from idiomkit.data.idiolink import load_idiolink
    from idiomkit.settings import default_data_dir
    from idiomkit.training.recipes.idiolink import index_tuples

    class Cfg:
        data_dir, limit_groups, seed = None, None, 0

    docs = {d.sentence: d for d in load_idiolink(default_data_dir(), "train").documents}
    tuples = index_tuples(Cfg)
    assert len(tuples) == sum(d.usage in ("literal", "idiomatic") for d in docs.values())
    literal = lambda usage: usage == "literal"  # noqa: E731
    for t in tuples[::37]:
        q, p = docs[t.query], docs[t.positive]
        assert p.idiom == q.idiom and literal(p.usage) == literal(q.usage) and t.positive != t.query
        soft, hard = [docs[n] for n in t.negatives[:3]], [docs[n] for n in t.negatives[3:]]
        assert all(n.idiom != q.idiom for n in soft)
        assert all(n.idiom == q.idiom and literal(n.usage) != literal(q.usage) for n in hard)
    assert index_tuples(Cfg) == tuples  # seeded


def test_idiom_meaning_stream_never_sees_an_idiolink_val_or_test_pie(tokenizer_model):
    from idiomkit.data.definitions import idiom_key
    from idiomkit.data.idiolink import load_idiolink
    from idiomkit.settings import default_data_dir
    from idiomkit.training.recipes import build_phases
    from idiomkit.training.recipes.pairs import decontaminated_idioms, idiom_data

    class Cfg:
        data_dir, limit_groups, seed, max_seq_length, epochs = None, None, 0, 64, 1
        options = SimpleNamespace(span_queries=False)

    idioms, removed = decontaminated_idioms(Cfg)
    pies = {idiom_key(d.idiom) for s in ("val", "test") for d in load_idiolink(default_data_dir(), s).documents}
    data = idiom_data(str(default_data_dir()))
    candidates = {i.key for s in ("train", "val") for i in data.split(s)}
    assert removed == len(candidates & pies) > 0  # e.g. "behind bars" has a definition and is a test PIE
    assert not {i.key for i in idioms} & pies
    assert not {i.key for i in idioms} & {i.key for i in data.split("heldout")}

    Cfg.limit_groups = 12
    (phase,) = build_phases("idiolink-infonce-meaning", tokenizer_model, None, Cfg)
    infonce, meaning = phase.streams
    assert (infonce.examples.name, meaning.examples.name) == ("idiolink-triplets", "idiom-meaning")
    assert meaning.examples.spread_groups and meaning.examples.n_columns == 2
    assert type(meaning.loss).__name__ == "MultipleNegativesRankingLoss" and meaning.loss.scale == 20.0


def test_paraphrase_anchors_join_the_sts_stream_at_score_1(tokenizer_model, monkeypatch):
    from idiomkit.data.sts import StsPair
    from idiomkit.training.recipes import semeval2b

    pair = StsPair("A man plays a guitar.", "A man is playing a guitar.", 0.8, "stsb-en", "EN")
    monkeypatch.setattr(semeval2b, "sts_split", lambda cfg: ([pair], []))
    anchors = semeval2b.paraphrase_anchors(group_pairs(HAND), Cfg())
    plain = semeval2b.sts_examples(tokenizer_model, Cfg())
    anchored = semeval2b.sts_examples(tokenizer_model, Cfg(), anchors)
    assert plain.labels == [0.8] and anchored.labels == [0.8, 1.0, 1.0] and anchored.groups == [0, 1, 2]
    assert anchored.columns[0][:1] == plain.columns[0] and len(anchored.columns[1]) == 3
