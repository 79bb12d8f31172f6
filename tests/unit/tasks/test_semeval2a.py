"""SemEval-2022 Task 2A: strict loaders, official macro-F1, submission format, by-MWE selection, classifier."""

import numpy as np
import pytest
from helpers.semeval2a import example_2a
from sklearn.metrics import f1_score

from idiomkit.data.errors import DataError
from idiomkit.data.semeval2a import Example2A, find_mwe, load_dev, load_train
from idiomkit.methods.semeval2a.classifier import (
    ClassifierConfig,
    best_threshold,
    build_inputs,
    carve_validation,
)
from idiomkit.metrics.classification import macro_f1
from idiomkit.tasks.semeval2a import (
    apply_shot_rule,
    pick_shots,
    read_2a_submission,
    score,
    shot_features,
    single_label_shots,
    split_by_mwe,
    submission_csv,
)

TRAIN_HEADER = "DataID,Language,MWE,Setting,Previous,Target,Next,Label\n"


GOOD_ROW = "t.1,EN,big fish,zero_shot,Before.,He is a big fish in town.,After.,0\n"


DEV_HEADER = "ID,Language,MWE,Previous,Target,Next\n"


GOLD_HEADER = "ID,DataID,Language,Label\n"


def _write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def test_macro_f1_matches_hand_value_and_sklearn():
    gold = [0, 0, 0, 1, 1, 0, 1, 0]
    pred = [0, 1, 0, 1, 0, 0, 1, 1]
    # label 0: tp 3, fp 1, fn 2 -> 6/9; label 1: tp 2, fp 2, fn 1 -> 4/7
    assert macro_f1(gold, pred) == pytest.approx((6 / 9 + 4 / 7) / 2)
    assert macro_f1(gold, pred) == pytest.approx(f1_score(gold, pred, average="macro"))
    assert macro_f1([0, 0, 1], [0, 0, 0]) == pytest.approx(f1_score([0, 0, 1], [0, 0, 0], average="macro"))
    with pytest.raises(ValueError):
        macro_f1([0, 1], [0])


def test_score_per_language_pools_all():
    gold = [example_2a(1, label=0), example_2a(2, label=1)]
    gold += [example_2a(3, label=0, lang="PT"), example_2a(4, label=1, lang="PT")]
    preds = {"1": 0, "2": 1, "3": 1, "4": 1}
    metrics = score(preds, gold)
    assert metrics["EN"] == {"macro_f1": 1.0, "n": 2}
    assert metrics["PT"]["macro_f1"] == pytest.approx((0 + 2 / 3) / 2)
    assert metrics["ALL"]["macro_f1"] == pytest.approx(f1_score([0, 1, 0, 1], [0, 1, 1, 1], average="macro"))
    with pytest.raises(ValueError, match="no prediction"):
        score({"1": 0}, gold)


def test_submission_roundtrip_and_bad_submission(tmp_path):
    dev = [example_2a(7), example_2a(8, lang="PT")]
    text = submission_csv(dev, [1, 0], "one_shot")
    assert text.splitlines() == ["ID,Language,Setting,Label", "7,EN,one_shot,1", "8,PT,one_shot,0"]
    assert read_2a_submission(_write(tmp_path, "sub.csv", text)) == {"one_shot": {"7": 1, "8": 0}}
    bad = _write(tmp_path, "bad.csv", "ID,Language,Setting,Label\n7,EN,one_shot,idiom\n")
    with pytest.raises(DataError, match=r"bad.csv: row 1: field 'Label'"):
        read_2a_submission(bad)


@pytest.mark.parametrize(
    ("row", "field", "problem"),
    [
        ("t.1,EN,big fish,zero_shot,Before.,He is a big fish.,After.,2\n", "Label", "is not 0"),
        ("t.1,FR,big fish,zero_shot,Before.,He is a big fish.,After.,0\n", "Language", "unknown language 'FR'"),
        ("t.1,EN,big fish,one_shot,Before.,He is a big fish.,After.,0\n", "Setting", "expected 'zero_shot'"),
        ("t.1,EN,big fish,zero_shot,Before.,  ,After.,0\n", "Target", "is empty"),
        ("t.1,EN,,zero_shot,Before.,He is a big fish.,After.,1\n", "MWE", "is empty"),
    ],
)
def test_malformed_train_row_is_one_line_error(tmp_path, row, field, problem):
    path = _write(tmp_path, "train_zero_shot.csv", TRAIN_HEADER + GOOD_ROW.replace("t.1", "t.0") + row)
    with pytest.raises(DataError) as info:
        load_train(path, "zero_shot")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: row 2: field '{field}': ")
    assert problem in message


