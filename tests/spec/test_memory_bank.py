"""spec/memory-bank.md, row by row (issue 25): each test is named after the seed audit's row
(../shared/reviews/seed-audit-2026-12-01.md) and does what the row tried."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tasks.bootstrap import bootstrap_memory
from tasks.checks.reconcile import reconcile_memory
from tasks.search.retrieve import retrieve
from tasks.store.graph_store import load_graph
from tasks.store.layout import PROJECT_CONTEXT_FILE
from tasks.store.operation import reading_operation, writing_operation
from tasks.store.pages import split_page
from tasks.store.settings import MembankSettings, load_settings
from tests.memory_builder import build_healthy_memory

NOW = "2026-03-24T22:40:05Z"
PREFIX = "2026-03-20T10-00-00Z"
THREE_KEYS = (f"---\ncreated_at: '2026-03-20T10:00:00Z'\nupdated_at: '2026-03-20T10:00:00Z'\n"
              f"utc_datetime_prefix: '{PREFIX}'\n---\n\n")
HISTORIAN = {
    PROJECT_CONTEXT_FILE: "# Project\n\nA memory pipeline for agents.\n",
    f"sessions/{PREFIX}__wal-switch-session.md": "# WAL switch\n\nWe switched the store to WAL mode.\n",
    f"plans/{PREFIX}__wal-rollout-plan.md": "# WAL rollout\n\n1. Enable WAL on the store.\n",
    f"executions/{PREFIX}__wal-rollout-execution.md": "# WAL rollout run\n\nEnabled WAL mode.\n",
    f"errors/{PREFIX}__sqlite-busy-error.md": (
        "# SQLITE_BUSY in the memory store\n\nAfter switching the store to WAL mode, writers failed "
        "with SQLITE_BUSY under load.\n\nPrevention: set busy_timeout=5000\n"),
}


def _settings(root: Path) -> MembankSettings:
    return load_settings(root, fixed_clock=NOW, search_semantic=False)


def _findings(root: Path, *, check: bool) -> list[tuple[str, str | None]]:
    context = reading_operation if check else writing_operation
    with context(_settings(root), "reconcile") as operation:
        _report, summary = reconcile_memory(operation, check=check)
    return sorted((f.code, f.path) for f in summary.findings if f.severity == "error")


@pytest.fixture
def historian_root(tmp_path: Path) -> Path:
    root = tmp_path / "mem"
    build_healthy_memory(root)
    for rel, body in HISTORIAN.items():
        (root / rel).write_text(THREE_KEYS + body, encoding="utf-8")
    _findings(root, check=False)  # reconcile: index.md lists them, the index reads them
    return root


def test_MB7_historian_records_with_exactly_the_three_keys_are_valid(historian_root: Path) -> None:
    assert _findings(historian_root, check=True) == []


def test_MB7_a_historian_record_without_its_time_keys_is_still_invalid(historian_root: Path) -> None:
    rel = f"sessions/{PREFIX}__wal-switch-session.md"
    (historian_root / rel).write_text("---\nupdated_at: '2026-03-20T10:00:00Z'\n---\n\n# x\n",
                                      encoding="utf-8")
    assert ("invalid_frontmatter", rel) in _findings(historian_root, check=True)


def test_MB27_error_records_give_known_failure_preventions(historian_root: Path) -> None:
    with reading_operation(_settings(historian_root), "retrieve") as operation:
        report = retrieve(operation, "switch the memory store to WAL mode")
    preventions = [p.text for p in report.packet.failure_preventions]
    assert any("busy_timeout=5000" in text for text in preventions), preventions
    assert f"errors/{PREFIX}__sqlite-busy-error.md" in report.packet.paths_read


def test_MB28_retrieve_without_index_md_says_it_did_not_read_it(historian_root: Path) -> None:
    (historian_root / "index.md").unlink()
    with reading_operation(_settings(historian_root), "retrieve") as operation:
        report = retrieve(operation, "switch the memory store to WAL mode")
    assert report.status == "partial"
    assert report.memory_health.index_synced is False
    assert "index.md" not in [a.path for a in report.artifacts]
    assert "index.md: missing" in report.packet_markdown


def test_MB30_init_creates_project_context_with_the_three_keys(tmp_path: Path) -> None:
    with writing_operation(_settings(tmp_path / "mem"), "bootstrap") as operation:
        bootstrap_memory(operation)
    page = split_page((tmp_path / "mem" / PROJECT_CONTEXT_FILE).read_text(encoding="utf-8"))
    assert sorted(page.meta) == ["created_at", "updated_at", "utc_datetime_prefix"]
    assert _findings(tmp_path / "mem", check=True) == []


def test_MB50_run_reports_what_its_stages_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from flows.run import run_flow
    from tests.proposal_fixtures import proposal, proposal_markdown, seed_memory

    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", NOW)
    monkeypatch.setenv("MEMBANK_SEARCH_SEMANTIC", "false")
    root = tmp_path / "mem"
    seed_memory(root)
    inbox = root / "proposals" / "inbox"
    inbox.mkdir(parents=True)
    (inbox / "digest.md").write_text(proposal_markdown(proposal()), encoding="utf-8")
    report = run_flow(root=str(root))
    created = [a.path for a in report.artifacts if a.action == "created"]
    assert any(path.startswith("wiki/synthesis/") for path in created), report.artifacts
    stage_paths = {(a.path, a.action) for stage in report.stages for a in stage.artifacts}
    assert stage_paths == {(a.path, a.action) for a in report.artifacts}


def test_MB50_the_headline_of_a_composed_report_counts_its_stages_writes() -> None:
    from flows.render import _summary_line
    from schemas.report import ArtifactRecord, MemoryOperationReport

    stage = MemoryOperationReport(mode="propose", project="p", memory_write_timestamp_utc=NOW,
                                  utc_datetime_prefix="2026-03-24T22-40-05Z")
    stage.artifacts.append(ArtifactRecord(path="wiki/synthesis/x.md", action="created", why="page"))
    from tasks.store.operation import roll_up_stages
    from tasks.store.report import StageReport

    summary = StageReport(stage.model_copy(update={"mode": "run", "artifacts": [], "stages": []}))
    summary.adopt(stage)
    assert _summary_line(roll_up_stages(summary)) == "1 created"


def _ingest_note(root: Path, folder: Path, name: str, fact: str, now: str) -> None:
    from tasks.distill.apply import distill_memory
    from tasks.ingest import apply_ingest, collect_inputs, prepare_batch

    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f"---\nentity: Billing service\n---\n\n- [fact] {fact}\n",
                               encoding="utf-8")
    settings = load_settings(root, fixed_clock=now, search_semantic=False)
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([folder / name])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)


def test_MB35_two_sources_stating_different_owners_conflict(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    _ingest_note(root, tmp_path / "src", "billing-a.md", "Owner: platform team #ownership", NOW)
    _ingest_note(root, tmp_path / "src", "billing-b.md", "Owner: research team",
                 "2026-03-25T09:00:00Z")
    with reading_operation(_settings(root), "reconcile") as operation:
        _report, summary = reconcile_memory(operation, check=True)
    conflicts = [f for f in summary.findings if f.code == "conflicting_observations"]
    assert len(conflicts) == 1, summary.findings
    assert "platform team" in conflicts[0].message and "research team" in conflicts[0].message


def test_MB35_one_source_listing_several_values_is_no_conflict(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "postmortem.md").write_text(
        "---\nentity: Billing outage\n---\n\n- [action] Action item: add circuit breakers\n"
        "- [action] Action item: alert on pool exhaustion\n", encoding="utf-8")
    _ingest_note(root, folder, "billing-a.md", "Owner: platform team", NOW)
    from tasks.distill.apply import distill_memory
    from tasks.ingest import apply_ingest, collect_inputs, prepare_batch

    settings = load_settings(root, fixed_clock=NOW, search_semantic=False)
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([folder / "postmortem.md"])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)
    assert not [c for c in _findings_all(root) if c == "conflicting_observations"]


def test_MB35_two_notes_adding_items_of_a_list_neither_conflict_nor_supersede(tmp_path: Path) -> None:
    """Two notes about one entity, each stating a constraint: two items of its list. Reconcile
    reports no conflict and supersedes neither (it did: the older note's constraint was marked
    superseded by the newer's, as if one value of one attribute)."""
    root = tmp_path / "mem"
    _ingest_note(root, tmp_path / "src", "billing-a.md", "Constraint: charges are idempotent", NOW)
    _ingest_note(root, tmp_path / "src", "billing-b.md", "Constraint: at most three retries",
                 "2026-03-25T09:00:00Z")
    assert "conflicting_observations" not in _findings_all(root)
    with writing_operation(_settings(root), "reconcile") as operation:
        reconcile_memory(operation, check=False)
    entity = next(e for e in load_graph(root / "context/knowledge-graph.index.jsonc").entities
                  if e.entityName == "Billing service")
    assert {"Constraint: charges are idempotent", "Constraint: at most three retries"} <= {
        o.split("] ", 1)[-1] for o in entity.observations}, entity.observations
    assert not entity.supersededObservations


def _findings_all(root: Path) -> list[str]:
    with reading_operation(_settings(root), "reconcile") as operation:
        _report, summary = reconcile_memory(operation, check=True)
    return [f.code for f in summary.findings]


def test_MB43_an_observation_of_a_paragraph_or_one_word_is_flagged(tmp_path: Path) -> None:
    import json

    root = tmp_path / "mem"
    build_healthy_memory(root)
    graph_file = root / "context/knowledge-graph.index.jsonc"
    graph = json.loads(graph_file.read_text(encoding="utf-8"))
    graph["entities"][0]["observations"] += ["stuff", "[fact] " + "very long statement " * 120]
    graph_file.write_text(json.dumps(graph, indent=2), encoding="utf-8")
    assert _findings_all(root).count("observation_not_atomic") == 2


# --------------------------------------------------------------------------------------------
# The graph and the entity pages agree (MB34, MB37; W29 in the wiki contract): issue 25 item 7.

_WRITER_NOTE = """---
entity: Memory Writer
entity_type: component
---

# Memory writer notes

- [fact] Memory Writer writes one batch at a time
- [fact] Memory Writer holds the root lock while it writes
- depends_on [[Lock File]]
"""


@pytest.fixture
def writer_root(tmp_path: Path) -> Path:
    """A memory distilled from one note: the Memory Writer entity page shows two facts and a
    relation, rendered from the graph; reconciled once (its baselines are set)."""
    from tests.tasks.privacy.forget_scenario import ingest_and_distill

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "memory-writer.md").write_text(_WRITER_NOTE, encoding="utf-8")
    root = tmp_path / "mem"
    ingest_and_distill(root, notes, NOW)
    _findings(root, check=False)
    return root


