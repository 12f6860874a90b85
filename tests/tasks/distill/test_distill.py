"""Distill merge, resolution, pages, incrementality, supersession and forgetting (no Prefect)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas.report import MemoryOperationReport
from tasks.distill.apply import distill_memory
from tasks.store.graph_store import load_graph, load_registry
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW
from tests.snapshots import snapshot
from tests.stored_sources import bootstrap, store_source

LATER = "2026-04-01T08:00:00Z"


def distill(root: Path, now: str = FIXED_NOW, *, reread_all: bool = False) -> MemoryOperationReport:
    with writing_operation(load_settings(root, fixed_clock=now), "distill") as operation:
        return distill_memory(operation, reread_all=reread_all, batch_size=2)


def graph_of(root: Path) -> dict:
    return json.loads((root / "context/knowledge-graph.index.jsonc").read_text())


def spec_relations(graph: dict) -> list[dict]:
    """Relations with the spec's keys only (no relationProvenance)."""
    keys = ("sourceEntityName", "targetEntityName", "relationType")
    return [{key: relation[key] for key in keys} for relation in graph["relations"]]


def entity(root: Path, name: str) -> dict:
    return next(e for e in graph_of(root)["entities"] if e["entityName"] == name)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / ".memories"
    bootstrap(path)
    return path


NOTE = """---
entity: SQLite
entity_type: database
aliases: [sqlite3]
---

# SQLite notes

- [decision] Use WAL mode for SQLite #database
- depends_on [[File System]]
"""


def test_spelling_variants_end_on_one_entity_and_one_page(root: Path) -> None:
    store_source(root, "a.md", NOTE)
    store_source(root, "b.md", "---\nentity: '  sqlite '\n---\n\n- [fact] Ships with Python\n")
    store_source(root, "c.md", "---\nentity: SQLITE3\n---\n\n- [fact] Single file per database\n")
    store_source(root, "d.md", "# Ops\n\n- runs_on [[Sqlite]]\n")
    report = distill(root)
    graph = graph_of(root)
    names = [e["entityName"] for e in graph["entities"]]
    assert names.count("SQLite") == 1 and not any(
        n.strip().lower() in {"sqlite", "sqlite3"} and n != "SQLite" for n in names
    )
    assert entity(root, "SQLite")["observations"] == [
        "[decision] Use WAL mode for SQLite #database",
        "[fact] Ships with Python",
        "[fact] Single file per database",
    ]
    pages = sorted(p.name for p in (root / "wiki/entities").glob("*sqlite*.md"))
    assert pages == ["2026-03-24T22-40-05Z__sqlite.md"]
    registry = load_registry(root / "context/entity-registry.jsonc")
    [entry] = [e for e in registry.entries if e.canonicalName == "SQLite"]
    assert entry.entityType == "database" and entry.aliases == ["sqlite3"]
    assert {
        "sourceEntityName": "Ops",
        "targetEntityName": "SQLite",
        "relationType": "runs_on",
    } in spec_relations(graph)
    assert report.graph_delta.entities_added_count == len(graph["entities"])


def test_every_observation_has_provenance_and_spec_readers_see_plain_strings(root: Path) -> None:
    asset = store_source(root, "a.md", NOTE)
    distill(root)
    graph = graph_of(root)
    assert set(graph) >= {"graphGeneratedAtUtc", "entities", "relations"}
    for item in graph["entities"]:
        assert all(isinstance(text, str) for text in item["observations"])
        traced = {p["observation"] for p in item.get("observationProvenance", [])}
        assert traced == set(item["observations"])
    [prov] = entity(root, "SQLite")["observationProvenance"]
    assert prov == {
        "observation": "[decision] Use WAL mode for SQLite #database",
        "sourcePage": asset.sourcePage,
        "rawAssetId": asset.assetId,
        "lineStart": 9,
        "lineEnd": 9,
    }
    raw_lines = (root / asset.rawPath).read_text().splitlines()
    assert "Use WAL mode" in raw_lines[prov["lineStart"] - 1]
    for relation in graph["relations"]:
        assert relation["relationType"].islower() and " " not in relation["relationType"]
        assert relation["relationProvenance"] == [
            {"sourcePage": asset.sourcePage, "rawAssetId": asset.assetId}]


