"""``idiomkit evaluate all`` / :func:`evaluate_all`: the scorecard of one model, its markdown table and its figure."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from idiomkit.api import auto_prompt_name, training_summary
from idiomkit.config import default_data_dir, default_results_dir, seed_everything
from idiomkit.errors import OptionError, api_errors
from idiomkit.models import load_model, resolve_name
from idiomkit.reading import MODES, add_reader
from idiomkit.results import atomic_write_text, check_writable_dir, load_results
from idiomkit.scorecard.blocks import BLOCKS, BlockContext
from idiomkit.scorecard.card import (
    HEADLINE,
    TASK,
    TRACK_CHOICES,
    Scorecard,
    headline,
    markdown_table,
    selected_blocks,
    tracks_of,
    write_card,
)

log = logging.getLogger(__name__)

BASELINE = ("zero-shot",)  # recipes drawn as the untrained encoder beside a model


@dataclass
class ScorecardOptions:
    """``idiomkit evaluate all`` options."""

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


@api_errors
def evaluate_all(
    model: str = "minilm",
    *,
    track: str = "plain",
    quick: bool = False,
    only: list[str] | None = None,
    pooling: str = "mean",
    prompt_name: str | None = "auto",
    recipe: str = "zero-shot",
    seed: int = 0,
    data_dir: str | Path | None = None,
    results_dir: str | Path | None = None,
    write: bool = True,
    batch_size: int = 64,
    model_name: str | None = None,
    reader: str | None = None,
) -> list[Scorecard]:
    """Score one frozen model on every benchmark (``only``: some blocks) in ``track`` (plain, marked or both).

    Writes ``<results_dir>/scorecard/<model>__<recipe>__<track>[-quick]__seed<N>.json`` with the raw predictions
    of every block beside it (written first). A directory made by ``idiomkit train`` is named by its recipe;
    ``reader`` (a mode) puts the idiom reader in front of the model (recipe ``<recipe>+reader-<mode>``).

    Example::

        cards = evaluate_all("minilm", track="both", quick=True)
        cards[0].record.metrics["meaning-triples"]["heldout"]["accuracy"]
    """
    if track not in TRACK_CHOICES:
        raise OptionError(f"unknown track '{track}' (expected one of {', '.join(TRACK_CHOICES)})")
    blocks = selected_blocks(only, quick)
    results = Path(results_dir or default_results_dir())
    if write:
        check_writable_dir(results / TASK, "results directory")
    seed_everything(seed)
    training = training_summary(model)
    if training and recipe == "zero-shot":
        recipe = training["label"]
    name = model_name or (Path(training["config"]["model"]).name if training else resolve_name(model))
    st = load_model(model, pooling=pooling)
    extra: dict[str, Any] = {"pooling": pooling, "training": training} if training else {"pooling": pooling}
    if reader:  # scoring uses the evaluation lexicon: the shipped one minus every held-out idiom, in any form
        from idiomkit.idioms.sources import evaluation_lexicon

        lexicon = evaluation_lexicon(Path(data_dir) if data_dir else default_data_dir())
        st = add_reader(st, mode=reader, lexicon=lexicon, sense="default")
        recipe, extra["reader"] = f"{recipe}+reader-{reader}", {"mode": reader, "lexicon": len(lexicon)}
        extra["lexicon"] = "evaluation"
    cards, shared = [], {}
    for one in tracks_of(track):
        ctx = BlockContext(
            Path(data_dir) if data_dir else default_data_dir(),
            one,
            quick,
            auto_prompt_name(st, prompt_name),
            batch_size,
            seed,
            trained=bool(training),
        )
        cards.append(
            write_card(
                st,
                ctx,
                model_name=name,
                recipe=recipe,
                blocks=blocks,
                results_dir=results if write else None,
                extra_params=extra,
                shared=shared,
            )
        )
    if training and write:
        update_model_card(Path(model), cards)
    return cards


CARD_HEADING = "## idiomkit scorecard"


def update_model_card(model_dir: Path, cards: list[Scorecard]) -> Path:
    """Replace the scorecard section of ``model_dir/README.md`` (the model card) with these cards' numbers."""
    card = model_dir / "README.md"
    text = card.read_text(encoding="utf-8") if card.exists() else "# idiomkit model\n"
    text = text.split(CARD_HEADING, 1)[0].rstrip("\n")
    rows = [
        (f"{c.record.params['track']} track{' (quick)' if c.record.params['quick'] else ''}", c.record.metrics)
        for c in cards
    ]
    section = f"{CARD_HEADING}\n\n`idiomkit evaluate all` (seed {cards[0].record.seed}):\n\n{markdown_table(rows)}"
    return atomic_write_text(card, f"{text}\n\n{section}")


