"""The idiom reader without model weights: rewriting modes, the sense check's literal decision, untouched ordinary
text, the sentence-transformers module's preprocess hook and save/load, and the ``idiomkit read`` command."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch
from helpers import runner
from helpers.bad_inputs import assert_one_line_error

from idiomkit.cli import app
from idiomkit.idioms import Lexicon
from idiomkit.idioms.morphology_en import inflect, verb_form
from idiomkit.idioms.reader import IdiomReader, encoder_module
from idiomkit.idioms.rewrite import Rewriter
from idiomkit.reader_api import add_reader, read, reading_rows

LEX = Lexicon.from_pairs(
    [
        ("kick the bucket", "to die"),
        ("a piece of cake", "easy"),
        ("big fish", "important person"),
        ("spill the beans", "to reveal a secret"),
    ]
)
LEX.add("pão duro", "PT", "avarento", "user")
LEX.add("a meu ver", "PT", "in my opinion", "lidioms", meaning_language="EN")


@dataclass
class Stub:
    """A sense check that says the same probability for every match."""

    probability: float
    threshold: float = 0.5

    def figurative_probability(self, sentence, match) -> float:
        return self.probability


@pytest.mark.parametrize(
    ("mode", "text", "expected"),
    [
        ("mark", "She finally kicked the bucket.", "She finally «kicked the bucket»."),
        ("gloss", "She finally kicked the bucket.", "She finally kicked the bucket (to die)."),
        ("replace", "She finally kicked the bucket.", "She finally died."),
        ("replace", "He is kicking the bucket", "He is dying"),
        ("replace", "Kick the bucket, he said.", "Die, he said."),
        ("replace", "That exam was a piece of cake.", "That exam was easy."),
        ("replace", "He is a big fish here.", "He is an important person here."),
        ("replace", "Ele é um pão duro.", "Ele é um avarento."),
        ("replace", "A meu ver, está certo.", "A meu ver (in my opinion), está certo."),  # English meaning: glossed
    ],
)
def test_modes(mode, text, expected):
    assert Rewriter(LEX, mode).rewrite(text) == expected


def test_a_literal_use_is_left_alone_and_ordinary_text_is_untouched():
    text = "The fisherman kicked the bucket over."
    reading = Rewriter(LEX, "replace", sense=Stub(0.1)).read(text)
    assert reading.rewritten == text and not reading.changed
    (found,) = reading.found
    assert (found.probability, found.figurative, found.replacement) == (0.1, False, None)
    assert Rewriter(LEX, "replace", sense=Stub(0.9)).rewrite(text) == "The fisherman died over."
    ordinary = "Nothing idiomatic here: a bucket, a kick, some beans."
    assert Rewriter(LEX, "gloss").rewrite(ordinary) is ordinary


def span_of(text: str, part: str) -> tuple[int, int]:
    start = text.index(part)
    return start, start + len(part)


@pytest.mark.parametrize(
    ("mode", "part", "expected"),
    [
        ("replace", "That exam", "That exam"),  # before every rewritten idiom: unmoved
        ("replace", "a piece of cake", "easy"),  # the idiom (its dropped article too): its replacement
        ("replace", "piece of cake", "easy"),
        ("replace", "cake", "easy"),  # inside the idiom: all of its replacement
        ("replace", "exam was a piece", "exam was easy"),  # reaching into it from before
        ("replace", ", so he", ", so he"),  # between two rewritten idioms: moved by the first one
        ("replace", "big fish", "an important person"),  # "a" became "an": the article is part of the edit
        ("replace", "bucket.", "died."),  # reaching out of the last idiom
        ("replace", "Later.", "Later."),  # after every rewritten idiom: moved by all of them
        ("gloss", "kicked the bucket", "kicked the bucket (to die)"),
        ("gloss", "Later.", "Later."),
        ("mark", "piece of cake", "«piece of cake»"),
        ("mark", "was a", "was a"),
    ],
)
def test_a_span_moves_with_the_rewrite(mode, part, expected):
    reading = Rewriter(LEX, mode).read("That exam was a piece of cake, so he said a big fish kicked the bucket. Later.")
    start, end = reading.map_span(*span_of(reading.text, part))
    assert reading.rewritten[start:end] == expected


def test_a_span_in_an_unchanged_text_stays_put():
    reading = Rewriter(LEX, "replace", sense=Stub(0.1)).read("The fisherman kicked the bucket over.")
    assert reading.edits == () and reading.map_span(4, 13) == (4, 13)


def test_verb_inflection():
    assert [verb_form(t, "kick") for t in ("kick", "kicked", "kicking", "kicks")] == ["base", "past", "ing", "s"]
    assert verb_form("spilt", "spill") == "past" and verb_form("went", "go") == "past"
    assert [inflect("die", f) for f in ("base", "past", "ing", "s")] == ["die", "died", "dying", "dies"]
    assert (inflect("stop", "past"), inflect("try", "s"), inflect("go", "past"), inflect("reveal", "ing")) == (
        "stopped",
        "tries",
        "went",
        "revealing",
    )


class Tokenizing(torch.nn.Module):
    """A stand-in for the Transformer module: records what it is asked to preprocess."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list = []
        self.max_seq_length = 128

    def preprocess(self, inputs, prompt=None, **kwargs):
        self.seen.append((list(inputs), prompt))
        return {"n": len(inputs)}

    def forward(self, features):
        return features


