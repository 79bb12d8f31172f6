"""Training's token cache takes a model's prompt by encode's route: the token ids a prompted (e5-style) model trains on
are those ``encode(prompt_name=...)`` tokenizes, cut at the same length, with span masks on the span's tokens."""

from __future__ import annotations

import pytest

from idiomkit.training.examples import make_examples

E5_PROMPTS = {"query": "query: ", "passage": "passage: "}
TEXTS = ["He finally kicked the bucket.", "A dog runs across the park.", "she spilled the beans " * 120]


@pytest.fixture
def prompted(minilm, monkeypatch):
    """The tiny test model with e5's prompts, and what its ``encode`` hands the model (text -> token ids)."""
    monkeypatch.setattr(minilm, "prompts", {**minilm.prompts, **E5_PROMPTS})
    seen: dict[tuple[str, str | None], list[int]] = {}
    preprocess = minilm.preprocess

    def spy(inputs, prompt=None, **kwargs):
        features = preprocess(inputs, prompt=prompt, **kwargs)
        for text, ids, mask in zip(inputs, features["input_ids"], features["attention_mask"], strict=True):
            seen[text, prompt] = ids[mask.bool()].tolist()
        return features

    monkeypatch.setattr(minilm, "preprocess", spy)
    return minilm, seen


def encoded_ids(model, seen, texts, prompt_name):
    model.encode(list(texts), prompt_name=prompt_name)
    return [seen[t, model.prompts[prompt_name]] for t in texts]


def test_training_tokens_of_a_prompted_model_are_what_encode_tokenizes(prompted):
    model, seen = prompted
    rows = [(t, t) for t in TEXTS]
    examples = make_examples(model, "x", rows, [0.0] * 3, [0, 1, 2], model.max_seq_length, prompts=["query", "passage"])
    assert examples.columns == [encoded_ids(model, seen, TEXTS, "query"), encoded_ids(model, seen, TEXTS, "passage")]
    assert examples.truncated == 2 and len(examples.columns[0][2]) == model.max_seq_length  # cut as encode cuts
    plain = model.tokenizer(TEXTS[0])["input_ids"]
    assert examples.columns[0][0] == model.tokenizer("query: " + TEXTS[0])["input_ids"] != plain  # the prompt is in
    assert make_examples(model, "x", rows[:1], [0.0], [0], 64, prompts=["", "query"]).columns[0] == [plain]


def test_rows_with_their_own_prompts_and_a_span_behind_the_prompt(prompted):
    model, seen = prompted
    rows, kinds = [(t,) for t in TEXTS[:2]], ["query", "passage"]
    start = TEXTS[0].index("the bucket")
    spans = [(start, start + len("the bucket")), None]
    examples = make_examples(model, "x", rows, [0.0] * 2, [0, 0], 64, spans=spans, row_prompts=kinds)
    assert examples.columns == [
        [*encoded_ids(model, seen, TEXTS[:1], "query"), *encoded_ids(model, seen, TEXTS[1:2], "passage")]
    ]
    tokens = model.tokenizer.convert_ids_to_tokens(examples.columns[0][0])
    assert [t for t, on in zip(tokens, examples.span_masks[0], strict=True) if on] == ["the", "bucket"]
    assert examples.span_masks[1] == [1] * len(examples.columns[0][1])  # no span: every token
