"""File digests remembered by identity (tasks/store/digests.py): right after any change, equal
to a fresh sha256, rebuilt when the cache is damaged."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from tasks.store.digests import DIGESTS_NAME, file_digests
from tasks.store.layout import MemoryLayout


@pytest.fixture
def layout(tmp_path: Path) -> MemoryLayout:
    (tmp_path / ".membank").mkdir()
    (tmp_path / "context").mkdir()
    (tmp_path / "context/graph.json").write_bytes(b'{"a": 1}\n')
    return MemoryLayout(tmp_path)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_digest_is_the_sha256_and_an_absent_file_is_none(layout: MemoryLayout) -> None:
    path = layout.root / "context/graph.json"
    assert file_digests(layout, [path, layout.root / "context/none.json"]) == [sha(path), None]
    assert (layout.state_dir / DIGESTS_NAME).exists()
    assert file_digests(layout, [path]) == [sha(path)]


def test_a_hand_edit_keeping_size_and_mtime_is_digested_again(layout: MemoryLayout) -> None:
    path = layout.root / "context/graph.json"
    file_digests(layout, [path])
    st = path.stat()
    path.write_bytes(b'{"a": 2}\n')
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert file_digests(layout, [path]) == [sha(path)]


@pytest.mark.parametrize("damage", [b"", b"{", b"[]", b'{"context/graph.json": [1, 2, 3, 4, 5]}',
                                    b'{"context/graph.json": "x"}'])
def test_a_damaged_cache_is_rebuilt(layout: MemoryLayout, damage: bytes) -> None:
    path = layout.root / "context/graph.json"
    (layout.state_dir / DIGESTS_NAME).write_bytes(damage)
    assert file_digests(layout, [path]) == [sha(path)]
    assert file_digests(layout, [path]) == [sha(path)]
