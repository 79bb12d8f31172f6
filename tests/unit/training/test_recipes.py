"""Comparison recipes: examples built from hand-made groups, spread batching, STS data, multi-stream phases,
LoRA (merged on save), result labels."""

from types import SimpleNamespace

import numpy as np
import pytest
import torch
from scipy.stats import spearmanr

from idiomkit.data.errors import DataError
from idiomkit.data.sts import StsPair, load_assin2, load_stsb
from idiomkit.tasks.sts import StsEvaluator
from idiomkit.training import run_label
from idiomkit.training.config import TrainConfig
from idiomkit.training.recipe_options import KeepRecipeOptions
from idiomkit.training.recipes import RECIPES, train_config
from idiomkit.training.sampler import grouped_length_batches


def test_spread_batches_never_put_a_group_twice_in_a_batch():
    rng = np.random.default_rng(0)
    groups = [int(g) for g in rng.integers(0, 12, size=200)]
    lengths = [int(x) for x in rng.integers(5, 60, size=200)]
    batches = grouped_length_batches(groups, lengths, 8, seed=3, epoch=1, spread=True)
    assert sorted(i for b in batches for i in b) == list(range(200))
    assert all(len(b) <= 8 and len({groups[i] for i in b}) == len(b) for b in batches)
    assert batches == grouped_length_batches(groups, lengths, 8, seed=3, epoch=1, spread=True)


def test_run_labels():
    assert run_label("adaptive-triplet", {"mwe_tokens": True}) == "adaptive-triplet-mwe"
    assert run_label("adaptive-triplet", {"mwe_tokens": False}) == "adaptive-triplet"
    assert run_label("adaptive-triplet-sts", {"mwe_tokens": True}) == "adaptive-triplet-mwe-sts"
    assert run_label("cosent-sts", {"mwe_tokens": True, "sts_weight": 0.5}) == "cosent-sts-stsw0.5"
    assert run_label("adaptive-triplet", {"mwe_tokens": True, "lora_rank": 16}) == "adaptive-triplet-mwe-lora"
    assert (
        run_label("mnrl", {"mwe_tokens": True}) == "mnrl" and run_label("mnrl", {"mwe_tokens": False}) == "mnrl-nomwe"
    )
    assert run_label("adaptive-triplet", {"mwe_tokens": True, "dropout": 0.0}) == "adaptive-triplet-mwe-dropout0"
    assert (
        run_label("cosent-sts", {"mwe_tokens": True, "sts_weight": 0.3, "heldout_dedup": True})
        == "cosent-sts-stsw0.3-dedup"
    )
    assert (
        run_label("cosent-sts", {"mwe_tokens": True, "heldout_dedup": True, "dedup_idioms": False})
        == "cosent-sts-dedup-sentences"
    )
    assert (
        run_label("idiolink-infonce", {"mwe_tokens": False, "epochs": 10}) == "idiolink-infonce"
    )  # the paper's budget
    assert (
        run_label("idiolink-infonce", {"mwe_tokens": False, "span_queries": True, "epochs": 30})
        == "idiolink-infonce-span-ep30"
    )
    assert (
        run_label("adaptive-triplet", {"mwe_tokens": True, "epochs": 30}) == "adaptive-triplet-mwe"
    )  # 2B files name epochs apart
    assert {"adaptive-triplet", "triplet", "mnrl", "cosent", "contrastive", "cosine", "ynu"} <= set(RECIPES)