def test_the_module_rewrites_before_the_next_module_preprocesses():
    from sentence_transformers import SentenceTransformer

    reader, inner = IdiomReader(LEX, mode="replace"), Tokenizing()
    model = SentenceTransformer(modules=[reader, inner], device="cpu")
    model.preprocess(["he kicked the bucket", ("a piece of cake", "plain"), "plain text"], prompt="query: ")
    assert inner.seen == [(["he died", ("easy", "plain"), "plain text"], "query: ")]
    assert model.modalities == ["text"] and reader.forward({"x": 1}) == {"x": 1}


def test_what_sentence_transformers_asks_its_first_module_is_the_next_modules():
    """``SentenceTransformer.tokenizer`` (get and set), ``.processor`` and ``.max_seq_length`` (get and set) read
    ``model[0]``: a reader in front hands each to the module behind it; the encoder is ``encoder_module``'s."""
    from sentence_transformers import SentenceTransformer

    inner = Tokenizing()
    inner.tokenizer, inner.processor = "a tokenizer", "a processor"
    model = SentenceTransformer(modules=[IdiomReader(LEX), inner], device="cpu")
    assert (model.tokenizer, model.processor, model.max_seq_length) == ("a tokenizer", "a processor", 128)
    model.tokenizer, model.max_seq_length = "another tokenizer", 64
    assert (inner.tokenizer, inner.max_seq_length) == ("another tokenizer", 64)
    plain = Tokenizing()
    assert encoder_module(model) is inner and encoder_module(SentenceTransformer(modules=[plain])) is plain


def test_the_module_leaves_a_literal_use_alone():
    from sentence_transformers import SentenceTransformer

    inner = Tokenizing()
    model = SentenceTransformer(modules=[IdiomReader(LEX, sense=Stub(0.1)), inner], device="cpu")
    model.preprocess(["the fisherman kicked the bucket over"])
    assert inner.seen == [(["the fisherman kicked the bucket over"], None)]


def test_model_inputs_are_what_the_first_module_hands_its_tokenizer():
    from sentence_transformers import SentenceTransformer

    from idiomkit.idioms.reader import model_inputs

    texts, spans = ["He kicked the bucket today.", "plain text"], [(3, 20), None]
    model = SentenceTransformer(modules=[IdiomReader(LEX, mode="replace"), Tokenizing()], device="cpu")
    assert model_inputs(model, texts, spans) == (["He died today.", "plain text"], [(3, 7), None])
    assert model_inputs(model, texts) == (["He died today.", "plain text"], None)
    plain = SentenceTransformer(modules=[Tokenizing()], device="cpu")
    assert model_inputs(plain, texts, spans) == (texts, spans)


def test_add_reader_goes_first_and_replaces_an_earlier_reader():
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(modules=[Tokenizing()], device="cpu")
    add_reader(model, mode="mark", lexicon=LEX, sense="none")
    add_reader(model, mode="gloss", lexicon=LEX, sense="none")
    assert [type(m).__name__ for m in model] == ["IdiomReader", "Tokenizing"] and model[0].mode == "gloss"
    model.preprocess(["kick the bucket"])
    assert model[1].seen[-1][0] == ["kick the bucket (to die)"]


def test_the_module_saves_and_loads_its_lexicon_and_sense_check(tmp_path):
    from idiomkit.idioms.sense import SenseCheck

    sense = SenseCheck(weights={"lang=EN": 2.0}, bias=0.0, threshold=0.6)
    IdiomReader(LEX, mode="gloss", sense=sense, language="EN").save(str(tmp_path))
    assert {p.name for p in tmp_path.iterdir()} == {"idiom_reader.json", "lexicon.tsv", "sense.json"}
    loaded = IdiomReader.load(str(tmp_path))
    assert (loaded.mode, loaded.language, loaded.sense.threshold) == ("gloss", "EN", 0.6)
    assert list(loaded.lexicon.rows()) == list(LEX.rows())
    with pytest.raises(TypeError, match="no save"):
        IdiomReader(LEX, sense=Stub(0.1)).save(str(tmp_path / "stub"))


