import random
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.store.catalog import (
    CatalogEntry,
    catalog_rows,
    count_entries,
    joined_path,
    parse_entry_lines,
    read_index_entries,
    update_hub,
    update_index,
)
from tasks.store.layout import MemoryLayout
from tasks.store.pages import read_page

T0, T1 = "2026-03-24T22:40:05Z", "2026-03-25T00:00:00Z"
SOURCE = CatalogEntry("wiki/sources/2026-03-24T22-40-05Z__design-notes.md", "Design [notes]",
                      "How the store is laid out.")
ENTITY = CatalogEntry("wiki/entities/2026-03-24T22-40-05Z__orchestrator.md", "orchestrator", "A service.")


def test_index_lists_entries_by_category_and_parses_back(tmp_path: Path) -> None:
    layout = MemoryLayout(tmp_path)
    assert update_index(layout, [ENTITY, SOURCE], now_iso=T0).created
    body = read_page(layout.index_file).body
    assert body.index("## Sources") < body.index(SOURCE.path) < body.index("## Entities") < body.index(ENTITY.path)
    assert read_index_entries(layout) == {SOURCE.path: SOURCE, ENTITY.path: ENTITY}


def test_index_update_is_idempotent_and_upserts(tmp_path: Path) -> None:
    layout = MemoryLayout(tmp_path)
    update_index(layout, [SOURCE], now_iso=T0)
    assert not update_index(layout, [SOURCE], now_iso=T1).changed
    renamed = CatalogEntry(SOURCE.path, "Design notes v2", SOURCE.description)
    assert update_index(layout, [renamed], now_iso=T1).changed
    assert read_index_entries(layout)[SOURCE.path].title == "Design notes v2"
    update_index(layout, [ENTITY], now_iso=T1, replace_all=True)
    assert list(read_index_entries(layout)) == [ENTITY.path]


def test_hub_lists_children_with_relative_links(tmp_path: Path) -> None:
    layout = MemoryLayout(tmp_path)
    update_hub(layout, "wiki/sources/index.md", [SOURCE], now_iso=T0)
    page = read_page(tmp_path / "wiki/sources/index.md")
    assert page.meta["type"] == "hub" and page.meta["child_of"] == ["index.md"]
    assert "](2026-03-24T22-40-05Z__design-notes.md)" in page.body
    assert parse_entry_lines(page.body, base="wiki/sources") == {SOURCE.path: SOURCE}
    assert not update_hub(layout, "wiki/sources/index.md", [SOURCE], now_iso=T1).changed


def test_a_kept_view_of_index_md_writes_what_a_fresh_reader_would(tmp_path: Path) -> None:
    """A warm process updates index.md from the view it kept of the file it wrote: each
    update must write exactly what re-reading the file and rendering every entry writes."""
    from tasks.store import catalog

    def fresh(upserts: list[CatalogEntry]) -> str:  # the whole read, parse and render
        entries = read_index_entries(layout)
        entries.update({entry.path: entry for entry in upserts})
        return catalog.render_index_body(entries.values())

    layout = MemoryLayout(tmp_path)
    update_index(layout, [SOURCE, ENTITY], now_iso=T0)
    steps = [
        [CatalogEntry("wiki/entities/2026-03-24T22-40-05Z__aardvark.md", "aardvark", "First.")],
        [CatalogEntry(ENTITY.path, "orchestrator", "A   service,\n now folded.")],
        [CatalogEntry("wiki/concepts/index.md", "Concepts [hub]", "")],
        [CatalogEntry("notes/loose.md", "Loose", "Other category.")],
        [CatalogEntry("wiki/sources/odd name.md", "Odd", "A link that does not parse back.")],
        [CatalogEntry("wiki/sources/2026-03-25T00-00-00Z__zeta.md", "Zeta", "Last.")],
    ]
    for upserts in steps:
        expected = fresh(upserts)
        update_index(layout, upserts, now_iso=T1)
        assert read_page(layout.index_file).body == expected
    assert str(layout.index_file) in catalog._VIEWS  # kept again once the odd one was read back
    (layout.index_file).write_text((layout.index_file).read_text().replace("Zeta", "Zed"))
    expected = fresh([SOURCE])  # an edit by hand: the view is dropped, the file read
    update_index(layout, [SOURCE], now_iso=T1)
    assert read_page(layout.index_file).body == expected