def _entity_page(root: Path, slug: str) -> Path:
    [page] = (root / "wiki/entities").glob(f"*__{slug}.md")
    return page


def _summary(root: Path, *, check: bool = True):  # type: ignore[no-untyped-def]
    context = reading_operation if check else writing_operation
    with context(_settings(root), "reconcile") as operation:
        return reconcile_memory(operation, check=check)[1]


def test_MB34_a_distilled_memory_has_no_drift(writer_root: Path) -> None:
    summary = _summary(writer_root)
    assert summary.status == "healthy", summary.findings
    assert "- [fact] Memory Writer holds the root lock" in _entity_page(
        writer_root, "memory-writer").read_text(encoding="utf-8")


def test_MB34_a_proposal_rewriting_an_entity_pages_observations_is_refused(
        writer_root: Path, tmp_path: Path) -> None:
    """W29's w_extend.md: the section rewrite replaced the page's Observations, the graph kept
    five facts. Now the gate refuses it with a code, and neither the page nor the graph moves."""
    from tasks.proposals.apply import process_in_chunks
    from tests.proposal_fixtures import proposal, proposal_markdown

    page = _entity_page(writer_root, "memory-writer")
    rel = page.relative_to(writer_root).as_posix()
    before = {p: (writer_root / p).read_bytes() for p in (rel, "context/knowledge-graph.index.jsonc")}
    file = tmp_path / "w_extend.md"
    file.write_text(proposal_markdown(proposal(
        title="Memory Writer", body="## Observations\n\n- [fact] Memory Writer is fast\n",
        placement={"kind": "extend_section", "page": rel, "section": "observations"})),
        encoding="utf-8")
    report = process_in_chunks(_settings(writer_root), [file])
    assert [p.code for p in report.problems] == ["graph_owned_section"], report.problems
    assert {p: (writer_root / p).read_bytes() for p in before} == before


