"""Resumable scorecards: each block a scorecard finishes is kept on disk until the scorecard is written, so
``idiomkit evaluate all`` killed after its tenth block starts again at its eleventh (an mpnet scorecard takes 46
minutes on 2 CPU cores).

The blocks go to ``<results>/scorecard/.partial/<fingerprint>/<block>.<track>.json`` (``all`` for a block that
reads the same in both tracks), one JSON file each, written atomically. The fingerprint hashes everything that
makes a scorecard's numbers: the model (name or directory, its training record), recipe, reader record (version and
the digest of the reader's files), pooling, prompt, batch size, seed and quick mode; a scorecard run with anything
else finds no blocks and computes them all. The folder is removed once every track of the scorecard is written.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from dataclasses import asdict
from pathlib import Path
from typing import Any

from idiomkit.results import atomic_write_text
from idiomkit.scorecard.blocks import BlockOutput

log = logging.getLogger(__name__)

PARTIAL_DIR = ".partial"


def card_fingerprint(identity: dict[str, Any]) -> str:
    """The SHA-256 of ``identity`` (what makes the scorecard's numbers) as sorted JSON."""
    text = json.dumps(identity, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class BlockStore:
    """The finished blocks of one scorecard being written (module docstring); ``folder`` None: nothing kept (a scorecard
    computed without writing)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    @classmethod
    def for_scorecard(cls, scorecard_dir: Path | None, identity: dict[str, Any]) -> BlockStore:
        """The store of the scorecard that ``identity`` names, under ``scorecard_dir`` (None: a store that keeps
        nothing)."""
        if scorecard_dir is None:
            return cls(None)
        return cls(scorecard_dir / PARTIAL_DIR / card_fingerprint(identity)[:24])

    def _path(self, block: str, track: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{block}.{track}.json"

    def get(self, block: str, track: str) -> BlockOutput | None:
        """The block's output kept by an earlier, interrupted run of this scorecard; None when there is none."""
        if self.folder is None or not (path := self._path(block, track)).is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        log.info(
            "scorecard: %s (%s) read back from %s, kept by an interrupted run of this scorecard", block, track, path
        )
        return BlockOutput(data["metrics"], data["predictions"], [Path(p) for p in data["data_files"]], data["params"])

    def put(self, block: str, track: str, output: BlockOutput) -> None:
        """Keep a finished block's output (atomically: a kill leaves the file whole or absent)."""
        if self.folder is None:
            return
        data = asdict(output) | {"data_files": [str(p) for p in output.data_files]}
        atomic_write_text(self._path(block, track), json.dumps(data))

    def clear(self) -> None:
        """Remove the kept blocks (the scorecard is written)."""
        if self.folder is not None and self.folder.is_dir():
            shutil.rmtree(self.folder)
