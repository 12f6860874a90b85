"""reconcile: every quality gate found, safe repairs applied, nothing deleted, reruns no-ops."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from schemas.graph import SupersededObservation
from tasks.bootstrap import bootstrap_memory
from tasks.checks.freshness import freshness_audit
from tasks.checks.reconcile import reconcile_memory
from tasks.store.graph_store import graph_text, load_graph, load_registry, save_graph
from tasks.store.jsonc import dumps_json
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.pages import read_page, render_page
from tasks.store.settings import load_settings
from tests.memory_builder import (
    CONCEPT,
    NOW,
    ORCHESTRATOR,
    PLANNER,
    PREFIX,
    RAW,
    SOURCE,
    build_healthy_memory,
    graph_model,
    page_meta,
    snapshot,
    write,
)

GRAPH = "context/knowledge-graph.index.jsonc"
REGISTRY = "context/entity-registry.jsonc"
LATER = "2026-03-25T09:00:00Z"


def reconcile(root: Path, *, check: bool = False, now: str = NOW):
    settings = load_settings(root, fixed_clock=now)
    if check:
        return reconcile_memory(begin_operation(settings, "reconcile"), check=True)
    with writing_operation(settings, "reconcile") as operation:
        return reconcile_memory(operation, check=False)


def codes(summary) -> set[str]:
    return {f.code for f in summary.findings if f.severity != "info"}


@pytest.fixture
def healthy(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    return root


def test_healthy_memory_is_healthy_and_rerun_changes_nothing(healthy: Path) -> None:
    report, summary = reconcile(healthy)
    assert summary.status == "healthy", summary.findings
    assert summary.counts.entities == 2 and summary.counts.relations == 1
    assert summary.counts.observations_active == 3
    assert summary.counts.pages_by_type["entity"] == 2
    assert not report.changed
    before = snapshot(healthy)
    log_before = (healthy / "log.md").read_bytes()
    report, summary = reconcile(healthy)
    assert snapshot(healthy) == before
    assert (healthy / "log.md").read_bytes() == log_before
    assert report.figures["files_read"] == 0  # nothing changed: nothing read


def test_check_writes_nothing_but_health(healthy: Path) -> None:
    (healthy / "index.md").write_text((healthy / "index.md").read_text().replace(
        f"- [Delegation]({CONCEPT})", ""))
    before = snapshot(healthy, skip=("context/health",))
    _report, summary = reconcile(healthy, check=True)
    assert "index_missing_entry" in codes(summary)
    assert snapshot(healthy, skip=("context/health",)) == before
    assert not (healthy / ".membank/reconcile-cache.json").exists()


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text()
    assert old in text, (old, text)
    path.write_text(text.replace(old, new))


def _graph_edit(root: Path, change: Callable[[dict], None]) -> None:
    data = orjson.loads((root / GRAPH).read_bytes())
    change(data)
    (root / GRAPH).write_text(dumps_json(data))


def _misnamed(root: Path) -> None:
    write(root, "wiki/concepts/notes.md", page_meta("concept", "Notes", "wiki/concepts/index.md"),
          "# Notes\n")


def _corrupt_jsonc(root: Path) -> None:
    (root / REGISTRY).write_text('{"registryGeneratedAtUtc": "2026-01-10T08:00:00Z", "entries": [')


def _broken_frontmatter(root: Path) -> None:
    (root / f"wiki/concepts/{PREFIX}__broken.md").write_text(
        "---\ntitle: [unclosed\ntype: concept\n---\n\nbody\n")


def _invalid_utf8(root: Path) -> None:
    (root / f"wiki/concepts/{PREFIX}__latin.md").write_bytes(
        b"---\ntype: concept\n---\n\ncaf\xe9 \xff\n")


def _dangling_link(root: Path) -> None:
    _edit(root, CONCEPT, "How work moves", "See [gone](gone-page.md). How work moves")


def _missing_graph(root: Path) -> None:
    (root / GRAPH).unlink()


def _invalid_frontmatter(root: Path) -> None:
    _edit(root, CONCEPT, "type: concept", "type: gizmo")


def test_created_at_garbage_is_restored_from_cache(healthy: Path) -> None:
    reconcile(healthy)
    _edit(healthy, CONCEPT, "created_at: '2026-01-10T08:00:00Z'", "created_at: yesterday")
    _report, found = reconcile(healthy, check=True)
    assert {"invalid_frontmatter", "created_at_changed"} <= codes(found)
    _report, after = reconcile(healthy)
    assert after.status == "healthy", after.findings


def _dead_typed_link(root: Path) -> None:
    _edit(root, SOURCE, f"- {RAW}", f"- raw/{PREFIX}__missing.md")


def _escaping_link(root: Path) -> None:
    _edit(root, CONCEPT, "How work moves", "See [outside](../../../etc/passwd). How work moves")


def _prefix_mismatch(root: Path) -> None:
    _edit(root, CONCEPT, f"utc_datetime_prefix: '{PREFIX}'",
          "utc_datetime_prefix: '2025-01-01T00-00-00Z'")


def _orphan_elsewhere(root: Path) -> None:
    write(root, f"wiki/{PREFIX}__loose-note.md", page_meta("note", "Loose", None), "# Loose\n")


def _entity_page_not_in_graph(root: Path) -> None:
    write(root, f"wiki/entities/{PREFIX}__executor.md",
          page_meta("entity", "executor", "wiki/entities/index.md", entity_name="executor"), "x\n")


def _superseded_without_link(root: Path) -> None:
    def change(data: dict) -> None:
        data["entities"][0]["supersededObservations"] = [
            {"observation": "Old fact", "supersededAtUtc": NOW, "reason": "outdated"}]
    _graph_edit(root, change)


def _unresolvable_conflict(root: Path) -> None:
    _graph_edit(root, lambda d: d["entities"][0]["observations"].append("status: retired"))


def _dangling_relation(root: Path) -> None:
    _graph_edit(root, lambda d: d["relations"].append(
        {"sourceEntityName": "planner", "targetEntityName": "ghost", "relationType": "calls"}))


def _registry_extra(root: Path) -> None:
    data = orjson.loads((root / REGISTRY).read_bytes())
    data["entries"].append({"canonicalName": "zeta", "aliases": [], "entityType": "service"})
    (root / REGISTRY).write_text(dumps_json(data))


def _raw_changed(root: Path) -> None:
    os.chmod(root / RAW, 0o644)
    (root / RAW).write_bytes(b"tampered\n")
    os.chmod(root / RAW, 0o444)


def _raw_missing(root: Path) -> None:
    (root / RAW).unlink()


def _raw_unlisted(root: Path) -> None:
    (root / f"raw/{PREFIX}__stray.md").write_text("stray\n")


def _duplicate_entity_page(root: Path) -> None:
    write(root, f"wiki/entities/{PREFIX}__planner-copy.md",
          page_meta("entity", "Planner copy", "wiki/entities/index.md", entity_name="Planner"),
          "copy\n")


def _entity_page_without_name(root: Path) -> None:
    _edit(root, PLANNER, "entity_name: planner\n", "")
    _edit(root, PLANNER, "title: planner\n", "")


def _missing_log(root: Path) -> None:
    (root / "log.md").unlink()


def _missing_registry(root: Path) -> None:
    (root / REGISTRY).unlink()


# (damage, code found, still there after repair-reconcile: needs a person)
PERSON_RULES = [
    (_duplicate_entity_page, "duplicate_entity_page"),
    (_entity_page_without_name, "entity_page_without_name"),
    (_missing_log, "missing_log"),
    (_missing_registry, "missing_registry_file"),
    (_misnamed, "misnamed_file"),
    (_corrupt_jsonc, "invalid_jsonc"),
    (_broken_frontmatter, "broken_frontmatter"),
    (_invalid_utf8, "invalid_utf8"),
    (_dangling_link, "dead_link"),
    (_missing_graph, "missing_graph_file"),
    (_invalid_frontmatter, "invalid_frontmatter"),
    (_dead_typed_link, "dead_link"),
    (_escaping_link, "link_escapes_root"),
    (_prefix_mismatch, "prefix_mismatch"),
    (_orphan_elsewhere, "orphan_page"),
    (_entity_page_not_in_graph, "entity_page_not_in_graph"),
    (_superseded_without_link, "superseded_without_link"),
    (_unresolvable_conflict, "conflicting_observations"),
    (_dangling_relation, "relation_dangling_entity"),
    (_registry_extra, "registry_entry_not_in_graph"),
    (_raw_changed, "raw_hash_mismatch"),
    (_raw_missing, "raw_missing"),
    (_raw_unlisted, "raw_not_in_manifest"),
]


@pytest.mark.parametrize(("damage", "code"), PERSON_RULES, ids=[c for _, c in PERSON_RULES])
def test_rule_found_and_left_for_a_person(healthy: Path, damage, code: str) -> None:
    reconcile(healthy)
    damage(healthy)
    _report, found = reconcile(healthy, check=True)
    assert code in codes(found), found.findings
    assert found.status in {"degraded", "failing"}
    hit = next(f for f in found.findings if f.code == code)
    assert hit.path and hit.hint
    report, _ = reconcile(healthy)
    assert report.problems
    _report, after = reconcile(healthy, check=True)
    assert code in codes(after)


def _unsorted_graph(root: Path) -> None:
    def change(data: dict) -> None:
        data["entities"].reverse()
        data["entities"].append({**data["entities"][0], "entityName": "Planner ",
                                 "observations": ["Turns goals into plans", "Extra planner fact"]})
    _graph_edit(root, change)


def _index_missing(root: Path) -> None:
    _edit(root, "index.md", f"- [Delegation]({CONCEPT})", "")


def _index_stale(root: Path) -> None:
    _edit(root, "index.md", "## Concepts\n\n",
          f"## Concepts\n\n- [Gone](wiki/concepts/{PREFIX}__gone.md) — was here\n")


def _hub_stale(root: Path) -> None:
    _edit(root, "wiki/concepts/index.md", "## Children\n\n",
          f"## Children\n\n- [Gone]({PREFIX}__gone.md)\n")


def _hub_missing(root: Path) -> None:
    write(root, f"wiki/concepts/{PREFIX}__routing.md",
          page_meta("concept", "Routing", "wiki/concepts/index.md"), "# Routing\n")


def _orphan_in_hub_folder(root: Path) -> None:
    write(root, f"wiki/concepts/{PREFIX}__lonely.md", page_meta("concept", "Lonely", None), "x\n")


def _created_at_changed(root: Path) -> None:
    _edit(root, CONCEPT, "created_at: '2026-01-10T08:00:00Z'", "created_at: '2026-01-11T08:00:00Z'")


def _entity_page_missing(root: Path) -> None:
    _graph_edit(root, lambda d: d["entities"].append(
        {"entityName": "executor", "entityType": "service", "observations": ["Runs plans"]}))


def _registry_missing(root: Path) -> None:
    data = orjson.loads((root / REGISTRY).read_bytes())
    data["entries"] = [e for e in data["entries"] if e["canonicalName"] != "planner"]
    data["entries"].reverse()
    (root / REGISTRY).write_text(dumps_json(data))


def _active_and_superseded(root: Path) -> None:
    def change(data: dict) -> None:
        data["entities"][1]["supersededObservations"] = [
            {"observation": "Turns goals into plans", "supersededAtUtc": NOW,
             "supersededBy": "Makes plans", "reason": "reworded"}]
    _graph_edit(root, change)


def _raw_writable(root: Path) -> None:
    os.chmod(root / RAW, 0o644)


def _missing_hub(root: Path) -> None:
    (root / "wiki/synthesis/index.md").unlink()


def _missing_index(root: Path) -> None:
    (root / "index.md").unlink()


def _registry_unsorted(root: Path) -> None:
    data = orjson.loads((root / REGISTRY).read_bytes())
    data["entries"].reverse()
    data["entries"][0]["aliases"] = ["Zed", "alpha", "alpha "]
    (root / REGISTRY).write_text(dumps_json(data))


REPAIR_RULES = [
    (_missing_index, "missing_index"),
    (_registry_unsorted, "registry_not_normalized"),
    (_unsorted_graph, "graph_not_normalized"),
    (_index_missing, "index_missing_entry"),
    (_index_stale, "index_stale_entry"),
    (_hub_stale, "hub_stale_child"),
    (_hub_missing, "hub_missing_child"),
    (_orphan_in_hub_folder, "orphan_page"),
    (_created_at_changed, "created_at_changed"),
    (_entity_page_missing, "entity_page_missing"),
    (_registry_missing, "registry_entry_missing"),
    (_active_and_superseded, "observation_active_and_superseded"),
    (_raw_writable, "raw_not_read_only"),
    (_missing_hub, "missing_hub"),
]


@pytest.mark.parametrize(("damage", "code"), REPAIR_RULES, ids=[c for _, c in REPAIR_RULES])
def test_rule_found_and_repaired(healthy: Path, damage, code: str) -> None:
    reconcile(healthy)
    files_before = set(snapshot(healthy))
    damage(healthy)
    _report, found = reconcile(healthy, check=True)
    assert code in codes(found), found.findings
    report, repaired = reconcile(healthy, now=LATER)
    assert report.changed
    assert repaired.status == "healthy", repaired.findings
    assert repaired.repaired
    assert "reconcile (success)" in (healthy / "log.md").read_text()
    # never deletes a file (the damage itself may have)
    assert set(snapshot(healthy)) >= files_before - {"wiki/synthesis/index.md", "index.md"}
    # a second reconcile right after changes nothing and appends nothing to log.md
    before = snapshot(healthy)
    again, _ = reconcile(healthy, now=LATER)
    assert not again.changed
    assert snapshot(healthy) == before


REPAIR_CODES = [
    (_missing_index, ["repaired_index_resynced"]),
    (_registry_unsorted, ["repaired_registry_normalized"]),
    (_unsorted_graph, ["repaired_graph_normalized"]),
    (_hub_stale, ["repaired_hub_resynced"]),
    (_orphan_in_hub_folder,
     ["repaired_hub_resynced", "repaired_index_resynced", "repaired_orphan_attached"]),
    (_created_at_changed, ["repaired_created_at_restored"]),
    (_entity_page_missing, ["repaired_entity_page_created", "repaired_graph_normalized",
                            "repaired_hub_resynced", "repaired_index_resynced",
                            "repaired_registry_normalized"]),
    (_active_and_superseded, ["repaired_entity_page_rerendered", "repaired_graph_normalized"]),
    (_raw_writable, ["repaired_raw_made_read-only"]),  # the code summaries have always carried
]


@pytest.mark.parametrize(("damage", "expected"), REPAIR_CODES,
                         ids=[d.__name__.strip("_") for d, _ in REPAIR_CODES])
def test_repair_codes_are_recorded_per_repair(healthy: Path, damage, expected: list[str]) -> None:
    """Each repair records its own code (tasks/checks/reconcile/repairs.py), not one made from prose."""
    reconcile(healthy)
    damage(healthy)
    _report, summary = reconcile(healthy, now=LATER)
    assert sorted({f.code for f in summary.repaired}) == expected
    assert all(f.severity == "info" for f in summary.repaired)


def test_created_at_restored_to_original(healthy: Path) -> None:
    reconcile(healthy)
    _created_at_changed(healthy)
    reconcile(healthy, now=LATER)
    assert read_page(healthy / CONCEPT).meta["created_at"] == "2026-01-10T08:00:00Z"


def test_entity_page_created_under_hub_and_index(healthy: Path) -> None:
    _entity_page_missing(healthy)
    reconcile(healthy, now=LATER)
    created = [p for p in (healthy / "wiki/entities").glob("*__executor.md")]
    assert len(created) == 1
    meta = read_page(created[0]).meta
    assert meta["entity_name"] == "executor" and meta["child_of"] == ["wiki/entities/index.md"]
    rel = created[0].relative_to(healthy).as_posix()
    assert rel in (healthy / "index.md").read_text()
    assert created[0].name in (healthy / "wiki/entities/index.md").read_text()
    assert "executor" in [e.canonicalName for e in load_registry(healthy / REGISTRY).entries]


def test_created_entity_page_is_rendered_as_distill_renders_it(healthy: Path) -> None:
    """One entity-page renderer (tasks/distill/entity_pages.py): the page reconcile creates has the
    sections and description distill writes, with its relations linked to their pages."""
    _entity_page_missing(healthy)
    _graph_edit(healthy, lambda d: d["relations"].append(
        {"sourceEntityName": "executor", "relationType": "uses", "targetEntityName": "planner"}))
    reconcile(healthy, now=LATER)
    page = read_page(next((healthy / "wiki/entities").glob("*__executor.md")))
    assert page.meta["description"] == ("What this memory knows about executor (service), "
                                        "each fact linked to its source.")
    assert page.meta["type"] == "entity" and page.meta["aliases"] == []
    assert page.body.startswith("# executor\n\nexecutor is a service entity of this memory.\n")
    sections = [line for line in page.body.splitlines() if line.startswith("## ")]
    assert sections == ["## Observations", "## Relations", "## Sources", "## Superseded facts"]
    assert "- Runs plans\n" in page.body
    planner = next((healthy / "wiki/entities").glob("*__planner.md")).name
    assert f"- uses [planner]({planner})" in page.body
    _report, summary = reconcile(healthy, check=True, now=LATER)
    assert summary.status == "healthy", summary.findings


def test_entity_page_repair_never_overwrites_the_page_its_path_leads_to(healthy: Path) -> None:
    """The allocator (tasks/distill/entity_pages.allocate_page_paths) takes a nameless page with the
    entity's slug as the entity's own; distill would rewrite it in place, a repair leaves it to
    a person (repairs never overwrite a page)."""
    _entity_page_missing(healthy)
    nameless = f"wiki/entities/{PREFIX}__executor.md"
    meta = page_meta("entity", "Executor", "wiki/entities/index.md")
    del meta["title"]
    write(healthy, nameless, meta, "# notes by hand\n")
    before = (healthy / nameless).read_bytes()
    _report, summary = reconcile(healthy, now=LATER)
    assert (healthy / nameless).read_bytes() == before
    assert [p.name for p in (healthy / "wiki/entities").glob("*executor*")] == [f"{PREFIX}__executor.md"]
    assert {"entity_page_missing", "entity_page_without_name"} <= codes(summary)


def test_conflict_superseded_with_link_to_newer(healthy: Path) -> None:
    """Two values of `status`; the one from the later-distilled source wins, the other is kept
    as superseded with supersededBy pointing at the newer fact."""
    newer_source = f"wiki/sources/{PREFIX}__release-notes.md"
    write(healthy, newer_source, page_meta("source", "Release notes", "wiki/sources/index.md"),
          "# Release notes\n")
    graph = load_graph(healthy / GRAPH)
    orchestrator = graph.entities[0]
    orchestrator.observations.append("status: retired")
    orchestrator.observationProvenance.append(orchestrator.observationProvenance[0].model_copy(
        update={"observation": "status: retired", "sourcePage": newer_source,
                "rawAssetId": "b" * 64}))
    save_graph(healthy / GRAPH, graph, now_iso=NOW)
    state = orjson.loads((healthy / "context/distill-state.jsonc").read_bytes())
    state["sources"].append({"assetId": "b" * 64, "sourcePage": newer_source,
                             "distilledAtUtc": "2026-03-01T00:00:00Z"})
    (healthy / "context/distill-state.jsonc").write_text(dumps_json(state))
    report, summary = reconcile(healthy, now=LATER)
    entity = load_graph(healthy / GRAPH).entities[0]
    assert "status: retired" in entity.observations
    assert "status: active" not in entity.observations
    old = [s for s in entity.supersededObservations if s.observation == "status: active"]
    assert old and old[0].supersededBy == "status: retired"
    assert report.graph_delta.superseded_records_count == 1
    assert "conflicting_observations" not in codes(summary)


def test_erased_fact_is_reported_until_restored(healthy: Path) -> None:
    reconcile(healthy)
    _graph_edit(healthy, lambda d: d["entities"][1].update(observations=[]))
    _report, summary = reconcile(healthy)
    erased = [f for f in summary.findings if f.code == "fact_erased"]
    assert erased and "Turns goals into plans" in erased[0].message
    _report, summary = reconcile(healthy)
    assert "fact_erased" in codes(summary)  # persists: nobody restored it
    (healthy / GRAPH).write_text(graph_text(graph_model()))
    _report, summary = reconcile(healthy)
    assert "fact_erased" not in codes(summary)


def test_superseding_a_fact_is_not_erasing_it(healthy: Path) -> None:
    reconcile(healthy)
    graph = load_graph(healthy / GRAPH)
    planner = graph.entities[1]
    planner.observations = []
    planner.supersededObservations = [SupersededObservation(
        observation="Turns goals into plans", supersededAtUtc=NOW, supersededBy="Makes plans",
        reason="reworded")]
    save_graph(healthy / GRAPH, graph, now_iso=NOW)
    _report, summary = reconcile(healthy)
    assert "fact_erased" not in codes(summary)
    assert summary.counts.observations_superseded == 1


def test_log_rewrite_detected(healthy: Path) -> None:
    reconcile(healthy)
    _edit(healthy, "log.md", "bootstrap (success)", "bootstrap (edited)")
    _report, summary = reconcile(healthy)
    assert "log_rewritten" in codes(summary)
    # appending is fine
    _edit(healthy, "log.md", "bootstrap (edited)", "bootstrap (success)")
    path = healthy / "log.md"
    path.write_text(path.read_text() + "\n## 2026-03-25T00:00:00Z note (success)\n")
    _report, summary = reconcile(healthy)
    assert "log_rewritten" not in codes(summary)


DAMAGED = [
    (_corrupt_jsonc, "invalid_jsonc", REGISTRY),
    (_broken_frontmatter, "broken_frontmatter", f"wiki/concepts/{PREFIX}__broken.md"),
    (_invalid_utf8, "invalid_utf8", f"wiki/concepts/{PREFIX}__latin.md"),
    (_misnamed, "misnamed_file", "wiki/concepts/notes.md"),
    (_dangling_link, "dead_link", CONCEPT),
    (_missing_graph, "missing_graph_file", GRAPH),
]


def test_damaged_memory_every_problem_found_repair_then_check(healthy: Path) -> None:
    """One of each damage at once: no crash, each a finding with file and hint; a repairing
    reconcile then a --check leaves only what needs a person."""
    reconcile(healthy)
    for damage, _code, _path in DAMAGED:
        damage(healthy)
    _index_missing(healthy)  # repairable noise beside the damage
    _report, found = reconcile(healthy, check=True)
    assert found.status == "failing"
    for _damage, code, path in DAMAGED:
        hits = [f for f in found.findings if f.code == code and f.path == path]
        assert hits, (code, path, found.findings)
        assert hits[0].hint
    assert "index_missing_entry" in codes(found)
    reconcile(healthy, now=LATER)
    _report, after = reconcile(healthy, check=True, now=LATER)
    needs_person = {code for _d, code, _p in DAMAGED}
    assert codes(after) == needs_person, after.findings
    assert after.counts.invalid_files == 3


def test_only_changed_files_are_read(healthy: Path) -> None:
    first, _ = reconcile(healthy)
    assert first.figures["files_read"] > 5
    nothing, _ = reconcile(healthy)
    assert nothing.figures["files_read"] == 0
    meta = read_page(healthy / PLANNER).meta
    (healthy / PLANNER).write_text(render_page(meta, "# planner\n\nNew text.\n"))
    one, summary = reconcile(healthy)
    assert one.figures["files_read"] == 1
    assert summary.status == "healthy"


def test_proposals_and_health_folders_are_not_pages(healthy: Path) -> None:
    (healthy / "proposals/inbox").mkdir(parents=True)
    (healthy / "proposals/inbox/whatever.md").write_text("not a page\n")
    (healthy / "context/health").mkdir(parents=True, exist_ok=True)
    (healthy / "context/health/notes.md").write_text("not a page\n")
    _report, summary = reconcile(healthy)
    assert summary.status == "healthy", summary.findings


def test_unreadable_orchestrator_page_does_not_stop_the_rest(healthy: Path) -> None:
    (healthy / ORCHESTRATOR).write_bytes(b"\xff\xfe")
    _misnamed(healthy)
    _report, summary = reconcile(healthy, check=True)
    assert {"invalid_utf8", "misnamed_file"} <= codes(summary)


def test_sharded_source_and_folder_form_child_of_are_healthy(healthy: Path) -> None:
    """Shards (shard-NNN.md, child_of their source-index page) are exempt from the naming rule,
    not required in index.md, and not orphans; `wiki/synthesis` names its hub."""
    stem = f"{PREFIX}__big-manual"
    index_rel = f"wiki/sources/{stem}.md"
    write(healthy, index_rel, page_meta("source-index", "Big manual", "wiki/sources/index.md",
                                        derived_from=[RAW]),
          f"# Big manual\n\n- [part 1](shards/{stem}/shard-000.md)\n")
    write(healthy, f"wiki/sources/shards/{stem}/shard-000.md",
          page_meta("source-shard", "Big manual part 1", index_rel), "Part one.\n")
    write(healthy, f"wiki/synthesis/{PREFIX}__overview.md",
          page_meta("synthesis", "Overview", "wiki/synthesis"), "All of it.\n")
    _report, found = reconcile(healthy, check=True)
    assert codes(found) == {"index_missing_entry", "hub_missing_child"}, found.findings
    _report, summary = reconcile(healthy, now=LATER)
    assert summary.status == "healthy", summary.findings
    assert "shards/" not in (healthy / "index.md").read_text()


def test_symlink_reported_not_followed(healthy: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret\n")
    (healthy / f"wiki/concepts/{PREFIX}__link.md").symlink_to(outside)
    _report, summary = reconcile(healthy, check=True)
    assert "symlink_in_memory" in codes(summary)
    assert summary.counts.pages_total == 11  # (context/project.md, which init writes, included)


def test_failed_repair_is_a_finding_not_a_crash(healthy: Path, monkeypatch) -> None:
    import tasks.checks.reconcile.repairs as module
    from tasks.store.errors import ContractError

    def boom(*_args, **_kwargs):
        raise ContractError("disk says no", file=healthy / "index.md", hint="x")

    monkeypatch.setattr(module, "write_page", boom)
    _index_missing(healthy)
    report, summary = reconcile(healthy)
    failed = [f for f in summary.findings if f.code == "repair_failed"]
    assert failed and failed[0].path == "index.md"
    assert report.exit_code() == 1


def test_dead_link_inherited_from_source_text_is_info(healthy: Path) -> None:
    _edit(healthy, SOURCE, "See [the orchestrator]",
          "Read [ADR 2](0002-hosting.md), [guide](shards/user-guide/cli.md), "
          "[tf](../../../terraform/main.tf) and "
          "![diagram](img/net.png). See [the orchestrator]")
    _report, summary = reconcile(healthy, check=True)
    assert summary.status == "healthy", summary.findings
    infos = [f for f in summary.findings if f.code == "source_text_link_unresolved"]
    assert len(infos) == 4
    _edit(healthy, SOURCE, "Read [ADR 2]", f"[gone](shards/{PREFIX}__x/shard-000.md) [ADR 2]")
    _report, summary = reconcile(healthy, check=True)
    assert "dead_link" in codes(summary)  # links into the memory's own structure still count


def test_the_full_check_runs_with_the_collector_paused_and_restores_it(
        healthy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its scan and gates run without cyclic collections (tasks/checks/scan_pool.py
    collector_paused); the command's collector is on again after, the findings the same."""
    import gc

    from tasks.checks.reconcile import full

    seen: list[bool] = []
    scan_memory = full.scan_memory

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return scan_memory(*args, **kwargs)

    monkeypatch.setattr(full, "scan_memory", watched)
    _report, summary = reconcile(healthy)
    assert seen and not any(seen)  # every scan of the run, the rescans too
    assert gc.isenabled()
    assert summary.status == "healthy", summary.findings


def test_a_page_without_a_type_is_counted_untyped_not_invalid(tmp_path: Path) -> None:
    # init's context/project.md is a historian record: the spec gives it time keys and no type.
    root = tmp_path / "memory"
    with writing_operation(load_settings(root, fixed_clock=NOW), "bootstrap") as operation:
        bootstrap_memory(operation)
    _, summary = reconcile(root)
    assert summary.status == "healthy", summary.findings
    _, audited = freshness_audit(begin_operation(load_settings(root, fixed_clock=NOW), "audit"))
    for counts in (summary.counts, audited.counts):
        assert counts.pages_by_type.get("untyped") == 1 and "invalid" not in counts.pages_by_type