def test_MB34_reconcile_flags_an_entity_page_whose_observations_differ_and_renders_it_again(
        writer_root: Path) -> None:
    page = _entity_page(writer_root, "memory-writer")
    text = page.read_text(encoding="utf-8")
    edited = "\n".join(line for line in text.split("\n") if "holds the root lock" not in line)
    page.write_text(edited.replace("- [fact] Memory Writer writes one batch at a time",
                                   "- [fact] Memory Writer is fast"), encoding="utf-8")
    drift = [f for f in _summary(writer_root).findings if f.code == "entity_page_drift"]
    assert len(drift) == 1 and drift[0].path == page.relative_to(writer_root).as_posix()
    assert "shows 1 row(s) the graph does not hold ('[fact] Memory Writer is fast')" in drift[0].message
    assert "lacks 2 the graph holds" in drift[0].message
    repaired = _summary(writer_root, check=False)
    assert "repaired_entity_page_rerendered" in {f.code for f in repaired.repaired}
    assert page.read_text(encoding="utf-8") == text  # the graph's rows again, byte for byte
    assert _summary(writer_root).status == "healthy"


def test_MB37_a_relation_deleted_by_hand_from_the_graph_is_flagged(writer_root: Path) -> None:
    import json

    graph_file = writer_root / "context/knowledge-graph.index.jsonc"
    graph = json.loads(graph_file.read_text(encoding="utf-8"))
    assert [(r["sourceEntityName"], r["relationType"]) for r in graph["relations"]] == [
        ("Memory Writer", "depends_on")]
    graph["relations"] = []
    graph_file.write_text(json.dumps(graph, indent=2), encoding="utf-8")
    findings = {(f.code, f.message) for f in _summary(writer_root).findings}
    assert ("fact_erased", "relation was removed instead of superseded: "
            "Memory Writer -depends_on-> Lock File") in findings
    drifted = sorted(m for c, m in findings if c == "entity_page_drift")
    assert len(drifted) == 2 and "depends_on lock file" in drifted[1], drifted  # both ends' pages


# --------------------------------------------------------------------------------------------
# Stale facts are marked in the graph, never deleted (MB36): issue 25 item 8.


