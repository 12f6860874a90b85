"""The derived search index: build, incremental update, crash safety, stale and corrupt."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import sqlite3
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from tasks.search import index as search_index
from tasks.search.index import (
    SearchIndexError,
    build_index,
    check_index,
    ensure_index,
    index_file,
    index_state,
    require_fts5,
    update_index,
)
from tasks.search.query import SearchOptions, search
from tasks.store.layout import MemoryLayout
from tests.memory_builder import CONCEPT, PREFIX, write
from tests.tasks.search.search_memory import SHARD, SYNTHESIS, build_search_memory


@pytest.fixture
def layout(tmp_path: Path) -> MemoryLayout:
    return build_search_memory(tmp_path / "mem")


def paths(layout: MemoryLayout, query: str, **options: object) -> list[str]:
    return [h.path for h in search(layout, query, SearchOptions(**options)).hits]  # type: ignore[arg-type]


def test_build_indexes_pages_and_observations_not_raw_or_catalogs(layout: MemoryLayout) -> None:
    built = build_index(layout)
    assert built.action == "built" and not built.problems
    assert built.entities_indexed == 2
    with sqlite3.connect(index_file(layout)) as conn:
        indexed = {p for (p,) in conn.execute("SELECT path FROM docs")}
    assert SYNTHESIS in indexed and SHARD in indexed and CONCEPT in indexed
    assert "index.md" not in indexed and "log.md" not in indexed
    assert not any(p.startswith("raw/") for p in indexed)
    assert check_index(layout) == ("ok", [])


def test_a_write_followed_by_update_is_found_and_a_deleted_page_is_gone(layout: MemoryLayout) -> None:
    build_index(layout)
    assert paths(layout, "platypus") == []
    page = f"wiki/concepts/{PREFIX}__platypus-notes.md"
    write(layout.root, page, {"type": "concept", "title": "Platypus notes",
                              "description": "Notes."}, "# Platypus notes\n\nA platypus.\n")
    update = update_index(layout, [page])
    assert (update.action, update.pages_indexed) == ("updated", 1)
    assert paths(layout, "platypus") == [page]
    (layout.root / page).unlink()
    assert update_index(layout, [page]).pages_removed == 1
    assert paths(layout, "platypus") == []


def test_search_never_returns_a_page_deleted_behind_the_index(layout: MemoryLayout) -> None:
    build_index(layout)
    assert SYNTHESIS in paths(layout, "retry")
    (layout.root / SYNTHESIS).unlink()
    assert SYNTHESIS not in paths(layout, "retry")


def test_update_without_an_index_leaves_it_absent_and_search_builds_it(layout: MemoryLayout) -> None:
    assert update_index(layout, [SYNTHESIS]).action == "absent"
    assert not index_file(layout).exists()
    assert paths(layout, "retry budget")[0] == SYNTHESIS
    assert index_state(layout) == "ok"


def test_a_corrupt_index_is_detected_and_rebuilt(layout: MemoryLayout) -> None:
    build_index(layout)
    index_file(layout).write_bytes(b"this is not a database" * 100)
    assert index_state(layout) == "corrupt"
    assert paths(layout, "retry budget")[0] == SYNTHESIS
    assert index_state(layout) == "ok"


def test_an_incomplete_build_is_never_used(layout: MemoryLayout) -> None:
    build_index(layout)
    with sqlite3.connect(index_file(layout)) as conn:
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'complete'")
    assert index_state(layout) == "corrupt"
    assert ensure_index(layout)[0] == "corrupt"
    assert index_state(layout) == "ok"


def test_a_crash_mid_update_leaves_the_old_index(layout: MemoryLayout,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    build_index(layout)
    write(layout.root, SYNTHESIS, {"type": "synthesis", "title": "Upload retry budget",
                                   "description": "d"}, "# Upload retry budget\n\nWombat.\n")

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # the process dies after the old rows were deleted

    monkeypatch.setattr(search_index, "read_page_record", crash)
    with pytest.raises(KeyboardInterrupt):
        update_index(layout, [SYNTHESIS])
    monkeypatch.undo()
    assert paths(layout, "forty failed uploads")[0] == SYNTHESIS  # the old rows are back
    assert check_index(layout)[0] == "stale"
    ensure_index(layout)
    assert paths(layout, "wombat") == [SYNTHESIS]
    assert check_index(layout) == ("ok", [])


def test_a_crashed_build_leaves_the_old_index_and_no_temp_file(layout: MemoryLayout,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    build_index(layout)
    before = index_file(layout).read_bytes()

    def crash(*args: object, **kwargs: object) -> int:
        raise RuntimeError("disk gone")

    monkeypatch.setattr(search_index, "_sync_entities", crash)
    with pytest.raises(RuntimeError):
        build_index(layout)
    assert index_file(layout).read_bytes() == before
    assert [p.name for p in index_file(layout).parent.iterdir() if p.name.endswith(".tmp")] == []


def test_hand_edits_make_the_index_stale_and_ensure_reindexes_them(layout: MemoryLayout) -> None:
    build_index(layout)
    concept = layout.root / CONCEPT
    concept.write_text(concept.read_text() + "\nA narwhal appears.\n")
    (layout.root / SYNTHESIS).unlink()
    state, stale = check_index(layout)
    assert state == "stale" and stale == sorted([CONCEPT, SYNTHESIS])
    state, update = ensure_index(layout)
    assert (update.pages_indexed, update.pages_removed) == (1, 1)
    assert paths(layout, "narwhal") == [CONCEPT]
    assert check_index(layout) == ("ok", [])


def test_graph_changes_reindex_only_changed_entities(layout: MemoryLayout) -> None:
    from tasks.store.graph_store import load_graph, save_graph

    build_index(layout)
    graph = load_graph(layout.graph_file)
    graph.entities[1].observations.append("Writes plans as capybara diagrams")
    save_graph(layout.graph_file, graph, now_iso="2026-03-24T22:40:05Z")
    os.utime(layout.graph_file, ns=(1, 1))  # a different signature even on a coarse clock
    assert update_index(layout, []).entities_indexed == 1
    hits = search(layout, "capybara").hits
    assert [(h.kind, h.title) for h in hits] == [("observation", "planner")]


def test_missing_fts5_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoFts:
        def execute(self, sql: str) -> None:
            raise sqlite3.OperationalError("no such module: fts5")

        def close(self) -> None:
            pass

    require_fts5.cache_clear()
    monkeypatch.setattr(search_index.sqlite3, "connect", lambda *a, **k: NoFts())
    try:
        with pytest.raises(SearchIndexError, match="no FTS5 module"):
            require_fts5()
    finally:
        require_fts5.cache_clear()


def test_a_parallel_build_indexes_the_same_rows(layout: MemoryLayout,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def rows() -> list[tuple]:
        with sqlite3.connect(index_file(layout)) as conn:
            return conn.execute("SELECT d.path, u.anchor, u.heading FROM docs d JOIN units u "
                                "ON u.doc_id = d.id ORDER BY d.path, u.id").fetchall()

    build_index(layout, workers=1)
    serial = rows()
    monkeypatch.setattr(search_index, "_PARALLEL_MIN_PAGES", 1)
    monkeypatch.setattr(search_index, "_CHUNK", 3)
    assert build_index(layout, workers=2).pages_indexed == len({r[0] for r in serial})
    assert rows() == serial



def _all_rows(layout: MemoryLayout) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows but the page files' times (docs.mtime_ns) and meta."""
    with sqlite3.connect(index_file(layout)) as conn:
        tables = {table: conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
                  for table in ("units", "vectors", "entities", "relations", "aliases")}
        tables["fts"] = conn.execute("SELECT rowid, * FROM fts ORDER BY rowid").fetchall()
        tables["docs"] = conn.execute("SELECT id, path, title, description, doc_date FROM docs"
                                      " ORDER BY id").fetchall()
    return tables


