"""A check right after an ingest takes the catalog pages' facts from the rows the ingest's
splices put (tasks/checks/catalog_delta.py, tasks/store/catalog_delta.py) and the context
files' facts from their plain JSON when membank wrote them (tasks/checks/context_facts.py),
and reports exactly what the full check reports."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tasks.checks import catalog_delta
from tasks.checks.context_facts import TRUSTED_FILES
from tasks.checks.facts import FileEntry, PageFacts
from tasks.checks.scan import load_cache, parse_facts, parse_page_facts, scan_memory
from tasks.store import catalog
from tasks.store.catalog_delta import read_steps
from tests.tasks.checks.test_graph_delta import found, full_check, ingest, reconcile, settled

__all__ = ["settled"]  # the fixture, used by name

CATALOGS = ("index.md", "wiki/sources/index.md", "wiki/entities/index.md")


@pytest.fixture(autouse=True)
def one_process_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the CLI runs: no view of index.md kept between commands (a warm process's view
    writes the page whole, and records no step: its next check parses the page)."""
    monkeypatch.setattr(catalog, "_keep_view", lambda layout, view: None)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[bool]]:
    """page -> whether each scan read it by delta."""
    seen: dict[str, list[bool]] = {}
    real = catalog_delta.read_by_delta

    def counting(root: Path, rel: str, cached: FileEntry, steps: object, now: list[int]
                 ) -> tuple[bytes, catalog_delta.Delta] | None:
        got = real(root, rel, cached, steps, now)
        seen.setdefault(rel, []).append(got is not None)
        return got

    monkeypatch.setattr(catalog_delta, "read_by_delta", counting)
    return seen


def _whole(root: Path, rel: str) -> bytes:
    return orjson.dumps(parse_page_facts(rel, (root / rel).read_bytes()))


def test_catalog_pages_after_ingests_are_read_by_their_rows_with_the_whole_parse_s_facts(
        settled: tuple[Path, Path], taken: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)  # a new revision: rows replaced
    ingest(root, notes, "pulsar", 0, monkeypatch)  # a new entity: rows added
    steps = read_steps(root)
    assert set(CATALOGS) <= set(steps)
    assert any(put[3] is None for put in steps["index.md"][-1]["puts"])  # a new row
    scan = scan_memory(root, load_cache(root))
    for rel in CATALOGS:
        assert taken[rel] == [True], rel
        assert orjson.dumps(scan.files[rel]["facts"]) == _whole(root, rel), rel
        assert rel in scan.changed
    by_delta = reconcile(root, check=True)
    assert found(by_delta) == found(full_check(root))


def test_a_catalog_page_edited_by_hand_after_an_ingest_is_parsed_whole(
        settled: tuple[Path, Path], taken: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "nats", 1, monkeypatch)
    index = root / "index.md"
    lines = index.read_text().split("\n")
    dropped = next(i for i, line in enumerate(lines) if "wiki/entities/" in line and line.startswith("- ["))
    del lines[dropped]
    index.write_text("\n".join(lines) + "See [the plan](missing-plan.md).\n")
    hub = root / "wiki/entities/index.md"
    hub.write_text(hub.read_text() + "- [Gone](2026-01-01T00-00-00Z__gone.md) — hand-made\n")
    by_delta = reconcile(root, check=True)
    assert taken.get("index.md", []) == [False] and taken.get("wiki/entities/index.md", []) == [False]
    codes = {f.code for f in by_delta.findings}
    assert {"index_missing_entry", "dead_link", "hub_stale_child"} <= codes
    assert found(by_delta) == found(full_check(root))


