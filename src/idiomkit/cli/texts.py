"""``idiomkit embed``, ``read`` and ``nearest``: a model or the idiom reader applied to a few texts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from idiomkit.cli.common import app, console, print_table, user_errors

READ_BATCH = 256  # texts a batch: the sense check scores a batch's matches together, the bar moves once a batch


@app.command()
@user_errors
def embed(
    texts: Annotated[list[str] | None, typer.Argument(help="Texts to embed (or use --input).")] = None,
    input: Annotated[
        Path | None,
        typer.Option(
            "--input",
            "-i",
            help="A .txt file (one text a line) or .jsonl with 'text' and optional 'span' [start, end].",
        ),
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write embeddings to this .npy file.")] = None,
    model: Annotated[str, typer.Option("--model", "-m")] = "minilm",
    pooling: Annotated[str, typer.Option(help="mean | last2 | span (span needs .jsonl spans)")] = "mean",
    prompt_name: Annotated[str, typer.Option(help="Model prompt name, 'auto' or 'none'.")] = "auto",
    batch_size: int = 64,
) -> None:
    """Embed texts and print their shape (and save them with --output)."""
    from idiomkit.errors import OptionError, check_at_least, check_choice
    from idiomkit.io import EMBEDDINGS, check_output_file, input_texts, save_embeddings

    check_at_least("--batch-size", batch_size, 1)
    check_choice("pooling", pooling, ("mean", "last2", "span"))
    if output:
        check_output_file(output, EMBEDDINGS, input)
    from idiomkit.api import embed as embed_texts

    items, spans = input_texts("embed", texts, input, spans_required=pooling == "span")
    if pooling == "span" and spans is None:
        raise OptionError("--pooling span needs a .jsonl --input with a 'span' for every text")
    emb = embed_texts(
        items,
        model,
        pooling="mean" if pooling == "span" else pooling,
        spans=spans if pooling == "span" else None,
        prompt_name=None if prompt_name == "none" else prompt_name,
        batch_size=batch_size,
        show_progress_bar=len(items) > 256,
    )
    if output:
        save_embeddings(output, emb)  # exactly this path (np.save would add .npy), atomically
    written = f"{emb.shape[0]} embeddings of dimension {emb.shape[1]}" + (f" -> {output}" if output else "")
    console.print(written, soft_wrap=True)  # a path printed whole, never folded into two lines


@app.command("read")
@user_errors
def read_texts_verb(
    texts: Annotated[list[str] | None, typer.Argument(help="Texts to read (or use --input).")] = None,
    input: Annotated[
        Path | None,
        typer.Option("--input", "-i", help="A .txt file (one text a line) or .jsonl with a 'text' on every line."),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write one JSON line per text (text, rewritten, what was found) to this file instead of printing.",
        ),
    ] = None,
    mode: Annotated[str, typer.Option(help="mark | gloss | replace")] = "replace",
    lexicon: Annotated[
        Path | None, typer.Option("--lexicon", help="An idiom lexicon TSV (idiom, language, meaning, source).")
    ] = None,
    sense: Annotated[
        str,
        typer.Option(
            help="'default' (the shipped cross-encoder), 'features' (the feature model: no torch), "
            "'none' (every match figurative) or a saved sense-check JSON file."
        ),
    ] = "default",
    language: Annotated[str | None, typer.Option(help="Only idioms of EN or PT (default: both).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Find the idioms in texts, judge each literal or figurative, and show the rewritten text (no encoder to choose;
    the default sense check is a small cross-encoder in the package, --sense features needs no torch).

    A file of texts (--input) is read in batches with a progress bar; --output keeps every reading as a JSON line."""
    from idiomkit.errors import check_choice
    from idiomkit.io import READINGS, check_output_file, input_texts, write_jsonl

    check_choice("mode", mode, ("mark", "gloss", "replace"))
    language = language_code(language)
    if output:
        check_output_file(output, READINGS, input)
    items = input_texts("read", texts, input)[0]
    from idiomkit.progress import track
    from idiomkit.reader_api import reading_json, rewriter

    reader = rewriter(mode, lexicon, sense, language)
    batches = [items[i : i + READ_BATCH] for i in range(0, len(items), READ_BATCH)]
    bar = track(batches, f"reading {len(items)} texts", enabled=len(batches) > 1)
    readings = [r for batch in bar for r in reader.read_all(batch)]
    if output:
        write_jsonl(output, reading_json(readings))
        found, changed = sum(bool(r.found) for r in readings), sum(r.changed for r in readings)
        summary = f"{len(readings)} texts read: {found} with an idiom, {changed} rewritten ({mode}) -> {output}"
        console.print(summary, highlight=False, soft_wrap=True)
    elif as_json:
        console.print_json(json.dumps(reading_json(readings), ensure_ascii=False))
    else:
        print_readings(readings, mode)


def language_code(language: str | None) -> str | None:
    """EN or PT from ``--language`` in either case (as lexicon files spell it), None for both."""
    from idiomkit.errors import check_choice

    if language is None:
        return None
    check_choice("language", language.upper(), ("EN", "PT"))
    return language.upper()


def print_readings(readings, mode: str) -> None:
    """Each reading's table of what was found (or a line saying nothing was) and its rewritten text."""
    from idiomkit.reader_api import reading_rows

    for reading in readings:
        rows = reading_rows(reading)
        if len(rows) > 1:
            print_table([[escape(cell) for cell in row] for row in rows], escape(reading.text))
        else:
            console.print(f"no idiom found in: {escape(reading.text)}", highlight=False, soft_wrap=True)
        console.print(f"{mode}: {escape(reading.rewritten)}", highlight=False, soft_wrap=True)


@app.command("nearest")
@user_errors
def nearest(
    models: Annotated[
        list[str], typer.Option("--model", "-m", help="Registry name or model directory (repeatable).")
    ] = None,  # type: ignore[assignment]
    pooling: Annotated[str, typer.Option(help="mean | last2 (a trained model keeps its own)")] = "mean",
    reader: Annotated[
        str | None,
        typer.Option(help="Also show each model without a reader with one in front (mark | gloss | replace)."),
    ] = None,
) -> None:
    """For five English and three Portuguese idiomatic sentences, which of {figurative paraphrase, literal
    misreading, unrelated} each model puts nearest (✓: the figurative paraphrase)."""
    from idiomkit.idioms.reader import model_reader
    from idiomkit.models import load_model
    from idiomkit.reader_api import add_reader
    from idiomkit.scorecard.nearest import nearest_table

    loaded = {}
    for name in models or ["minilm"]:
        loaded[name] = load_model(name, pooling=pooling)
        if reader and model_reader(loaded[name]) is None:  # a model with its own reader (me5-idioms) is shown as is
            loaded[f"{name} + reader"] = add_reader(load_model(name, pooling=pooling), mode=reader, sense="default")
    print_table(nearest_table(loaded), "nearest meaning by cosine")
