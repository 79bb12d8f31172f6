"""A name the data layer does not know (split, language, usage) is one line naming it and the known ones, before
any file is read (so ``tmp_path`` stays empty)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from idiomkit.data.admire import load_admire
from idiomkit.data.definitions import IdiomData
from idiomkit.data.extra.astitch import astitch_file
from idiomkit.data.extra.figqa import figqa_file
from idiomkit.data.extra.itu import itu_file
from idiomkit.data.extra.lidioms import load_lidioms_language
from idiomkit.data.extra.ncs import ncs_files
from idiomkit.data.extra.pie import pie_file
from idiomkit.data.idiolink import split_dir
from idiomkit.data.sts import sts_files
from idiomkit.errors import OptionError

CASES: list[tuple[Callable, str, str]] = [
    (load_admire, "nope", "unknown AdMIRe split 'nope' (expected one of train, dev, test, xe)"),
    (split_dir, "nope", "unknown IdioLink split 'nope' (expected one of train, val, test)"),
    (sts_files, "nope", "unknown STS split 'nope' (expected one of train, dev, test)"),
    (astitch_file, "XX", "unknown AStitch language 'XX' (expected one of EN, PT)"),
    (figqa_file, "nope", "unknown Fig-QA split 'nope' (expected one of train, dev)"),
    (itu_file, "nope", "unknown usage 'nope' (expected one of literal, figurative)"),
    (load_lidioms_language, "XX", "unknown LIdioms language 'XX' (expected one of EN, PT)"),
    (ncs_files, "XX", "unknown NCS language 'XX' (expected one of EN, PT)"),
    (pie_file, "nope", "unknown PIE split 'nope' (expected one of train, valid, test)"),
]


@pytest.mark.parametrize(("load", "name", "message"), CASES, ids=[c[0].__name__ for c in CASES])
def test_an_unknown_name_is_one_line_naming_the_known_ones(tmp_path, load, name, message):
    with pytest.raises(OptionError) as err:
        load(tmp_path, name)
    assert str(err.value) == message
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_idiom_split_names_the_known_splits():
    with pytest.raises(OptionError, match=r"^unknown split 'nope' \(expected one of train, val, heldout\)$"):
        IdiomData({}, []).split("nope")
