"""The idiom reader every score and every flagship training uses: the *evaluation* lexicon of a data folder (the
shipped one minus every held-out idiom, in any form, so no score rests on a meaning given for an evaluated idiom)
and the shipped sense check, in front of a model.

Example::

    model = with_reader(load_model("minilm"), "../shared/data", mode="gloss")
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from idiomkit.idioms.lexicon import Lexicon
from idiomkit.idioms.reader import IdiomReader, attach_reader
from idiomkit.idioms.senses import default_sense
from idiomkit.idioms.sources import evaluation_lexicon


def with_reader(model: Any, data_dir: str | Path, mode: str = "replace", lexicon: Lexicon | None = None) -> Any:
    """``model`` with the idiom reader in ``mode`` in front (replacing one it has): the evaluation lexicon of
    ``data_dir`` (or ``lexicon``) and the shipped sense check; its ``encode`` rewrites texts from now on."""
    lexicon = lexicon if lexicon is not None else evaluation_lexicon(data_dir)
    return attach_reader(model, IdiomReader(lexicon, mode, default_sense()))