def saved_reader(tmp_path, edit) -> Path:
    """A model directory whose only module is a saved reader, its ``idiom_reader.json`` changed by ``edit``."""
    folder = tmp_path / "model" / "0_IdiomReader"
    IdiomReader(LEX, mode="gloss").save(str(folder))
    config = folder / "idiom_reader.json"
    config.write_text(edit(config.read_text(encoding="utf-8")), encoding="utf-8")
    reader_type = "idiomkit.idioms.reader.IdiomReader"
    modules = [{"idx": 0, "name": "idiom_reader", "path": "0_IdiomReader", "type": reader_type}]
    (tmp_path / "model" / "modules.json").write_text(json.dumps(modules), encoding="utf-8")
    (tmp_path / "model" / "model.safetensors").write_bytes(b"")  # the weights load_model looks for (never read)
    return tmp_path / "model"


def with_key(key, value):
    return lambda text: json.dumps({**json.loads(text), key: value})


BAD_CONFIGS = [
    ("unknown-key", with_key("colour", "red"), "colour", "unknown key (expected mode, language, max_gap"),
    ("truncated", lambda text: text[:30], None, "invalid or truncated JSON (line"),
    ("bad-mode", with_key("mode", "shout"), "mode", '"shout" (expected one of mark, gloss, replace)'),
    ("bad-language", with_key("language", "FR"), "language", '"FR" (expected null or one of EN, PT)'),
    ("bad-max-gap", with_key("max_gap", -1), "max_gap", "-1 (expected a whole number >= 0)"),
    ("bad-sense", with_key("sense", "yes"), "sense", '"yes" (expected true or false)'),
    ("not-an-object", lambda text: "[]", None, "a JSON object expected"),
]


@pytest.mark.parametrize(("name", "edit", "field", "problem"), BAD_CONFIGS, ids=[c[0] for c in BAD_CONFIGS])
def test_a_bad_reader_config_is_one_error_naming_file_and_field(tmp_path, name, edit, field, problem):
    from idiomkit.data.errors import DataError

    folder = saved_reader(tmp_path, edit)
    with pytest.raises(DataError) as err:
        IdiomReader.load(str(folder), subfolder="0_IdiomReader")
    assert str(err.value).startswith(str(folder / "0_IdiomReader" / "idiom_reader.json"))
    assert (err.value.field, err.value.row) == (field, None) and problem in str(err.value)
    assert (f"field '{field}'" in str(err.value)) == (field is not None) and "\n" not in str(err.value)


def test_a_reader_config_with_a_bad_byte_names_file_and_offset(tmp_path):
    from idiomkit.data.errors import DataError

    folder = saved_reader(tmp_path, lambda text: text)
    (folder / "0_IdiomReader" / "idiom_reader.json").write_bytes(b'{"mode": "caf\xe9"}')
    with pytest.raises(DataError, match=r"idiom_reader.json: not valid UTF-8 \(byte offset 13\)$"):
        IdiomReader.load(str(folder), subfolder="0_IdiomReader")


def test_embed_with_a_bad_reader_config_is_one_line_exit_2(tmp_path):
    folder = saved_reader(tmp_path, with_key("colour", "red"))
    result = runner.invoke(app, ["embed", "-m", str(folder), "she kicked the bucket"])
    assert_one_line_error(result, "idiom_reader.json", "colour", "unknown key")
    (folder / "0_IdiomReader" / "idiom_reader.json").write_text('{"mode": "gl', encoding="utf-8")
    assert_one_line_error(runner.invoke(app, ["embed", "-m", str(folder), "x"]), "idiom_reader.json", "truncated JSON")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "[" * 100_000 + "]" * 100_000])
