"""AdMIRe subtask A: metrics, ranked triplet loss, loader quirks and errors, query inputs, folds."""

import math

import numpy as np
import pytest
import torch
from helpers.admire import write_admire_tsv
from scipy.stats import kendalltau, spearmanr

from idiomkit.data.admire import find_compound, load_admire_file
from idiomkit.data.errors import DataError
from idiomkit.losses import ranked_triplet_loss
from idiomkit.metrics.ranking import dcg, item_metrics, ranking_metrics
from idiomkit.tasks.admire import marked_sentence, predicted_orders, submission_tsv

GOLD = ["a", "b", "c", "d", "e"]


PRED_A = ["b", "a", "c", "d", "e"]  # best two swapped


PRED_B = ["a", "c", "b", "e", "d"]  # top-1 right, two adjacent swaps


def test_metrics_two_items_hand_computed():
    # A: gold a at predicted position 1, gold b at 0 -> 3/log2(3) + 1/log2(2); sum d^2 = 2; 1 discordant pair of 10
    # B: gold a at 0, gold b at 2 -> 3/log2(2) + 1/log2(4) = 3.5; sum d^2 = 4; 2 discordant pairs
    m = ranking_metrics([PRED_A, PRED_B], [GOLD, GOLD], ["idiomatic", "literal"])
    dcg_a = 3 / math.log2(3) + 1.0
    assert m["top1"] == pytest.approx(0.5)
    assert m["dcg"] == pytest.approx((dcg_a + 3.5) / 2, abs=1e-6)
    assert m["spearman"] == pytest.approx((0.9 + 0.8) / 2)
    assert m["kendall"] == pytest.approx((0.8 + 0.6) / 2)
    assert m["idiomatic"]["dcg"] == pytest.approx(dcg_a, abs=1e-6) and m["literal"]["top1"] == 1.0
    assert m["n"] == 2 and m["idiomatic"]["n"] == 1
    for pred in (PRED_A, PRED_B):  # same as scipy on the images' (gold rank, predicted rank)
        gold_rank, pred_rank = list(range(5)), [pred.index(x) for x in GOLD]
        item = item_metrics(pred, GOLD)
        assert item["spearman"] == pytest.approx(spearmanr(gold_rank, pred_rank)[0])
        assert item["kendall"] == pytest.approx(kendalltau(gold_rank, pred_rank)[0])


def test_dcg_maximum_and_bad_orders():
    assert dcg(GOLD, GOLD) == pytest.approx(3 + 1 / math.log2(3))
    with pytest.raises(ValueError, match="permutation"):
        item_metrics(["a", "b", "c", "d", "x"], GOLD)
    with pytest.raises(ValueError):
        ranking_metrics([], [])