def test_mentions_of_registered_names_and_aliases(root: Path) -> None:
    store_source(root, "a.md", NOTE)
    store_source(
        root,
        "b.md",
        "# Backups\n\n- [fact] Nightly at 02:00\n\nWe copy the sqlite3 file; the "
        "file system snapshot is enough. SQLiteStudio is unrelated.\n",
    )
    distill(root)
    relations = spec_relations(graph_of(root))
    assert {
        "sourceEntityName": "Backups",
        "targetEntityName": "SQLite",
        "relationType": "mentions",
    } in relations
    assert {
        "sourceEntityName": "Backups",
        "targetEntityName": "File System",
        "relationType": "mentions",
    } in relations


def test_a_registered_person_or_team_named_once_in_full_is_what_a_document_is_about(root: Path) -> None:
    """A person or team another document registered (front matter here) is one the document
    is about when it writes the whole name once (a participant, an escalation contact); a
    given name alone, or a one-word team, stays a mention."""
    store_source(root, "a.md", "---\nentity: Ines Varga\nentity_type: person\n---\n\n- [fact] On call\n")
    store_source(root, "b.md", "---\nentity: Fab Automation\nentity_type: team\n---\n\n- [fact] Tools\n")
    store_source(root, "c.md", "---\nentity: Ines\nentity_type: person\n---\n\n- [fact] Another Ines\n")
    store_source(root, "d.md", "# Gateway review\n\n- [fact] Reviewed in March\n\n"
                 "Participants: Ines Varga, Fab Automation; Ines asked about the gateway.\n")
    distill(root)
    kinds = {(r["targetEntityName"], r["relationType"]) for r in spec_relations(graph_of(root))
             if r["sourceEntityName"] == "Gateway review"}
    assert {("Ines Varga", "about"), ("Fab Automation", "about")} <= kinds
    assert ("Ines", "about") not in kinds


def test_bare_documents_make_no_entity(root: Path) -> None:
    store_source(root, "a.md", "# Changelog\n\nNothing explicit here at all.\n")
    report = distill(root)
    assert graph_of(root)["entities"] == []
    assert report.figures["sources_read"] == 1
    assert list((root / "wiki/entities").glob("*__*.md")) == []


def test_page_frontmatter_sections_links_hub_index_and_log(root: Path) -> None:
    asset = store_source(root, "a.md", NOTE)
    distill(root)
    page_path = root / "wiki/entities/2026-03-24T22-40-05Z__sqlite.md"
    page = read_page(page_path)
    assert page.meta["type"] == "entity" and page.meta["child_of"] == ["wiki/entities/index.md"]
    assert page.meta["entity_name"] == "SQLite" and page.meta["entity_type"] == "database"
    assert page.meta["aliases"] == ["sqlite3"] and page.meta["derived_from"] == [asset.sourcePage]
    headings = [line for line in page.body.splitlines() if line.startswith("## ")]
    assert headings == ["## Observations", "## Relations", "## Sources", "## Superseded facts"]
    link = "../sources/" + Path(asset.sourcePage).name
    assert f"]({link}), raw line 9)" in page.body
    assert (page_path.parent / link).resolve() == (root / asset.sourcePage).resolve()
    assert "depends_on [File System](2026-03-24T22-40-05Z__file-system.md)" in page.body
    assert "wiki/entities/2026-03-24T22-40-05Z__sqlite.md" in (root / "index.md").read_text()
    assert "2026-03-24T22-40-05Z__sqlite.md" in (root / "wiki/entities/index.md").read_text()
    assert (root / "log.md").read_text().count(" distill (success)") == 1


def test_nothing_new_changes_no_byte_and_all_rereads_identically(root: Path) -> None:
    store_source(root, "a.md", NOTE)
    store_source(
        root, "b.md", "# Ops\n\n- runs_on [[SQLite]]\n\nAmazon Aurora and Amazon Aurora.\n"
    )
    distill(root)
    before = snapshot(root)
    again = distill(root, LATER)
    assert not again.changed and again.figures["sources_read"] == 0
    assert snapshot(root) == before
    everything = distill(root, LATER, reread_all=True)
    assert everything.figures["sources_read"] == 2 and not everything.changed
    assert snapshot(root) == before


def test_only_new_sources_are_read_and_pages_extend(root: Path) -> None:
    store_source(root, "a.md", NOTE)
    distill(root)
    page_path = root / "wiki/entities/2026-03-24T22-40-05Z__sqlite.md"
    text = page_path.read_text()
    page_path.write_text(
        text.rstrip("\n") + "\n\n## Operator notes\n\nKeep the WAL on local disk.\n"
    )
    store_source(
        root, "b.md", "---\nentity: sqlite\n---\n\n- [fact] Ships with Python\n", now_iso=LATER
    )
    report = distill(root, LATER)
    assert report.figures["sources_read"] == 1
    assert (
        report.graph_delta.observations_added_count == 1
        and report.graph_delta.entities_added_count == 0
    )
    page = read_page(page_path)  # same file: the prefix is fixed at creation
    assert page.meta["created_at"] == FIXED_NOW and page.meta["updated_at"] == LATER
    assert "[fact] Ships with Python" in page.body and "Use WAL mode" in page.body
    assert page.body.rstrip().endswith("## Operator notes\n\nKeep the WAL on local disk.")
    assert sorted(p.name for p in page_path.parent.glob("*sqlite*")) == [page_path.name]


