"""spec/memory-bank.md, row by row (issue 25): each test is named after the seed audit's row
(../shared/reviews/seed-audit-2026-12-01.md) and does what the row tried."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.bootstrap import bootstrap_memory
from tasks.reconcile import reconcile_memory
from tasks.search.retrieve import retrieve
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
    summary = stage.model_copy(update={"mode": "run", "artifacts": [], "stages": [stage]})
    from tasks.store.operation import combine_stages

    assert _summary_line(combine_stages(summary)) == "1 created"


def _ingest_note(root: Path, folder: Path, name: str, fact: str, now: str) -> None:
    from tasks.distill import distill_memory
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
    from tasks.distill import distill_memory
    from tasks.ingest import apply_ingest, collect_inputs, prepare_batch

    settings = load_settings(root, fixed_clock=NOW, search_semantic=False)
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([folder / "postmortem.md"])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)
    assert not [c for c in _findings_all(root) if c == "conflicting_observations"]


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
