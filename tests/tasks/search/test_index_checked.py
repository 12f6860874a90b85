"""The search index's deep check taken as passed only for the file its record names
(tasks/search/index_checked.py): a file a deep check passed or build_index made, followed
through update_index's own transactions; any other write, a damage, a broken or corrupt
record makes the deep check."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson
import pytest

from tasks.search import index as search_index
from tasks.search.index import build_index, check_index, ensure_index, index_file, update_index
from tasks.search.index_checked import (
    CHECKED_FILE,
    forget_checked,
    in_step_cache,
    record_in_step,
    recorded_identity,
)
from tasks.store.filememo import file_identity
from tasks.store.layout import MemoryLayout
from tests.memory_builder import PREFIX, write
from tests.tasks.search.search_memory import build_search_memory

PAGE = f"wiki/concepts/{PREFIX}__platypus-notes.md"


@pytest.fixture
def layout(tmp_path: Path) -> MemoryLayout:
    return build_search_memory(tmp_path / "mem")


@pytest.fixture
def deep(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """One entry per deep check made (SQLite's quick_check)."""
    made: list[bool] = []
    real = search_index._deep_ok

    def counted(conn: sqlite3.Connection) -> bool:
        made.append(True)
        return real(conn)

    monkeypatch.setattr(search_index, "_deep_ok", counted)
    return made


def new_page(layout: MemoryLayout, words: str) -> None:
    write(layout.root, PAGE, {"type": "concept", "title": "Platypus notes",
                              "description": "Notes."}, f"# Platypus notes\n\n{words}\n")


def test_membank_s_own_build_and_updates_need_no_deep_check(layout: MemoryLayout,
                                                             deep: list[bool]) -> None:
    build_index(layout)
    assert recorded_identity(layout) == file_identity(index_file(layout))
    assert check_index(layout) == ("ok", []) and deep == []
    new_page(layout, "A platypus.")
    before = file_identity(index_file(layout))
    assert update_index(layout, [PAGE]).pages_indexed == 1
    assert file_identity(index_file(layout)) != before  # the update wrote the file
    assert recorded_identity(layout) == file_identity(index_file(layout))
    assert check_index(layout) == ("ok", []) and deep == []


def test_a_deep_check_that_passed_starts_the_record(layout: MemoryLayout,
                                                      deep: list[bool]) -> None:
    build_index(layout)
    forget_checked(layout)
    assert check_index(layout) == ("ok", []) and deep == [True]  # no record: checked
    assert recorded_identity(layout) is None  # a check alone records nothing
    new_page(layout, "A platypus.")
    assert ensure_index(layout)[0] == "stale" and deep == [True, True]
    assert recorded_identity(layout) == file_identity(index_file(layout))  # checked, then updated
    assert check_index(layout) == ("ok", []) and deep == [True, True]


def test_a_write_by_another_hand_breaks_the_chain(layout: MemoryLayout, deep: list[bool]) -> None:
    build_index(layout)
    with sqlite3.connect(index_file(layout)) as conn:  # not membank's update
        conn.execute("CREATE TABLE touched (x)")
    assert check_index(layout) == ("ok", []) and deep == [True]
    new_page(layout, "A platypus.")
    update_index(layout, [PAGE])  # began on a file the record does not name
    assert recorded_identity(layout) is None
    assert check_index(layout) == ("ok", []) and deep == [True, True]


@pytest.mark.parametrize("damage", [b"", b"{", b'{"file": [1, 2]}', b'{"file": "x"}', b"[]"])
def test_a_corrupt_record_is_ignored(layout: MemoryLayout, deep: list[bool], damage: bytes) -> None:
    build_index(layout)
    (layout.root / CHECKED_FILE).write_bytes(damage)
    assert check_index(layout) == ("ok", []) and deep == [True]
    new_page(layout, "A platypus.")
    update_index(layout, [PAGE])
    assert recorded_identity(layout) is None


def test_damage_that_keeps_the_size_is_found(layout: MemoryLayout, deep: list[bool]) -> None:
    build_index(layout)
    path = index_file(layout)
    size = path.stat().st_size
    with path.open("r+b") as damaged:  # the header kept, pages broken, the size kept
        damaged.seek(size // 2)
        damaged.write(b"\xff" * 4096)
    assert path.stat().st_size == size
    assert check_index(layout)[0] == "corrupt" and deep == [True]
    assert ensure_index(layout)[0] == "corrupt"  # rebuilt: a new file, recorded
    assert recorded_identity(layout) == file_identity(path)
    assert check_index(layout) == ("ok", [])


CACHE = [10, 20, 30, 40]  # a reconcile cache's identity (size, mtime_ns, ctime_ns, inode)


def test_the_cache_the_index_is_in_step_with_follows_membank_s_own_updates(
        layout: MemoryLayout) -> None:
    build_index(layout)
    index = index_file(layout)
    assert in_step_cache(layout, index) is None  # a build names no cache
    record_in_step(layout, index, CACHE)
    assert in_step_cache(layout, index) == CACHE
    new_page(layout, "A platypus.")
    update_index(layout, [PAGE])  # membank's own update: carried to the file it leaves
    assert recorded_identity(layout) == file_identity(index)
    assert in_step_cache(layout, index) == CACHE
    build_index(layout)  # a rebuild names the file alone
    assert recorded_identity(layout) == file_identity(index)
    assert in_step_cache(layout, index) is None


def test_the_in_step_cache_is_dropped_by_any_other_write(layout: MemoryLayout) -> None:
    build_index(layout)
    index = index_file(layout)
    record_in_step(layout, index, CACHE)
    with sqlite3.connect(index) as conn:  # not membank's update
        conn.execute("CREATE TABLE touched (x)")
    assert in_step_cache(layout, index) is None  # the file is not the one named
    record_in_step(layout, index, CACHE)  # nor added to a record of another file
    assert in_step_cache(layout, index) is None
    new_page(layout, "A platypus.")
    update_index(layout, [PAGE])  # began on another file: the record goes
    assert recorded_identity(layout) is None and in_step_cache(layout, index) is None


@pytest.mark.parametrize("cache", [None, "x", [1, 2, 3], [1, 2, 3, "4"], [1, 2, 3, 4.0]])
def test_a_malformed_in_step_cache_names_none(layout: MemoryLayout, cache: object) -> None:
    build_index(layout)
    index = index_file(layout)
    (layout.root / CHECKED_FILE).write_bytes(
        orjson.dumps({"file": file_identity(index), "cache": cache}))
    assert recorded_identity(layout) == file_identity(index)
    assert in_step_cache(layout, index) is None
