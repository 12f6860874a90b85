"""The reconcile cache read by part (tasks/checks/cache_parts.py): the table save_cache writes
beside the cache gives every entry's stat and hash and, when asked, the facts the whole file
holds; a table that does not describe the cache file there is not used; a check right after an
ingest reads the facts of a few files and finds what the full check finds."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import orjson
import pytest

from tasks.checks import cache_parts
from tasks.checks import scan as scan_module
from tasks.checks.cache_parts import ROWS_FILE, LazyEntry, load_by_part
from tasks.checks.reconcile import full
from tasks.checks.scan import CACHE_VERSION, content_hash, load_cache
from tasks.store import catalog
from tasks.store.layout import RECONCILE_CACHE_FILE, MemoryLayout
from tests.memory_builder import PREFIX, page_meta, write
from tests.tasks.checks.test_graph_delta import found, full_check, ingest, reconcile

CONCEPTS = "wiki/concepts/index.md"
GRAPH = "context/knowledge-graph.index.jsonc"


@pytest.fixture(autouse=True)
def one_process_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "_keep_view", lambda layout, view: None)


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    root, notes = tmp_path / "memory", tmp_path / "notes"
    notes.mkdir()
    for name in ("kafka", "rabbit"):
        ingest(root, notes, name, 0, monkeypatch)
    for _ in range(2):
        reconcile(root, check=False)
    return root, notes


def _read_facts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files whose facts were read from the cache file by part."""
    read: list[str] = []
    real = cache_parts._CacheFile.facts

    def counting(self, rel, entry):  # type: ignore[no-untyped-def]
        read.append(rel)
        return real(self, rel, entry)

    monkeypatch.setattr(cache_parts._CacheFile, "facts", counting)
    return read