def test_replaced_source_version_supersedes_facts_only_it_supported(root: Path) -> None:
    v1 = store_source(
        root,
        "svc.md",
        "---\nentity: Billing\n---\n\n- [fact] Runs on port 8080\n- [fact] Written in Go\n",
    )
    distill(root)
    v2 = store_source(
        root,
        "svc.md",
        "---\nentity: Billing\n---\n\n- [fact] Written in Go\n- [fact] Runs on port 9090\n",
        now_iso=LATER,
        supersedes=v1,
    )
    report = distill(root, LATER)
    billing = entity(root, "Billing")
    assert billing["observations"] == ["[fact] Runs on port 9090", "[fact] Written in Go"]
    [old] = billing["supersededObservations"]
    assert old["observation"] == "[fact] Runs on port 8080"
    assert old["supersededBy"] == v2.sourcePage and old["rawAssetId"] == v1.assetId
    assert {p["rawAssetId"] for p in billing["observationProvenance"]} == {v2.assetId}
    assert report.graph_delta.superseded_records_count == 1
    page = (root / "wiki/entities/2026-03-24T22-40-05Z__billing.md").read_text()
    assert "~~[fact] Runs on port 8080~~" in page
    before = snapshot(root)
    distill(root, "2026-05-01T00:00:00Z", reread_all=True)
    assert snapshot(root) == before


def test_replaced_source_version_supersedes_relations_only_it_stated(root: Path) -> None:
    v1 = store_source(root, "svc.md", "# Billing\n\n- depends_on [[Ledger]]\n- uses [[Redis]]\n")
    store_source(root, "other.md", "# Reports\n\n- uses [[Redis]]\n")
    distill(root)
    v2 = store_source(root, "svc.md", "# Billing\n\n- depends_on [[Ledger]]\n- uses [[Kafka]]\n",
                      now_iso=LATER, supersedes=v1)
    report = distill(root, LATER)
    graph = graph_of(root)
    active = {(r["sourceEntityName"], r["relationType"], r["targetEntityName"]): r
              for r in graph["relations"]}
    assert set(active) == {("Billing", "depends_on", "Ledger"), ("Billing", "uses", "Kafka"),
                           ("Reports", "uses", "Redis")}
    assert [o["rawAssetId"] for o in active[("Billing", "depends_on", "Ledger")]["relationProvenance"]
            ] == [v2.assetId]
    [old] = graph["supersededRelations"]  # kept, never deleted
    assert old == {"sourceEntityName": "Billing", "targetEntityName": "Redis", "relationType": "uses",
                   "supersededAtUtc": LATER, "supersededBy": v2.sourcePage,
                   "reason": "the new version of its source no longer states it",
                   "sourcePage": v1.sourcePage, "rawAssetId": v1.assetId}
    assert report.graph_delta.superseded_records_count == 1
    page = next((root / "wiki/entities").glob("*__billing.md")).read_text()
    assert "Kafka" in page and "Redis" not in page
    before = snapshot(root)
    distill(root, "2026-05-01T00:00:00Z", reread_all=True)
    assert snapshot(root) == before


def test_version_superseded_before_first_distill_is_not_read(root: Path) -> None:
    v1 = store_source(root, "svc.md", "---\nentity: Billing\n---\n\n- [fact] Runs on port 8080\n")
    store_source(
        root, "svc.md", "---\nentity: Billing\n---\n\n- [fact] Runs on port 9090\n", supersedes=v1
    )
    report = distill(root)
    assert report.figures["sources_read"] == 1
    assert entity(root, "Billing")["observations"] == ["[fact] Runs on port 9090"]
    state = {
        s["assetId"]: s
        for s in json.loads((root / "context/distill-state.jsonc").read_text())["sources"]
    }
    assert len(state) == 2 and state[v1.assetId]["supersededByAssetId"] != v1.assetId
    assert (
        "[fact] Runs on port 8080" not in (root / "context/knowledge-graph.index.jsonc").read_text()
    )