def published_cards(results_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """Every scorecard result record under ``results_dir`` and under the project's results (the published rows)."""
    roots = dict.fromkeys(Path(p).resolve() for p in (results_dir or default_results_dir(), default_results_dir()))
    return [rec for root in roots for path, rec in load_results(root) if path.parent.name == TASK]


def comparison_rows(card: Scorecard, published: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The card, the untrained encoder of the same model (same track and quick mode) and the other published rows."""
    rec = card.record
    same = [
        r
        for r in published
        if r["params"].get("track") == rec.params["track"]
        and bool(r["params"].get("quick")) == bool(rec.params["quick"])
    ]
    rows = [(f"**{rec.model} {rec.recipe}** (this run)", rec.metrics)]
    others = [r for r in same if (r["model"], r["recipe"], r["seed"]) != (rec.model, rec.recipe, rec.seed)]
    others.sort(key=lambda r: (not (r["recipe"] in BASELINE and r["model"] == rec.model), r["recipe"] != "zero-shot"))
    for r in others:
        untrained = r["recipe"] in BASELINE and r["model"] == rec.model
        rows.append((f"{r['model']} {r['recipe']}" + (" (untrained)" if untrained else ""), r["metrics"]))
    return rows


def write_table(card: Scorecard, rows: list[tuple[str, dict[str, Any]]]) -> Path | None:
    """The markdown table beside the card's JSON (``.md``)."""
    if card.path is None:
        return None
    title = f"Scorecard: {card.record.model} {card.record.recipe}, {card.record.params['track']} track"
    text = f"# {title}\n\n" + markdown_table(rows)
    return atomic_write_text(card.path.with_suffix(".md"), text)


def write_figure(card: Scorecard, rows: list[tuple[str, dict[str, Any]]]) -> Path | None:
    """A PNG beside the card: one panel per headline number (five a row), a horizontal bar per model, the card's
    own bar first and in colour, each bar labelled with its value."""
    if card.path is None:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    flat = [(label.replace("*", "").replace(" (this run)", ""), headline(metrics)) for label, metrics in rows][:6]
    columns = [c for c, _, _ in HEADLINE if flat[0][1][c] is not None]
    ncols = 5
    nrows = -(-len(columns) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 0.35 * len(flat) * nrows + 1.2 * nrows), squeeze=False)
    for i, ax in enumerate(axes.flat):
        if i >= len(columns):
            ax.axis("off")
            continue
        values = [v[columns[i]] or 0.0 for _, v in flat]
        y = range(len(flat))[::-1]
        ax.barh(list(y), values, color=["tab:red"] + ["tab:gray"] * (len(flat) - 1))
        for yy, value in zip(y, values, strict=True):
            ax.text(value, yy, f" {value:.2f}", va="center", fontsize=6)
        ax.set_title(columns[i], fontsize=8)
        ax.set_yticks(list(y), [label[:28] for label, _ in flat] if i % ncols == 0 else [], fontsize=6)
        ax.tick_params(axis="x", labelsize=6)
    fig.suptitle(f"{card.record.model} {card.record.recipe}, {card.record.params['track']} track", fontsize=9)
    fig.tight_layout()
    path = card.path.with_suffix(".png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