def test_dev_gold_join_errors(tmp_path):
    rows = "11,EN,big fish,P,He is a big fish.,N\n12,PT,pão duro,P,Ele é pão duro.,N\n"
    dev = _write(tmp_path, "dev.csv", DEV_HEADER + rows)
    gold = _write(tmp_path, "dev_gold.csv", GOLD_HEADER + "11,dev.EN.1.1,EN,1\n12,dev.PT.1.1,PT,0\n")
    loaded = load_dev(dev, gold)
    assert [(e.id, e.label) for e in loaded] == [("11", 1), ("12", 0)]
    missing = _write(tmp_path, "g1.csv", GOLD_HEADER + "11,dev.EN.1.1,EN,1\n")
    with pytest.raises(DataError, match=r"dev.csv: row 2: field 'ID': '12' has no row in g1.csv"):
        load_dev(dev, missing)
    extra = _write(tmp_path, "g2.csv", GOLD_HEADER + "11,dev.EN.1.1,EN,1\n12,d,PT,0\n99,d,EN,0\n")
    with pytest.raises(DataError, match=r"g2.csv: row 3: field 'ID': '99' is not an ID of dev.csv"):
        load_dev(dev, extra)
    wrong_lang = _write(tmp_path, "g3.csv", GOLD_HEADER + "11,dev.EN.1.1,PT,1\n12,d,PT,0\n")
    with pytest.raises(DataError, match=r"g3.csv: row 1: field 'Language'"):
        load_dev(dev, wrong_lang)
    bad_label = _write(tmp_path, "g4.csv", GOLD_HEADER + "11,dev.EN.1.1,EN,yes\n12,d,PT,0\n")
    with pytest.raises(DataError, match=r"g4.csv: row 1: field 'Label'"):
        load_dev(dev, bad_label)


def test_find_mwe_exact_inflected_hyphen_and_fallback():
    assert find_mwe("He is a Big Fish here.", "big fish") == (8, 16)
    text = "Os efeitos especiais são bons."
    assert text[slice(*find_mwe(text, "efeito especial"))] == "efeitos especiais"
    text = "Um gelo seco no copo."
    assert text[slice(*find_mwe(text, "gelo-seco"))] == "gelo seco"
    assert find_mwe("Nothing here.", "big fish") == (0, 13)


