"""Memory stores as sources: ingest recognises them, distill keeps their structure, a re-ingest
after appends updates incrementally, and a rerun with nothing new changes no byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from schemas.graph import KnowledgeGraph
from tasks.store.graph_store import load_manifest
from tasks.store.layout import MemoryLayout
from tests.tasks.memstores.pipeline import ingest_and_distill
from tests.tasks.memstores.store_fixtures import FIXTURES, tree_digest

LATER = "2026-03-25T08:00:00Z"


def _graph(root: Path) -> dict:
    return json.loads((root / "context/knowledge-graph.index.jsonc").read_text())


def _memory_bytes(root: Path) -> dict[str, str]:
    """Digest of every memory file (the writer lock's holder file is not memory)."""
    return {k: v[0] for k, v in tree_digest(root).items() if not k.startswith(".membank")}


def _entity(graph: dict, name: str) -> dict:
    return next(e for e in graph["entities"] if e["entityName"] == name)


@pytest.fixture
def stores(tmp_path: Path) -> Path:
    """A repository holding both stores (a copy: the test appends to it)."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "mem", repo)
    shutil.copytree(FIXTURES / "custodian" / "docs", repo / "docs")
    return repo


def test_ingest_tags_store_files_and_distill_keeps_typed_fields(tmp_path: Path, stores: Path) -> None:
    root = tmp_path / ".memories"
    ingested, distilled = ingest_and_distill(root, [stores])
    assert not ingested.problems and not distilled.problems
    roles = {a.storeRole for a in load_manifest(MemoryLayout(root).raw_manifest_file).assets}
    assert {"mem:domains/database.jsonl", "mem:archive/auth.jsonl", "mem:index.jsonl",
            "custodian:decisions.md", "custodian:subjects.md"} <= roles
    graph = _graph(root)
    KnowledgeGraph.model_validate(graph)  # spec readers still read it
    database = _entity(graph, "database domain")
    assert len(database["observations"]) == 4
    provenance = next(p for p in database["observationProvenance"]
                      if p["observation"].startswith("[mem_db03]"))
    assert provenance["storeRecord"]["recordId"] == "mem_db03"
    assert provenance["storeRecord"]["type"] == "convention"
    assert provenance["storeRecord"]["evidence"]["issues"] == ["acme/app#42"]
    assert provenance["lineStart"] == 1 and provenance["rawAssetId"]
    chain = {s["observation"][:10]: s["supersededBy"] for s in database["supersededObservations"]}
    assert chain == {"[mem_db01]": "mem_db02", "[mem_db02]": "mem_db03"}


def test_custodian_entries_land_on_their_subjects(tmp_path: Path, stores: Path) -> None:
    root = tmp_path / ".memories"
    ingest_and_distill(root, [stores])
    graph = _graph(root)
    sync = _entity(graph, "Sync engine")
    assert sync["entityType"] == "service"
    ids = sorted(o.split("]")[0][1:] for o in sync["observations"])
    assert ids == ["MC-AREA-20251201-b6000001", "MC-AREA-20260105-b6000003",
                   "MC-CON-20250901-c2000001", "MC-DNU-20251212-d3000002",  # a rejected approach
                   "MC-SUBJ-20250610-2b3c4d5e"]
    typed = next(p["storeRecord"] for p in sync["observationProvenance"]
                 if p["observation"].startswith("[MC-AREA-20251201"))
    assert typed == {"store": "memory-custodian", "entryId": "MC-AREA-20251201-b6000001",
                     "entryKind": "AREA", "status": "active", "scope": "area:sync",
                     "subjectId": "MC-SUBJ-20250610-2b3c4d5e", "facet": "behavior",
                     "evidence": ["user-confirmed"], "supersedes": ["MC-AREA-20250720-b6000002"]}
    retired = sync["supersededObservations"]
    assert [(s["supersededBy"], s["lineStart"]) for s in retired] == [("MC-AREA-20251201-b6000001", 36)]
    release = _entity(graph, "Release workflow")
    assert len(release["supersededObservations"]) == 2  # archive/ is history, never active
    assert not any("Windows installers" in o for o in release["observations"])
    registry = (root / "context/entity-registry.jsonc").read_text()
    assert "MC-SUBJ-20250610-2b3c4d5e" in registry  # the Subject ID resolves to its entity


def test_tombstones_and_candidates(tmp_path: Path, stores: Path) -> None:
    root = tmp_path / ".memories"
    ingest_and_distill(root, [stores])
    topics = [t["topic"] for t in json.loads((root / "context/tombstones.jsonc").read_text())["tombstones"]]
    assert topics == ["acme-keyring", "legacy FTP mirror"]  # forgetting: tombstones only
    text = (root / "context/knowledge-graph.index.jsonc").read_text()
    assert "attachment size" not in text
    # Rejected approaches (do-not-use entries) are knowledge: "do not use X: because Y" (MC8).
    assert ("[MC-DNU-20251002-d3000001] Do not use Redis session storage: Redis for desktop "
            "session storage. Because: A desktop app cannot depend on a server process being "
            "installed.") in text
    candidates = json.loads((root / "context/distill-candidates.jsonc").read_text())["candidates"]
    assert [(c["term"], c["kind"]) for c in candidates] == [("Possible attachment size limit",
                                                             "store_candidate")]


def test_rerun_with_nothing_new_changes_no_byte(tmp_path: Path, stores: Path) -> None:
    root = tmp_path / ".memories"
    ingest_and_distill(root, [stores])
    before = _memory_bytes(root)
    ingested, distilled = ingest_and_distill(root, [stores], now=LATER)
    assert ingested.figures["dedupe_hits"] == 18 and distilled.figures["sources_read"] == 0
    assert _memory_bytes(root) == before


def _append(path: Path, line: str) -> None:
    with path.open("a") as handle:
        handle.write(line + "\n")


def test_reingest_after_appends_is_incremental(tmp_path: Path, stores: Path) -> None:
    root = tmp_path / ".memories"
    ingest_and_distill(root, [stores])
    mem = stores / ".mem"
    # a new record, and mem_ci02 superseded by mem_ci04 (old line moved to archive/)
    new = {"id": "mem_ci05", "domain": "ci", "type": "pattern", "title": "Cancel superseded runs",
           "body": "Concurrency groups cancel runs of older pushes.", "status": "active"}
    ci = (mem / "domains/ci.jsonl").read_text().splitlines()
    old = json.loads(next(line for line in ci if '"mem_ci02"' in line))
    replacement = {**old, "id": "mem_ci04", "title": "Run the e2e suite on main and nightly",
                   "supersedes": "mem_ci02"}
    (mem / "domains/ci.jsonl").write_text(
        "\n".join(line for line in ci if '"mem_ci02"' not in line) + "\n")
    _append(mem / "domains/ci.jsonl", json.dumps(replacement))
    _append(mem / "domains/ci.jsonl", json.dumps(new))
    _append(mem / "archive/ci.jsonl", json.dumps({**old, "status": "superseded"}))
    # decisions.md edited: the CLI exit-code decision superseded by a new one
    decisions = stores / "docs/memory/decisions.md"
    text = decisions.read_text().replace(
        "## MC-DEC-20260110-a1000003 — CLI exit codes\n\nStatus: active",
        "## MC-DEC-20260110-a1000003 — CLI exit codes\n\nStatus: superseded\n"
        "Superseded-By: MC-DEC-20260320-a1000020")
    decisions.write_text(text + "\n## MC-DEC-20260320-a1000020 — CLI exit codes with 3 for lock\n\n"
                         "Status: active\nScope: project\nSubject: MC-SUBJ-20250610-4d5e6f70\n"
                         "Facet: interface\nEvidence:\n- user-confirmed\n"
                         "Supersedes: MC-DEC-20260110-a1000003\n\nDecision:\n"
                         "Exit 3 when the library is locked by another process.\n\nReason:\n"
                         "Scripts retry on 3 only.\n")
    ingest_and_distill(root, [stores], now=LATER)
    graph = _graph(root)
    ci_entity = _entity(graph, "ci domain")
    active = sorted(o[:10] for o in ci_entity["observations"])
    assert active == ["[mem_ci01]", "[mem_ci03]", "[mem_ci04]", "[mem_ci05]"]
    retired = {s["observation"][:10]: s["supersededBy"] for s in ci_entity["supersededObservations"]}
    assert retired == {"[mem_ci02]": "mem_ci04"}
    cli = _entity(graph, "Public CLI")
    assert any(o.startswith("[MC-DEC-20260320-a1000020]") for o in cli["observations"])
    assert [s["supersededBy"] for s in cli["supersededObservations"]] == ["MC-DEC-20260320-a1000020"]
    for entity in graph["entities"]:  # nothing duplicated
        texts = entity["observations"] + [s["observation"] for s in entity.get("supersededObservations", [])]
        assert len(texts) == len(set(texts)), entity["entityName"]
    assert len(_entity(graph, "database domain")["observations"]) == 4  # untouched files stay
    before = _memory_bytes(root)
    ingest_and_distill(root, [stores], now="2026-03-26T08:00:00Z")
    assert _memory_bytes(root) == before


def test_a_broken_store_is_ingested_with_its_good_lines(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    ingested, distilled = ingest_and_distill(root, [FIXTURES / "mem-broken"])
    assert ingested.figures["files_ingested"] == 8 and ingested.figures["rejected"] == 0
    assert [(p.code, p.file.rsplit("/", 2)[-2:]) for p in ingested.problems] == [
        ("malformed_json", ["domains", "ci.jsonl"])]
    ci_entity = _entity(_graph(root), "ci domain")
    assert any(o.startswith("[mem_ci91]") for o in ci_entity["observations"])  # pretty-printed, read
    assert not any("mem_ci92" in o for o in ci_entity["observations"])  # invalid record, skipped


def test_an_archived_record_links_to_a_replacement_distilled_earlier(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    mem = tmp_path / "repo" / ".mem"
    shutil.copytree(FIXTURES / "mem" / ".mem", mem)
    archive = (mem / "archive" / "auth.jsonl").read_text()
    (mem / "archive" / "auth.jsonl").unlink()
    ingest_and_distill(root, [mem])  # mem_au02 (supersedes mem_au01) is known, mem_au01 not yet
    (mem / "archive" / "auth.jsonl").write_text(archive)
    ingest_and_distill(root, [mem], now=LATER)
    retired = _entity(_graph(root), "auth domain")["supersededObservations"]
    assert [(s["observation"][:10], s["supersededBy"]) for s in retired] == [("[mem_au01]", "mem_au02")]


def test_distill_all_rereads_stores_without_changing_a_byte(tmp_path: Path, stores: Path) -> None:
    from tasks.distill.apply import distill_memory
    from tasks.store.operation import writing_operation
    from tasks.store.settings import load_settings

    root = tmp_path / ".memories"
    ingest_and_distill(root, [stores])
    before = _memory_bytes(root)
    with writing_operation(load_settings(root, fixed_clock=LATER), "distill") as operation:
        report = distill_memory(operation, reread_all=True)
    assert report.figures["sources_read"] > 0
    after = _memory_bytes(root)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    assert changed <= {"log.md"}, changed  # the run is logged; nothing distilled changes
