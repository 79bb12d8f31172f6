"""What the mteb tasks share: reading local files instead of a hub, and pytrec_eval's ranking order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from idiomkit.results import sha256_files
from idiomkit.settings import default_data_dir


class LocalData:
    """Mixin: a ``data_dir`` argument, metadata whose dataset path/revision name the local files, and ``load_data``
    reading them once through :meth:`read_splits` (idiomkit's loaders)."""

    data_files: tuple[str, ...] = ()  # relative to data_dir

    def __init__(self, data_dir: str | Path | None = None, **kwargs: Any):
        self.data_dir = Path(data_dir) if data_dir else default_data_dir()
        files = [self.data_dir / f for f in self.data_files]
        revision = sha256_files(files) if all(f.is_file() for f in files) else "local"
        dataset = {"path": str(self.data_dir / Path(self.data_files[0]).parts[0]), "revision": revision}
        self.metadata = self.metadata.model_copy(update={"dataset": dataset})
        super().__init__(**kwargs)

    def read_splits(self) -> dict[str, Any]:
        """The ``default`` subset's data by split name, read from ``data_dir``."""
        raise NotImplementedError

    def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
        """Read the local files (:meth:`read_splits`) unless already loaded."""
        if self.data_loaded:
            return
        self.dataset = {"default": self.read_splits()}
        self.data_loaded = True

    def unload_data(self) -> None:
        """mteb's unload drops instance metadata; keep ours (it names the local files)."""
        metadata = self.metadata
        super().unload_data()
        self.metadata = metadata


def pytrec_order(scores: dict[str, float]) -> list[str]:
    """Document ids best first; ties in score broken by document id, descending (pytrec_eval's order, as mteb
    uses)."""
    return [d for d, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)]
