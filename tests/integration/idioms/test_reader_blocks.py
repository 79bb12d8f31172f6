"""The scorecard's 2A and AdMIRe blocks reach the model through its idiom reader: on a tiny tree whose dev / test
sentences hold an idiom the reader rewrites, minilm with the reader predicts otherwise than minilm alone (both
blocks pool the idiom's span, late chunking, which once tokenized the raw text and ignored the reader)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from idiomkit.data.admire import COLUMNS
from idiomkit.idioms import Lexicon
from idiomkit.reader_api import add_reader
from idiomkit.scorecard.blocks import run_block
from idiomkit.tasks import EvalContext

LEX = Lexicon.from_pairs([("kick the bucket", "to die"), ("bad apple", "troublemaker")])

A_TRAIN = "DataID,Language,MWE,Setting,Previous,Target,Next,Label\n" + "".join(
    f"t{i},EN,{mwe},zero_shot,,{target},,{label}\n"
    for i, (mwe, target, label) in enumerate(
        [
            ("died", "The old man died in his sleep.", 0),
            ("passed away", "Her grandmother passed away last spring.", 0),
            ("perished", "Many sailors perished at sea.", 0),
            ("lost his life", "He lost his life in the war.", 0),
            ("kicked the ball", "The boy kicked the ball hard.", 1),
            ("kicked the door", "She kicked the door open.", 1),
            ("filled the bucket", "He filled the bucket with water.", 1),
            ("kicked the can", "They kicked the can down the street.", 1),
        ]
    )
)
A_DEV = (
    "ID,Language,MWE,Previous,Target,Next\n"
    "d1,EN,kick the bucket,,After a long illness the old farmer kicked the bucket.,\n"
    "d2,EN,kicked the ball,,The striker kicked the ball into the net.,\n"
)
A_GOLD = "ID,DataID,Language,Label\nd1,dev.1,EN,0\nd2,dev.2,EN,1\n"
CAPTIONS = [
    "a rotten apple on a kitchen table",
    "a person who causes trouble for the whole group",
    "a basket of fresh fruit",
    "a blue car on a road",
    "children playing football",
]


def admire_tsv(sentence: str) -> str:
    row = {
        "compound": "bad apple",
        "subset": "Test",
        "sentence_type": "idiomatic",
        "sentence": sentence,
        "expected_order": str(["1.png", "0.png", "2.png", "3.png", "4.png"]),
    }
    for i, caption in enumerate(CAPTIONS):
        row[f"image{i + 1}_name"], row[f"image{i + 1}_caption"] = f"{i}.png", caption
    return "\t".join(COLUMNS) + "\n" + "\t".join(row[c] for c in COLUMNS) + "\n"


@pytest.fixture(scope="module")
def tiny_tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("reader-blocks")
    a = root / "semeval2022_task2" / "SubTaskA" / "Data"
    a.mkdir(parents=True)
    for name, body in (("train_zero_shot.csv", A_TRAIN), ("dev.csv", A_DEV), ("dev_gold.csv", A_GOLD)):
        (a / name).write_text(body, encoding="utf-8")
    admire = root / "admire" / "en"
    admire.mkdir(parents=True)
    (admire / "subtask_a_dev.tsv").write_text(admire_tsv("Tom is the bad apple of the team."), encoding="utf-8")
    (admire / "subtask_a_test.tsv").write_text(admire_tsv("Every class has one bad apple."), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def with_reader(minilm):
    return add_reader(copy.deepcopy(minilm), mode="replace", lexicon=LEX, sense="none")


def test_the_2a_block_predicts_from_the_rewritten_sentence(tiny_tree, minilm, with_reader):
    ctx = EvalContext(tiny_tree, batch_size=4, show_progress_bar=False)
    plain = run_block(minilm, "semeval2a", ctx, "plain").predictions["semeval2a.submission.csv"]
    read = run_block(with_reader, "semeval2a", ctx, "plain").predictions["semeval2a.submission.csv"]
    assert "d1,EN,zero_shot,1" in plain  # "kicked the bucket" pooled as it is: like kicking a ball (literal)
    assert "d1,EN,zero_shot,0" in read  # pooled over "died": idiomatic
    assert "d2,EN,zero_shot,1" in plain and "d2,EN,zero_shot,1" in read  # no idiom: the same


def test_the_admire_block_ranks_from_the_rewritten_sentence(tiny_tree, minilm, with_reader):
    ctx = EvalContext(tiny_tree, batch_size=4, show_progress_bar=False, quick=True)
    plain, read = (
        run_block(minilm, "admire", ctx, "plain").predictions,
        run_block(with_reader, "admire", ctx, "plain").predictions,
    )
    for name in ("admire-pool.predictions.tsv", "admire-test.predictions.tsv"):
        plain_row, read_row = plain[name].splitlines()[1].split("\t"), read[name].splitlines()[1].split("\t")
        assert plain_row[4] != read_row[4]  # the five cosines
        assert read_row[3].startswith("['1.png'")  # "troublemaker": the person who causes trouble comes first