def test_flagship_v2_labels_name_the_keep_and_distill_options():
    assert run_label("flagship-v2", {}) == "flagship-v2"  # the defaults: keep weight 1, mse
    assert run_label("flagship-v2", {"keep_weight": 0.0}) == "flagship-v2-keep0"
    assert (
        run_label("flagship-v2", {"keep_weight": 2.5, "keep_distance": "cosine"}) == "flagship-v2-keep2.5-keep-cosine"
    )
    relational = {"keep_weight": 10.0, "keep_distance": "cosine", "keep_relational": 5.0, "pooling": "mean"}
    assert run_label("flagship-v2", relational) == "flagship-v2-keep10-keep-cosine-rel5-pool-mean"
    assert run_label("flagship-v2-student", {"distill_steps": 100, "teacher": "minilm"}) == (
        "flagship-v2-student-distill100-teacher-minilm"
    )
    assert run_label("flagship-v2", {"distill_steps": 100}) == "flagship-v2"  # no distill phase: not named
    assert run_label("flagship-v2-student", {"distill_align": "procrustes", "pooling": "mean"}) == (
        "flagship-v2-student-pool-mean-align-procrustes"
    )
    assert run_label("flagship-v2", {"pooling": "mean"}) == "flagship-v2-pool-mean"  # the model's own pooling
    # the flagship's STS stream at another weight is another configuration; without the stream, nothing to name
    half_sts = {"sts_weight": 0.5, "keep_weight": 10.0, "keep_distance": "cosine", "pooling": "mean"}
    assert run_label("flagship-v2", half_sts) == "flagship-v2-stsw0.5-keep10-keep-cosine-pool-mean"
    assert run_label("flagship", {"sts_weight": 0.5}) == "flagship-stsw0.5"
    assert run_label("flagship-v2-nosts", half_sts) == "flagship-v2-nosts-keep10-keep-cosine-pool-mean"
    assert run_label("flagship", {"pooling": "mean"}) == "flagship"  # v1 labels are as recorded
    assert run_label("flagship", {"keep_weight": 0.0}) == "flagship"  # no keep loss in v1
    assert run_label("flagship-v2", {"pooling": "mean", "paraphrase_anchors": True}) == "flagship-v2-pool-mean-anchors"
    assert run_label("flagship", {"paraphrase_anchors": True}) == "flagship"  # v1 ignores the option
    assert run_label("flagship-v2", {"pooling": "mean", "pin_weight": 10.0}) == "flagship-v2-pool-mean-pin10"
    assert run_label("flagship", {"pin_weight": 10.0}) == "flagship"
    assert run_label("flagship-v2", {"pin_weight": 10.0, "other_id_targets": True}) == "flagship-v2-pin10-otherid"
    assert run_label("flagship-v2", {"pin_weight": 10.0, "pair_weight": 0.5}) == "flagship-v2-pin10-2bw0.5"
    assert run_label("flagship-v2", {"pair_weight": 1.0}) == "flagship-v2"
    cfg = train_config("flagship-v2", keep_weight=0.5, lora_rank=8)
    assert run_label(cfg.recipe, cfg) == "flagship-v2-lora-keep0.5"  # a TrainConfig as well as its dict
    assert run_label("flagship-v2", {"pooling": "mean", "precision": "bf16"}) == "flagship-v2-pool-mean-bf16"
    assert run_label("adaptive-triplet", {"precision": "bf16"}) == "adaptive-triplet-mwe-bf16"  # any recipe