def test_splicing_rows_writes_what_the_whole_parse_and_render_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog page membank wrote is updated by splicing rows (.membank/ records it): each
    update writes byte for byte what a root without the record (a whole parse) writes."""
    import random

    from tasks.store import catalog

    done: list[str] = []
    for name in ("_splice_index", "_byte_splice_index", "_splice_hub", "_byte_splice_hub",
                 "_listed_already", "_children_listed"):
        def counted(*args: object, _real: object = getattr(catalog, name), _name: str = name) -> object:
            result = _real(*args)  # type: ignore[operator]
            if result is not False:  # a splice, or a page found to list its rows already
                done.append(_name)
            return result
        monkeypatch.setattr(catalog, name, counted)

    spliced, whole = MemoryLayout(tmp_path / "a"), MemoryLayout(tmp_path / "b")
    (spliced.root / ".membank").mkdir(parents=True)
    whole.root.mkdir()
    rng = random.Random(7)
    folders = ["wiki/sources", "wiki/entities", "wiki/concepts", "sessions", "plans"]
    paths = [f"{rng.choice(folders)}/2026-03-24T22-40-05Z__page-{i:03d}.md" for i in range(60)]
    splices = 0
    for step in range(40):
        batch = [CatalogEntry(path, rng.choice(["A [b] c", "Title", f"t{step}"]),
                              rng.choice(["", "One.", f"d {step}"]), hub=rng.random() < 0.1)
                 for path in rng.sample(paths, rng.randint(1, 4))]
        if step % 7 == 0:
            batch.append(CatalogEntry("wiki/synthesis/index.md", "Synthesis", "Hub."))
        now = f"2026-03-25T00:00:{step:02d}Z"
        for layout in (spliced, whole):
            catalog._VIEWS.clear()  # no warm view: the page is read from disk each time
            update_index(layout, batch, now_iso=now)
            hub = [e for e in batch if e.path.startswith("wiki/sources/")]
            update_hub(layout, "wiki/sources/index.md", hub, now_iso=now)
        splices += catalog._canonical(spliced, spliced.index_file)
        for rel in ("index.md", "wiki/sources/index.md"):
            assert (spliced.root / rel).read_bytes() == (whole.root / rel).read_bytes(), (step, rel)
    assert splices == 40 and not (whole.root / catalog.CATALOG_RECORD).exists()
    # (the first: whole; the others spliced, or found listed already in the page's bytes)
    assert done.count("_splice_index") + done.count("_byte_splice_index") + done.count(
        "_listed_already") == 39
    assert done.count("_byte_splice_index") and done.count("_splice_index")  # (hubs: as text)
    assert done.count("_splice_hub") + done.count("_byte_splice_hub") + done.count(
        "_children_listed") >= 30
    assert done.count("_listed_already") and done.count("_children_listed")
    # a hand edit is not trusted: the next update parses the page whole (and drops the line)
    with spliced.index_file.open("a") as handle:
        handle.write("a note by hand\n")
    assert not catalog._canonical(spliced, spliced.index_file)
    update_index(spliced, [SOURCE], now_iso=T1)
    update_index(whole, [SOURCE], now_iso=T1)
    assert spliced.index_file.read_bytes() == whole.index_file.read_bytes()


def test_entries_listed_already_leave_index_md_unread_and_unwritten(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Upserts that index.md (as membank wrote it) lists already, row for row, change nothing
    and skip write_page (bootstrap re-lists the hubs at every command); any entry that is
    new, changed, or moved between ## Hubs and its category writes what the whole path writes."""
    import random

    from tasks.store import catalog

    spliced, whole = MemoryLayout(tmp_path / "a"), MemoryLayout(tmp_path / "b")
    (spliced.root / ".membank").mkdir(parents=True)
    whole.root.mkdir()
    rng = random.Random(11)
    folders = ["wiki/sources", "wiki/entities", "wiki/concepts", "sessions"]
    listed = [CatalogEntry(f"{rng.choice(folders)}/2026-03-24T22-40-05Z__p-{i:03d}.md", f"T {i}",
                           rng.choice(["", f"d {i}"]), hub=rng.random() < 0.15) for i in range(40)]
    listed.append(CatalogEntry("wiki/synthesis/index.md", "Synthesis", "Hub."))
    for layout in (spliced, whole):
        update_index(layout, listed, now_iso=T0)
    writes: list[Path] = []
    real_write = catalog.write_page

    def counted(path: Path, *args: object, **kwargs: object) -> object:
        writes.append(path)
        return real_write(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(catalog, "write_page", counted)
    for step in range(30):
        batch = rng.sample(listed, rng.randint(1, 5))
        if step % 3 == 1:  # a changed title, or a record now marked a hub (or no longer)
            old = rng.choice(batch)
            batch.append(CatalogEntry(old.path, f"{old.title} v{step}", old.description,
                                      hub=not old.hub if step % 2 else old.hub))
        now = f"2026-03-25T00:01:{step:02d}Z"
        before = spliced.index_file.stat()
        writes.clear()
        catalog._VIEWS.clear()
        changed = update_index(spliced, batch, now_iso=now).changed
        update_index(whole, batch, now_iso=now)
        assert spliced.index_file.read_bytes() == whole.index_file.read_bytes(), step
        if step % 3 != 1:  # every row there already: not even planned
            assert not changed and spliced.index_file not in writes, (step, batch)
            assert spliced.index_file.stat().st_ino == before.st_ino
        on_disk = read_index_entries(spliced)  # (a topic hub stays a hub: upsert keeps it)
        listed = [on_disk[path] for path in sorted(on_disk) if path != "wiki/synthesis/index.md"]
    assert catalog._canonical(spliced, spliced.index_file)


def test_listed_already_agrees_with_the_splice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    """_listed_already says True only where _splice_index, row by row, changes nothing."""
    import random

    from tasks.store import catalog

    layout = MemoryLayout(tmp_path)
    rng = random.Random(5)
    entries = [CatalogEntry(f"{rng.choice(['wiki/sources', 'plans', 'wiki/entities'])}/"
                            f"2026-03-24T22-40-05Z__x-{i}.md", f"t{i % 4}", rng.choice(["", "d"]),
                            hub=rng.random() < 0.2) for i in range(30)]
    update_index(layout, entries, now_iso=T0)
    body = read_page(layout.index_file).body
    said = []
    for _ in range(300):
        batch = [_maybe_changed(rng, e) for e in rng.sample(entries, rng.randint(1, 4))]
        with monkeypatch.context() as patched:
            patched.setattr(catalog, "_listed_already", lambda *_args: False)
            unchanged = catalog._splice_index(body, batch) == body
        said.append(catalog._listed_already(body.encode(), batch))
        # (conservative: a topic hub upserted as a record is left to the splice)
        assert unchanged or not said[-1], batch
        assert said[-1] or not unchanged or any(e.path not in body for e in batch) or any(
            not e.hub and f"]({e.path})" in body.split("## Hubs")[1].split("\n## ")[0]
            for e in batch), batch
    assert True in said and False in said


def test_children_listed_agrees_with_the_hub_splice(tmp_path: Path) -> None:
    """_children_listed (on the hub's bytes) says True exactly where _splice_hub changes
    nothing: every child's very line is under ## Children already."""
    from tasks.store import catalog

    layout = MemoryLayout(tmp_path)
    rng = random.Random(9)
    children = [CatalogEntry(f"wiki/sources/2026-03-24T22-40-05Z__s-{i}.md",
                             f"t{i % 4} [x] — ü", rng.choice(["", "d", "two  spaces"]))
                for i in range(30)]
    update_hub(layout, "wiki/sources/index.md", children, now_iso=T0)
    body = read_page(tmp_path / "wiki/sources/index.md").body
    said = []
    for _ in range(300):
        batch = [_maybe_changed(rng, e) for e in rng.sample(children, rng.randint(1, 4))]
        if rng.random() < 0.1:
            batch.append(CatalogEntry("wiki/sources/2026-03-24T22-40-05Z__new.md", "New", ""))
        unchanged = catalog._splice_hub(body, "wiki/sources", batch) == body
        said.append(catalog._children_listed(body.encode(), "wiki/sources", batch))
        assert said[-1] == unchanged, batch
    assert True in said and False in said


def _maybe_changed(rng: random.Random, entry: CatalogEntry) -> CatalogEntry:
    pick = rng.random()
    if pick < 0.7:
        return entry
    if pick < 0.85:
        return CatalogEntry(entry.path, entry.title + "!", entry.description, hub=entry.hub)
    return CatalogEntry(entry.path, entry.title, entry.description, hub=not entry.hub)


def test_counting_entries_agrees_with_parsing_them() -> None:
    """count_entries is len(parse_entry_lines): the same lines, the same links counted once,
    whatever the body holds (escaped brackets, a repeated link, odd line breaks, near misses)."""
    rng = random.Random(4)
    pieces = ["- [Title](wiki/a.md)", "- [Ti\\]tle](wiki/b.md) — about b", "- [x](wiki/a.md)",
              "- [no link]", "- [two\nlines](wiki/c.md)", "- [d](wiki/d.md) — desc\r- [e](wiki/e.md)",
              "## Heading", "", "- [f](wiki/f.md)\u2028- [g](wiki/g.md)", " - [h](wiki/h.md)",
              "- [i](wiki/i.md) trailing", "- [j\\](wiki/j.md)", "- [k](wiki/k m.md)"]
    for _ in range(300):
        body = "\n".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12)))
        assert count_entries(body) == len(parse_entry_lines(body)), body


