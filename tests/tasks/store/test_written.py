"""Context files as membank wrote them (tasks/store/written.py): trusted while untouched,
validated again after any other write, and read the same either way."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from schemas.graph import KNOWLEDGE_GRAPH_DATA
from schemas.raw_manifest import RawAsset, RawManifest
from tasks.bootstrap import bootstrap_memory
from tasks.checks.scan import scan_memory
from tasks.store.errors import ContractError
from tasks.store.graph_store import load_graph_data, load_manifest, save_graph, save_manifest
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tasks.store.written import WRITTEN_FILE, as_written, written_data
from tests.memory_builder import NOW, build_healthy_memory, graph_model

GRAPH = "context/knowledge-graph.index.jsonc"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    memory = tmp_path / "memory"
    build_healthy_memory(memory)
    save_graph(memory / GRAPH, graph_model(), now_iso="2026-05-01T00:00:00Z")
    assert as_written(memory / GRAPH)
    return memory


def hand_edit(path: Path, old: bytes, new: bytes) -> None:
    """Change bytes in place keeping the size and the mtime (only ctime tells)."""
    st = path.stat()
    data = path.read_bytes()
    assert old in data and len(old) == len(new)
    path.write_bytes(data.replace(old, new, 1))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_trusted_read_equals_the_validated_read(root: Path) -> None:
    data = (root / GRAPH).read_bytes()
    assert load_graph_data(root / GRAPH) == dict(KNOWLEDGE_GRAPH_DATA.validate_json(data))


def test_written_data_is_the_file_parsed_only_while_as_written(root: Path) -> None:
    assert written_data(root / GRAPH) == orjson.loads((root / GRAPH).read_bytes())
    hand_edit(root / GRAPH, b'"entityType": "', b'"entityType":""')
    assert written_data(root / GRAPH) is None
    assert written_data(root / "context/no-such-file.jsonc") is None


def test_hand_edit_is_not_trusted(root: Path) -> None:
    hand_edit(root / GRAPH, b'"entityType": "', b'"entityType":""')
    assert not as_written(root / GRAPH)
    with pytest.raises(ContractError):
        load_graph_data(root / GRAPH)


def test_hand_edit_is_found_by_the_scan(root: Path) -> None:
    scan_memory(root)  # nothing cached: the graph is read either way
    hand_edit(root / GRAPH, b'"entityType": "', b'"entityType":""')
    facts = scan_memory(root).files[GRAPH]["facts"]
    assert facts.get("problem") is not None


def test_hand_edit_is_reported_by_bootstrap(root: Path) -> None:
    hand_edit(root / GRAPH, b'"entityType": "', b'"entityType":""')
    settings = load_settings(root, fixed_clock=NOW)
    with writing_operation(settings, "bootstrap") as operation:
        report = bootstrap_memory(operation)
    assert [p.code for p in report.problems if p.file == GRAPH] == ["invalid_context_file"]


@pytest.mark.parametrize("damage", [b"", b"{broken", b"[1, 2]", b'{"knowledge-graph.index.jsonc": 5}'])
def test_corrupt_record_trusts_nothing(root: Path, damage: bytes) -> None:
    (root / WRITTEN_FILE).write_bytes(damage)
    assert not as_written(root / GRAPH)
    data = (root / GRAPH).read_bytes()
    assert load_graph_data(root / GRAPH) == dict(KNOWLEDGE_GRAPH_DATA.validate_json(data))
    graph = graph_model()
    graph.entities[0].observations.append("One more fact from a later distill")
    save_graph(root / GRAPH, graph, now_iso="2026-05-02T00:00:00Z")  # the next write records it
    assert as_written(root / GRAPH)


def test_scan_facts_are_the_same_trusted_or_not(root: Path) -> None:
    trusted = scan_memory(root).files[GRAPH]
    (root / WRITTEN_FILE).unlink()
    validated = scan_memory(root).files[GRAPH]
    assert orjson.dumps(trusted, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        validated, option=orjson.OPT_SORT_KEYS)


def _manifest(stamp: str, count: int) -> RawManifest:
    assets = [RawAsset(assetId=f"{i:064x}", contentHash=f"sha256:{i:064x}", sizeBytes=i,
                       mediaType="text/markdown", originalPath=f"notes/n{i}.md",
                       rawPath=f"raw/2026-05-01T00-00-00Z__n{i}.md",
                       ingestedAtUtc="2026-05-01T00:00:00Z",
                       sourcePage=f"wiki/sources/n{i}.md" if i % 2 else None, extraKey=[i])
              for i in range(count)]
    return RawManifest(manifestGeneratedAtUtc=stamp, assets=assets)


def test_a_saved_manifest_is_handed_to_the_next_load_once(tmp_path: Path) -> None:
    """The manifest this process saved is the next load_manifest's answer while the file is
    that write: equal to the file validated, with the stamp the file holds; once only."""
    root = tmp_path / "memory"
    build_healthy_memory(root)
    path = root / "context/raw-manifest.jsonc"
    first = _manifest("2026-05-01T00:00:00Z", 3)
    save_manifest(path, first, now_iso="2026-05-02T00:00:00Z")
    loaded = load_manifest(path)
    assert loaded.assets[0] is first.assets[0]  # handed over, not read (the stamp: the file's)
    assert loaded == RawManifest.model_validate_json(path.read_bytes())
    assert loaded.manifestGeneratedAtUtc == "2026-05-02T00:00:00Z"
    again = load_manifest(path)  # handed over once: then read from the file
    assert again.assets[0] is not first.assets[0] and again == loaded
    # nothing changed: the file keeps its stamp, and so does the model handed over
    same = _manifest("2026-05-09T00:00:00Z", 3)
    assert not save_manifest(path, same, now_iso="2026-05-03T00:00:00Z")
    handed = load_manifest(path)
    assert handed.assets[0] is same.assets[0]
    assert handed.manifestGeneratedAtUtc == "2026-05-02T00:00:00Z"
    assert handed == RawManifest.model_validate_json(path.read_bytes())


def test_a_hand_edit_after_the_save_is_read_and_validated(tmp_path: Path) -> None:
    """A write by anyone else between the save and the load: the file is read, and a broken
    one is refused as before."""
    root = tmp_path / "memory"
    build_healthy_memory(root)
    path = root / "context/raw-manifest.jsonc"
    save_manifest(path, _manifest("2026-05-01T00:00:00Z", 2), now_iso="2026-05-02T00:00:00Z")
    hand_edit(path, b'"sizeBytes": 1', b'"sizeBytes": 7')
    assert load_manifest(path).assets[1].sizeBytes == 7
    save_manifest(path, _manifest("2026-05-01T00:00:00Z", 2), now_iso="2026-05-02T00:00:00Z")
    hand_edit(path, b'"sizeBytes": 1', b'"sizeBytes":-1')
    with pytest.raises(ContractError):
        load_manifest(path)


def _copy_memory(root: Path, to: Path) -> Path:
    """A copy as `cp -a` makes it: the same bytes and mtimes, new inodes and ctimes."""
    import shutil

    shutil.copytree(root, to, symlinks=True)  # copy2: mtimes kept
    assert (to / GRAPH).stat().st_ino != (root / GRAPH).stat().st_ino
    return to


def test_a_copied_file_is_trusted_by_its_digest_and_its_identity_recorded(root: Path, tmp_path: Path) -> None:
    copy = _copy_memory(root, tmp_path / "copy")
    before = orjson.loads((copy / WRITTEN_FILE).read_bytes())[Path(GRAPH).name]
    from tasks.store.filememo import file_identity

    assert len(before) == 5 and before[:4] != file_identity(copy / GRAPH)
    assert as_written(copy / GRAPH)
    after = orjson.loads((copy / WRITTEN_FILE).read_bytes())[Path(GRAPH).name]
    st = (copy / GRAPH).stat()
    assert after == [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, before[4]]
    data = (copy / GRAPH).read_bytes()
    assert load_graph_data(copy / GRAPH) == dict(KNOWLEDGE_GRAPH_DATA.validate_json(data))


def test_a_copy_then_edited_keeping_size_and_mtime_is_not_trusted(root: Path, tmp_path: Path) -> None:
    copy = _copy_memory(root, tmp_path / "copy")
    hand_edit(copy / GRAPH, b'"entityType": "', b'"entityType":""')  # as `touch -r` would
    assert not as_written(copy / GRAPH)
    with pytest.raises(ContractError):
        load_graph_data(copy / GRAPH)


def test_an_edit_in_place_with_the_same_size_and_mtime_is_not_trusted_by_digest(root: Path) -> None:
    hand_edit(root / GRAPH, b'"entityName": "', b'"entityName":""')
    assert not as_written(root / GRAPH)
    assert not as_written(root / GRAPH)  # (and not remembered as trusted)


@pytest.mark.parametrize("entry", [
    None,  # no entry
    "text",
    [1, 2, 3],
    [0, 0, 0, 0, "0" * 64],  # another file's identity and digest
    [0, 0, 0, 0, 5],  # a digest of another shape
])
def test_a_copy_with_a_missing_or_damaged_record_trusts_nothing(
        root: Path, tmp_path: Path, entry: object) -> None:
    copy = _copy_memory(root, tmp_path / "copy")
    record = orjson.loads((copy / WRITTEN_FILE).read_bytes())
    name = Path(GRAPH).name
    if entry is None:
        del record[name]
    else:
        size = (copy / GRAPH).stat().st_size
        record[name] = [size, *entry[1:]] if isinstance(entry, list) and len(entry) == 5 else entry
    (copy / WRITTEN_FILE).write_bytes(orjson.dumps(record))
    assert not as_written(copy / GRAPH)


def test_a_graph_written_in_parts_gets_its_digest_from_the_health_digests(root: Path, tmp_path: Path) -> None:
    from tasks.store.digests import file_digests
    from tasks.store.layout import MemoryLayout
    from tasks.store.written import record_written

    record_written(root / GRAPH)  # as graph_segments records it: no bytes in hand
    assert len(orjson.loads((root / WRITTEN_FILE).read_bytes())[Path(GRAPH).name]) == 5  # kept
    record = orjson.loads((root / WRITTEN_FILE).read_bytes())
    record[Path(GRAPH).name] = record[Path(GRAPH).name][:4]  # a record without a digest
    (root / WRITTEN_FILE).write_bytes(orjson.dumps(record))
    assert not as_written(_copy_memory(root, tmp_path / "before") / GRAPH)
    file_digests(MemoryLayout(root), [root / GRAPH])
    assert as_written(_copy_memory(root, tmp_path / "after") / GRAPH)


def test_a_copy_keeps_the_identity_it_had_until_membank_rewrites_it(root: Path, tmp_path: Path) -> None:
    from tasks.store.filememo import file_identity
    from tasks.store.written import earlier_identities

    old = file_identity(root / GRAPH)
    copy = _copy_memory(root, tmp_path / "copy")
    assert earlier_identities(copy / GRAPH) == []
    assert as_written(copy / GRAPH) and earlier_identities(copy / GRAPH) == [old]
    graph = graph_model()
    graph.entities[0].observations.append("One more fact from a later distill")
    save_graph(copy / GRAPH, graph, now_iso="2026-05-02T00:00:00Z")
    assert as_written(copy / GRAPH) and earlier_identities(copy / GRAPH) == []
    assert "~moved" not in orjson.loads((copy / WRITTEN_FILE).read_bytes())  # (nothing left behind)


def _with_record(copy: Path, record: bytes | None) -> None:
    if record is None:
        (copy / WRITTEN_FILE).unlink()
    else:
        (copy / WRITTEN_FILE).write_bytes(record)


@pytest.mark.parametrize("record", [
    None,  # missing
    b"",  # left empty (a crash after the rename of an unsynced re-record)
    b'{"knowledge-graph.index.jsonc": [1, 2',  # cut short
    b"\x00\xff not json",
    b'["knowledge-graph.index.jsonc"]',  # of another shape
    b'{"knowledge-graph.index.jsonc": {"sha256": "x"}, "~moved": []}',
])
def test_a_copy_with_a_missing_or_damaged_record_file_trusts_nothing_and_reads_the_same(
        root: Path, tmp_path: Path, record: bytes | None) -> None:
    from tasks.store.written import earlier_identities

    copy = _copy_memory(root, tmp_path / "copy")
    _with_record(copy, record)
    assert not as_written(copy / GRAPH)
    assert earlier_identities(copy / GRAPH) == []
    data = (copy / GRAPH).read_bytes()
    assert load_graph_data(copy / GRAPH) == dict(KNOWLEDGE_GRAPH_DATA.validate_json(data))
    assert not as_written(copy / GRAPH)  # (a read records nothing)


def test_an_old_format_record_trusts_its_own_files_by_identity_and_no_copy(
        root: Path, tmp_path: Path) -> None:
    from tasks.store.filememo import file_identity

    # as 8d3f6a2 wrote it: each file's identity alone, no digest
    old = {name: entry[:4] for name, entry in orjson.loads((root / WRITTEN_FILE).read_bytes()).items()}
    (root / WRITTEN_FILE).write_bytes(orjson.dumps(old))
    assert as_written(root / GRAPH)
    copy = _copy_memory(root, tmp_path / "copy")
    assert not as_written(copy / GRAPH)
    save_graph(copy / GRAPH, graph_model(), now_iso="2026-05-01T00:00:00Z")  # membank writes it
    entry = orjson.loads((copy / WRITTEN_FILE).read_bytes())[Path(GRAPH).name]
    assert entry[:4] == file_identity(copy / GRAPH) and len(entry[4]) == 64  # the new format
    assert as_written(_copy_memory(copy, tmp_path / "again") / GRAPH)


@pytest.mark.parametrize("moved", [
    "text",
    {"knowledge-graph.index.jsonc": [1, 2, 3, 4]},  # trust35's shape: one identity, no digest
    {"knowledge-graph.index.jsonc": {"sha256": "0" * 64, "identities": [[1, 2, 3, 4]]}},  # other bytes
    {"knowledge-graph.index.jsonc": {"sha256": None, "identities": "x"}},
])
def test_earlier_identities_of_another_shape_or_other_bytes_are_none(
        root: Path, tmp_path: Path, moved: object) -> None:
    from tasks.store.written import earlier_identities

    copy = _copy_memory(root, tmp_path / "copy")
    record = orjson.loads((copy / WRITTEN_FILE).read_bytes())
    record["~moved"] = moved
    (copy / WRITTEN_FILE).write_bytes(orjson.dumps(record))
    assert earlier_identities(copy / GRAPH) == []
    assert as_written(copy / GRAPH)  # the copy itself is still trusted by its digest
    assert len(earlier_identities(copy / GRAPH)) == 1  # and the damaged entry replaced


def _graph_by_entity(root: Path) -> None:
    from tasks.store.digests import file_digests
    from tasks.store.graph_segments import save_graph_segments
    from tasks.store.graph_store import graph_data, normalize_graph
    from tasks.store.layout import MemoryLayout

    assert save_graph_segments(root / GRAPH, graph_data(normalize_graph(graph_model())),
                               now_iso="2026-05-03T00:00:00Z")
    # written in parts, no bytes in hand: no digest until the health write's (each reconcile)
    assert not as_written(_copy_memory(root, root.parent / "too-early") / GRAPH)
    file_digests(MemoryLayout(root), [root / GRAPH])


def test_the_spans_of_a_graph_hold_for_a_copy_of_a_copy(root: Path, tmp_path: Path) -> None:
    """The first ingest after a restore read the whole graph (3.4 GB at 100,000 pages) when
    the spans were keyed by an identity the copy's record no longer named."""
    from tasks.store.graph_segments import GraphSegments

    _graph_by_entity(root)
    spans = GraphSegments.load(root / GRAPH)
    assert spans is not None
    first = _copy_memory(root, tmp_path / "first")
    assert as_written(first / GRAPH)  # a reader re-records the copy's identity
    second = _copy_memory(first, tmp_path / "second")
    loaded = GraphSegments.load(second / GRAPH)
    assert loaded is not None and loaded.spans == spans.spans
    assert loaded.frame() == spans.frame()
    assert [loaded.entity(key) for key in loaded.spans.keys] == [spans.entity(k) for k in spans.spans.keys]


