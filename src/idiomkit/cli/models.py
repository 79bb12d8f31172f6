"""``idiomkit models``, ``settings`` and ``export-onnx``: what is installed, where things are, and a model's
ONNX export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from idiomkit.cli.common import DataDir, ResultsDir, app, console, print_table, user_errors


@app.command()
@user_errors
def models(as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False) -> None:
    """List registry models (name, parameters, languages, source package, installed or not), then the shipped
    idiom-aware models with their model cards."""
    from idiomkit.models.registry import registry_entries
    from idiomkit.models.shipped import shipped_entries

    entries, shipped = registry_entries(), shipped_entries()
    if as_json:
        console.print_json(json.dumps(entries + shipped))
        return
    rows = [["name", "params", "languages", "package", "ready"]]
    rows += [[e["name"], e["params"], e["languages"], e["package"], "yes" if e["installed"] else "no"] for e in entries]
    print_table(rows, "idiomkit models")
    for e in entries:
        if not e["installed"]:
            console.print(f"{e['name']}: {e['install']}", highlight=False, soft_wrap=True)
    rows = [["name", "base", "languages", "trained delta", "ready"]]
    rows += [
        [e["name"], e["base"], e["languages"], e["adapter"] or "none", "yes" if e["installed"] else "no"]
        for e in shipped
    ]
    print_table(rows, "idiom-aware models (idiomkit.load_model(NAME))")
    for e in shipped:
        console.print(f"{e['name']}: {e['card']}", highlight=False, soft_wrap=True)


@app.command("settings")
@user_errors
def show_settings(data_dir: DataDir = None, results_dir: ResultsDir = None) -> None:
    """Where data is read, results are written and models are cached, and where each setting came from."""
    from idiomkit.settings import settings

    rows = [["setting", "path", "from", "exists"]]
    for setting in settings(data_dir, results_dir):
        rows.append([setting.name, str(setting.path), setting.source, "yes" if setting.path.exists() else "no"])
    print_table(rows, "idiomkit settings")


@app.command("export-onnx")
@user_errors
def export_onnx(
    model: Annotated[str, typer.Argument(help="Registry name or model directory (e.g. one made by `train`).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Directory for the model + onnx/ exports.")],
    pooling: Annotated[str, typer.Option(help="mean | last2 (a trained directory keeps its own).")] = "last2",
    quantize: Annotated[bool, typer.Option("--quantize/--no-quantize", help="Also write a dynamic int8 copy.")] = True,
) -> None:
    """Export a model to ONNX (and dynamic int8) for faster CPU encoding; load it with
    ``idiomkit.models.onnx_backend.load_onnx_model(dir, "onnx" | "onnx-int8")``."""
    from idiomkit.errors import check_choice
    from idiomkit.results import check_writable_dir

    check_choice("pooling", pooling, ("mean", "last2"))
    check_writable_dir(output, "output directory")
    from idiomkit.models import load_model
    from idiomkit.models.onnx_backend import export_onnx as run_export

    out = run_export(load_model(model, pooling=pooling, device="cpu"), output, quantize=quantize)
    console.print(f"exported {model} -> {out}/onnx")