_PATH_TEXT = st.text(alphabet="ab./\\-_ ", max_size=12)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_PATH_TEXT.filter(bool), st.sampled_from(["wiki/entities", "wiki", "a/b/c"])),
       st.one_of(_PATH_TEXT.filter(bool), st.sampled_from(["x.md", "../x.md", "./x.md", "/x.md",
                                                           "a//b.md", "a/", "."])))
def test_joined_path_is_purepath_joining(base: str, link: str) -> None:
    """joined_path(base, link) == (PurePosixPath(base) / link).as_posix(), the clean ones
    joined as text."""
    assert joined_path(base, link) == (PurePosixPath(base) / link).as_posix()


def test_a_hub_reads_its_children_joined_to_its_folder() -> None:
    body = ("- [A](a.md) — one\n- [B](./b.md)\n- [C](../other/c.md)\n- [D](sub//d.md)\n"
            "- [E](/abs/e.md)\n")
    assert list(parse_entry_lines(body, base="wiki/concepts")) == [
        "wiki/concepts/a.md", "wiki/concepts/b.md", "wiki/concepts/../other/c.md",
        "wiki/concepts/sub/d.md", "/abs/e.md"]


@pytest.mark.parametrize("base", ["", "wiki/entities"])
def test_catalog_rows_are_parse_entry_lines_s_entries(base: str) -> None:
    body = "\n".join([
        "# Entities", "", "## Children", "",
        "- [Plain](a.md) — A plain row.",
        r"- [Esc\]aped \\ title](b.md) — with [a link](c.md) in it",
        "- [No description](d.md)",
        "- [Empty description](e.md) — ",
        "- [Twice](a.md) — the later row wins, in the first row's place",
        "- [Spaced](has space.md) — not a row",
        "  - [Indented](f.md) — not a row",
        "* [Starred](g.md) — not a row",
        "- [Dotted](../x/./y.md) — kept as written",
        "_No records yet._", "",
    ])
    expected = [(e.path, e.title, e.description)
                for e in parse_entry_lines(body, base=base).values()]
    assert catalog_rows(body, base=base) == expected
    assert len(expected) == 5 and expected[0][2] == "the later row wins, in the first row's place"
    crlf = body.replace("\n", "\r\n")  # other line breaks: the line-by-line parse
    assert catalog_rows(crlf, base=base) == [
        (e.path, e.title, e.description) for e in parse_entry_lines(crlf, base=base).values()]