def test_a_bad_sense_check_is_one_line_from_sense_and_from_a_model_folder(tmp_path, literal):
    """A NaN or infinite bias (or a file nested past the recursion limit) is refused where it is read: from
    ``read --sense FILE`` and from a saved model's ``0_IdiomReader/sense.json`` (``embed -m``)."""
    from idiomkit.idioms.sense import SenseCheck

    sense = SenseCheck(weights={"lang=EN": 2.0}, bias=0.0, threshold=0.6)
    text = json.dumps(sense.to_json()).replace('"bias": 0.0', f'"bias": {literal}') if len(literal) < 9 else literal
    expected = "field 'bias': " if len(literal) < 9 else "JSON nested too deeply to read"
    path = tmp_path / "sense.json"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["read", "She kicked the bucket.", "--sense", str(path)])
    assert_one_line_error(result, f"{path}: {expected}")
    folder = saved_reader(tmp_path, with_key("sense", True))
    (folder / "0_IdiomReader" / "sense.json").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["embed", "-m", str(folder), "she kicked the bucket"])
    assert_one_line_error(result, f"{folder / '0_IdiomReader' / 'sense.json'}: {expected}")


def test_one_default_read_add_reader_and_reader_options_all_judge_sense(monkeypatch):
    """``read``, ``add_reader`` and every ``--reader`` option apply the shipped sense check by default; ``"none"``
    turns it off."""
    from sentence_transformers import SentenceTransformer

    import idiomkit.models
    import idiomkit.scorecard.nearest
    import idiomkit.scorecard.run as run
    from idiomkit.idioms.senses import default_sense

    shipped = default_sense()
    assert read("She kicked the bucket.").found[0].probability is not None
    added = add_reader(SentenceTransformer(modules=[Tokenizing()], device="cpu"))[0].sense
    assert (type(added), added.threshold) == (type(shipped), shipped.threshold)
    assert add_reader(SentenceTransformer(modules=[Tokenizing()], device="cpu"), sense="none")[0].sense is None
    readers = []
    stub = lambda *a, **kw: SentenceTransformer(modules=[Tokenizing()], device="cpu")  # noqa: E731
    monkeypatch.setattr(run, "load_model", stub)
    monkeypatch.setattr(run, "write_scorecard", lambda st, *a, **kw: readers.append(st[0]))
    run.evaluate_all("minilm", reader="gloss", write=False, only=["xiao"])
    monkeypatch.setattr(idiomkit.models, "load_model", stub)  # nearest imports it when it runs
    monkeypatch.setattr(
        idiomkit.scorecard.nearest,
        "nearest_table",
        lambda models: readers.extend(m[0] for m in models.values() if isinstance(m[0], IdiomReader)) or [["model"]],
    )
    assert runner.invoke(app, ["nearest", "--reader", "mark"]).exit_code == 0
    assert [(r.mode, type(r.sense), r.sense.threshold) for r in readers] == [
        ("gloss", type(shipped), shipped.threshold),
        ("mark", type(shipped), shipped.threshold),
    ]


def test_nearest_shows_a_model_that_carries_a_reader_once(monkeypatch):
    """``nearest --reader`` adds a reader to each model without one; a model with its own (a shipped idiom-aware
    model) is shown as it is, not again with the reader replaced."""
    from sentence_transformers import SentenceTransformer

    import idiomkit.models
    import idiomkit.scorecard.nearest

    def stub(name, **kwargs):
        model = SentenceTransformer(modules=[Tokenizing()], device="cpu")
        return add_reader(model, mode="gloss", lexicon=LEX, sense="none") if name == "own" else model

    shown: list[str] = []
    monkeypatch.setattr(idiomkit.models, "load_model", stub)
    monkeypatch.setattr(idiomkit.scorecard.nearest, "nearest_table", lambda models: shown.extend(models) or [["x"]])
    assert runner.invoke(app, ["nearest", "-m", "plain", "-m", "own", "--reader", "mark"]).exit_code == 0
    assert shown == ["plain", "plain + reader", "own"]


def test_read_api_reports_probability_and_decision():
    reading = read("She kicked the bucket over the fence.", mode="gloss", lexicon=LEX, sense=Stub(0.1))
    found = reading.to_dict()["found"][0]
    assert reading.rewritten == "She kicked the bucket over the fence."
    assert found["probability"] == 0.1 and not found["figurative"] and not found["bare"]
    bare = read("She kicked the bucket.", mode="gloss", lexicon=LEX, sense=Stub(0.1))  # nothing makes it literal
    assert bare.rewritten == "She kicked the bucket (to die)." and bare.to_dict()["found"][0]["bare"]
    assert reading_rows(bare)[1][4] == "figurative (bare)"
    assert read("She kicked the bucket.", lexicon=LEX, sense=None).rewritten == "She died."