def test_stsb_and_assin2_row_errors(tmp_path):
    bad = tmp_path / "stsb-en-train.csv"
    bad.write_text('a,b,5.0\n"x, y",z,7\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"stsb-en-train.csv.*row 2.*similarity.*outside \[0, 5\]"):
        load_stsb(bad)
    bad.write_text("a,b,5.0\n,z,1\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"row 2.*sentence1.*empty"):
        load_stsb(bad)
    bad.write_text("a,b\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1.*field .similarity.*2 of 3 columns"):
        load_stsb(bad)
    xml = tmp_path / "assin2-train-only.xml"
    xml.write_text('<c><pair similarity="3"><t>a</t><h>b</h></pair><pair similarity="x"><t>a</t><h>b</h></pair></c>')
    with pytest.raises(DataError, match=r"assin2-train-only.xml.*row 2.*similarity.*not a number"):
        load_assin2(xml)
    xml.write_text('<c><pair similarity="5"><t>a</t><h>b</h></pair></c>')
    assert load_assin2(xml) == [StsPair("a", "b", 1.0, "assin2", "PT")]


class FixedModel:
    """Stub encoder: a fixed vector per text (with the model-card hook sentence-transformers' evaluators call)."""

    def __init__(self, vectors):
        self.vectors = vectors
        self.model_card_data = SimpleNamespace(set_evaluation_metrics=lambda *args, **kwargs: None)

    def get_embedding_dimension(self):
        return 2

    def encode(self, texts, **_):
        return np.array([self.vectors[t] for t in texts], dtype=np.float32)


def test_sts_evaluator_equals_hand_spearman():
    vec = {"a": [1, 0], "b": [1, 1], "c": [0, 1], "d": [1, -1]}
    pairs = [
        StsPair("a", "b", 0.9, "x", "EN"),
        StsPair("a", "c", 0.1, "x", "EN"),
        StsPair("a", "d", 0.5, "x", "EN"),
        StsPair("b", "c", 0.2, "y", "PT"),
        StsPair("b", "d", 0.0, "y", "PT"),
    ]
    out = StsEvaluator(pairs, name="v")(FixedModel(vec))
    # cosines: ab .707, ac 0, ad .707, bc .707, bd 0 -> ranks vs gold by hand
    expected = spearmanr([0.7071, 0.0, 0.7071, 0.7071, 0.0], [0.9, 0.1, 0.5, 0.2, 0.0]).statistic
    assert out["v_sts"] == pytest.approx(expected, abs=1e-6)
    assert out["v_sts_y"] == pytest.approx(1.0)  # bc (0.707) > bd (0): same order as gold


def test_mix_weights_is_a_linear_interpolation():
    from idiomkit.training.interpolate import mix_weights

    a, b = torch.nn.Linear(3, 2), torch.nn.Linear(3, 2)
    mixed = mix_weights(a, b, 0.25)
    assert torch.allclose(mixed["weight"], 0.75 * a.weight + 0.25 * b.weight)
    assert torch.equal(mix_weights(a, b, 0.0)["bias"], a.bias) and torch.equal(mix_weights(a, b, 1.0)["bias"], b.bias)
    with pytest.raises(ValueError, match="differ in architecture"):
        mix_weights(a, torch.nn.Linear(4, 2), 0.5)
    with_pooler = torch.nn.ModuleDict({"body": torch.nn.Linear(3, 2), "pooler": torch.nn.Linear(2, 2)})
    plain = torch.nn.ModuleDict({"body": torch.nn.Linear(3, 2)})
    mixed = mix_weights(plain, with_pooler, 0.5)  # a reload-only pooler (saved e5 models) is left out
    assert mixed.keys() == plain.state_dict().keys()
    assert torch.allclose(mixed["body.weight"], 0.5 * plain.body.weight + 0.5 * with_pooler.body.weight)
    with pytest.raises(ValueError, match="differ in architecture"):  # any other extra module still fails
        mix_weights(plain, torch.nn.ModuleDict({"body": torch.nn.Linear(3, 2), "head": torch.nn.Linear(2, 2)}), 0.5)


class SavedModules(torch.nn.Module):
    """A stand-in for a SentenceTransformer: modules with weights, and ``save`` writing them to a folder."""

    def __init__(self, pooler: bool = False, tag: bool = False):
        super().__init__()
        self.body = torch.nn.Linear(3, 2)
        self.pooler = torch.nn.Linear(2, 2) if pooler else None
        if tag:  # its saved state carries an entry its load does not take back
            self.register_state_dict_post_hook(lambda module, state, prefix, meta: state.update(version=torch.ones(1)))

    def save(self, path: str) -> None:
        torch.save(self.state_dict(), path)


def test_save_mixed_keeps_the_tuned_modules_and_refuses_weights_they_do_not_take(tmp_path):
    from idiomkit.errors import InputError
    from idiomkit.training.interpolate import Sweep, save_mixed

    start, tuned = SavedModules(), SavedModules(pooler=True)  # a reload-only pooler is kept as tuned has it
    expected_body, pooler = torch.lerp(start.body.weight, tuned.body.weight, 0.25), tuned.pooler.weight.clone()
    save_mixed(Sweep(start, [], save_tuned_modules=True), tuned, 0.25, tmp_path / "mixed.pt")
    saved = torch.load(tmp_path / "mixed.pt")
    assert torch.allclose(saved["body.weight"], expected_body) and torch.equal(saved["pooler.weight"], pooler)

    tagged = Sweep(SavedModules(tag=True), [], save_tuned_modules=True)
    with pytest.raises(InputError) as refused:
        save_mixed(tagged, SavedModules(tag=True), 0.5, tmp_path / "x")
    assert str(refused.value) == "start and tuned models differ in architecture (version)"
    assert not (tmp_path / "x").exists()


def test_choose_alpha_keeps_sts_within_the_allowed_drop():
    from idiomkit.training.interpolate import InterpolationPoint, choose_alpha

    pts = [
        InterpolationPoint(a, {"val_idiom": i, "val_sts": s})
        for a, i, s in [(0.0, 0.1, 0.85), (0.5, 0.4, 0.83), (0.8, 0.5, 0.81), (1.0, 0.6, 0.75)]
    ]
    assert choose_alpha(pts, max_sts_drop=0.03).alpha == 0.5
    assert choose_alpha(pts, max_sts_drop=0.05).alpha == 0.8
    assert choose_alpha(pts, max_sts_drop=1.0).alpha == 1.0


def test_batch_plan_handles_epochs_with_different_batch_counts():
    """Packing whole groups gives a different number of batches per epoch; every step must still resolve and
    every row be used once an epoch (a stream beside the first one cycles through all its rows in order)."""
    from idiomkit.training.config import TrainConfig
    from idiomkit.training.examples import Examples
    from idiomkit.training.recipes import Phase, Stream
    from idiomkit.training.trainer import BatchPlan

    rng = np.random.default_rng(0)
    groups = [g for g in range(300) for _ in range(int(rng.integers(1, 8)))]
    first = Examples("a", [[[1] * int(rng.integers(3, 40)) for _ in groups]], [0.0] * len(groups), groups)
    second = Examples("b", [[[1] * 5 for _ in range(50)]], [0.0] * 50, list(range(50)), spread_groups=True)
    plan = BatchPlan(Phase("p", [Stream(first, None), Stream(second, None)], 4), TrainConfig(batch_size=8), 0)
    counts = [plan.steps(e) for e in range(4)]
    assert len(set(counts)) > 1  # the case that broke a fixed steps-per-epoch loop
    seen_second = []
    for epoch in range(4):
        rows = []
        for b in range(plan.steps(epoch)):
            a, c = plan.step(epoch, b)
            rows += a
            seen_second += c
        assert sorted(rows) == list(range(len(groups)))
    assert plan.total_steps(4) == sum(counts)
    assert sorted(seen_second[:50]) == list(range(50))  # first cycle of the second stream: every row once


def test_a_target_column_does_not_shrink_the_batch():
    """A batch holds the same number of trained texts: 32 // 2 pair rows, with or without the otherID reference
    column that the loss encodes only as a target (a three-column stream once trained 10 rows a step)."""
    from idiomkit.training.examples import Examples

    def three_columns(**kw):
        return Examples("p", [[[1, 2, 3]] * 64] * 3, [0.0] * 64, list(range(64)), spread_groups=True, **kw)

    trained = {len(b) for b in three_columns(target_columns=1).batches(32, seed=0, epoch=0, in_order=True)}
    assert trained == {16}
    assert {len(b) for b in three_columns().batches(32, seed=0, epoch=0, in_order=True)} == {10, 4}


def test_leave_one_out_recipes_of_both_flagships_drop_their_streams():
    from idiomkit.training.recipes import RECIPES
    from idiomkit.training.recipes.flagship import STREAMS, wanted_streams

    assert wanted_streams("flagship-v2") == wanted_streams("flagship-v2-student") == STREAMS
    assert (
        wanted_streams("flagship-no2b") == wanted_streams("flagship-v2-no2b") == tuple(s for s in STREAMS if s != "2b")
    )
    assert "meaning" not in wanted_streams("flagship-v2-noextra") and "misreading" not in wanted_streams(
        "flagship-v2-noextra"
    )
    assert {f"flagship-v2-{p}" for p in ("no2b", "noidiolink", "noextra", "nosts")} <= set(RECIPES)
    assert RECIPES["flagship-v2-nosts"].options is KeepRecipeOptions  # its label names the keep options like v2's


def test_stream_counts_name_each_phase_and_stream():
    from idiomkit.training.recipes.base import Phase, Stream, stream_counts

    class Rows(list):
        def __init__(self, name: str, n: int, truncated: int):
            super().__init__(range(n))
            self.name, self.truncated = name, truncated

    phases = [
        Phase("2b+sts", [Stream(Rows("triplets", 5, 1), None), Stream(Rows("sts", 3, 0), None)], 1),
        Phase("meaning", [Stream(Rows("idiom-meaning", 2, 2), None)], 1),
    ]
    assert stream_counts(phases) == {
        "2b+sts/triplets_rows": 5,
        "2b+sts/triplets_truncated": 1,
        "2b+sts/sts_rows": 3,
        "2b+sts/sts_truncated": 0,
        "meaning/idiom-meaning_rows": 2,
        "meaning/idiom-meaning_truncated": 2,
    }


def test_paraphrase_anchors_pair_each_sentence_with_its_correct_paraphrases_only():
    from helpers.training import HAND

    from idiomkit.training.recipes.semeval2b import paraphrase_anchors
    from idiomkit.training.relabel import group_pairs

    cfg = TrainConfig(recipe="flagship-v2", mwe_tokens=False)
    assert paraphrase_anchors(group_pairs(HAND), cfg) == [
        ("Ruth's home run record.", "Ruth's baseball run record."),
        ("The small fry win.", "The insignificant win."),
    ]  # the incorrect paraphrases ("house run", "little fry", "little kid") are no anchors


def test_the_2b_stream_pins_its_correct_pairs_only_when_asked():
    from idiomkit.losses import OtherIdTargetsLoss, PinPositivesLoss
    from idiomkit.training.recipes.flagship import PairStream, _pair_loss

    model = torch.nn.Linear(2, 2)
    assert type(_pair_loss(model, PairStream())).__name__ == "CoSENTLoss"
    pinned = _pair_loss(model, PairStream(pin=10.0))
    assert isinstance(pinned, PinPositivesLoss) and pinned.weight == 10.0 and type(pinned.loss).__name__ == "CoSENTLoss"
    both = _pair_loss(model, PairStream(pin=10.0, other_id=True))
    assert isinstance(both, OtherIdTargetsLoss) and isinstance(both.loss, PinPositivesLoss)
    assert type(_pair_loss(model, PairStream(other_id=True)).loss).__name__ == "CoSENTLoss"
    cfg = train_config("flagship-v2", pin_weight=3.0, other_id_targets=True, pair_weight=0.5)
    assert PairStream.of(cfg) == PairStream(anchors=False, pin=3.0, other_id=True, weight=0.5)


def test_the_2b_stream_is_weighted_by_its_pair_weight(monkeypatch):
    from idiomkit.training.recipes import flagship

    monkeypatch.setattr(flagship, "misreading_triples", lambda *args: ([], []))
    monkeypatch.setattr(flagship, "labelled_pair_examples", lambda *args: "2b examples")
    model = torch.nn.Sequential(torch.nn.Linear(2, 2))  # no idiom reader in front
    for weight in (1.0, 0.5):
        cfg = train_config("flagship-v2", pair_weight=weight)
        sources = flagship.Sources(index=None)
        streams, _ = flagship.build_streams(model, cfg, [], sources, ["2b"], flagship.PairStream.of(cfg))
        assert [(s.examples, s.weight) for s in streams] == [("2b examples", weight)]