def test_catalog_pages_spliced_in_their_bytes_write_and_record_what_the_text_splice_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """update_index's and update_hub's splice of the page's bytes (a few rows; for index.md
    none a hub) writes the bytes and records the rows put (tasks/store/catalog_delta.py) that
    the splice of its text does: new rows first, last and between in their sections, a
    section's "none" line replaced, refreshed rows, rows whose description holds a link,
    non-ASCII titles; a hub upserted into index.md goes as text."""
    from tasks.store import catalog
    from tasks.store.catalog_delta import read_steps

    by_bytes, as_text = MemoryLayout(tmp_path / "a"), MemoryLayout(tmp_path / "b")
    for layout in (by_bytes, as_text):
        (layout.root / ".membank").mkdir(parents=True)
    taken: list[int] = []
    real = catalog._spliced_in_bytes

    def text_only(layout: MemoryLayout, page: Path, *args: object, **kwargs: object) -> object:
        if layout == as_text:
            return None
        written = real(layout, page, *args, **kwargs)  # type: ignore[arg-type]
        taken.append(written is not None and page == layout.index_file)
        return written

    monkeypatch.setattr(catalog, "_spliced_in_bytes", text_only)
    rng = random.Random(3)
    folders = ["wiki/sources", "wiki/entities", "sessions", "plans", "wiki/concepts"]
    titles = ["Straße — ü", "A [b] c", "x](y)", "T"]
    descriptions = ["", "See [z](wiki/sources/a.md) too.", "two  spaces", "d"]
    paths = [f"{folders[i % len(folders)]}/2026-03-24T22-40-05Z__{rng.choice('amz')}-{i:02d}.md"
             for i in range(15)]
    for step in range(60):
        batch = [CatalogEntry(path, rng.choice(titles), rng.choice(descriptions),
                              hub=step == 30 and path == paths[0])
                 for path in rng.sample(paths, rng.randint(1, 3))]
        now = f"2026-03-25T00:{step:02d}:00Z"
        for layout in (by_bytes, as_text):
            catalog._VIEWS.clear()
            update_index(layout, batch, now_iso=now)
            children = [e for e in batch if e.path.startswith("wiki/sources/")]
            update_hub(layout, "wiki/sources/index.md", children, now_iso=now)
        for rel in ("index.md", "wiki/sources/index.md"):
            assert (by_bytes.root / rel).read_bytes() == (as_text.root / rel).read_bytes(), step
            assert catalog._canonical(by_bytes, by_bytes.root / rel)

    def puts(layout: MemoryLayout, rel: str) -> list[object]:
        return [step["puts"] for step in read_steps(layout.root).get(rel, [])]

    for rel in ("index.md", "wiki/sources/index.md"):
        assert puts(by_bytes, rel) == puts(as_text, rel) and puts(by_bytes, rel)
    assert taken.count(True) >= 40 and False in taken