def test_the_table_gives_the_whole_files_entries(memory: tuple[Path, Path],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root, _ = memory
    whole = load_cache(root)
    by_part = load_by_part(root, CACHE_VERSION)
    assert by_part is not None and whole
    read = _read_facts(monkeypatch)
    files = by_part["files"]
    assert list(files) == sorted(whole["files"]) and len(files) >= 15
    assert all("facts" not in dict.keys(entry) for entry in files.values())  # nothing read yet
    assert {k: v for k, v in by_part.items() if k != "files"} == {
        k: v for k, v in whole.items() if k != "files"}
    for rel, entry in whole["files"].items():
        assert files[rel]["facts"] == entry["facts"]
        assert dict(files[rel]) == entry
    assert sorted(read) == sorted(whole["files"])  # each once
    files[next(iter(files))]["facts"]
    assert len(read) == len(whole["files"])


def test_a_table_that_does_not_describe_the_cache_there_is_not_used(
        memory: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = memory
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)  # the same bytes, another file identity
    assert load_by_part(copy, CACHE_VERSION) is None
    assert load_by_part(root, CACHE_VERSION + 1) is None
    table = root / ROWS_FILE
    kept = table.read_bytes()
    table.write_bytes(kept[:-10])
    assert load_by_part(root, CACHE_VERSION) is None  # truncated
    table.write_bytes(kept)
    assert load_by_part(root, CACHE_VERSION) is not None
    rows = len(orjson.loads(kept)["rows"])
    assert rows > 2
    keys = ("rel", "size", "mtime_ns", "ctime_ns", "ino", "hash", "offset", "length")
    for at, damage in [(0, lambda row: row.__setitem__(6, "0")),  # each field's type
                       (rows - 1, lambda row: row.__setitem__(1, True)),
                       (1, lambda row: row.__setitem__(5, None)),
                       (1, lambda row: row.__setitem__(0, 7)),
                       (rows - 1, lambda row: row.append(0)),  # its length
                       (1, lambda row: row.pop())]:
        data = orjson.loads(kept)
        damage(data["rows"][at])
        table.write_bytes(orjson.dumps(data))
        assert load_by_part(root, CACHE_VERSION) is None  # a malformed row, first or later
    data = orjson.loads(kept)
    data["rows"][rows - 1] = dict(zip(keys, data["rows"][rows - 1], strict=True))  # not a list
    table.write_bytes(orjson.dumps(data))
    assert load_by_part(root, CACHE_VERSION) is None
    table.unlink()
    assert load_by_part(root, CACHE_VERSION) is None


def test_a_row_that_misses_its_bytes_reads_the_whole_file(memory: tuple[Path, Path]) -> None:
    root, _ = memory
    table = root / ROWS_FILE
    data = orjson.loads(table.read_bytes())
    for row in data["rows"]:
        row[6] += 3  # every offset off
    table.write_bytes(orjson.dumps(data))
    by_part = load_by_part(root, CACHE_VERSION)
    assert by_part is not None
    whole = load_cache(root)["files"]
    assert all(by_part["files"][rel]["facts"] == entry["facts"] for rel, entry in whole.items())


def test_a_check_after_an_ingest_reads_the_facts_of_a_few_files(
        memory: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    for n in range(12):  # pages no ingest touches
        write(root, f"wiki/concepts/{PREFIX}__topic-{n}.md",
              page_meta("concept", f"Topic {n}", CONCEPTS), f"# Topic {n}\n")
    for _ in range(3):
        reconcile(root, check=False)
    loaded: list[bool] = []
    real = full.load_by_part
    monkeypatch.setattr(full, "load_by_part",
                        lambda *args: loaded.append(real(*args) is not None) or real(*args))
    ingest(root, notes, "kafka", 1, monkeypatch)
    ingest(root, notes, "nats", 0, monkeypatch)
    read = _read_facts(monkeypatch)
    before = load_cache(root)["files"]
    by_part = reconcile(root, check=True)
    assert loaded == [True]
    assert read and not [rel for rel in read if "__topic-" in rel], read
    # the context files written again are parsed from their bytes: their cached facts (the
    # registry's, the manifest's: none has a page type) are not read, the graph's by delta are
    rewritten = [rel for rel in read if rel.startswith("context/") and rel != GRAPH
                 and before[rel]["hash"] != content_hash((root / rel).read_bytes())]
    assert not rewritten, rewritten
    assert found(by_part) == found(full_check(root))


def test_the_table_is_written_with_the_cache(memory: tuple[Path, Path]) -> None:
    root, _ = memory
    st = os.stat(root / RECONCILE_CACHE_FILE)
    table = orjson.loads((root / ROWS_FILE).read_bytes())
    assert table["cache"] == [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    files = load_by_part(root, CACHE_VERSION)["files"]  # type: ignore[index]
    for row in table["rows"]:
        entry = files[row[0]]
        assert isinstance(entry, LazyEntry) and entry.at == (row[6], row[7])
        found = os.stat(root / row[0])  # the walk's FileStat begins so (scan._unchanged_first)
        assert entry.stat == (found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)


def test_forget_removes_the_table_with_the_cache(memory: tuple[Path, Path]) -> None:
    """The table holds the cache's baselines (erased facts' texts) and every file's path: a
    forgotten topic must not stay there."""
    from tasks.privacy.forget import _reset_reconcile_baselines

    root, _ = memory
    assert (root / ROWS_FILE).is_file()
    assert ROWS_FILE in _reset_reconcile_baselines(MemoryLayout(root))
    assert not (root / ROWS_FILE).exists() and not (root / RECONCILE_CACHE_FILE).exists()


def test_past_many_reads_every_entry_is_read_in_runs(memory: tuple[Path, Path],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A check that asks for most pages' facts (a catalog compared with its whole folder, a
    check over every page) pays about one parse of the cache, in runs of adjacent entries:
    never the whole file's bytes at once (they and a second copy of every entry were most of
    the peak of a check over every page at 100,000 pages)."""
    root, _ = memory
    monkeypatch.setattr(cache_parts, "BULK_AFTER", 3)
    monkeypatch.setattr(cache_parts, "_BULK_BYTES", 2_000)
    parses: list[int] = []
    real = orjson.loads
    monkeypatch.setattr(cache_parts.orjson, "loads",
                        lambda data: parses.append(len(data)) or real(data))
    by_part = load_by_part(root, CACHE_VERSION)
    assert by_part is not None
    entries = dict(by_part["files"])  # held as a scan holds them, the cache's dict let go
    del by_part
    parses.clear()
    whole = load_cache(root)["files"]
    parses.clear()
    assert all(entries[rel]["facts"] == entry["facts"] for rel, entry in whole.items())
    size = (root / RECONCILE_CACHE_FILE).stat().st_size
    runs = parses[3:]  # three entries one by one, then every entry in runs, no read after
    assert len(runs) > 2 and max(runs) < size / 2, parses
    assert sum(runs) > size * 0.9  # every entry once (not the baselines around them)


def test_a_run_that_misses_its_bytes_is_taken_from_the_whole_file(
        memory: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows whose offsets do not lie where their entries are: the runs read find nothing that
    matches, and each entry asked for is taken from the whole file, equal to it."""
    root, _ = memory
    monkeypatch.setattr(cache_parts, "BULK_AFTER", 3)
    monkeypatch.setattr(cache_parts, "_BULK_BYTES", 2_000)
    table = root / ROWS_FILE
    data = orjson.loads(table.read_bytes())
    for row in data["rows"][len(data["rows"]) // 2:]:
        row[6] += 1  # the second half's offsets off by one
    table.write_bytes(orjson.dumps(data))
    by_part = load_by_part(root, CACHE_VERSION)
    assert by_part is not None
    whole = load_cache(root)["files"]
    assert all(by_part["files"][rel]["facts"] == entry["facts"] for rel, entry in whole.items())


def _saved(root: Path) -> tuple[bytes, bytes]:
    return (root / RECONCILE_CACHE_FILE).read_bytes(), (root / ROWS_FILE).read_bytes()


def test_a_cache_saved_by_part_is_the_whole_dump(memory: tuple[Path, Path],
                                                 tmp_path: Path) -> None:
    """save_by_part writes the bytes and the table a whole dump writes: entries kept as read by
    part (their ranges copied, runs of them at once), changed ones, a new and a removed one,
    and baselines moved; nothing written when nothing changed; None for a cache loaded whole."""
    root, _ = memory
    before = _saved(root)
    assert cache_parts.save_by_part(root, load_by_part(root, CACHE_VERSION)) is False
    assert _saved(root) == before
    assert cache_parts.save_by_part(root, load_cache(root)) is None
    twin = tmp_path / "twin"
    shutil.copytree(root, twin)
    by_part, whole = load_by_part(root, CACHE_VERSION), load_cache(twin)
    assert by_part is not None
    paths = sorted(whole["files"])
    changed, gone = paths[len(paths) // 2], paths[1]
    for cache in (by_part, whole):
        files = cache["files"]
        files[changed] = {**files[changed], "hash": "0" * 64, "facts": {"problem": None}}
        files["wiki/a-new-page.md"] = {"size": 1, "mtime_ns": 2, "ctime_ns": 3, "ino": 4,
                                       "hash": "1" * 64, "facts": {"problem": None}}
        del files[gone]
        cache["files"] = dict(sorted(files.items()))
        cache["created_at"] = {**cache.get("created_at", {}), "wiki/a-new-page.md": "x"}
    assert cache_parts.save_by_part(root, by_part) is True
    scan_module.save_cache(scan_module.Scan(
        root=twin, files=whole["files"], modes={}, dirs=set(),
        state={k: v for k, v in whole.items() if k not in ("files", "version")}))  # type: ignore[typeddict-item]
    cache_bytes, table = _saved(root)
    assert cache_bytes == _saved(twin)[0]
    assert orjson.loads(table)["rows"] == orjson.loads(_saved(twin)[1])["rows"]
    again = load_by_part(root, CACHE_VERSION)
    assert again is not None and orjson.dumps(
        {rel: dict(entry, facts=entry["facts"]) for rel, entry in again["files"].items()},
        option=orjson.OPT_SORT_KEYS) == orjson.dumps(whole["files"], option=orjson.OPT_SORT_KEYS)
