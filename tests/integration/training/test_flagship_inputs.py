"""Issue #42.3: a flagship run whose mt_ambiguity meanings are all blank stops with one line naming the file, row and
field (it trained on with 0 of 1,584 meanings, an INFO line only). The real data tree, that one file blanked."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from types import SimpleNamespace

import pytest

from idiomkit.data.errors import DataError
from idiomkit.data.extra.mt_ambiguity import MEANINGS_FILE

MT = "idioms_extra/mt_ambiguity_idioms"


def mirror(real: Path, into: Path, skip: Path) -> None:
    """``into``: the folder ``real`` as links, but real folders on the way to ``skip``, which is left out."""
    into.mkdir(parents=True, exist_ok=True)
    for child in real.iterdir():
        if child != skip:
            if skip.is_relative_to(child):
                mirror(child, into / child.name, skip)
            else:
                (into / child.name).symlink_to(child)


def test_all_blank_mt_meanings_stop_the_flagship_in_one_line(tmp_path, data_dir, monkeypatch):
    from idiomkit.training.recipes import flagship

    # the meaning sources read before it (minutes of loading): none
    monkeypatch.setattr(flagship, "idiom_data", lambda data_dir: SimpleNamespace(split=lambda split: []))
    monkeypatch.setattr(flagship, "id_pairs", lambda *args, **kwargs: [])
    monkeypatch.setattr(flagship, "sp_pairs", lambda *args, **kwargs: [])
    monkeypatch.setattr(flagship, "load_pie", lambda *args: [])
    monkeypatch.setattr(flagship, "load_lidioms", lambda *args: [])
    real = data_dir / MT / MEANINGS_FILE
    mirror(data_dir, tmp_path, real)
    rows = list(csv.DictReader(io.StringIO(real.read_text(encoding="utf-8"))))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows({**row, "meaning": " "} for row in rows)
    target = tmp_path / MT / MEANINGS_FILE
    target.write_text(out.getvalue(), encoding="utf-8")
    with pytest.raises(DataError) as info:
        flagship.meaning_rows(SimpleNamespace(data_dir=str(tmp_path), seed=0), index=None)
    assert str(info.value) == f"{target}: row 1: field 'meaning': blank in all 1,584 rows: no idiom has a meaning"