def test_MB36_observations_unconfirmed_past_the_window_are_marked_stale_not_deleted(
        writer_root: Path) -> None:
    import json

    graph_file = writer_root / "context/knowledge-graph.index.jsonc"
    before = json.loads(graph_file.read_text(encoding="utf-8"))
    a_year_later = "2027-03-24T22:40:05Z"
    settings = load_settings(writer_root, fixed_clock=a_year_later, search_semantic=False)
    with writing_operation(settings, "reconcile") as operation:
        report, summary = reconcile_memory(operation, check=False)
    assert "repaired_observations_marked_stale" in {f.code for f in summary.repaired}
    graph = json.loads(graph_file.read_text(encoding="utf-8"))
    [writer] = [e for e in graph["entities"] if e["entityName"] == "Memory Writer"]
    [was] = [e for e in before["entities"] if e["entityName"] == "Memory Writer"]
    assert writer["observations"] == was["observations"]  # nothing deleted
    marks = writer["staleObservations"]
    assert [m["observation"] for m in marks] == sorted(o.strip() for o in was["observations"])
    assert {m["markedStaleAtUtc"] for m in marks} == {a_year_later}
    assert {m["lastConfirmedAtUtc"] for m in marks} == {NOW}
    assert "within 180 days" in marks[0]["reason"]
    with writing_operation(settings, "reconcile") as operation:  # a rerun changes nothing
        reconcile_memory(operation, check=False)
    assert json.loads(graph_file.read_text(encoding="utf-8")) == graph
    # A new version of its source states the facts again: they are confirmed, the marks go.
    from tests.tasks.privacy.forget_scenario import ingest_and_distill

    note = writer_root.parent / "notes" / "memory-writer.md"
    note.write_text(_WRITER_NOTE + "- [fact] Memory Writer retries a failed batch once\n",
                    encoding="utf-8")
    ingest_and_distill(writer_root, note.parent, a_year_later)
    with writing_operation(settings, "reconcile") as operation:
        reconcile_memory(operation, check=False)
    graph = json.loads(graph_file.read_text(encoding="utf-8"))
    assert not [e for e in graph["entities"] if e.get("staleObservations")]