def test_superseded_decision_record(root: Path) -> None:
    store_source(
        root,
        "adr/0002-use-sqlite.md",
        "# 2. Use SQLite\n\n## Status\n\nAccepted\n\n## Context\n\nSmall.\n\n"
        "## Decision\n\nUse SQLite.\n\nSupersedes [Use PostgreSQL](0001-use-postgresql.md).\n",
    )
    distill(root)
    store_source(
        root,
        "adr/0001-use-postgresql.md",
        "# 1. Use PostgreSQL\n\n## Status\n\nAccepted\n\n## Context\n\n"
        "Big.\n\n## Decision\n\nUse PostgreSQL.\n",
        now_iso=LATER,
    )
    report = distill(root, LATER)
    old = entity(root, "Use PostgreSQL")
    assert "Decision: Use PostgreSQL." not in old["observations"]
    assert old["supersededObservations"][0]["observation"] == "Decision: Use PostgreSQL."
    assert old["supersededObservations"][0]["supersededBy"] == "Use SQLite"
    assert "Decision: Use SQLite. […]" in entity(root, "Use SQLite")["observations"]  # it goes on
    assert report.graph_delta.superseded_records_count == 1
    # No stub entity for the unknown record in the first run: the link waited in the distill
    # state and resolved when the record arrived (with PostgreSQL, the technology it uses).
    assert report.graph_delta.entities_added_count == 2
    assert entity(root, "PostgreSQL")["entityType"] == "technology"


def test_tombstoned_facts_never_come_back(root: Path) -> None:
    store_source(
        root,
        "a.md",
        "---\nentity: Billing\n---\n\n- [fact] Admin password is hunter2\n"
        "- [fact] Runs on port 9090\n- uses [[Legacy Mainframe]]\n",
    )
    (root / "context/tombstones.jsonc").write_text(
        json.dumps(
            {
                "tombstones": [
                    {
                        "topic": "hunter2",
                        "reason": "secret, asked to forget",
                        "tombstonedAtUtc": FIXED_NOW,
                    },
                    {
                        "topic": "legacy mainframe",
                        "reason": "project dropped",
                        "tombstonedAtUtc": FIXED_NOW,
                    },
                ]
            }
        )
    )
    distill(root)
    store_source(
        root,
        "b.md",
        "# Ops\n\n- [fact] The hunter2 password rotates\n- depends_on [[Legacy Mainframe]]\n"
        "- depends_on [[Billing]]\n\nLegacy Mainframe and Legacy Mainframe.\n",
        now_iso=LATER,
    )
    distill(root, LATER)
    distill(root, LATER, reread_all=True)
    # What ingest stored keeps the source's words (raw copy, source page, its catalog line);
    # only distill's output is checked.
    text = "\n".join(
        line
        for p in root.rglob("*")
        if p.is_file()
        and p.suffix in {".md", ".jsonc"}
        and p.name != "tombstones.jsonc"
        and "raw" not in p.parts
        and "sources" not in p.parts
        for line in p.read_text().splitlines()
        if "](wiki/sources/" not in line
    )
    assert "hunter2" not in text and "legacy mainframe" not in text.lower()
    assert entity(root, "Billing")["observations"] == ["[fact] Runs on port 9090"]


def test_unreadable_raw_file_is_a_problem_and_the_batch_goes_on(root: Path) -> None:
    bad = store_source(root, "bad.md", "---\nentity: Broken\n---\n\n- [fact] x y z\n")
    store_source(root, "good.md", NOTE)
    (root / bad.rawPath).chmod(0o644)
    (root / bad.rawPath).write_bytes(b"\xff\xfe not utf-8")
    report = distill(root)
    assert [p.code for p in report.problems] == ["raw_not_utf8"]
    assert report.status == "partial" and report.exit_code() == 1
    assert entity(root, "SQLite")["observations"]
    state = json.loads((root / "context/distill-state.jsonc").read_text())
    assert bad.assetId not in {s["assetId"] for s in state["sources"]}  # retried next run


