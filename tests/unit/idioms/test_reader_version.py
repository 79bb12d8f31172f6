"""The idiom reader's pinned digest: a change to the files that define the reader fails here until its version is
considered (and bumped when its behaviour changed) and the digest updated."""

from __future__ import annotations

import shutil

import pytest

from idiomkit.idioms.version import HERE, READER_DIGEST, READER_FILES, READER_VERSION, reader_digest


def test_the_reader_files_match_the_pinned_digest():
    digest = reader_digest()
    if digest != READER_DIGEST:
        pytest.fail(
            f"the idiom reader changed: if its behaviour changed bump READER_VERSION (now {READER_VERSION}), "
            f"then update READER_DIGEST to {digest} (src/idiomkit/idioms/version.py)",
            pytrace=False,
        )


def test_the_digest_sees_a_one_byte_change_in_any_reader_file(tmp_path):
    for name in READER_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(HERE / name, tmp_path / name)
    assert reader_digest(tmp_path) == reader_digest()
    for name in ("resources/sense.json", "matcher.py"):
        with (tmp_path / name).open("ab") as fh:
            fh.write(b" ")
        changed = reader_digest(tmp_path)
        assert changed != reader_digest()
        shutil.copyfile(HERE / name, tmp_path / name)
