"""Shared test helpers: miniature data trees, features on the model's device."""

from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]  # the repository
runner = CliRunner()


def tokenize_on(model, texts):
    """``model.tokenize(texts)`` moved to the model's device (the tests also run on a GPU machine)."""
    from sentence_transformers.util import batch_to_device

    return batch_to_device(model.tokenize(texts), model.device)


B_TRAIN_HEADER = "ID,MWE1,MWE2,Language,sentence_1,sentence_2,sim,alternative_1,alternative_2\n"
B_DEV_HEADER = "ID,Language,MWE1,MWE2,sentence1,sentence2\n"
B_GOLD_HEADER = "ID,DataID,Language,sim,otherID\n"


def write_semeval_tree(
    root: Path, *, train: str | None = None, dev: str | None = None, gold: str | None = None
) -> Path:
    """A miniature SemEval-2022 Task 2 tree with the given file bodies (headers included by the caller)."""
    base = root / "semeval2022_task2" / "SubTaskB"
    files = {"TrainData/train_data.csv": train, "EvaluationData/dev.csv": dev, "EvaluationData/dev.gold.csv": gold}
    for rel, body in files.items():
        if body is not None:
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_text(body, encoding="utf-8")
    return root


TINY_DEV = B_DEV_HEADER + (
    "1,EN,big fish,None,He is a big fish in town.,He is an important person in town.\n"
    "2,EN,big fish,None,He is a big fish in town.,He is a large fish in town.\n"
    "3,EN,big fish,None,He is an important person in town.,He is a large fish in town.\n"
    "4,EN,night owl,None,She is a night owl.,She stays up late.\n"
    "5,PT,pão duro,None,Ele é um pão duro.,Ele é avarento.\n"
    "6,PT,pão duro,None,Ele é um pão duro.,Ele é um pão velho.\n"
    "7,PT,pão duro,None,Ele é avarento.,Ele é um pão velho.\n"
    "8,EN,sts,None,A man plays a guitar.,A person plays music.\n"
    "9,EN,sts,None,A cat sleeps.,The stock market fell.\n"
    "10,PT,sts,None,Um homem toca violão.,Uma pessoa toca música.\n"
    "11,PT,sts,None,Um gato dorme.,A bolsa caiu.\n"
)
TINY_GOLD = B_GOLD_HEADER + (
    "1,dev.EN.1.1,EN,1,\n"
    "2,dev.EN.1.2,EN,,3\n"
    "4,dev.EN.2.1,EN,1,\n"
    "5,dev.PT.1.1,PT,1,\n"
    "6,dev.PT.1.2,PT,,7\n"
    "8,dev.EN.sts.1,EN,0.8,\n"
    "9,dev.EN.sts.2,EN,0.0,\n"
    "10,dev.PT.sts.1,PT,0.8,\n"
    "11,dev.PT.sts.2,PT,0.05,\n"
)


class Interrupt(Exception):
    """Raised from ``on_step`` to simulate a crash mid-training."""


def full_and_resumed(train, tmp_path, stop_at: int, *args, **kwargs):
    """Train once uninterrupted (``tmp_path/full``) and once crashed after step ``stop_at`` then resumed
    (``tmp_path/cut``); returns both results."""
    import pytest

    def crash(state):
        if state.step == stop_at:
            raise Interrupt

    full = train(*args, **kwargs, output_dir=tmp_path / "full")
    with pytest.raises(Interrupt):
        train(*args, **kwargs, output_dir=tmp_path / "cut", on_step=crash)
    return full, train(*args, **kwargs, output_dir=tmp_path / "cut", resume=True)


def benchmark_script(name: str):
    """``benchmarks/<name>.py`` imported as a module, ``name`` its path under ``benchmarks/`` without ``.py``
    (``lexicon/pt_recall``); its folder goes on ``sys.path`` for its own imports."""
    import importlib.util
    import sys

    path = ROOT / "benchmarks" / f"{name}.py"
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module
