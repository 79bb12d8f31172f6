"""Issue #42.6: the pristine EPIE files say their known gaps once, at INFO, however often a run reads them (every
command that loaded EPIE printed 2 WARNING lines, a flagship run 4)."""

from __future__ import annotations

import logging

from idiomkit.data import definitions
from idiomkit.data.definitions import load_epie_usages, load_idiom_data


def test_loading_the_shipped_epie_twice_warns_nothing_and_says_each_gap_once(data_dir, caplog, monkeypatch):
    monkeypatch.setattr(definitions, "_LOGGED", set())  # as in a fresh process
    with caplog.at_level(logging.INFO, logger="idiomkit"):
        load_idiom_data(data_dir)
        load_idiom_data(data_dir)
        load_epie_usages(data_dir)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO and "sense block" in r.getMessage()]
    gaps = sorted(message.split(": ", 1)[1].split(";")[0] for message in said)
    assert gaps == [
        "14 of 359 meaning lines have no sense block (first: row 17) (the known gap of EPIE)",
        "61 of 358 meaning lines have no sense block (first: row 11) (the known gap of EPIE)",
    ]
