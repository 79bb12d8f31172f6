"""The cross-encoder sense check (:mod:`idiomkit.idioms.sense_encoder`) on its real base, me5-small-enpt, with
fresh (untrained) adapters: the input it builds, saving and loading, the refusals of a changed or unsafe file, the
batched scoring the reader relies on, and a model folder that keeps it."""

from __future__ import annotations

import copy
import json
import math
from types import SimpleNamespace

import numpy as np
import pytest

from idiomkit.data.errors import DataError
from idiomkit.idioms import Lexicon
from idiomkit.idioms.rewrite import threshold_of
from idiomkit.idioms.sense import SenseCheck
from idiomkit.idioms.sense_encoder import EncoderSenseCheck, build_model, encode_batch, marked_text, state_dict
from idiomkit.idioms.senses import load_sense
from idiomkit.models import load_model
from idiomkit.reader_api import add_reader

ITEMS = [
    ("The fisherman landed a big fish.", 22, 30),
    ("The CEO is a big fish in this town.", 13, 21),
    ("After years of illness, the old farmer finally kicked the bucket.", 47, 64),
]


@pytest.fixture(scope="module")
def check() -> EncoderSenseCheck:
    import torch

    torch.manual_seed(0)
    model, _ = build_model(rank=2, alpha=4)
    with torch.no_grad():  # fresh LoRA B matrices are zero: give the adapters a visible effect
        for p in model.parameters():
            if p.requires_grad:
                p.normal_(0.0, 0.05)
    return EncoderSenseCheck(state_dict(model), {"rank": 2, "alpha": 4, "max_length": 64, "threshold": 0.5})


@pytest.fixture(scope="module")
def saved(check, tmp_path_factory):
    return check.save(tmp_path_factory.mktemp("sense") / "sense.json")


def test_the_input_marks_the_span_and_keeps_its_offsets():
    text, start, end = marked_text("He kicked the bucket.", 3, 20)
    assert text == "query: He «kicked the bucket»." and text[start:end] == "kicked the bucket"
    long = "word " * 200 + "kicked the bucket" + " word" * 200
    text, start, end = marked_text(long, 1000, 1017)
    assert text[start:end] == "kicked the bucket" and len(text) < 700


def test_the_span_mask_covers_the_span_tokens(check):
    check._ensure()
    batch = encode_batch(check._tokenizer, ITEMS, 64)
    tokens = check._tokenizer.convert_ids_to_tokens(batch["input_ids"][2])
    inside = "".join(t for t, m in zip(tokens, batch["span_mask"][2].tolist(), strict=True) if m).replace("▁", "")
    assert inside == "kickedthebucket"


def test_save_and_load_give_the_same_probabilities(check, saved):
    loaded = load_sense(saved)
    assert isinstance(loaded, EncoderSenseCheck)
    np.testing.assert_allclose(loaded.probabilities(ITEMS), check.probabilities(ITEMS), atol=1e-5)
    assert all(0.0 < p < 1.0 for p in loaded.probabilities(ITEMS))
    assert len(set(np.round(loaded.probabilities(ITEMS), 4))) == len(ITEMS)  # the adapters see the context


def test_load_sense_reads_a_feature_model_too(tmp_path):
    path = SenseCheck({"w:x": 1.0}, 0.0, 0.5, ("window",)).save(tmp_path / "f.json")
    assert isinstance(load_sense(path), SenseCheck)


def _copy(saved, tmp_path):
    for part in (saved, saved.with_suffix(".safetensors")):
        (tmp_path / part.name).write_bytes(part.read_bytes())
    return tmp_path / saved.name


def test_a_changed_weights_file_is_refused(saved, tmp_path):
    path = _copy(saved, tmp_path)
    weights = path.with_suffix(".safetensors")
    data = bytearray(weights.read_bytes())
    data[-3] ^= 0xFF
    weights.write_bytes(bytes(data))
    with pytest.raises(DataError, match="sha256 differs"):
        load_sense(path)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("threshold", math.nan, "finite"),
        ("threshold", 1.5, "within"),
        ("thresholds", {"PT": 1.5}, "PT: 1.5 is not a number within"),
        ("thresholds", [0.3], "language -> threshold mapping"),
        ("rank", "eight", "finite"),
        ("weights", "../sense.safetensors", "plain file beside"),
        ("format", "other", "not a sense encoder"),
    ],
)
def test_bad_fields_are_refused_in_one_line(saved, tmp_path, field, value, message):
    path = _copy(saved, tmp_path)
    data = json.loads(path.read_text())
    data[field] = value
    path.write_text(json.dumps(data))
    with pytest.raises(DataError, match=message) as err:
        load_sense(path) if field != "format" else EncoderSenseCheck.load(path)
    assert "\n" not in str(err.value)


