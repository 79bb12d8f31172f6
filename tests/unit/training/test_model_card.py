"""A trained model's card: idiomkit's top, its sections in order, the base model's card kept below, each part
rewritten in place."""

import pytest

from idiomkit.training.model_card import BASE_HEADING, MARKER, SCORECARD_HEADING, write_card_section, write_model_card

BASE_CARD = """---
license: apache-2.0
language: en
---

# all-mpnet-base-v2
This is a sentence-transformers model.

## Usage
```python
# Load model from HuggingFace Hub
model = SentenceTransformer('sentence-transformers/all-mpnet-base-v2')
```
"""

INFO = {
    "recipe": "flagship-v2",
    "label": "flagship-v2-keep10-pool-mean",
    "config": {
        "model": "mpnet",
        "seed": 1,
        "miner_margin": 0.4,
        "margin": 0.3,
        "miner_distance": "cosine",
        "pooling": "mean",
        "mwe_tokens": False,
        "lora_rank": None,
        "epochs": 1,
        "batch_size": 32,
        "lr": 3e-5,
        "warmup": 0.1,
        "max_seq_length": 64,
    },
    "reads_max_seq_length": 384,
    "steps": 303,
    "data_sha256": "abc",
    "counts": {},
    "best": {"metric": "val_mean", "value": 0.6, "step": 300},
    "validation": [],
}


def test_the_base_models_card_moves_below_and_the_top_is_idiomkits(tmp_path):
    (tmp_path / "README.md").write_text(BASE_CARD)
    write_model_card(tmp_path, INFO)
    card = (tmp_path / "README.md").read_text()
    top, base = card.split(BASE_HEADING)
    assert top.startswith("---\nlibrary_name: sentence-transformers\n") and "license: other" in top
    assert MARKER in top and "\n# flagship-v2-keep10-pool-mean\n" in top and "apache-2.0" not in top
    assert "`mpnet` (sentence-transformers/all-mpnet-base-v2) trained by idiomkit" in top
    assert "## idiomkit training" in top and "seed 1; steps 303" in top
    assert "```yaml\nlicense: apache-2.0\nlanguage: en\n```" in base  # the base's licence is kept, as text
    assert "\n### all-mpnet-base-v2\n" in base and "\n#### Usage\n" in base  # two levels down
    assert "\n# Load model from HuggingFace Hub\n" in base  # a comment in a code block is not a heading


def test_each_part_is_rewritten_in_place(tmp_path):
    (tmp_path / "README.md").write_text(BASE_CARD)
    write_model_card(tmp_path, INFO)
    write_card_section(tmp_path, f"{SCORECARD_HEADING}\n\nfirst scores")
    first = (tmp_path / "README.md").read_text()
    assert first.index("## idiomkit training") < first.index("first scores") < first.index(BASE_HEADING)
    write_card_section(tmp_path, f"{SCORECARD_HEADING}\n\nsecond scores")
    write_model_card(tmp_path, {**INFO, "steps": 400})
    card = (tmp_path / "README.md").read_text()
    assert "first scores" not in card and card.count("second scores") == 1 and "steps 400" in card
    assert card.count(BASE_HEADING) == 1 and card.count(MARKER) == 1 and card.count("all-mpnet-base-v2\n") == 1
    assert card == first.replace("first scores", "second scores").replace("steps 303", "steps 400").replace(
        "303 steps", "400 steps"
    )


def test_a_card_of_the_old_layout_gains_the_top_and_keeps_its_scores(tmp_path):
    """Before 2026-11-29 the base card was the top and idiomkit's sections were appended below it."""
    (tmp_path / "README.md").write_text(f"{BASE_CARD}\n## idiomkit training\n\nold\n\n{SCORECARD_HEADING}\n\nscores\n")
    write_model_card(tmp_path, INFO)
    card = (tmp_path / "README.md").read_text()
    assert "\nold\n" not in card and "\nscores" in card and card.count("all-mpnet-base-v2\n") == 1
    assert card.index(SCORECARD_HEADING) < card.index(BASE_HEADING)


def test_a_section_must_be_one_the_card_knows(tmp_path):
    with pytest.raises(ValueError, match="starts with one of"):
        write_card_section(tmp_path, "## Something else\n")
