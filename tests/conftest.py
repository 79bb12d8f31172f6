import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
if os.environ.get("PYTEST_XDIST_WORKER"):
    # `make test` runs one worker per core: each worker's torch (and the subprocesses it starts) on one thread, not
    # two threads per worker on two cores (the whole suite: 753 s of pytest, 761 s the session before without it).
    os.environ.setdefault("OMP_NUM_THREADS", "1")

from helpers import TINY_DEV, TINY_GOLD, write_semeval_tree  # noqa: E402

from idiomkit.settings import default_data_dir  # noqa: E402


@pytest.fixture(scope="session")
def data_dir() -> Path:
    path = default_data_dir()
    assert (path / "semeval2022_task2").is_dir(), f"benchmark data not found at {path}"
    return path


@pytest.fixture(scope="session")
def minilm():
    from idiomkit.models import load_model

    return load_model("minilm")


@pytest.fixture
def tiny_data(tmp_path) -> Path:
    return write_semeval_tree(tmp_path, dev=TINY_DEV, gold=TINY_GOLD)


INTEGRATION_DIR = Path(__file__).parent / "integration"


def pytest_collection_modifyitems(items) -> None:
    """Every test under tests/integration carries the ``integration`` marker."""
    for item in items:
        if INTEGRATION_DIR in item.path.parents:
            item.add_marker(pytest.mark.integration)