def test_a_threshold_per_language_decides_each_match_by_its_language(saved, tmp_path):
    """The saved thresholds come back; a match is judged against its own language's threshold, a language without
    one against ``threshold``; the rewriter asks for the same threshold."""
    path = _copy(saved, tmp_path)
    data = json.loads(path.read_text())
    data["thresholds"] = {"EN": 0.0, "PT": 1.0}
    path.write_text(json.dumps(data))
    loaded = load_sense(path)
    sentence = "He kicked the bucket."
    start = sentence.index("kicked")
    match = SimpleNamespace(start=start, end=start + len("kicked the bucket"), idiom="kick the bucket")
    assert [loaded.threshold_for(code) for code in ("EN", "PT", "XX")] == [0.0, 1.0, 0.5]
    assert [threshold_of(loaded, code) for code in ("EN", "PT")] == [0.0, 1.0]
    assert loaded.is_figurative(sentence, SimpleNamespace(**vars(match), language="EN"))
    assert not loaded.is_figurative(sentence, SimpleNamespace(**vars(match), language="PT"))


def test_a_linked_weights_file_is_refused(saved, tmp_path):
    path = _copy(saved, tmp_path)
    weights = path.with_suffix(".safetensors")
    outside = tmp_path.parent / f"outside-{tmp_path.name}.safetensors"
    outside.write_bytes(weights.read_bytes())
    weights.unlink()
    weights.symlink_to(outside)
    with pytest.raises(DataError, match="plain file beside"):
        load_sense(path)


def test_prefetch_scores_once_in_batches(saved):
    loaded = load_sense(saved)
    loaded._ensure()
    calls = []
    model = loaded._model

    def counting(**batch):
        calls.append(batch["input_ids"].shape[0])
        return model(**batch)

    loaded._model = counting
    loaded.prefetch(ITEMS * 3)
    assert calls == [len(ITEMS)]
    for sentence, start, end in ITEMS:
        loaded.score(sentence, start, end)
    assert calls == [len(ITEMS)]


def test_a_model_folder_keeps_the_encoder_sense_check(minilm, saved, tmp_path):
    lexicon = Lexicon.from_pairs([("kick the bucket", "to die"), ("big fish", "an important person")])
    model = add_reader(copy.deepcopy(minilm), mode="mark", lexicon=lexicon, sense=saved)
    model.save(str(tmp_path / "m"))
    assert (tmp_path / "m" / "0_IdiomReader" / "sense.safetensors").is_file()
    loaded = load_model(str(tmp_path / "m"))
    assert isinstance(loaded[0].sense, EncoderSenseCheck)
    texts = [t for t, _, _ in ITEMS]
    assert loaded[0].rewrite_inputs(texts) == model[0].rewrite_inputs(texts)
    np.testing.assert_allclose(loaded.encode(texts), model.encode(texts), atol=1e-5)


def test_capping_keeps_sources_with_many_idioms_whole_and_cuts_the_others():
    from idiomkit.idioms.sense_encoder_training import capped
    from idiomkit.idioms.sense_training import Sample

    few = [Sample(f"s{i}", 0, 1, f"idiom {i % 2}", "EN", i % 4 == 0, "few") for i in range(400)]
    many = [Sample(f"t{i}", 0, 1, f"idiom {i}", "EN", True, "many") for i in range(60)]
    kept = capped(few + many, cap=30, seed=0)
    assert sum(s.source == "many" for s in kept) == 60
    cells = {}
    for s in kept:
        if s.source == "few":
            cells[s.idiom, s.figurative] = cells.get((s.idiom, s.figurative), 0) + 1
    assert cells == {("idiom 0", True): 30, ("idiom 0", False): 30, ("idiom 1", False): 30}
    assert capped(few + many, cap=30, seed=0) == kept
