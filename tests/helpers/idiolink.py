"""IdioLink: a tiny split (documents, queries, qrels) written to disk (unit/tasks, integration/tasks, unit results)."""

import json
from pathlib import Path


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
