"""SemEval-2022 Task 2 loaders: real-file counts and one-line errors on malformed files."""

import logging

import pytest
from helpers import B_DEV_HEADER, B_GOLD_HEADER, B_TRAIN_HEADER, write_semeval_tree

from idiomkit.data.errors import DataError
from idiomkit.data.semeval2a import data_paths
from idiomkit.data.semeval2022 import load_2b_gold, load_subtask_b, load_train_pairs, semeval_root

GOOD_TRAIN_ROW = "t1,big fish,None,EN,He is a big fish.,He is important.,1,,\n"


def _train_error(tmp_path, body: str) -> str:
    root = write_semeval_tree(tmp_path, train=body)
    with pytest.raises(DataError) as info:
        load_train_pairs(root)
    message = str(info.value)
    assert "\n" not in message
    assert "train_data.csv" in message
    return message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "ID,MWE1,Language,sentence_1,sentence_2,sim,alternative_1,alternative_2\n" + "x\n",
            "row 0: field 'MWE2': missing column",
        ),
        (
            B_TRAIN_HEADER + GOOD_TRAIN_ROW + "t2,big fish,None,EN,,He is important.,1,,\n",
            "row 2: field 'sentence_1': is empty",
        ),
        (
            B_TRAIN_HEADER + "t1,big fish,None,EN,He is a big fish.,He is important.,1.5,,\n",
            "row 1: field 'sim': 1.5 is outside [0, 1]",
        ),
        (
            B_TRAIN_HEADER + "t1,big fish,None,EN,He is a big fish.,He is important.,high,,\n",
            "row 1: field 'sim': 'high' is not a number",
        ),
        (
            B_TRAIN_HEADER + "t1,big fish,None,EN,He is a big fish.,He is important.,nan,,\n",
            "row 1: field 'sim': nan is outside [0, 1]",
        ),
        (
            B_TRAIN_HEADER + "t1,big fish,None,FR,He is a big fish.,He is important.,1,,\n",
            "row 1: field 'Language': unknown language 'FR'",
        ),
        (B_TRAIN_HEADER + GOOD_TRAIN_ROW + GOOD_TRAIN_ROW, "row 2: field 'ID': duplicate 't1' (first at row 1)"),
        (
            B_TRAIN_HEADER + "t1,big fish,None,EN,He is a big fish.,He is tall.,None,He is important.,\n",
            "row 1: field 'alternative_2': is empty",
        ),
        (
            B_TRAIN_HEADER + "t1,big fish,None,EN,He is a big fish.\n",
            "row 1: field 'sentence_2': missing value (5 values, 9 columns)",
        ),
        ("", "file is empty"),
    ],
    ids=[
        "missing-column",
        "empty-sentence",
        "sim-above-1",
        "sim-not-number",
        "sim-nan",
        "unknown-language",
        "duplicate-id",
        "missing-alternative",
        "ragged-row",
        "empty-file",
    ],
)
def test_malformed_train_file(tmp_path, body, expected):
    assert expected in _train_error(tmp_path, body)


def test_wrong_encoding_names_the_row(tmp_path):
    root = write_semeval_tree(tmp_path, train="")
    path = root / "semeval2022_task2/SubTaskB/TrainData/train_data.csv"
    path.write_bytes((B_TRAIN_HEADER + GOOD_TRAIN_ROW).encode() + "t2,caf\xe9,None,EN,a,b,1,,\n".encode("latin-1"))
    with pytest.raises(DataError, match=r"train_data.csv: row 2: field 'MWE1': not valid UTF-8 \(byte 0xe9"):
        load_train_pairs(root)


def test_missing_file(tmp_path):
    with pytest.raises(DataError, match="train_data.csv: file not found"):
        load_train_pairs(tmp_path)


def test_gold_other_id_pointing_nowhere(tmp_path):
    root = write_semeval_tree(
        tmp_path, dev=B_DEV_HEADER + "1,EN,x,None,a,b\n", gold=B_GOLD_HEADER + "1,dev.EN.1.1,EN,,99\n"
    )
    with pytest.raises(DataError, match=r"dev.gold.csv: row 1: field 'otherID': '99' points to no pair"):
        load_subtask_b(root, "dev")


def test_gold_without_sim_or_other_id(tmp_path):
    path = tmp_path / "gold.csv"
    path.write_text(B_GOLD_HEADER + "1,dev.EN.1.1,EN,,\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1: field 'sim': is empty and otherID is empty"):
        load_2b_gold(path)


def test_gold_id_not_in_pairs(tmp_path):
    root = write_semeval_tree(
        tmp_path, dev=B_DEV_HEADER + "1,EN,x,None,a,b\n", gold=B_GOLD_HEADER + "2,dev.EN.1.1,EN,1,\n"
    )
    with pytest.raises(DataError, match=r"row 1: field 'ID': '2' is not an ID of the pair file"):
        load_subtask_b(root, "dev")


def test_lenient_mode_counts_skipped_rows(tmp_path, caplog):
    body = B_TRAIN_HEADER + GOOD_TRAIN_ROW + "t2,big fish,None,XX,a,b,1,,\n" + "t3,big fish,None,EN,a,,1,,\n"
    root = write_semeval_tree(tmp_path, train=body)
    with caplog.at_level(logging.WARNING):
        rows = load_train_pairs(root, strict=False)
    assert [r.id for r in rows] == ["t1"]
    assert "skipped 2 bad row(s)" in caplog.text


def test_the_2a_loader_reads_the_four_subtask_a_files_under_the_semeval_root(tmp_path):
    root = semeval_root(tmp_path)
    assert {name: path.relative_to(root).as_posix() for name, path in data_paths(tmp_path).items()} == {
        "train_zero_shot": "SubTaskA/Data/train_zero_shot.csv",
        "train_one_shot": "SubTaskA/Data/train_one_shot.csv",
        "dev": "SubTaskA/Data/dev.csv",
        "dev_gold": "SubTaskA/Data/dev_gold.csv",
    }