def test_candidates_inbox_and_promotion(root: Path) -> None:
    store_source(
        root,
        "a.md",
        "# Notes\n\n- [fact] x\n\nAmazon Aurora is here. Amazon Aurora is there. "
        "`pg_dump` and `pg_dump`.\n",
    )
    distill(root)
    inbox = json.loads((root / "context/distill-candidates.jsonc").read_text())
    terms = {c["term"]: c for c in inbox["candidates"]}
    assert set(terms) == {"Amazon Aurora", "pg_dump"}
    assert terms["Amazon Aurora"]["evidence"][0]["lineStart"] == 5
    graph = load_graph(MemoryLayout(root).graph_file)
    assert "Amazon Aurora" not in {e.entityName for e in graph.entities}
    # Promoted (now a named entity): it leaves the inbox.
    store_source(
        root,
        "b.md",
        "---\nentity: Amazon Aurora\nentity_type: database\n---\n\n- [fact] Managed\n",
        now_iso=LATER,
    )
    distill(root, LATER)
    inbox = json.loads((root / "context/distill-candidates.jsonc").read_text())
    assert [c["term"] for c in inbox["candidates"]] == ["pg_dump"]


def test_existing_page_is_found_by_slug_when_the_registry_does_not_know_it(root: Path) -> None:
    store_source(root, "a.md", NOTE)
    distill(root)
    registry_file = root / "context/entity-registry.jsonc"
    registry = json.loads(registry_file.read_text())
    for entry in registry["entries"]:
        entry.pop("entityPage", None)  # e.g. a registry edited by hand
    registry_file.write_text(json.dumps(registry, indent=2))
    store_source(
        root, "b.md", "---\nentity: SQLite\n---\n\n- [fact] Ships with Python\n", now_iso=LATER
    )
    distill(root, LATER)
    assert sorted(p.name for p in (root / "wiki/entities").glob("*sqlite*")) == [
        "2026-03-24T22-40-05Z__sqlite.md"
    ]
    page = (root / "wiki/entities/2026-03-24T22-40-05Z__sqlite.md").read_text()
    assert "Ships with Python" in page and "Use WAL mode" in page


def test_different_entities_with_one_slug_get_distinct_pages(root: Path) -> None:
    store_source(root, "a.md", "---\nentity: Node.js\n---\n\n- [fact] Runtime\n")
    store_source(
        root, "b.md", "---\nentity: Node JS\n---\n\n- [fact] Another spelling, not an alias\n"
    )
    distill(root)
    names = sorted(p.name for p in (root / "wiki/entities").glob("*node*"))
    assert names == ["2026-03-24T22-40-05Z__node-js-2.md", "2026-03-24T22-40-05Z__node-js.md"]


def test_graph_loader_fast_path_keeps_jsonc_and_clear_errors(tmp_path: Path) -> None:
    from tasks.store.errors import ContractError

    path = tmp_path / "knowledge-graph.index.jsonc"
    path.write_text(
        '{\n  // hand edited\n  "graphGeneratedAtUtc": "2026-03-24T22:40:05Z",\n'
        '  "entities": [{"entityName": "SQLite", "entityType": "database",},],\n'
        '  "relations": [],\n}\n'
    )
    assert [e.entityName for e in load_graph(path).entities] == ["SQLite"]
    path.write_text(
        '{"graphGeneratedAtUtc": "2026-03-24T22:40:05Z", "entities": '
        '[{"entityName": "data", "entityType": "x"}], "relations": []}'
    )
    with pytest.raises(ContractError) as error:
        load_graph(path)
    assert (
        "knowledge-graph.index.jsonc" in error.value.one_line()
        and "entityName" in error.value.one_line()
    )


def test_names_whose_slug_is_ambiguous_still_get_a_page(root: Path) -> None:
    store_source(
        root, "a.md", "---\nentity: Data!\n---\n\n- [fact] Odd but meaningful\n- uses [[🚀]]\n"
    )
    report = distill(root)
    assert report.status == "success"
    pages = sorted(p.name for p in (root / "wiki/entities").glob("*__*.md"))
    assert len(pages) == 1 and pages[0].startswith("2026-03-24T22-40-05Z__entity-")
    assert "Data!" in (root / "wiki/entities" / pages[0]).read_text()
    assert any("🚀" in w for w in report.memory_health.consistency_warnings)


def test_bare_source_whose_mentions_are_all_asides_keeps_no_registry_entry(root: Path) -> None:
    # A licence beside a page that registered "Code": the licence's "source code" matched the
    # name, so it was registered, then related to nothing (a common word): a registry entry
    # without a graph entity, a reconcile warning on a fresh run.
    store_source(root, "a.md", "---\nentity: Code\n---\n\n- [fact] Code is reviewed twice\n")
    store_source(root, "b.md", "# Terms of use\n\nYou may share the source code and object code.\n")
    distill(root)
    registered = [e.canonicalName for e in load_registry(root / "context/entity-registry.jsonc").entries]
    assert registered == ["Code"]
    assert [e["entityName"] for e in graph_of(root)["entities"]] == ["Code"]
