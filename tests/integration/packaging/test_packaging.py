"""Packaging: `python -m build` makes a wheel holding the whole package; installed into a fresh venv (which sees
the project's dependencies but not its source tree) `idiomkit models` and a zero-shot evaluation work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from helpers import TINY_DEV, TINY_GOLD, write_semeval_tree

REPO = Path(__file__).resolve().parents[3]
SRC = REPO / "src"


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kwargs)
    assert result.returncode == 0, f"{cmd}: {result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("build", reason="the dev extra installs `build`")
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(REPO)])
    (path,) = out.glob("idiomkit-*.whl")
    return path


def test_wheel_holds_every_module_and_the_entry_point(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {p.relative_to(SRC).as_posix() for p in (SRC / "idiomkit").rglob("*") if p.is_file()}
    sources = {s for s in sources if "__pycache__" not in s}
    assert sources and sources <= names, sorted(sources - names)
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    entry_points = zipfile.ZipFile(wheel).read(f"{dist_info}/entry_points.txt").decode()
    assert "idiomkit = idiomkit.cli:main" in entry_points


def test_wheel_installs_and_runs_in_a_clean_venv(wheel, tmp_path):
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip())
    # the dependencies come from the project venv through a .pth line; .pth files found there (the editable
    # install's path to src/) are not processed, so idiomkit can only come from the wheel
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"HF_HUB_OFFLINE": "1"}
    where = run([str(python), "-c", "import idiomkit, sys; print(idiomkit.__file__); print(sys.path)"], env=env)
    origin, path = where.stdout.splitlines()
    assert origin.startswith(str(site)) and str(SRC) not in path

    idiomkit = str(venv / "bin" / "idiomkit")
    models = {e["name"]: e for e in json.loads(run([idiomkit, "models", "--json"], env=env, cwd=tmp_path).stdout)}
    assert models["minilm"]["installed"] is True
    data = write_semeval_tree(tmp_path / "data", dev=TINY_DEV, gold=TINY_GOLD)
    results = tmp_path / "results"
    args = ["evaluate", "semeval2b", "-m", "minilm", "--data-dir", str(data), "--results-dir", str(results)]
    run([idiomkit, *args], env=env, cwd=tmp_path)
    record = json.loads((results / "semeval2b-dev" / "minilm__zero-shot__seed0.json").read_text())
    assert set(record["metrics"]) == {"ALL", "EN", "PT"} and -1 <= record["metrics"]["ALL"]["all"] <= 1