def test_rows_found_by_bisecting_byte_offsets_are_the_rows_bisect_finds() -> None:
    """_byte_find_row and _byte_row_before on a section's bytes answer what _find_row and
    _row_before answer on its lines."""
    from tasks.store import catalog

    rng = random.Random(13)
    for _ in range(200):
        links = sorted({f"plans/{rng.choice('abcxyzé')}{rng.randint(0, 40):02d}.md"
                        for _ in range(rng.randint(1, 12))})
        rows = [f"- [{rng.choice(['t', 'ü ü', ''])}]({link})" for link in links]
        lines = ["# Memory index", "", "## Hubs", "", "- [H](wiki/x/index.md)", "",
                 "## Plans", "", *rows, "", "## Sessions", "", catalog._NONE_LINE, ""]
        body = "\n".join(lines)
        data = b"---\na: b\n---\n\n" + body.encode()
        body_at = len(b"---\na: b\n---\n\n")
        span = catalog._byte_rows(data, body_at, "## Plans")
        assert data[span[0]:span[1]].decode().split("\n") == rows
        target = rng.choice([*links, f"plans/{rng.choice('abmz')}{rng.randint(0, 40):02d}.md"])
        at, found = catalog._byte_find_row(data, span, target)
        want_at, want_found = catalog._find_row(lines, catalog._rows(lines, "## Plans"), target)
        assert found == want_found
        assert body_at + len("\n".join(lines[:want_at]).encode()) + (1 if want_at else 0) == at
        assert catalog._byte_row_before(data, body_at, at, "") == catalog._row_before(
            lines, want_at, "")