def test_read_command_table_and_json(tmp_path):
    path = tmp_path / "lex.tsv"
    LEX.to_tsv(path)
    result = runner.invoke(
        app,
        ["read", "She kicked the bucket.", "--lexicon", str(path), "--sense", "none", "--mode", "gloss"],
        terminal_width=200,
    )
    assert result.exit_code == 0, result.output
    assert "kicked the bucket" in result.output and "figurative" in result.output
    assert "gloss: She kicked the bucket (to die)." in result.output
    result = runner.invoke(
        app, ["read", "Plain words.", "She kicked the bucket.", "--lexicon", str(path), "--sense", "none", "--json"]
    )
    first, second = json.loads(result.output)
    assert first == {"text": "Plain words.", "rewritten": "Plain words.", "mode": "replace", "found": []}
    assert second["rewritten"] == "She died." and second["found"][0]["idiom"] == "kick the bucket"


def test_read_command_bad_lexicon_is_one_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("idiom\tlanguage\tmeaning\tsource\nkick the bucket\tXX\tto die\tuser\n", encoding="utf-8")
    result = runner.invoke(app, ["read", "She kicked the bucket.", "--lexicon", str(bad)])
    assert_one_line_error(result, "bad.tsv", "row 1", "language")
    assert_one_line_error(runner.invoke(app, ["read", "x", "--mode", "shout"]), "unknown mode 'shout'")


def test_read_with_the_feature_sense_check_needs_no_model_libraries():
    """The default sense check is a cross-encoder (torch); ``--sense features`` reads with no model library."""
    import subprocess
    import sys

    code = (
        "import sys; from typer.testing import CliRunner; from idiomkit.cli import app; "
        "r = CliRunner().invoke(app, ['read', 'She kicked the bucket.', '--json', '--sense', 'features']); "
        "assert r.exit_code == 0, r.output; "
        "print(*[m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "", out.stderr


def test_a_sentence_is_read_with_the_idioms_of_the_language_its_function_words_tell():
    from idiomkit.idioms.rewrite import text_language

    assert text_language("Ele pisou na bola de novo.") == "PT"  # ele, na, de: three Portuguese cue words
    assert text_language("He kicked the bucket.") == "EN"  # he, the
    assert text_language("Kick the bucket") is None  # one cue word: too little to tell, both languages
    assert text_language("He started over de novo.") is None  # he against de: mixed
    lex = Lexicon()
    lex.add("de novo", "EN", "anew", "wordnet")
    lex.add("pisar na bola", "PT", "errar", "lidioms")
    rewriter = Rewriter(lex, mode="gloss")
    assert rewriter.rewrite("Ele pisou na bola de novo.") == "Ele pisou na bola (errar) de novo."
    assert (
        rewriter.rewrite("The team had to start the work de novo.") == "The team had to start the work de novo (anew)."
    )
    assert rewriter.rewrite("He started over de novo.") == "He started over de novo (anew)."  # both: as before
    assert Rewriter(lex, mode="gloss", language="EN").rewrite("Ele pisou na bola de novo.").endswith("de novo (anew).")
    mixed = "The team had to start the work de novo. Ele pisou na bola de novo."  # each sentence its own language
    assert (
        rewriter.rewrite(mixed) == "The team had to start the work de novo (anew). Ele pisou na bola (errar) de novo."
    )


def test_read_all_asks_a_batching_sense_check_once_and_reads_as_read_does():
    """``Rewriter.read_all`` (what the reader module uses for a batch of texts) hands a sense check that scores in
    batches every match of every text in one ``prefetch`` call, then reads each text exactly as ``read`` does."""
    from idiomkit.idioms.rewrite import Rewriter

    class Batching:
        threshold = 0.5

        def __init__(self):
            self.batches = []

        def prefetch(self, items):
            self.batches.append(list(items))

        def figurative_probability(self, text, match):
            return 0.9 if "finally" in text else 0.1

    lexicon = Lexicon.from_pairs([("kick the bucket", "to die"), ("spill the beans", "reveal a secret")])
    texts = [
        "He finally kicked the bucket.",
        "She spilled the beans.",
        "Nothing here.",
        "He kicked the bucket down the stairs.",
    ]
    sense = Batching()
    rewriter = Rewriter(lexicon, "replace", sense)
    readings = rewriter.read_all(texts)
    assert sense.batches == [
        [(t, m.match.start, m.match.end) for t, r in zip(texts, readings, strict=True) for m in r.found]
    ]
    assert len(sense.batches[0]) == 3
    assert [r.rewritten for r in readings] == [rewriter.read(t).rewritten for t in texts]
    assert readings[0].rewritten == "He finally died." and readings[3].rewritten == texts[3]