def test_MB35_a_new_version_of_a_source_supersedes_the_value_it_replaced(tmp_path: Path) -> None:
    """The newer supersedes the older where the sources are versions of one another."""
    import json

    root = tmp_path / "mem"
    _ingest_note(root, tmp_path / "src", "billing.md", "Owner: platform team", NOW)
    _ingest_note(root, tmp_path / "src", "billing.md", "Owner: research team", "2026-03-25T09:00:00Z")
    assert "conflicting_observations" not in {f.code for f in _summary(root).findings}
    graph = json.loads((root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8"))
    [billing] = graph["entities"]
    assert billing["observations"] == ["[fact] Owner: research team"]
    [old] = billing["supersededObservations"]
    assert old["observation"] == "[fact] Owner: platform team"
    assert old["supersededBy"].endswith("__billing-2.md")
# --- issue 25, developer `rows`: MB12, MB13/MB41, MB15, MB30 ------------------------------------


def _ingest(root: Path, paths: list[Path], now: str = NOW) -> list[str]:
    """Ingest and distill `paths`; the distill report's consistency warnings."""
    from tests.tasks.memstores.pipeline import ingest_and_distill

    _ingested, distilled = ingest_and_distill(root, paths, now)
    return distilled.memory_health.consistency_warnings


def _graph(root: Path) -> Any:
    import json

    return json.loads((root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8"))


def test_MB12_an_ambiguous_entity_name_is_reported_and_its_facts_kept(tmp_path: Path) -> None:
    folder = tmp_path / "src5"
    folder.mkdir()
    (folder / "billing-notes.md").write_text(
        "---\nentity: info\n---\n\n# Billing notes\n\n- [fact] Invoices are generated nightly\n",
        encoding="utf-8")
    warnings = _ingest(tmp_path / "mem", [folder])
    assert any("rejected non-meaningful name 'info'; its facts are kept on 'Billing notes'" in w
               for w in warnings), warnings
    entities = {e["entityName"]: e for e in _graph(tmp_path / "mem")["entities"]}
    assert "info" not in {name.lower() for name in entities}
    assert any("Invoices are generated nightly" in o for o in entities["Billing notes"]["observations"])


def test_MB13_MB41_memory_files_carry_no_workstation_path_and_one_log_from_two_folders(
        tmp_path: Path) -> None:
    import shutil

    from tasks.store.graph_store import load_manifest
    from tasks.store.layout import MemoryLayout

    root = tmp_path / "mem"
    first = shutil.copytree(Path(__file__).resolve().parents[2] / "raw-samples" / "decisions",
                            tmp_path / "a" / "decisions")
    second = shutil.copytree(first, tmp_path / "b" / "decisions")
    adr = second / "adr-0007-wal-mode-for-sqlite.md"
    adr.write_text(adr.read_text(encoding="utf-8") + "\nReviewed again in March.\n", encoding="utf-8")
    _ingest(root, [first])
    _ingest(root, [second], "2026-03-25T09:00:00Z")
    assets = load_manifest(MemoryLayout(root).raw_manifest_file).assets
    assert {a.sourcePath for a in assets} == {"decisions/adr-0007-wal-mode-for-sqlite.md"}
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.md")))
    text += (root / "context/entity-registry.jsonc").read_text(encoding="utf-8")
    assert str(tmp_path) not in text  # no workstation path in pages or the registry
    import json

    registry = json.loads((root / "context/entity-registry.jsonc").read_text(encoding="utf-8"))
    logs = [e for e in registry["entries"] if e.get("recordKey") == "adr-0007-wal-mode-for-sqlite"]
    assert [e["recordLog"] for e in logs] == ["decisions"]  # one log, one record


def test_MB15_one_alias_on_two_entities_is_reported(tmp_path: Path) -> None:
    import json

    root = tmp_path / "mem"
    build_healthy_memory(root)
    path = root / "context/entity-registry.jsonc"
    registry = json.loads(path.read_text(encoding="utf-8"))
    first, second = registry["entries"][:2]
    first["aliases"] = sorted({*first.get("aliases", []), "the writer"})
    second["aliases"] = sorted({*second.get("aliases", []), "The Writer "})
    path.write_text(json.dumps(registry, indent=2), encoding="utf-8")
    with reading_operation(_settings(root), "reconcile") as operation:
        _report, summary = reconcile_memory(operation, check=True)
    found = [f.message for f in summary.findings if f.code == "registry_alias_ambiguous"]
    assert found == [f"alias 'the writer' names 2 entities: "
                     f"{', '.join(sorted([first['canonicalName'], second['canonicalName']]))}"]


@pytest.mark.parametrize(("hub", "folder", "kind"), [
    ("sessions", "sessions", "session"), ("plans/", "plans", "plan"),
    ("executions/index.md", "executions", "execution")])
def test_MB30_proposals_write_sessions_plans_and_executions(tmp_path: Path, hub: str,
                                                             folder: str, kind: str) -> None:
    from tasks.proposals.apply import process_proposals
    from tests.proposal_fixtures import proposal, proposal_markdown, seed_memory

    root = tmp_path / "mem"
    seed_memory(root)
    source = tmp_path / "z.md"
    source.write_text(proposal_markdown(proposal(
        title="WAL switch", description="We switched the store to WAL mode.", type="note",
        placement={"kind": "new_leaf", "hub": hub}, body="# WAL switch\n\nSwitched to WAL.\n")),
        encoding="utf-8")
    with writing_operation(_settings(root), "propose") as operation:
        report = process_proposals(operation, [source])
    created = [a.path for a in report.artifacts if a.action == "created"]
    assert created == [f"{folder}/2026-03-24T22-40-05Z__wal-switch.md"], report.problems
    page = split_page((root / created[0]).read_text(encoding="utf-8"))
    assert page.meta["type"] == kind and "child_of" not in page.meta
    assert created[0] in (root / "index.md").read_text(encoding="utf-8")
    assert _findings(root, check=True) == []


def test_MB44_passive_relation_names_are_flagged(tmp_path: Path) -> None:
    import json

    root = tmp_path / "mem"
    build_healthy_memory(root)
    graph_file = root / "context/knowledge-graph.index.jsonc"
    graph = json.loads(graph_file.read_text(encoding="utf-8"))
    first, second = (e["entityName"] for e in graph["entities"][:2])
    graph["relations"] += [
        {"sourceEntityName": first, "targetEntityName": second, "relationType": "is_used_by"},
        {"sourceEntityName": second, "targetEntityName": first, "relationType": "was_fed_by"}]
    graph_file.write_text(json.dumps(graph, indent=2), encoding="utf-8")
    assert _findings_all(root).count("relation_passive_voice") == 2


# The rows the seed audit found working, re-run on a built root (tests/memory_builder.py).

def _healthy(tmp_path: Path) -> Path:
    root = tmp_path / "mem"
    build_healthy_memory(root)
    return root


def _error_codes(root: Path) -> list[str]:
    return [code for code, _path in _findings(root, check=True)]


def test_MB1_MB39_the_fixed_clock_is_honoured_by_every_write(tmp_path: Path) -> None:
    with writing_operation(_settings(tmp_path / "mem"), "bootstrap") as operation:
        report = bootstrap_memory(operation)
    assert report.memory_write_timestamp_utc == NOW
    assert report.utc_datetime_prefix == "2026-03-24T22-40-05Z"
    assert split_page((tmp_path / "mem" / "index.md").read_text()).meta["created_at"] == NOW


def test_MB2_an_unreadable_clock_aborts_writes_before_anything_is_written(tmp_path: Path) -> None:
    from tasks.store.errors import MembankError

    with pytest.raises((MembankError, ValueError)), writing_operation(
            load_settings(tmp_path / "rc", fixed_clock="garbage"), "bootstrap") as operation:
        bootstrap_memory(operation)
    assert not (tmp_path / "rc").exists()


def test_MB3_times_are_normalized_to_utc_prefixes() -> None:
    from tasks.store.names import utc_prefix

    assert utc_prefix("2026-03-24T22:40:05") == "2026-03-24T22-40-05Z"
    assert utc_prefix("2026-03-25T02:10:07.1689810Z") == "2026-03-25T02-10-07Z"
    assert utc_prefix("2026-03-24T22:40:05+02:00") == "2026-03-24T20-40-05Z"


def test_MB5_file_names_carry_the_prefix_and_a_meaningful_slug(tmp_path: Path) -> None:
    root = _healthy(tmp_path)
    (root / "wiki/concepts/no-prefix-page.md").write_text(
        "---\ncreated_at: '2026-01-10T08:00:00Z'\nupdated_at: '2026-01-10T08:00:00Z'\n"
        "utc_datetime_prefix: '2026-01-10T08-00-00Z'\ntype: concept\ndescription: A page.\n"
        "child_of: [wiki/concepts/index.md]\n---\n\n# No prefix\n", encoding="utf-8")
    assert "misnamed_file" in _findings_all(root)


def test_MB6_MB40_pages_carry_valid_time_keys(tmp_path: Path) -> None:
    root = _healthy(tmp_path)
    rel = f"sessions/{PREFIX}__clock-session.md"
    (root / rel).write_text("---\ncreated_at: '2026-03-20T10:00:00Z'\nupdated_at: "
                            "'2026-03-19T10:00:00Z'\nutc_datetime_prefix: '2026-03-20T10-00-00Z'\n"
                            "---\n\n# Clock\n", encoding="utf-8")
    assert ("invalid_frontmatter", rel) in _findings(root, check=True)


def test_MB8_MB9_MB31_created_at_is_kept_and_updated_at_refreshed(tmp_path: Path) -> None:
    from tasks.store.page_writes import write_page
    from tasks.store.pages import new_page_meta

    path = tmp_path / "page.md"
    meta = new_page_meta(NOW, type="concept", title="Retry", description="Retries.")
    write_page(path, meta, "# Retry\n\nThree times.\n", now_iso=NOW)
    first = split_page(path.read_text()).meta
    assert first["created_at"] == first["updated_at"] == NOW
    later = "2026-03-25T09:00:00Z"
    write_page(path, dict(first), "# Retry\n\nFive times.\n", now_iso=later)
    second = split_page(path.read_text()).meta
    assert (second["created_at"], second["updated_at"]) == (NOW, later)


def test_MB10_MB22_bootstrap_creates_the_tree_once(tmp_path: Path) -> None:
    from tests.tasks.memstores.store_fixtures import tree_digest

    root = tmp_path / "mem"
    with writing_operation(_settings(root), "bootstrap") as operation:
        bootstrap_memory(operation)
    for folder in ("raw/assets", "wiki/entities", "wiki/concepts", "wiki/sources", "wiki/synthesis",
                   "infrastructure/decisions", "sessions", "plans", "executions", "errors",
                   "architecture/decisions", "agents/handoffs"):
        assert (root / folder).is_dir(), folder
    for name in ("index.md", "log.md", PROJECT_CONTEXT_FILE, "context/knowledge-graph.index.jsonc",
                 "context/entity-registry.jsonc"):
        assert (root / name).is_file(), name
    def memory(digest: dict[str, tuple[str, int]]) -> dict[str, tuple[str, int]]:
        return {k: v for k, v in digest.items() if not k.startswith(".membank")}  # the lock

    before = memory(tree_digest(root))
    with writing_operation(_settings(root), "bootstrap") as operation:
        again = bootstrap_memory(operation)
    assert [a for a in again.artifacts if a.action != "unchanged"] == []
    assert memory(tree_digest(root)) == before


def test_MB11_raw_sources_are_never_modified(tmp_path: Path) -> None:
    import os

    from tests.memory_builder import RAW

    root = _healthy(tmp_path)
    os.chmod(root / RAW, 0o644)
    with (root / RAW).open("a", encoding="utf-8") as handle:
        handle.write("one more line\n")
    assert "raw_hash_mismatch" in _error_codes(root)


def _edit_graph(root: Path, edit: object) -> None:
    import json

    graph_file = root / "context/knowledge-graph.index.jsonc"
    graph = json.loads(graph_file.read_text(encoding="utf-8"))
    assert callable(edit)
    edit(graph)
    graph_file.write_text(json.dumps(graph, indent=2), encoding="utf-8")


def test_MB16_MB45_the_graph_has_the_contracts_field_names(tmp_path: Path) -> None:
    graph = _graph(_healthy(tmp_path))
    assert {"graphGeneratedAtUtc", "entities", "relations"} <= set(graph)
    entity = graph["entities"][0]
    assert {"entityName", "entityType", "observations"} <= set(entity)


def test_MB17_MB18_MB46_duplicates_are_merged_first_seen_and_sorted(tmp_path: Path) -> None:
    root = _healthy(tmp_path)

    def duplicate(graph: dict[str, list[dict[str, object]]]) -> None:
        twin = dict(graph["entities"][0])
        twin["entityName"] = f"  {str(twin['entityName']).upper()} "
        graph["entities"].append(twin)

    _edit_graph(root, duplicate)
    assert "graph_not_normalized" in _findings_all(root)
    _findings(root, check=False)  # reconcile repairs it
    graph = _graph(root)
    names = [e["entityName"].strip().lower() for e in graph["entities"]]
    assert names == sorted(set(names))
    assert "graph_not_normalized" not in _findings_all(root)


def test_MB19_MB20_required_keys_and_meaningful_names(tmp_path: Path) -> None:
    root = _healthy(tmp_path)

    def break_it(graph: dict[str, object]) -> None:
        entities = graph["entities"]
        assert isinstance(entities, list)
        entities[0]["entityName"] = "data"

    _edit_graph(root, break_it)
    assert "invalid_context_file" in _error_codes(root)
    _edit_graph(root, lambda graph: graph.pop("relations"))
    assert "invalid_context_file" in _error_codes(root)


def test_MB23_MB25_MB26_retrieve_reads_in_the_contracts_order(historian_root: Path) -> None:
    with reading_operation(_settings(historian_root), "retrieve") as operation:
        report = retrieve(operation, "switch the memory store to WAL mode")
    read = report.packet.paths_read
    order = [read.index(p) for p in ("index.md", PROJECT_CONTEXT_FILE,
                                     f"sessions/{PREFIX}__wal-switch-session.md",
                                     "context/knowledge-graph.index.jsonc")]
    assert order == sorted(order)
    assert any(p.startswith(("plans/", "executions/")) for p in read)
    assert report.packet.latest_session is not None


def test_MB29_the_packet_keeps_its_token_budget(historian_root: Path) -> None:
    from tasks.search.query import QueryError

    with reading_operation(_settings(historian_root), "retrieve") as operation:
        report = retrieve(operation, "switch the memory store to WAL mode", budget_tokens=200)
        assert report.packet.tokens_used <= 200 and report.packet.truncated
        with pytest.raises(QueryError, match="at least 200"):
            retrieve(operation, "WAL", budget_tokens=0)


def test_MB32_a_repeated_proposal_is_a_dedupe_hit(tmp_path: Path) -> None:
    from tasks.proposals.apply import process_proposals
    from tests.proposal_fixtures import proposal, proposal_markdown, seed_memory

    root = tmp_path / "mem"
    seed_memory(root)
    source = tmp_path / "c.md"
    source.write_text(proposal_markdown(proposal()), encoding="utf-8")
    with writing_operation(_settings(root), "propose") as operation:
        process_proposals(operation, [source])
    with writing_operation(_settings(root), "propose") as operation:
        again = process_proposals(operation, [source])
    assert [a.action for a in again.artifacts][:1] == ["dedupe_hit"]


def test_MB38_MB48_reconcile_emits_the_health_summary_and_the_report_fields(tmp_path: Path) -> None:
    root = _healthy(tmp_path)
    from tasks.health.files import write_health

    with writing_operation(_settings(root), "reconcile") as operation:
        report, summary = reconcile_memory(operation, check=False)
        written = write_health(root, summary)
    for name in ("context/health/latest.json", "context/health/latest-reconcile.json",
                 "context/health/membank-reconcile.prom"):
        assert (root / name).is_file(), written
    fields = report.model_dump()
    for key in ("mode", "project", "status", "memory_write_timestamp_utc", "utc_datetime_prefix",
                "artifacts", "graph_delta", "memory_health"):
        assert key in fields, key
    assert set(fields["graph_delta"]) >= {"entities_added_count", "relations_added_count",
                                          "observations_added_count", "superseded_records_count"}
    assert {"index_synced", "consistency_warnings"} <= set(fields["memory_health"])


def test_MB42_index_md_reflects_every_record(tmp_path: Path) -> None:
    root = _healthy(tmp_path)
    rel = f"sessions/{PREFIX}__unlisted-session.md"
    (root / rel).write_text(THREE_KEYS + "# Unlisted\n", encoding="utf-8")
    assert ("index_missing_entry", "index.md") in _all_findings(root)
    _findings(root, check=False)
    assert rel in (root / "index.md").read_text(encoding="utf-8")
    assert [c for c, p in _all_findings(root) if p in (rel, "index.md")] == []


def _all_findings(root: Path) -> list[tuple[str, str | None]]:
    with reading_operation(_settings(root), "reconcile") as operation:
        _report, summary = reconcile_memory(operation, check=True)
    return [(f.code, f.path) for f in summary.findings]


def test_MB47_a_changed_fact_is_superseded_and_linked_not_erased(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    _ingest_note(root, tmp_path / "src", "uploader.md", "Uploads retry three times", NOW)
    _ingest_note(root, tmp_path / "src", "uploader.md", "Uploads retry five times",
                 "2026-03-25T09:00:00Z")
    entity = next(e for e in _graph(root)["entities"]
                  if e["entityName"] == "Billing service")
    assert any("five times" in o for o in entity["observations"])
    [old] = entity["supersededObservations"]
    assert "three times" in old["observation"] and old["supersededBy"]


def test_MB51_log_md_is_append_only(tmp_path: Path) -> None:
    root = _healthy(tmp_path)
    _findings(root, check=False)  # reconcile records the log's baseline
    log = root / "log.md"
    text = log.read_text(encoding="utf-8")
    lines = text.splitlines()
    entry = next(i for i, line in enumerate(lines) if line.startswith("- "))
    lines[entry] = lines[entry] + " (edited)"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "log_rewritten" in _findings_all(root)


def test_MB21_a_write_is_atomic_temp_file_reparse_replace(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.store import atomic
    from tasks.store.errors import MembankError

    target = tmp_path / "context" / "knowledge-graph.index.jsonc"
    target.parent.mkdir()
    atomic.atomic_write_text(target, '{"graphGeneratedAtUtc": "x", "entities": [], "relations": []}\n')
    before = target.read_bytes()
    with pytest.raises(MembankError):  # re-parse first: a broken document never replaces it
        atomic.atomic_write_text(target, '{"entities": [')

    def crash(source: object, dest: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.fs, "replace", crash)
    with pytest.raises((OSError, MembankError)):
        atomic.atomic_write_text(target, '{"graphGeneratedAtUtc": "y", "entities": [], '
                                         '"relations": []}\n')
    assert target.read_bytes() == before  # the old file, whole
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no temp left


def test_MB14_names_resolve_through_the_registry_trimmed_and_lower_cased(tmp_path: Path) -> None:
    from tasks.distill.apply import distill_memory
    from tasks.ingest import apply_ingest, collect_inputs, prepare_batch

    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "memory-writer.md").write_text(
        "---\nentity: Memory Writer\naliases: [writer agent]\n---\n\n# Memory Writer\n\n"
        "- [fact] Applies every change under one lock\n", encoding="utf-8")
    (folder / "writer-notes.md").write_text(
        "---\nentity: '  WRITER AGENT '\n---\n\n# Writer notes\n\n"
        "- [fact] Retries a held lock twice\n", encoding="utf-8")
    root = tmp_path / "mem"
    _ingest(root, [folder / "memory-writer.md"])
    settings = load_settings(root, fixed_clock="2026-03-25T09:00:00Z", search_semantic=False)
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([folder / "writer-notes.md"])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)
    entities = {e["entityName"]: e for e in _graph(root)["entities"]}
    assert not any(name.strip().lower() == "writer agent" for name in entities)
    assert any("Retries a held lock twice" in o for o in entities["Memory Writer"]["observations"])


def test_MB4_every_memory_file_name_starts_with_the_prefix(tmp_path: Path) -> None:
    """The contract exempts index.md, log.md and context/; hub pages are `<folder>/index.md`
    (the same structural name), shards are `shard-NNN.md` in a folder carrying their index
    page's prefixed stem, and proposals/ is agents' intake, not memory."""
    import re

    from tasks.proposals.apply import process_proposals
    from tests.proposal_fixtures import proposal, proposal_markdown
    from tests.tasks.memstores.pipeline import ingest_and_distill

    root = tmp_path / "mem"
    ingest_and_distill(root, [Path(__file__).resolve().parents[2] / "raw-samples"])
    source = tmp_path / "c.md"
    source.write_text(proposal_markdown(proposal()), encoding="utf-8")
    with writing_operation(_settings(root), "propose") as operation:
        process_proposals(operation, [source])
    prefixed = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z__[a-z0-9][a-z0-9-]*\.[a-z0-9.]+$")
    exempt_tops = ("context", "proposals", ".membank")
    names = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if (path.is_dir() or rel.split("/")[0] in exempt_tops
                or path.name in ("index.md", "log.md")):
            continue
        if "/shards/" in rel:
            assert re.fullmatch(r"shard-\d{3}\.md", path.name), rel
            assert prefixed.match(path.parent.name + ".md"), rel
            continue
        names.append(rel)
        assert prefixed.match(path.name), rel
    assert any(n.startswith("wiki/synthesis/") for n in names) and len(names) > 20


def test_MB24_a_hand_written_plan_is_read_before_any_reconcile(tmp_path: Path) -> None:
    root = _healthy(tmp_path)
    with reading_operation(_settings(root), "retrieve") as operation:
        retrieve(operation, "warm up the search index")
    rel = f"plans/{PREFIX}__lantern-rollout-plan.md"
    (root / rel).write_text(THREE_KEYS + "# Lantern rollout\n\n1. Ship the lantern beacon.\n",
                            encoding="utf-8")
    with reading_operation(_settings(root), "retrieve") as operation:
        report = retrieve(operation, "ship the lantern beacon rollout")
    assert rel in [p.path for p in report.packet.plans_and_executions]
    assert not report.packet.warnings


def test_MB49_every_command_can_print_the_contracts_markdown(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from flows.cli.app import app
    from schemas.report import MemoryOperationReport

    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", NOW)
    monkeypatch.setenv("MEMBANK_OUTPUT_FORMAT", "markdown")
    result = CliRunner().invoke(app, ["init", "--root", str(tmp_path / "mem")])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("## Memory Operation\n- mode: bootstrap\n")
    assert "## Graph Delta" in result.stdout and "## Memory Health" in result.stdout
    propose = MemoryOperationReport(mode="propose", project="p", memory_write_timestamp_utc=NOW,
                                    utc_datetime_prefix="2026-03-24T22-40-05Z")
    assert "- mode: update\n- operation: propose\n" in propose.to_markdown()


def test_MB33_an_update_writes_index_md_after_the_records_it_lists(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.proposals.apply import process_proposals
    from tasks.store import atomic
    from tests.proposal_fixtures import proposal, proposal_markdown, seed_memory

    root = tmp_path / "mem"
    seed_memory(root)
    source = tmp_path / "c.md"
    source.write_text(proposal_markdown(proposal()), encoding="utf-8")
    renamed: list[str] = []
    replace = atomic.fs.replace

    def record(source_path: str | Path, target: str | Path) -> None:
        renamed.append(Path(target).resolve().relative_to(root.resolve()).as_posix())
        replace(source_path, target)

    monkeypatch.setattr(atomic.fs, "replace", record)
    with writing_operation(_settings(root), "propose") as operation:
        report = process_proposals(operation, [source])
    [page] = [a.path for a in report.artifacts if a.action == "created"]
    records = [p for p in renamed if p.startswith(("wiki/", "sessions/", "plans/"))]
    assert page in records and "wiki/synthesis/index.md" in records
    assert renamed.index("index.md") > max(renamed.index(p) for p in records)
