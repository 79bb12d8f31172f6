"""``idiomkit evaluate all`` / :func:`evaluate_all`: the scorecard of one model (its options:
:class:`ScorecardOptions`, the one source of the command-line flags and the API's checks; how the model is run:
:class:`~idiomkit.run_options.RunOptions`, shared with ``idiomkit evaluate TASK``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from idiomkit.api import auto_prompt_name, made_by
from idiomkit.errors import OptionError, api_errors
from idiomkit.idioms.evaluation_reader import with_reader
from idiomkit.idioms.reader import attach_reader, model_reader
from idiomkit.idioms.sources import evaluation_lexicon
from idiomkit.idioms.version import reader_record
from idiomkit.models import load_model, resolve_name
from idiomkit.options import make_options
from idiomkit.reader_api import MODES
from idiomkit.results import check_writable_dir, reader_recipe
from idiomkit.run_options import RunOptions, check_run_options, split_run_options, with_seed_of
from idiomkit.scorecard.blocks import BLOCKS
from idiomkit.scorecard.partial import BlockStore
from idiomkit.scorecard.result import (
    TASK,
    TRACK_CHOICES,
    Scorecard,
    ScorecardSpec,
    selected_blocks,
    tracks_of,
    write_scorecard,
)
from idiomkit.scorecard.table import (  # noqa: F401  (the CLI reads them here)
    comparison_rows,
    published_scorecards,
    update_model_card,
    write_figure,
    write_table,
)
from idiomkit.settings import default_data_dir, default_results_dir, seed_everything
from idiomkit.tasks import EvalContext

log = logging.getLogger(__name__)


@dataclass
class ScorecardOptions:
    """``idiomkit evaluate all`` options: the flags (:func:`idiomkit.options.parse_options`) and the keyword values
    :func:`evaluate_all` takes (checked against the same choices)."""

    track: str = field(default="plain", metadata={"choices": TRACK_CHOICES, "help": "plain, marked or both"})
    quick: bool = field(default=False, metadata={"help": "fixed small slices of each benchmark (about a minute)"})
    only: list[str] = field(
        default_factory=list, metadata={"choices": tuple(BLOCKS), "help": "only these blocks (repeatable)"}
    )
    reader: str | None = field(
        default=None,
        metadata={
            "choices": MODES,
            "help": "put the idiom reader (this mode, the evaluation lexicon: "
            "the shipped one minus held-out idioms, and the sense check) in front of the model",
        },
    )


def scorecard_options(options: ScorecardOptions | None, values: dict[str, Any]) -> ScorecardOptions:
    """``options``, or one built from keyword ``values`` (None: the default); an option it does not have or a value
    outside its choices is a one-line OptionError."""
    if options is not None:
        if values:
            raise OptionError("evaluate all: give one ScorecardOptions or keyword values, not both")
        values = {f: getattr(options, f) for f in ScorecardOptions.__dataclass_fields__}
    return make_options(ScorecardOptions, {k: v for k, v in values.items() if v is not None}, "evaluate all")


def reader_in_front(st, mode: str, data_dir: Path, recipe: str, extra: dict[str, Any]):
    """The model with the idiom reader in ``mode`` in front (:func:`~idiomkit.idioms.evaluation_reader.with_reader`:
    the evaluation lexicon, the shipped sense check), its recipe ``<recipe>+reader-<mode>``; records the reader in
    ``extra``."""
    lexicon = evaluation_lexicon(data_dir)
    extra["reader"], extra["lexicon"] = {"mode": mode, "lexicon": len(lexicon)}, "evaluation"
    return with_reader(st, data_dir, mode, lexicon), reader_recipe(recipe, mode)


def scoring_lexicon(st, reader, data_dir: Path, extra: dict[str, Any]):
    """A model that carries its own reader (a trained or shipped model: the full lexicon) is scored with the
    evaluation lexicon swapped in (the shipped one minus every held-out idiom); ``extra`` records the swap."""
    lexicon = evaluation_lexicon(data_dir)
    extra["lexicon"] = "evaluation"
    extra["reader"] = {"mode": reader.mode, "lexicon": len(lexicon), "swapped_from": len(reader.lexicon)}
    return attach_reader(st, reader.with_lexicon(lexicon))


@api_errors
def evaluate_all(
    model: str = "minilm", options: ScorecardOptions | None = None, *, run: RunOptions | None = None, **values: Any
) -> list[Scorecard]:
    """Score one frozen model on every benchmark (``only``: some blocks) in ``track`` (plain, marked or both);
    ``options`` is a :class:`ScorecardOptions`, or give its fields as keyword ``values``; so is ``run``, the
    :class:`~idiomkit.run_options.RunOptions` (pooling, prompt, recipe, seed, folders, ``write``, batch size, the
    model's name in the result file).

    Writes ``<results_dir>/scorecard/<model>__<recipe>__<track>[-quick]__seed<N>.json`` with the raw predictions
    of every block beside it (written first); a scorecard killed part-way resumes at its first unfinished block
    (:mod:`~idiomkit.scorecard.partial`). A directory made by ``idiomkit train`` is named by its recipe;
    ``reader`` (a mode) puts the idiom reader in front of the model (recipe ``<recipe>+reader-<mode>``).

    Example::

        scorecards = evaluate_all("minilm", track="both", quick=True)
        scorecards[0].record.metrics["meaning-triples"]["heldout"]["accuracy"]
    """
    run, values = split_run_options(run, values, "evaluate all")
    opts = scorecard_options(options, values)
    check_run_options(run, "evaluate all")
    blocks = selected_blocks(opts.only or None, opts.quick)
    results, data = Path(run.results_dir or default_results_dir()), Path(run.data_dir or default_data_dir())
    if run.write:
        check_writable_dir(results / TASK, "results directory")
    made = made_by(model, run.recipe, run.model_name or None)
    run = with_seed_of(run, made.training)
    seed_everything(run.seed)
    training, recipe, name = made.training, made.recipe, made.model_name or resolve_name(model)
    st = load_model(model, pooling=run.pooling)
    extra: dict[str, Any] = {"pooling": run.pooling} | ({"training": training} if training else {})
    if opts.reader:
        st, recipe = reader_in_front(st, opts.reader, data, recipe, extra)
    elif (own := model_reader(st)) is not None:
        st = scoring_lexicon(st, own, data, extra)
    extra |= reader_record(model_reader(st))  # its code now; a trained model's lexicon is from its training run
    ctx = EvalContext(data, auto_prompt_name(st, run.prompt_name), run.batch_size, False, run.seed, opts.quick)
    identity = {"model": model, "name": name, "recipe": recipe, "context": ctx, "params": extra}
    store = BlockStore.for_scorecard(results / TASK if run.write else None, identity)
    cards, shared = [], {}
    for track in tracks_of(opts.track):
        spec = ScorecardSpec(name, recipe, track, blocks, results if run.write else None, bool(training), extra)
        cards.append(write_scorecard(st, ctx, spec, shared, store))
    store.clear()
    if training and run.write:
        update_model_card(Path(model), cards)
    return cards