def test_the_spans_do_not_hold_once_the_copy_is_written_whole(root: Path, tmp_path: Path) -> None:
    from tasks.store.graph_segments import GraphSegments

    _graph_by_entity(root)
    copy = _copy_memory(root, tmp_path / "copy")
    assert as_written(copy / GRAPH) and GraphSegments.load(copy / GRAPH) is not None
    graph = graph_model()
    graph.entities[0].observations.append("One more fact, written whole")
    save_graph(copy / GRAPH, graph, now_iso="2026-05-04T00:00:00Z")
    assert as_written(copy / GRAPH) and GraphSegments.load(copy / GRAPH) is None


def test_a_re_record_never_writes_through_a_symlinked_state_folder(root: Path, tmp_path: Path) -> None:
    copy = _copy_memory(root, tmp_path / "copy")
    elsewhere = tmp_path / "elsewhere"
    (copy / ".membank").rename(elsewhere)
    (copy / ".membank").symlink_to(elsewhere)
    before = (elsewhere / "written-context.json").read_bytes()
    assert as_written(copy / GRAPH)  # trusted by its digest all the same
    assert (elsewhere / "written-context.json").read_bytes() == before  # nothing written there


def test_a_forked_child_gets_free_guards(root: Path, tmp_path: Path) -> None:
    """A guard held by another thread at the fork (reconcile forks its scan workers while
    its checks run in threads) must not stay held in the child."""
    import threading

    from tasks.store import written

    copy = _copy_memory(root, tmp_path / "copy")
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        with written._RECORD_GUARD, written._HASHED_GUARD:
            held.set()
            done.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait()
    try:
        pid = os.fork()
        if pid == 0:  # the child: both guards free (else exit 4 at once), then a re-record
            free = written._RECORD_GUARD.acquire(blocking=False) and written._HASHED_GUARD.acquire(blocking=False)
            if not free:
                os._exit(4)
            written._HASHED_GUARD.release()
            os._exit(0 if as_written(copy / GRAPH) else 3)
    finally:
        done.set()
        holder.join()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert len(orjson.loads((copy / WRITTEN_FILE).read_bytes())["~moved"][Path(GRAPH).name]["identities"]) == 1
