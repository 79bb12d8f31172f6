"""mteb task classes: mteb's main score equals idiomkit's own score (same data, same model, same metric).

Both code paths run end to end (loaders included) on deterministic subsets of the real data written to a temporary
data directory; the full-size comparison is ``benchmarks/checks/mteb_check.py``.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/test_mteb_tasks.py.
"""

import csv
import json
import math
import re
from pathlib import Path

import pytest

from idiomkit.data.semeval2022 import B_FILES, ROOT  # noqa: E402
from idiomkit.mteb_tasks import (  # noqa: E402
    AdMIReRanking,
    IdioLinkRetrieval,
    SemEval2022Task2BDev,
    get_mteb_task,
    run_mteb,
)

pytest.importorskip("mteb")


def write_semeval_subset(src: Path, dst: Path, per_kind: int = 8) -> set[str]:
    """dev.csv + dev.gold.csv restricted to, per language, the first ``per_kind`` idiom rows with a gold sim, idiom
    rows without one (gold = prediction for otherID) and STS rows, plus the otherID partners. Returns the pair ids."""
    with open(src / ROOT / B_FILES["dev_gold"], encoding="utf-8", newline="") as f:
        gold = list(csv.DictReader(f))
    counts: dict[tuple, int] = {}
    kept = []
    for row in gold:
        kind = (row["Language"], ".sts." in row["DataID"], row["sim"] == "")
        if counts.get(kind, 0) < per_kind:
            counts[kind] = counts.get(kind, 0) + 1
            kept.append(row)
    ids = {r["ID"] for r in kept} | {r["otherID"] for r in kept if r["sim"] == ""}
    for key, rows in (("dev_gold", kept), ("dev", None)):
        with open(src / ROOT / B_FILES[key], encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            rows = rows if rows is not None else [r for r in reader if r["ID"] in ids]
            fields = reader.fieldnames
        out = dst / ROOT / B_FILES[key]
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
    assert sum(r["sim"] == "" for r in kept) >= 2 and any(".sts." in r["DataID"] for r in kept)
    return ids


def write_idiolink_subset(src: Path, dst: Path, n_pies: int = 2, queries_per_pie: int = 8) -> None:
    """The test index and queries of the first ``n_pies`` PIEs (half literal, half idiomatic queries each)."""
    base, out = src / "idiolink" / "test", dst / "idiolink" / "test"
    docs = json.loads((base / "indexes.json").read_text(encoding="utf-8"))
    queries = json.loads((base / "queries.json").read_text(encoding="utf-8"))
    pies = list(dict.fromkeys(d["idiom"] for d in docs))[:n_pies]
    picked = []
    for pie in pies:
        for usage in ("literal", "idiomatic"):
            picked += [q for q in queries if q["idiom"] == pie and q["usage"] == usage][: queries_per_pie // 2]
    out.mkdir(parents=True)
    (out / "indexes.json").write_text(json.dumps([d for d in docs if d["idiom"] in pies]), encoding="utf-8")
    (out / "queries.json").write_text(json.dumps(picked), encoding="utf-8")


def test_semeval2b_mteb_main_score_equals_idiomkit(minilm, data_dir, tmp_path):
    from idiomkit.tasks.semeval2b_task import SemEval2BTask

    write_semeval_subset(data_dir, tmp_path)
    ours = SemEval2BTask().evaluate(minilm, data_dir=tmp_path, show_progress_bar=False).metrics
    task = get_mteb_task("semeval2b", tmp_path)
    scores = run_mteb(minilm, task)
    assert scores["main_score"] == scores["cosine_spearman"]
    assert math.isfinite(ours["ALL"]["idiom"])
    assert scores["main_score"] == pytest.approx(ours["ALL"]["idiom"], abs=1e-4)
    for subset in ("idiom", "sts", "all"):
        for lang in ("ALL", "EN", "PT"):
            assert scores[f"{subset}_{lang.lower()}_cosine_spearman"] == pytest.approx(ours[lang][subset], abs=1e-4)
    # the revision names the files read
    assert task.metadata.dataset["path"] == str(tmp_path / ROOT) and len(task.metadata.dataset["revision"]) == 64


def test_idiolink_mteb_main_score_equals_idiomkit(minilm, data_dir, tmp_path):
    from idiomkit.tasks.idiolink import IdioLinkTask as Ours

    write_idiolink_subset(data_dir, tmp_path)
    ours = Ours().evaluate(minilm, data_dir=tmp_path, query_mode="sentence", show_progress_bar=False, use_cache=False)
    scores = run_mteb(minilm, IdioLinkRetrieval(data_dir=tmp_path))
    m = ours.metrics
    assert 0 < m["ndcg@10"] < 100  # a subset where ranking matters
    assert scores["main_score"] == scores["ndcg_at_10"]
    assert 100 * scores["main_score"] == pytest.approx(m["ndcg@10"], abs=1e-2)  # mteb rounds to 5 decimals
    assert 100 * scores["r_precision"] == pytest.approx(m["r_precision"], abs=1e-4)
    for usage in ("literal", "idiomatic"):
        assert 100 * scores[f"ndcg_at_10_{usage}"] == pytest.approx(m[usage]["ndcg@10"], abs=1e-4)


def write_admire_subset(src: Path, dst: Path, n_items: int = 8) -> None:
    """The header and first ``n_items`` rows of the AdMIRe test file (one item a line)."""
    lines = (src / "admire" / "en" / "subtask_a_test.tsv").read_bytes().splitlines(keepends=True)
    (dst / "admire" / "en").mkdir(parents=True)
    (dst / "admire" / "en" / "subtask_a_test.tsv").write_bytes(b"".join(lines[: n_items + 1]))


def test_admire_mteb_main_score_equals_idiomkit(minilm, data_dir, tmp_path):
    from idiomkit.tasks.admire import AdmireTask

    write_admire_subset(data_dir, tmp_path)
    ours = AdmireTask().evaluate(minilm, data_dir=tmp_path, split="test", query_mode="sentence", extended=False)
    scores = run_mteb(minilm, AdMIReRanking(data_dir=tmp_path))
    m = ours.metrics
    assert m["n"] == 8 and 0 < m["top1"] < 1
    assert scores["main_score"] == pytest.approx(m["spearman"], abs=1e-4)
    assert scores["top1"] == pytest.approx(m["top1"], abs=1e-4)
    assert scores["precision_at_1"] >= scores["top1"]  # P@1 also counts the gold second image first
    assert scores["ndcg_at_5"] * (3 + 1 / math.log2(3)) == pytest.approx(m["dcg"], abs=1e-4)  # organisers' DCG


def test_metadata_points_at_local_data(data_dir):
    task = SemEval2022Task2BDev()
    assert Path(task.metadata.dataset["path"]) == data_dir / ROOT
    assert task.metadata.main_score == "cosine_spearman" and task.metadata.eval_splits == ["dev"]
    il = IdioLinkRetrieval()
    assert il.metadata.license == "apache-2.0" and il.metadata.main_score == "ndcg_at_10"
    with pytest.raises(KeyError, match="no mteb task"):
        get_mteb_task("nope")


def test_cli_mteb_prints_the_main_score(data_dir, tmp_path):
    from typer.testing import CliRunner

    from idiomkit.cli import app

    write_admire_subset(data_dir, tmp_path, n_items=3)
    result = CliRunner().invoke(app, ["mteb", "--task", "admire", "-m", "minilm", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    match = re.search(r"^AdMIReRanking spearman = (-?[0-9.]+)$", result.output, re.M)
    assert match and -1 <= float(match.group(1)) <= 1, result.output
    bad = CliRunner().invoke(app, ["mteb", "--task", "nope"])
    assert bad.exit_code == 2 and "no mteb task for 'nope'" in bad.output
