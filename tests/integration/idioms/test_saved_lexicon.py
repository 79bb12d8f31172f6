"""What a user loads knows every idiom; scoring reads with the evaluation lexicon: a saved model's reader gets the
full shipped lexicon (:func:`~idiomkit.idioms.reader.ship_full_lexicon`, called by training's ``save_plain``), and
the scorecard swaps the evaluation lexicon in for a model that carries its own reader, saying so in the card."""

from __future__ import annotations

import copy

from idiomkit.idioms import Lexicon
from idiomkit.idioms.reader import model_reader
from idiomkit.idioms.sources import default_lexicon, evaluation_lexicon
from idiomkit.models import load_model
from idiomkit.reader_api import add_reader
from idiomkit.scorecard.run import scoring_lexicon
from idiomkit.training.checkpoints import save_plain

TINY = Lexicon.from_pairs([("kick the bucket", "to die")])


def test_a_saved_model_reads_with_the_full_shipped_lexicon(minilm, tmp_path):
    model = add_reader(copy.deepcopy(minilm), mode="replace", lexicon=TINY, sense="none")
    save_plain(model, tmp_path / "m")
    assert len(model_reader(model).lexicon) == 1  # the model in memory is left as it was
    loaded = model_reader(load_model(str(tmp_path / "m")))
    assert len(loaded.lexicon) == len(default_lexicon()) > 1_000
    assert loaded.mode == "replace"


def test_scoring_swaps_in_the_evaluation_lexicon_and_records_it(minilm, data_dir):
    model = add_reader(copy.deepcopy(minilm), mode="gloss", lexicon=default_lexicon(), sense="none")
    extra = {}
    scored = scoring_lexicon(model, model_reader(model), data_dir, extra)
    reader = model_reader(scored)
    assert len(reader.lexicon) == len(evaluation_lexicon(data_dir)) < len(default_lexicon())
    assert reader.mode == "gloss" and extra["lexicon"] == "evaluation"
    assert extra["reader"]["swapped_from"] == len(default_lexicon())