def test_split_by_mwe_and_one_shot_carving():
    train = [example_2a(i, mwe=f"m{i % 10}", label=(i // 10) % 2) for i in range(40)]
    train.append(example_2a(99, "dev mwe", 1, setting="one_shot"))
    fit, val = split_by_mwe(train, 0.2, seed=0)
    assert len({e.mwe for e in val}) == 2 and not {e.mwe for e in fit} & {e.mwe for e in val}
    assert split_by_mwe(train, 0.0, seed=0) == (train, [])  # fraction 0: no validation
    fit_k, val_k = split_by_mwe(train, 0.2, seed=0, group=lambda e: e.mwe.upper())  # any key, same draw
    assert (fit_k, val_k) == (fit, val)
    cfg = ClassifierConfig(setting="zero_shot", val_fraction=0.2)
    fit0, val0 = carve_validation(train, cfg)
    assert not {e.mwe for e in fit0} & {e.mwe for e in val0} and train[-1] in fit0
    fit1, val1 = carve_validation(train, ClassifierConfig(setting="one_shot", val_fraction=0.2))
    shots = [e for e in fit1 if e.mwe in {v.mwe for v in val1}]
    # each validation MWE (4 examples, 2 per label) lends one example per label to training
    assert len(shots) == 4 and len(val1) == len(val0) - 4 and not set(shots) & set(val1)
    # examples of another corpus (setting "extra") train and never validate; the task's own split is unchanged
    extra = [example_2a(200 + i, mwe=f"m{i % 10}", label=i % 2, setting="extra") for i in range(10)]
    fit2, val2 = carve_validation(train + extra, cfg)
    assert val2 == val0 and set(extra) <= set(fit2) and len(fit2) == len(fit0) + 10
    with pytest.raises(ValueError, match="unknown extra training data 'magpie'"):
        ClassifierConfig(extra_train="magpie")
    assert ClassifierConfig(train_layers=4, extra_train="epie").recipe == "classifier-sep-span+mean-top4-epie"


def test_best_threshold_prefers_point_five_on_ties():
    labels = [0, 0, 1, 1]
    assert best_threshold(labels, [0.1, 0.2, 0.8, 0.9]) == (0.5, 1.0)
    assert best_threshold(labels, [0.1, 0.2, 0.3, 0.35]) == (0.3, 1.0)  # 0.25 and 0.3 tie: the one closer to 0.5
    assert best_threshold(labels, [0.1, 0.2, 0.3, 0.35], tune=False)[0] == 0.5


def test_context_shifts_the_span():
    ex = Example2A("1", "EN", "big fish", "Before it.", "He is a big fish.", "After.", 0)
    data = build_inputs([ex], ClassifierConfig(context=True))
    assert data.first[0] == "Before it. He is a big fish. After."
    assert data.first[0][slice(*data.spans[0])] == "big fish"


def test_shot_features_hand_values():
    examples = [example_2a(0, "a", 0), example_2a(1, "a", 1), example_2a(2, "a", 1), example_2a(3, "b", 0)]
    shots = pick_shots(examples, seed=0)
    assert shots["a"][0] == [0] and shots["a"][1] in ([1], [2]) and shots["b"] == {0: [3]}
    x_shots = np.array([[1.0, 0.0], [0.0, 2.0]])  # row 0 idiomatic shot, row 1 literal shot
    table = {"a": {0: [0], 1: [1]}, "b": {0: [0]}}
    x = np.array([[3.0, 4.0], [1.0, 1.0], [0.0, 1.0]])
    feats = shot_features(x, ["a", "b", "c"], x_shots, table)
    # cos to literal (0, 1): 0.8; to idiomatic (1, 0): 0.6
    assert feats[0] == pytest.approx([0.8, 0.6, 0.2, 1, 1])
    assert feats[1] == pytest.approx([0, 2**-0.5, 0, 0, 1])  # MWE b has only an idiomatic shot
    assert feats[2] == pytest.approx([0, 0, 0, 0, 0])  # no shots


def test_shot_rule_takes_the_single_label_of_the_shots():
    table = {"a": {0: [0], 1: [1]}, "b": {0: [0]}, "c": {1: [1]}}
    x_shots = np.array([[1.0, 0.0], [0.0, 1.0]])
    feats = shot_features(np.ones((4, 2)), ["a", "b", "c", "d"], x_shots, table)
    assert list(single_label_shots(feats)) == [-1, 0, 1, -1]  # both labels / idiomatic only / literal only / none
    assert apply_shot_rule([1, 1, 0, 0], feats) == [1, 0, 1, 0]


def test_shot_rule_needs_shots(tmp_path):
    from idiomkit.tasks.semeval2a import SemEval2ATask

    with pytest.raises(ValueError, match=r"'\+rule' needs '\+shots'"):
        SemEval2ATask().evaluate(None, data_dir=tmp_path, setting="one_shot", features="span+rule")


def test_one_shot_table_names_a_dev_mwe_without_shots():
    from idiomkit.tasks.semeval2a import one_shot_table

    one = [example_2a(0, "big fish", 0, setting="one_shot"), example_2a(1, "big fish", 1, setting="one_shot")]
    assert one_shot_table(one, [example_2a(5, "big fish", None)]) == {"big fish": {0: [0], 1: [1]}}
    expected = r"^1 dev MWE\(s\) have no one-shot example, e.g. 'night owl' \(dev row of ID 7\)$"
    with pytest.raises(ValueError, match=expected):
        one_shot_table(one, [example_2a(5, "big fish", None), example_2a(7, "night owl", None)])