class _BreaksAfterOne(ThreadPoolExecutor):
    """A pool whose processes die after the first chunk (as a worker killed for memory)."""

    def map(self, fn, *iterables, timeout=None, chunksize=1):  # type: ignore[no-untyped-def]
        yield next(super().map(fn, *iterables))
        raise BrokenProcessPool("a worker died")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers: Linux")
def test_pages_parsed_in_a_given_pool_index_the_same_rows(layout: MemoryLayout, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that has forked workers (the ingest's map step) has its index build and update
    parse the pages there and embed them here: the same rows and vectors as in one process,
    and a pool that breaks midway hands the chunks left to this process."""
    monkeypatch.setattr(search_index, "_CHUNK", 2)
    build_index(layout, semantic=True)
    alone = _all_rows(layout)
    pages = [row[1] for row in alone["docs"]]
    assert len(pages) > 4 and alone["vectors"]
    twin = MemoryLayout(tmp_path / "twin")
    shutil.copytree(layout.root, twin.root)
    update_index(twin, pages)
    embedded: list[int] = []
    real = search_index._with_vectors

    def counted(out: list[search_index.Read], known: object = None) -> list[search_index.Read]:
        embedded.append(len(out))
        return real(out, known)  # type: ignore[arg-type]

    monkeypatch.setattr(search_index, "_with_vectors", counted)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        assert build_index(layout, semantic=True, pool=pool).pages_indexed == len(pages)
        assert _all_rows(layout) == alone
        assert embedded == [2] * (len(pages) // 2) + [1] * (len(pages) % 2)  # here, by chunk
        update_index(layout, pages, pool=pool)
        assert _all_rows(layout) == _all_rows(twin)
    with _BreaksAfterOne(1) as broken:
        assert build_index(layout, semantic=True, pool=broken).pages_indexed == len(pages)
    assert _all_rows(layout) == alone


# D19: the index never follows a symlink, never writes through one -------------------------


def _outside_note(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    note = outside / "note.md"
    note.write_text("---\ntitle: Zebracorn secrets\ndescription: Outside.\n---\n\n"
                    "# Zebracorn secrets\n\nThe zebracorn password is outside the root.\n")
    return note


def test_a_page_symlinked_outside_the_root_is_never_indexed(layout: MemoryLayout,
                                                           tmp_path: Path) -> None:
    from tasks.search.browse import browse

    link = layout.root / "wiki/concepts/note.md"
    link.symlink_to(_outside_note(tmp_path))
    built = build_index(layout)
    assert paths(layout, "zebracorn") == []
    assert all(p.path != "wiki/concepts/note.md" for p in browse(layout, "zebracorn").nearest)
    # nor through an update that names it (a writer's report, a hand-made list)
    update_index(layout, ["wiki/concepts/note.md"])
    assert paths(layout, "zebracorn") == []
    with sqlite3.connect(index_file(layout)) as conn:
        indexed = {p for (p,) in conn.execute("SELECT path FROM docs")}
    assert "wiki/concepts/note.md" not in indexed and built.pages_indexed == len(indexed)


def test_the_index_is_never_written_through_a_symlinked_state_folder(layout: MemoryLayout,
                                                                    tmp_path: Path) -> None:
    from tasks.store.errors import RootBoundaryError

    outside = tmp_path / "outside-state"
    outside.mkdir()
    layout.state_dir.mkdir(exist_ok=True)
    for entry in layout.state_dir.iterdir():
        entry.rename(outside / entry.name)
    layout.state_dir.rmdir()
    layout.state_dir.symlink_to(outside)
    before = sorted(p.name for p in outside.iterdir())
    with pytest.raises(RootBoundaryError, match="refusing to write through a symlink"):
        build_index(layout)
    with pytest.raises(RootBoundaryError):
        search(layout, "retry")
    assert sorted(p.name for p in outside.iterdir()) == before


def test_a_duplicated_graph_entity_does_not_break_the_build(layout: MemoryLayout) -> None:
    """D25: what reconcile reports as graph_not_normalized; the index keeps the first seen."""
    import orjson

    graph = orjson.loads(layout.graph_file.read_bytes())
    first = graph["entities"][0]
    graph["entities"].append({**first, "observations": ["A later duplicate's wombat fact"]})
    layout.graph_file.write_bytes(orjson.dumps(graph))
    built = build_index(layout)
    assert built.entities_indexed == 2 and not built.problems
    assert paths(layout, "wombat") == []  # the duplicate's facts: first seen wins
    first_fact = first["observations"][0]
    hits = search(layout, first_fact).hits
    assert hits and hits[0].kind == "observation"
    assert hits[0].title.lower() == first["entityName"].lower()


# D23: the temp files of an interrupted build are swept and reported ----------------------


def test_a_killed_build_leaves_a_temp_file_the_next_writer_sweeps(
        layout: MemoryLayout, monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.store.journal import recover, temp_files

    seen: list[list[str]] = []
    real_sync = search_index._sync_entities

    def sync_then_look(conn: sqlite3.Connection, layout_: MemoryLayout, problems: list[str]) -> int:
        seen.append(temp_files(layout.root))  # what a recovery would sweep at this moment
        return real_sync(conn, layout_, problems)

    monkeypatch.setattr(search_index, "_sync_entities", sync_then_look)
    build_index(layout)
    assert len(seen) == 1 and len(seen[0]) == 1
    assert seen[0][0].startswith(".membank/.search.sqlite3.")
    # an older version's name is recognised too, and both are swept by the next writer
    legacy = layout.state_dir / f".search.sqlite3.{os.getpid()}.tmp"
    legacy.write_bytes(b"partial")
    leftover = layout.root / seen[0][0]
    leftover.write_bytes(b"partial")
    removed = recover(layout.root).temp_files_removed
    assert sorted(removed) == sorted([seen[0][0], f".membank/{legacy.name}"])
    assert not legacy.exists() and not leftover.exists()


def test_unreadable_pages_and_registry_do_not_leave_the_index_behind(layout: MemoryLayout) -> None:
    """A page that cannot be read is skipped, and seen (not stale) until it changes; a broken
    registry leaves the pages indexed and says why the observations are not."""
    from tasks.search.index import stale_pages

    latin = "wiki/concepts/2026-01-10T08-00-00Z__latin.md"
    (layout.root / latin).write_bytes(b"---\ntitle: caf\xe9\n---\n\nBody\n")
    layout.registry_file.write_text("{ not json")
    built = build_index(layout)
    assert any(p.startswith(latin) for p in built.problems)
    assert any("graph observations not indexed" in p for p in built.problems)
    assert stale_pages(layout) == []
    assert paths(layout, "retry budget")[0] == SYNTHESIS
    assert update_index(layout, [latin]).problems and stale_pages(layout) == []
    (layout.root / latin).write_text("---\ntitle: Cafe ocelot\n---\n\nAn ocelot.\n")
    assert stale_pages(layout) == [latin]
    assert update_index(layout, [latin]).pages_indexed == 1 and paths(layout, "ocelot") == [latin]


def test_a_built_index_is_readable_like_the_other_memory_files(layout: MemoryLayout) -> None:
    build_index(layout)
    assert index_file(layout).stat().st_mode & 0o777 == 0o644


def _relation_rows(layout: MemoryLayout) -> list[tuple[object, ...]]:
    with sqlite3.connect(index_file(layout)) as conn:
        return conn.execute("SELECT rowid, source, type, target, superseded, reason FROM relations"
                            " ORDER BY rowid").fetchall()


def test_a_relation_added_or_removed_changes_that_row_alone(layout: MemoryLayout) -> None:
    """An update writes the relations that changed, by row: the other rows keep their row ids,
    and the table holds what a build from scratch holds (as a set: queries order by columns)."""
    from schemas.graph import GraphRelation
    from tasks.store.graph_store import load_graph, save_graph

    build_index(layout)
    graph = load_graph(layout.graph_file)
    names = [entity.entityName for entity in graph.entities]
    graph.relations.append(GraphRelation(sourceEntityName=names[0], targetEntityName=names[1],
                                         relationType="depends_on"))
    save_graph(layout.graph_file, graph, now_iso="2026-03-24T22:40:05Z")
    os.utime(layout.graph_file, ns=(1, 1))
    before = _relation_rows(layout)
    update_index(layout, [])
    after = _relation_rows(layout)
    added = [row for row in after if row not in before]
    assert before and set(before) <= set(after)  # every held row kept, with its row id
    assert [row[1:4] for row in added] == [(names[0].lower(), "depends_on", names[1].lower())]
    graph.relations = graph.relations[1:]  # the first relation of the build removed
    save_graph(layout.graph_file, graph, now_iso="2026-03-24T22:41:05Z")
    os.utime(layout.graph_file, ns=(2, 2))
    update_index(layout, [])
    updated = _relation_rows(layout)
    assert updated == [row for row in after if row != before[0]]
    index_file(layout).unlink()
    build_index(layout)
    assert sorted(row[1:] for row in _relation_rows(layout)) == sorted(row[1:] for row in updated)


def test_replace_rows_keeps_duplicates_as_a_multiset() -> None:
    """A row held twice and wanted once loses one copy; one wanted twice and held once gains
    one; an unchanged table is not written at all."""
    with sqlite3.connect(":memory:") as conn:
        conn.execute("CREATE TABLE t(a TEXT, b INTEGER)")
        search_index._replace_rows(conn, "t", ("a", "b"), [("x", 1), ("x", 1), ("y", 2)])
        assert conn.execute("SELECT rowid, a, b FROM t").fetchall() == [
            (1, "x", 1), (2, "x", 1), (3, "y", 2)]
        changes = conn.total_changes
        search_index._replace_rows(conn, "t", ("a", "b"), [("y", 2), ("x", 1), ("x", 1)])
        assert conn.total_changes == changes  # the same multiset: nothing written
        search_index._replace_rows(conn, "t", ("a", "b"), [("x", 1), ("y", 2), ("y", 2), ("z", None)])
        assert sorted(conn.execute("SELECT a, b FROM t").fetchall(), key=str) == sorted(
            [("x", 1), ("y", 2), ("y", 2), ("z", None)], key=str)
        assert (3, "y", 2) in conn.execute("SELECT rowid, a, b FROM t").fetchall()


def test_the_deep_check_made_ahead_is_the_file_s_identity_when_it_passed(
        layout: MemoryLayout, monkeypatch: pytest.MonkeyPatch) -> None:
    """deep_check_ahead: the identity of an index that passed, None for a missing (never
    created) or damaged one; check_index skips its own deep check only for that very file."""
    from tasks.search.index import deep_check_ahead
    from tasks.search.index_checked import forget_checked
    from tasks.store.filememo import file_identity

    assert deep_check_ahead(layout) is None and not index_file(layout).exists()
    build_index(layout)
    forget_checked(layout)  # the build's own record aside: `passed` alone decides here
    passed = deep_check_ahead(layout)
    assert passed is not None and passed == file_identity(index_file(layout))
    deep: list[bool] = []
    real = search_index._deep_ok

    def counted(conn: sqlite3.Connection) -> bool:
        deep.append(True)
        return real(conn)

    monkeypatch.setattr(search_index, "_deep_ok", counted)
    assert check_index(layout, passed=passed) == ("ok", []) and deep == []
    assert check_index(layout, passed=[1, 2, 3, 4]) == ("ok", []) and deep == [True]
    with sqlite3.connect(index_file(layout)) as conn:  # another version of the file
        conn.execute("UPDATE meta SET value = value WHERE key = 'complete'")
        conn.execute("CREATE TABLE touched (x)")
    assert check_index(layout, passed=passed) == ("ok", []) and deep == [True, True]
    size = index_file(layout).stat().st_size
    with index_file(layout).open("r+b") as damaged:  # the header kept, pages broken
        damaged.seek(size // 2)
        damaged.write(b"\xff" * 4096)
    assert deep_check_ahead(layout) is None
    assert check_index(layout, passed=passed)[0] == "corrupt"


def test_an_entity_s_fact_units_carry_its_name_on_the_first_alone() -> None:
    """_Rows.facts numbers an entity's facts from the next unit id, one units row and one FTS
    row each, the entity's name and aliases on the first FTS row only (none when it has a
    page, which is matched by its title instead)."""
    with sqlite3.connect(":memory:") as conn:
        conn.executescript(search_index._SCHEMA)
        rows = search_index._Rows(conn)
        facts = [("observations", "Observations", "runs on Postgres", 0, None, "wiki/a.md"),
                 ("superseded-facts", "Superseded facts", "ran on MySQL", 1, "runs on Postgres",
                  None)]
        rows.facts("billing", facts, "Billing Payments")
        rows.facts("ledger", facts[:1], "")
        rows.facts("empty", [], "Empty")
    assert rows.units == [(1, None, "billing", *facts[0]), (2, None, "billing", *facts[1]),
                          (3, None, "ledger", *facts[0])]
    assert rows.fts == [(1, "Billing Payments", "", "Observations", "runs on Postgres"),
                        (2, "", "", "Superseded facts", "ran on MySQL"),
                        (3, "", "", "Observations", "runs on Postgres")]
    assert rows.next_unit == 4


def test_an_update_that_finds_the_graph_unchanged_imports_none_of_its_schema(
        layout: MemoryLayout) -> None:
    """The graph's models, stream and segments are loaded only when the graph changed: a
    process that re-indexes edited pages alone never imports them (start-up of every update)."""
    import subprocess
    import sys

    build_index(layout)
    concept = layout.root / CONCEPT
    with concept.open("a", encoding="utf-8") as handle:
        handle.write("\nA changed line about wombats.\n")
    script = (
        "import sys\nfrom pathlib import Path\n"
        "from tasks.search.index import update_index\n"
        "from tasks.store.layout import MemoryLayout\n"
        "layout = MemoryLayout(Path(sys.argv[1]))\n"
        "done = update_index(layout, [sys.argv[2]])\n"
        "assert done.pages_indexed == 1 and not done.entities_indexed, done\n"
        "print(sorted(m for m in sys.modules if m.startswith(('schemas.graph', "
        "'tasks.store.graph', 'tasks.search.graph'))))\n")
    found = subprocess.run(
        [sys.executable, "-c", script, str(layout.root),
         concept.relative_to(layout.root).as_posix()],
        capture_output=True, text=True, check=True,
        cwd=Path(__file__).resolve().parents[3],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])})
    assert found.stdout.strip() == "[]", found.stdout + found.stderr
    assert paths(layout, "wombats") == [concept.relative_to(layout.root).as_posix()]


def test_stale_pages_from_a_walk_equal_its_own_walk_s(layout: MemoryLayout) -> None:
    """stale_pages given reconcile's walk (FileStat tuples, whose first field is the size) finds
    what its own walk (os.stat_result) finds: a new, a changed and a removed page, a skipped
    page as recorded (not stale) and one whose record is malformed (stale)."""
    import orjson

    from tasks.checks.walk import SKIP_PATHS, walk_root
    from tasks.search.index import SKIPPED_KEY, stale_pages
    from tasks.search.pages import pages_of_walk

    build_index(layout)
    new_page = f"wiki/concepts/{PREFIX}__ocelot-notes.md"
    write(layout.root, new_page, {"type": "concept", "title": "Ocelot", "description": "d"},
          "# Ocelot\n\nAn ocelot.\n")
    (layout.root / SYNTHESIS).write_text((layout.root / SYNTHESIS).read_text() + "\nMore.\n")
    (layout.root / CONCEPT).unlink()
    latin = "wiki/concepts/2026-01-10T08-00-00Z__latin.md"
    odd = "wiki/concepts/2026-01-10T08-00-00Z__odd.md"
    for rel in (latin, odd):
        (layout.root / rel).write_bytes(b"---\ntitle: caf\xe9\n---\n\nBody\n")
    seen = (layout.root / latin).stat()
    with sqlite3.connect(index_file(layout)) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (orjson.dumps(
            {latin: [seen.st_mtime_ns, seen.st_size], odd: "not a signature"}).decode(),
            SKIPPED_KEY))
    own = stale_pages(layout)
    assert own == sorted([new_page, SYNTHESIS, CONCEPT, odd])
    walked = walk_root(layout.root)
    assert stale_pages(layout, pages=pages_of_walk(layout.root, walked.stats, SKIP_PATHS)) == own
