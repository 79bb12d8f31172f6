"""SemEval-2022 Task 2 loaders: real-file counts and one-line errors on malformed files.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/data/test_semeval2022.py.
"""

from idiomkit.data.semeval2022 import load_subtask_a, load_subtask_b, load_train_pairs


def test_real_subtask_b_counts(data_dir):
    train = load_train_pairs(data_dir)
    assert len(train) == 6572
    assert sum(p.sim == 1.0 for p in train) == 3643
    assert all(p.alternative_1 and p.alternative_2 for p in train if p.sim is None)
    dev = load_subtask_b(data_dir, "dev")
    assert (len(dev.pairs), len(dev.gold)) == (2181, 1775)
    assert sum(g.is_sts for g in dev.gold) == 800
    assert dev.languages == ["EN", "PT"]
    assert load_subtask_b(data_dir, "test").gold is None


def test_real_subtask_a_counts(data_dir):
    assert len(load_subtask_a(data_dir, "train_zero_shot")) == 4491
    dev = load_subtask_a(data_dir, "dev")
    assert len(dev) == 739 and all(ex.label in (0, 1) for ex in dev)