def test_a_page_deleted_before_an_ingest_stays_listed_by_delta(
        settled: tuple[Path, Path], taken: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A listed page deleted by hand, then an ingest: the delta keeps its row, the check
    reports the stale entries and the dead link another page has to it, as the full check
    does."""
    root, notes = settled
    gone = next((root / "wiki" / "entities").glob("*__*rabbit*.md"))
    linking = next(p for p in (root / "wiki" / "entities").glob("*__*kafka*.md"))
    linking.write_text(linking.read_text() + f"\nSee [rabbit]({gone.name}).\n")
    reconcile(root, check=False)  # the link is fine: the run records its verdict
    gone.unlink()
    ingest(root, notes, "pulsar", 0, monkeypatch)
    by_delta = reconcile(root, check=True)
    assert taken["index.md"] == [True]
    assert {"index_stale_entry", "hub_stale_child", "dead_link"} <= {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_row_with_a_code_span_is_not_put_by_delta(
        settled: tuple[Path, Path], taken: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A title with backticks: a code span may hide a link, so the page is parsed whole."""
    root, notes = settled
    note = notes / "decision-spans.md"
    note.write_text("# Decision: use `[x](y.md)` spans\n\n## Status\n\nAccepted.\n\n"
                    "## Decision\n\nWe use them.\n", encoding="utf-8")
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", "2026-03-24T10:00:00Z")
    from flows.ingest import ingest_flow

    ingest_flow(paths=[str(note)], root=str(root))
    scan = scan_memory(root, load_cache(root))
    assert taken["index.md"] == [False]
    assert orjson.dumps(scan.files["index.md"]["facts"]) == _whole(root, "index.md")
    assert found(reconcile(root, check=True)) == found(full_check(root))


def _facts(entries: list[tuple[str, str, str]], links: list[str]) -> PageFacts:
    return {"problem": None, "meta": {"type": "hub"}, "valid": True, "links": links,
            "entries": entries}


def _row(name: str, desc: str = "d") -> str:
    return f"- [{name}]({name}.md) — {desc}"


def test_apply_steps_puts_rows_in_order_and_declines_what_it_cannot_know() -> None:
    rel = "wiki/entities/index.md"
    base = [("wiki/entities/a.md", "a", "d"), ("wiki/entities/c.md", "c", "d")]
    facts = _facts(base, ["wiki/entities/a.md", "wiki/entities/c.md"])
    steps = [{"puts": [["wiki/entities/b.md", _row("b"), "wiki/entities/a.md", None],
                       ["wiki/entities/a.md", _row("a", "new"), None, _row("a")]]}]
    applied = catalog_delta.apply_steps(rel, facts, steps)
    assert applied is not None
    links, rows = applied
    assert [r[0] for r in rows] == ["wiki/entities/a.md", "wiki/entities/b.md", "wiki/entities/c.md"]
    assert rows[0][2] == "new"
    assert links == ["wiki/entities/a.md", "wiki/entities/b.md", "wiki/entities/c.md"]
    # a replaced row linked what its new row does not: a link might be lost
    lost = [{"puts": [["wiki/entities/a.md", _row("a"), None, _row("a", "see [x](x.md)")]]}]
    assert catalog_delta.apply_steps(rel, facts, lost) is None
    # a new row for a path listed already, a row after a path not listed, a code span
    assert catalog_delta.apply_steps(rel, facts, [{"puts": [["", _row("c"), "wiki/entities/a.md", None]]}]) is None
    assert catalog_delta.apply_steps(rel, facts, [{"puts": [["", _row("b"), "wiki/entities/z.md", None]]}]) is None
    assert catalog_delta.apply_steps(rel, facts, [{"puts": [["", "- [`b`](b.md)", None, None]]}]) is None
    # cached entries whose paths repeat: catalog_rows' order is not the puts' order
    assert catalog_delta.apply_steps(rel, _facts(base + base[:1], []), steps) is None
    # cached links not sorted and unique (not local_link_paths'): the new ones' place unknown
    for links in (["wiki/entities/c.md", "wiki/entities/a.md"], ["wiki/entities/a.md"] * 2):
        assert catalog_delta.apply_steps(rel, _facts(base, links), steps) is None
    # a line's link listed already is not listed twice; a new one goes in its sorted place
    again = [{"puts": [["wiki/entities/b.md", "- [b](b.md) — see [c](c.md) and [0](0.md)",
                        "wiki/entities/a.md", None]]}]
    assert catalog_delta.apply_steps(rel, facts, again) == (
        ["wiki/entities/0.md", "wiki/entities/a.md", "wiki/entities/b.md", "wiki/entities/c.md"],
        [base[0], ("wiki/entities/b.md", "b", "see [c](c.md) and [0](0.md)"), base[1]])


def test_the_chain_leads_from_the_cached_identity_to_the_page_s_own() -> None:
    a, b, c, d = [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]
    steps = [{"from": a, "to": b, "puts": []}, {"from": b, "to": c, "puts": []}]
    assert catalog_delta.chain(steps, a, c) == steps
    assert catalog_delta.chain(steps, b, c) == steps[1:]
    assert catalog_delta.chain(steps, a, d) is None  # written since without a step
    assert catalog_delta.chain(steps, d, c) is None  # the cache is older than the steps
    assert catalog_delta.chain([steps[0], {"from": d, "to": c}], a, c) is None  # a gap


def test_context_files_membank_wrote_have_the_validated_facts(
        settled: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)  # a superseded version in the manifest
    ingest(root, notes, "pulsar", 0, monkeypatch)  # a new registry entry
    scan = scan_memory(root, load_cache(root))
    for rel in sorted(TRUSTED_FILES):
        validated, _ = parse_facts(rel, (root / rel).read_bytes())
        assert rel in scan.changed, rel
        assert orjson.dumps(scan.files[rel]["facts"]) == orjson.dumps(validated), rel


def test_a_context_file_edited_by_hand_is_validated(
        settled: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    registry = root / "context/entity-registry.jsonc"
    data = orjson.loads(registry.read_bytes())
    data["entries"][0]["entityType"] = ""  # breaks the schema (min_length=1)
    registry.write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2))
    by_delta = reconcile(root, check=True)
    assert any(f.path == "context/entity-registry.jsonc" for f in by_delta.findings)
    assert found(by_delta) == found(full_check(root))