def test_ranked_triplet_loss_hand_computed():
    q = torch.tensor([[1.0, 0.0]])
    captions = torch.tensor([[[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]])  # gold order; cos with q: 0, 1, 1/sqrt2
    # pairs (0,1): 1.2 / 1; (0,2): (0.7071 + 0.2) / 2; (1,2): relu(0.7071 - 1 + 0.2) = 0 -> mean of 3
    expected = (1.2 + (1 / math.sqrt(2) + 0.2) / 2 + 0.0) / 3
    assert float(ranked_triplet_loss(q, captions, margin=0.2)) == pytest.approx(expected, abs=1e-6)
    perfect = torch.tensor([[[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]])  # cos 1, .707, 0: margins 0.29 / 0.71 / 1 > 0.2
    assert float(ranked_triplet_loss(q, perfect, margin=0.2)) == 0.0
    with pytest.raises(ValueError):
        ranked_triplet_loss(q, captions[0], margin=0.2)


def test_compound_matching_variants():
    assert find_compound("You can spot the hen parties easily", "hen party") == (17, 28)
    assert find_compound("Wet blankets draped over cabins", "wet blanket") == (0, 12)
    assert find_compound("flower children placing daisies", "flower child") == (0, 15)
    assert find_compound("a redhead", "red head") is None


def test_loader_errors_name_file_row_field(tmp_path):
    items = load_admire_file(write_admire_tsv(tmp_path))
    assert items[0].captions[0] == "caption 0 more" and items[0].gold[0] == "0.png"
    cases = [
        ({"sentence": "He is rotten."}, "field 'sentence': compound 'bad apple' not found"),
        ({"expected_order": "['0.png', '1.png', '2.png', '3.png', '9.png']"}, "field 'expected_order'"),
        ({"expected_order": "__import__('os').getcwd()"}, "field 'expected_order': not a Python list literal"),
        ({"image3_caption": "  "}, "field 'image3_caption': missing caption"),
        ({"sentence_type": "metaphor"}, "field 'sentence_type'"),
    ]
    for override, message in cases:
        with pytest.raises(DataError) as err:
            load_admire_file(write_admire_tsv(tmp_path, **override))
        text = str(err.value)
        assert "a.tsv: row 1: " in text and message in text and "\n" not in text
    assert load_admire_file(write_admire_tsv(tmp_path, sentence="no compound"), strict=False) == []


def test_marked_sentence_and_submission(tmp_path):
    item = load_admire_file(write_admire_tsv(tmp_path))[0]
    text, (s, e) = marked_sentence(item, "[SEP]")
    assert text == "He is the [SEP] bad apple [SEP] of the team." and text[s:e] == "bad apple"
    scores = np.array([[0.1, 0.5, 0.3, 0.5, -1.0]])
    assert predicted_orders([item], scores) == [["1.png", "3.png", "2.png", "0.png", "4.png"]]  # ties: file order
    lines = submission_tsv([item], scores).splitlines()
    assert lines[0] == "compound\tsubset\tsentence_type\tsentence\texpected_order"
    assert lines[1].endswith("['1.png', '3.png', '2.png', '0.png', '4.png']")


def test_compound_folds_group_by_compound(tmp_path):
    from idiomkit.methods.admire.query_encoder import compound_folds

    item = load_admire_file(write_admire_tsv(tmp_path))[0]
    items = [item.__class__(**{**item.__dict__, "compound": f"c{i % 7}"}) for i in range(20)]
    folds = compound_folds(items, k=5)
    assert set(folds) == {0, 1, 2, 3, 4}
    for i, a in enumerate(items):
        assert all(folds[i] == folds[j] for j, b in enumerate(items) if b.compound == a.compound)


def test_rank_cosent_and_mnrl_hand_computed():
    from idiomkit.methods.admire.query_encoder import mnrl_loss, rank_cosent_loss

    q = torch.tensor([[1.0, 0.0]])
    captions = torch.tensor([[[0.0, 1.0], [1.0, 0.0]]])  # gold order; cos 0 (best) and 1: one violated pair
    assert float(rank_cosent_loss(q, captions, scale=2.0)) == pytest.approx(math.log(1 + math.exp(2.0)))
    # softmax over cos (0, 1) x scale 2, target = caption 0
    assert float(mnrl_loss(q, captions, scale=2.0)) == pytest.approx(-math.log(1 / (1 + math.exp(2.0))))


def test_feature_ranker_pairs_signal_and_recovery(tmp_path):
    from idiomkit.methods.admire.features import (
        Similarities,
        blank_compound,
        cross_validated_scores,
        features,
        pairwise_rows,
        type_signal,
    )

    item = load_admire_file(write_admire_tsv(tmp_path))[0]
    assert blank_compound(item) == "He is the   of the team."
    # pairs: ranks (0, 2, 1) -> 3 ordered pairs, each in both directions
    x, y = pairwise_rows(np.array([[[0.0], [2.0], [1.0]]]), np.array([[0, 2, 1]]))
    assert x[:, 0].tolist() == [-2.0, 2.0, -1.0, 1.0, -1.0, 1.0] and y.tolist() == [1, 0, 1, 0, 1, 0]
    # the type signal: oracle reads the gold type, proxy = -corr(mctx, lit), none = 0
    lit = np.array([[0.9, 0.8, 0.1, 0.2, 0.0]])
    sims = Similarities(ctx=lit, span=lit, lit=lit, mctx=lit)
    literal = item.__class__(**{**item.__dict__, "sentence_type": "literal"})
    assert type_signal(sims, [item], "oracle").tolist() == [1.0]
    assert type_signal(sims, [literal], "oracle").tolist() == [-1.0]
    assert type_signal(sims, [item], "proxy") == pytest.approx([-1.0])
    assert type_signal(sims, [item], "none").tolist() == [0.0]
    with pytest.raises(ValueError, match="unknown type signal"):
        type_signal(sims, [item], "gold")
    unlabelled = item.__class__(**{**item.__dict__, "sentence_type": None})  # e.g. the extended set
    with pytest.raises(ValueError, match="oracle type signal needs sentence_type; missing for \\['bad apple'\\]"):
        type_signal(sims, [unlabelled], "oracle")
    # a rule the ranker must learn: idiomatic items rank by ctx, literal ones by lit (needs the interaction)
    rng = np.random.default_rng(0)
    n = 40
    s = Similarities(*(rng.normal(size=(n, 5)) for _ in range(4)))
    signal = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    truth = np.where(signal[:, None] > 0, s.ctx, s.lit)
    ranks = np.argsort(np.argsort(-truth, axis=1), axis=1)
    folds = np.arange(n) % 4
    top1 = lambda sc: float(np.mean(sc.argmax(1) == truth.argmax(1)))  # noqa: E731
    assert top1(cross_validated_scores(features(s, signal), ranks, folds, c=10.0)) >= 0.9
    assert top1(cross_validated_scores(features(s, np.zeros(n)), ranks, folds, c=10.0)) < 0.8


def test_report_marks_oracle_rows_and_never_picks_them_as_best():
    from idiomkit.tasks.admire import report_lines

    def rec(recipe, rho, oracle=False):
        m = {"top1": 0.5, "dcg": 2.5, "spearman": rho, "kendall": rho}
        params = {"split": "cv", "config": {}, "query_mode": "marked+span"}
        params |= {"oracle": "gold type"} if oracle else {}
        return (None, {"model": "minilm", "recipe": recipe, "metrics": m, "params": params})

    lines = report_lines([rec("feature-ranker-oracle-type", 0.5, oracle=True), rec("cnn-cosent", 0.4)])
    assert any("feature-ranker-oracle-type (*oracle*)" in line for line in lines)
    assert any(line.startswith("Best CV configuration: minilm / cnn-cosent /") for line in lines)


def _structured_items(n: int, seed: int = 0):
    """Synthetic items built like AdMIRe: two caption pairs (idiomatic, literal) + a distractor; the literal pair is
    near the compound; the sense used goes first (idiomatic: [I1, I2, L2, L1, D], literal: [L1, L2, I2, I1, D])."""
    from idiomkit.data.admire import AdmireItem
    from idiomkit.methods.admire.features import Similarities

    rng = np.random.default_rng(seed)
    items, caps, lit = [], [], []
    for i in range(n):
        a, b = rng.normal(size=16), rng.normal(size=16)
        near = lambda v, s: v + s * rng.normal(size=16)  # noqa: E731
        vec = {"I1": near(a, 0.3), "I2": near(a, 0.5), "L1": near(b, 0.3), "L2": near(b, 0.5), "D": rng.normal(size=16)}
        kinds = list(rng.permutation(list(vec)))
        kind = "idiomatic" if i % 2 == 0 else "literal"
        order = ["I1", "I2", "L2", "L1", "D"] if kind == "idiomatic" else ["L1", "L2", "I2", "I1", "D"]
        images = [f"{k}.png" for k in kinds]
        items.append(
            AdmireItem(
                compound=f"c{i}",
                subset="Train",
                sentence_type=kind,
                sentence="s",
                span=(0, 1),
                images=images,
                captions=kinds,
                gold=[f"{k}.png" for k in order],
            )
        )
        e = np.stack([vec[k] / np.linalg.norm(vec[k]) for k in kinds])
        caps.append(e)
        lit.append([{"L1": 0.9, "L2": 0.7, "I1": 0.2, "I2": 0.1, "D": 0.0}[k] + 0.05 * rng.normal() for k in kinds])
    lit = np.asarray(lit)
    noise = lambda: rng.normal(size=lit.shape)  # noqa: E731
    return items, np.asarray(caps), Similarities(ctx=noise(), span=noise(), lit=lit, mctx=noise())


def test_structured_ranker_features_and_recovery():
    from idiomkit.methods.admire.structured import (
        PERMUTATIONS,
        StructuredRanker,
        cross_validated_structured_scores,
        permutation_features,
        permutation_index,
    )

    items, caps, sims = _structured_items(60)
    assert PERMUTATIONS.shape == (120, 5)
    assert PERMUTATIONS[permutation_index(items[0])].tolist() == items[0].gold_indices
    feats = permutation_features(caps, sims, np.ones(len(items)))
    assert feats.shape == (60, 120, 2 * (4 + 5 * 4))
    g = permutation_index(items[0])
    order = PERMUTATIONS[g]
    cc = caps[0] @ caps[0].T
    # within-pair cosines, distractor to the rest, pair to pair; times t = 1 in the second half
    assert feats[0, g, 0] == pytest.approx(cc[order[0], order[1]], abs=1e-6)
    assert feats[0, g, 1] == pytest.approx(cc[order[2], order[3]], abs=1e-6)
    assert feats[0, g, 2] == pytest.approx(cc[order[4], order[:4]].mean(), abs=1e-6)
    assert feats[0, g, 3] == pytest.approx(cc[np.ix_(order[:2], order[2:4])].mean(), abs=1e-6)
    assert np.allclose(feats[0, :, :24], feats[0, :, 24:])
    assert not permutation_features(caps[:1], sims, np.zeros(60))[0, :, 24:].any()

    # the sense decides which pair goes first: with the gold type the order is recovered, without it it cannot be
    folds = np.arange(60) % 5

    def exact(signal):
        scores = cross_validated_structured_scores(caps, sims, items, folds, signal)
        gold = np.array([it.gold_ranks for it in items])
        return float(np.mean([(np.argsort(-s) == np.argsort(r)).all() for s, r in zip(scores, gold, strict=True)]))

    assert exact("oracle") >= 0.8  # 0.83: the rest are swaps inside a pair
    assert exact("none") <= 0.6  # 0.42: a coin toss over which pair goes first
    with pytest.raises(ValueError, match="unknown type signal 'gold'"):
        StructuredRanker("gold")


def test_structured_stacking_never_scores_an_item_with_a_ranker_that_saw_it():
    from idiomkit.methods.admire.structured import cross_validated_structured_scores

    items, caps, sims = _structured_items(40)
    calls = []

    def learned(train_idx, eval_items, eval_captions):  # an oracle ranker: the gold ranks themselves
        seen = {items[i].compound for i in train_idx}
        calls.append(len(train_idx))
        assert not seen & {it.compound for it in eval_items}
        return -np.array([it.gold_ranks for it in eval_items], dtype=float)

    folds = np.arange(40) % 5
    scores = cross_validated_structured_scores(caps, sims, items, folds, "none", learned=learned)
    assert sorted(set(calls)) == [24, 32]  # outer folds train on 32 items, inner (stacking) folds on 24
    assert len(calls) == 5 * (1 + 4)
    gold = np.array([it.gold_ranks for it in items])
    exact = np.mean([(np.argsort(-s) == np.argsort(r)).all() for s, r in zip(scores, gold, strict=True)])
    assert exact == 1.0  # without the type, the stacked scores alone recover every order


def test_structured_proxy_type_reads_extra_type_evidence():
    from idiomkit.methods.admire.structured import cross_validated_structured_scores

    items, caps, sims = _structured_items(60)
    gold = np.array([it.gold_ranks for it in items])
    folds = np.arange(60) % 5
    literal_logit = np.array([-4.0 if it.sentence_type == "idiomatic" else 4.0 for it in items])

    def exact(type_extra):
        scores = cross_validated_structured_scores(caps, sims, items, folds, "proxy", type_extra=type_extra)
        return np.mean([(np.argsort(-s) == np.argsort(r)).all() for s, r in zip(scores, gold, strict=True)])

    assert exact(literal_logit) >= 0.8  # as good as the gold type (0.83)
    assert exact(None) <= 0.6  # the synthetic proxy is noise


def test_type_detection_scores_the_out_of_fold_type_classifier():
    from sklearn.metrics import roc_auc_score

    from idiomkit.methods.admire.structured import type_detection

    items, caps, sims = _structured_items(60)
    folds = np.arange(60) % 5
    literal_logit = np.array([-4.0 if it.sentence_type == "idiomatic" else 4.0 for it in items])
    perfect = type_detection(sims, items, folds, literal_logit)
    assert perfect["accuracy"] == 1.0 and perfect["auc"] == 1.0 and perfect["log_loss"] < 0.1
    assert perfect["n_items"] == 60
    noise = type_detection(sims, items, folds)  # the synthetic proxy is noise: about a coin toss
    assert 0.2 <= noise["accuracy"] <= 0.8 and noise["log_loss"] > 0.6
    # the figures are those of out-of-fold probabilities: recomputed here with one classifier per fold
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss

    from idiomkit.methods.admire.features import type_signal

    gold = np.array([it.sentence_type == "idiomatic" for it in items])
    x, p = type_signal(sims, items, "proxy")[:, None], np.zeros(60)
    for f in range(5):
        p[folds == f] = LogisticRegression().fit(x[folds != f], gold[folds != f]).predict_proba(x[folds == f])[:, 1]
    assert noise["auc"] == pytest.approx(roc_auc_score(gold, p), abs=1e-4)
    assert noise["log_loss"] == pytest.approx(log_loss(gold, p), abs=1e-4)
