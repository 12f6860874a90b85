"""spec/memory-custodian.md, row by row (issue 25): each test is named after the seed audit's
row (../shared/reviews/seed-audit-2026-12-01.md) and does what the row tried."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from schemas.search import RetrievalReport, RoutedFile, RoutingRequest
from tasks.search.retrieve import retrieve
from tasks.search.routing import raw_assets, route_custodian
from tasks.search.show import show
from tasks.store.globs import glob_matches
from tasks.store.layout import MemoryLayout
from tasks.store.operation import reading_operation
from tasks.store.settings import load_settings
from tests.tasks.memstores.pipeline import ingest_and_distill
from tests.tasks.memstores.store_fixtures import FIXTURES


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("custodian")
    repo = base / "repoA"
    shutil.copytree(FIXTURES / "custodian", repo)
    ingest_and_distill(base / "mem", [repo])
    return base / "mem"


def _retrieve(root: Path, task: str, *, include_archive: bool = False,
              routing: RoutingRequest | None = None) -> RetrievalReport:
    settings = load_settings(root, fixed_clock="2026-03-24T22:40:05Z", search_semantic=False)
    with reading_operation(settings, "retrieve") as operation:
        return retrieve(operation, task, include_archive=include_archive, routing=routing)


def _routed(root: Path, task: str = "fix the sync retry loop", **inputs: object) -> RetrievalReport:
    return _retrieve(root, task, routing=RoutingRequest.model_validate(inputs))


def _files(report: RetrievalReport) -> dict[str, RoutedFile]:
    assert report.packet.routing is not None
    return {f.file: f for f in report.packet.routing.files}


def _root_of(tmp_path: Path, *edits: dict[str, str | None]) -> Path:
    """A memory root ingesting one copy of the custodian fixture per `edits`, each with files
    replaced (text) or removed (None)."""
    repos = []
    for n, edit in enumerate(edits):
        repo = tmp_path / f"repo{n}"
        shutil.copytree(FIXTURES / "custodian", repo)
        repos.append(repo)
        for rel, text in edit.items():
            target = repo / "docs" / "memory" / rel
            if text is None:
                target.unlink()
            else:
                target.write_text(text, encoding="utf-8")
    ingest_and_distill(tmp_path / "mem", repos)
    return tmp_path / "mem"


MANIFEST_TEXT = (FIXTURES / "custodian" / "docs" / "memory" / "manifest.md").read_text()


def test_MC8_a_rejected_approach_is_a_failure_prevention_not_a_forgotten_topic(root: Path) -> None:
    report = _retrieve(root, "store user sessions in Redis")
    preventions = " ".join(p.text for p in report.packet.failure_preventions)
    assert "Do not use Redis session storage" in preventions, report.packet_markdown
    assert "cannot depend on a server process" in preventions


def test_MC6_archive_entries_are_never_primed_unless_asked(root: Path) -> None:
    archived = "[MC-DEC-20250601-a1000007] Release with make release"  # archive/decisions-2025.md
    report = _retrieve(root, "how do we cut a release")
    assert "Release from tags only" in report.packet_markdown  # the current decision
    assert archived not in report.packet_markdown
    assert archived in _retrieve(root, "how do we cut a release", include_archive=True).packet_markdown


def test_MC3_retrieve_takes_the_contracts_routing_inputs_and_routes_by_the_manifest(root: Path) -> None:
    report = _routed(root, category="implementation", paths=["src/sync/engine.ts"])
    files = _files(report)
    loaded = [f for f, item in files.items() if item.disposition == "loaded"]
    assert loaded == ["brief.md", "constraints.md", "decisions.md", "do-not-use.md",
                      "preferences.md", "areas/sync.md"]
    assert files["brief.md"].reasons == ["MC-ROUTE-ALWAYS"]
    assert files["decisions.md"].reasons == ["MC-ROUTE-TASK"]
    assert files["areas/sync.md"].details == ["src/sync/engine.ts <- src/sync/**"]
    assert files["inbox.md"].disposition == "skipped"  # maintenance only
    assert report.packet.routing is not None and report.packet.routing.status == "COMPLETE"
    assert report.packet.routing.approved and report.exit_code() == 0
    area = [e.entry_id for e in files["areas/sync.md"].entries]
    assert area == ["MC-AREA-20260105-b6000003", "MC-AREA-20251201-b6000001"]  # active only
    assert "[MC-AREA-20251201-b6000001] Bounded retries" in report.packet_markdown
    artifact = _files(_routed(root, category="artifact", areas=["sync"]))
    assert artifact["rules/output.md"].disposition == "loaded"
    assert artifact["areas/sync.md"].reasons == ["MC-ROUTE-EXPLICIT-AREA"]
    assert artifact["decisions.md"].reasons == ["MC-SKIP-TASK-MISMATCH"]


def test_MC3_the_python_api_passes_the_routing_inputs(root: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from membank import Memory

    monkeypatch.setenv("MEMBANK_SEARCH_SEMANTIC", "false")
    report = Memory(root).retrieve("tidy the docs", category="artifact", areas=["sync"],
                                   strict_routing=True)
    assert report.packet.routing is not None and report.packet.routing.status == "COMPLETE"
    assert report.packet.routing.request.strict


def test_MC4_routing_never_ranks_the_task_words_into_custodian_files(root: Path) -> None:
    # The task's prose names the sync area and Redis: no path, no area, so no area is loaded,
    # and custodian entries reach the packet only through the manifest's routes.
    report = _routed(root, "rewrite the sync engine retries, maybe with Redis sessions",
                     category="preferences")
    files = _files(report)
    assert files["areas/sync.md"].disposition == "skipped"
    assert [f for f, item in files.items() if item.disposition == "loaded"] == [
        "brief.md", "constraints.md", "preferences.md"]
    ranked = report.packet_markdown.split("- ranked search:", 1)[1]
    assert "MC-AREA-" not in ranked and "MC-DNU-" not in ranked and "MC-SUBJ-" not in ranked
    assert not report.packet.failure_preventions  # the Redis rejection lives in do-not-use.md
    unrouted = _retrieve(root, "rewrite the sync engine retries, maybe with Redis sessions")
    assert "MC-AREA-20251201-b6000001" in unrouted.packet_markdown  # ranked search, as before
    again = _routed(root, "something else entirely", category="preferences")
    assert _files(again) == files  # the same inputs route the same files, whatever the words


def test_MC5_missing_scope_is_INCOMPLETE_and_strict_routing_refuses_it(root: Path) -> None:
    report = _routed(root, category="implementation", explain=True)
    routing = report.packet.routing
    assert routing is not None and routing.status == "INCOMPLETE"
    assert routing.incomplete == ["area-path-scope"] and not routing.approved
    assert _files(report)["areas/sync.md"].reasons == ["MC-SKIP-SCOPE-MISSING"]
    assert "- skipped: areas/sync.md (MC-SKIP-SCOPE-MISSING)" in report.packet_markdown
    assert report.status == "success"  # reported, not refused, without --strict-routing
    strict = _routed(root, category="implementation", strict=True)
    assert strict.status == "partial" and strict.exit_code() == 1
    assert any("not approved" in w for w in strict.memory_health.consistency_warnings)
    no_match = _routed(root, category="implementation", paths=["src/ui/app.ts"])
    assert _files(no_match)["areas/sync.md"].reasons == ["MC-SKIP-NO-PATH-MATCH"]
    assert no_match.packet.routing is not None and no_match.packet.routing.status == "COMPLETE"
    undeclared = _routed(root, category="implementation", areas=["billing"])
    assert _files(undeclared)["areas/billing.md"].disposition == "missing-optional"
    assert undeclared.packet.routing is not None
    assert undeclared.packet.routing.status == "INCOMPLETE"


@pytest.mark.parametrize(("inputs", "cause"), [
    ({"category": "chores"}, "'chores' is not one of"),
    ({"paths": ["src/sync/a.ts"]}, "no task category"),
    ({"category": "implementation", "paths": ["../outside.ts"]}, "not a repo-relative path"),
    ({"category": "implementation", "paths": ["/abs/a.ts"]}, "not a repo-relative path"),
])
def test_MC5_invalid_routing_inputs_are_INVALID(root: Path, inputs: dict[str, object],
                                                cause: str) -> None:
    report = _retrieve(root, "fix the sync retry loop",
                       routing=RoutingRequest.model_validate({**inputs, "strict": True}))
    routing = report.packet.routing
    assert routing is not None and routing.status == "INVALID" and not routing.approved
    assert cause in routing.files[0].details[0] and routing.files[0].reasons == ["MC-ROUTE-INVALID"]
    assert report.status == "failed"


def test_MC5_a_tree_without_manifest_is_INVALID_routes_are_not_inferred(root: Path) -> None:
    layout = MemoryLayout(root)
    stored = [a for a in raw_assets(layout) if a.storeRole != "custodian:manifest.md"]
    routing = route_custodian(layout, stored, RoutingRequest(category="planning", areas=["sync"]))
    assert routing.status == "INVALID" and "no manifest.md" in routing.warnings[0]
    assert [f.disposition for f in routing.files] == ["invalid"]  # nothing loaded


@pytest.mark.parametrize(("manifest", "cause"), [
    ("# Memory Manifest\n\n## MemoryCustodian Protocol\n- protocol_version: 0.7\n",
     "declares no routes"),
    (MANIFEST_TEXT.replace("activation: path-or-explicit", "activation: sometimes"),
     "activation 'sometimes'"),
])
def test_MC5_a_manifest_without_usable_routes_is_INVALID(tmp_path: Path, manifest: str,
                                                          cause: str) -> None:
    report = _routed(_root_of(tmp_path, {"manifest.md": manifest}), category="planning",
                     areas=["sync"])
    routing = report.packet.routing
    assert routing is not None and routing.status == "INVALID" and cause in routing.warnings[0]
    assert report.status == "partial"


def test_MC5_two_custodian_trees_or_two_task_headings_are_AMBIGUOUS(tmp_path: Path) -> None:
    other = MANIFEST_TEXT + "\n<!-- the second project's manifest -->\n"
    two = _routed(_root_of(tmp_path / "a", {}, {"manifest.md": other}), category="planning",
                  areas=["sync"])
    assert two.packet.routing is not None and two.packet.routing.status == "AMBIGUOUS"
    assert two.packet.routing.files[0].reasons == ["MC-ROUTE-AMBIGUOUS"]
    twice = MANIFEST_TEXT.replace("### Memory maintenance",
                                  "### Planning\nLoad:\n- inbox.md\n\n### Memory maintenance")
    heads = _routed(_root_of(tmp_path / "b", {"manifest.md": twice}), category="planning",
                    areas=["sync"])
    assert heads.packet.routing is not None and heads.packet.routing.status == "AMBIGUOUS"
    assert "several Load by task headings" in heads.packet.routing.warnings[0]


def test_MC5_two_active_owners_block_the_packet(tmp_path: Path) -> None:
    decisions = (FIXTURES / "custodian" / "docs" / "memory" / "decisions.md").read_text()
    rival = ("## MC-DEC-20260302-a10000ff — Support Python 3.12+\n\nStatus: active\n"
             "Scope: project\nSubject: MC-SUBJ-20250610-1a2b3c4d\nFacet: version-policy\n"
             "Evidence:\n- user-confirmed\n\nDecision:\nSupport Python 3.12 and newer.\n\n")
    root = _root_of(tmp_path, {"decisions.md": decisions.replace(
        "## MC-DEC-20260301-a1000001", rival + "## MC-DEC-20260301-a1000001", 1)})
    report = _routed(root, category="planning", areas=["sync"])
    routing = report.packet.routing
    assert routing is not None and routing.status == "COMPLETE"
    assert routing.blocked and not routing.approved
    assert "MC-DEC-20260301-a1000001" in " ".join(routing.warnings)
    assert report.status == "partial"
    assert _routed(root, category="planning", areas=["sync"], strict=True).status == "failed"
    preferences = _routed(root, category="preferences")  # decisions.md not loaded: no conflict
    assert preferences.packet.routing is not None and not preferences.packet.routing.blocked


def test_MC5_path_globs_match_by_segments() -> None:
    assert glob_matches("src/sync/**", "src/sync/engine.ts")
    assert glob_matches("src/sync/**", "src/sync/deep/er/x.ts")
    assert glob_matches("src/*/x.ts", "src/sync/x.ts")
    assert not glob_matches("src/*/x.ts", "src/a/b/x.ts")
    assert not glob_matches("src/sync/**", "src/synchro/x.ts")
    assert glob_matches("docs/**/index.md", "docs/index.md")


def test_MC37_show_resolves_an_entry_id_as_it_resolves_a_subject_id(root: Path) -> None:
    layout = MemoryLayout(root)
    by_subject = show(layout, "MC-SUBJ-20250610-1a2b3c4d")
    by_entry = show(layout, "MC-DEC-20260301-a1000001")
    assert by_entry.kind == "entity" and by_subject.kind == "entity"
    assert by_entry.name == by_subject.name == "Python runtime"
    assert by_entry.store_entry is not None
    assert by_entry.store_entry["storeRecord"]["entryId"] == "MC-DEC-20260301-a1000001"
    retired = show(layout, "MC-DEC-20250801-a1000002")  # a superseded entry resolves too
    assert retired.kind == "entity" and retired.store_entry is not None
    assert retired.store_entry["supersededBy"] == "MC-DEC-20260301-a1000001"


def test_MC37_status_list_and_subject_list_are_served_read_only() -> None:
    import json

    from typer.testing import CliRunner

    from flows.cli.app import app
    from tests.tasks.memstores.store_fixtures import tree_digest

    before = tree_digest(FIXTURES)
    runner = CliRunner()
    status = runner.invoke(app, ["custodian", "status", str(FIXTURES / "custodian-broken")])
    assert status.exit_code == 0, status.output
    lines = status.stdout.splitlines()
    assert lines[0].endswith("custodian-broken/docs/memory: protocol 0.7")
    assert "preferences.md: 90/100 tokens (90 %) NEAR LIMIT" in lines
    assert any(x.endswith("OVER BUDGET") for x in lines)
    listed = runner.invoke(app, ["custodian", "list", str(FIXTURES / "custodian"), "--status",
                                 "active", "--json"])
    entries = json.loads(listed.stdout)["entries"]
    assert len(entries) == 15 and {e["status"] for e in entries} == {"active"}
    assert entries[5] == {"id": "MC-DEC-20260301-a1000001", "status": "active", "type": "DEC",
                          "scope": "project", "subject": "MC-SUBJ-20250610-1a2b3c4d",
                          "facet": "version-policy", "file": "decisions.md", "line": 5,
                          "title": "Support Python 3.11+"}
    subjects = runner.invoke(app, ["custodian", "subjects", str(FIXTURES / "custodian")])
    assert subjects.stdout.splitlines()[0] == (
        "MC-SUBJ-20250610-1a2b3c4d  active  dependency  Python runtime  (aliases: Python, CPython)")
    assert len(subjects.stdout.splitlines()) == 6
    missing = runner.invoke(app, ["custodian", "status", str(FIXTURES / "mem")])
    assert missing.exit_code == 2 and "no MemoryCustodian memory directory" in missing.stderr
    assert tree_digest(FIXTURES) == before

def test_MC3_the_mcp_retrieve_tool_passes_the_routing_inputs(root: Path) -> None:
    import asyncio
    import json

    from flows.mcp.server import build_server
    from flows.surface import Surface

    settings = load_settings(root, fixed_clock="2026-03-24T22:40:05Z", search_semantic=False)
    server = build_server(Surface(root, settings=settings))
    result = asyncio.run(server.call_tool("memory_retrieve", {
        "task": "fix retries", "category": "implementation", "paths": ["src/sync/a.ts"],
        "strict_routing": True, "explain": True}))
    routing = json.loads(result.content[0].text)["packet"]["routing"]
    assert routing["status"] == "COMPLETE" and routing["approved"]
    assert routing["request"] == {"category": "implementation", "paths": ["src/sync/a.ts"],
                                  "areas": [], "strict": True, "explain": True}
    loaded = {f["file"]: f["reasons"] for f in routing["files"] if f["disposition"] == "loaded"}
    assert loaded["areas/sync.md"] == ["MC-ROUTE-PATH"]


# --------------------------------------------------------------------------------------------
# Forgetting (MC27-MC34): `membank forget` with the custodian's guards (issue 25 item 5).

_WAL_ADR = """---
entity: Platform Team
entity_type: team
---

# Platform team notes

- [fact] Platform Team owns the memory store
- [decision] Platform Team opens the memory store in WAL mode
"""
_STORAGE_NOTES = """# Storage notes

The store runs in WAL mode since the second outage, which halved the lock waits.

| setting | value |
|---|---|
| journal_mode | WAL mode |

- [fact] Backups of the memory store run nightly
"""
_FORGET_NOW = "2026-03-25T09:00:00Z"


@pytest.fixture
def wal_root(tmp_path: Path) -> Path:
    """A memory root with a team note whose file is named after WAL (so the Platform Team page's
    `derived_from` path holds "wal") and storage notes naming WAL in prose and in a table."""
    from tests.tasks.privacy.forget_scenario import ingest_and_distill as ingest_notes

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "platform-wal-rollout.md").write_text(_WAL_ADR, encoding="utf-8")
    (notes / "storage-notes.md").write_text(_STORAGE_NOTES, encoding="utf-8")
    root = tmp_path / "mem"
    ingest_notes(root, notes, "2026-03-24T22:40:05Z")
    return root


def _forget(root: Path, topic: str, *, apply: bool = False, **guards: object):  # type: ignore[no-untyped-def]
    from tasks.privacy.forget import ForgetRequest, forget_operation
    from tasks.store.operation import writing_operation

    request = ForgetRequest(topic, **guards)  # type: ignore[arg-type]
    settings = load_settings(root, fixed_clock=_FORGET_NOW)
    if not apply:
        with reading_operation(settings, "forget") as operation:
            return forget_operation(operation, request, apply=False)
    with writing_operation(settings, "forget") as operation:
        return forget_operation(operation, request, apply=True)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".lock" not in p.name and "holder" not in p.name}


def _planned(report) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    rows: dict[str, list[str]] = {}
    for artifact in report.artifacts:
        if artifact.action == "planned":
            rows.setdefault(artifact.path, []).append(artifact.why)
    return rows


def test_MC27_the_plan_is_complete_and_changes_nothing(wal_root: Path) -> None:
    before = _snapshot(wal_root)
    report = _forget(wal_root, "WAL")
    assert _snapshot(wal_root) == before
    planned = _planned(report)
    assert any(p.startswith("wiki/sources/") and "wal-rollout" in p for p in planned)
    assert "context/knowledge-graph.index.jsonc" in planned and "context/tombstones.jsonc" in planned
    assert str(report.figures["next"]).startswith("nothing changed; to carry out this plan: "
                                                  f"--apply --confirm-plan {report.figures['plan']}")


def test_MC28_apply_takes_the_plan_hash_and_a_short_topic_needs_allow_broad_match(
        wal_root: Path) -> None:
    from tasks.store.errors import InputError

    digest = str(_forget(wal_root, "WAL").figures["plan"])
    before = _snapshot(wal_root)
    with pytest.raises(InputError, match="needs --confirm-plan HASH"):
        _forget(wal_root, "WAL", apply=True)
    with pytest.raises(InputError, match="is not the hash of this plan"):
        _forget(wal_root, "WAL", apply=True, confirm_plan="0" * 12)
    with pytest.raises(InputError, match="'WAL' is shorter than 5 characters"):
        _forget(wal_root, "WAL", apply=True, confirm_plan=digest)
    assert _snapshot(wal_root) == before  # every refusal changed nothing
    with pytest.raises(InputError, match="is not the hash of this plan"):  # another mode: another plan
        _forget(wal_root, "WAL", apply=True, confirm_plan=digest, mode="hard", allow_broad=True)
    done = _forget(wal_root, "WAL", apply=True, confirm_plan=digest, allow_broad=True)
    assert done.figures["applied"] is True and done.figures["plan"] == digest


def test_MC29_a_topic_matches_words_of_content_not_paths_in_metadata(wal_root: Path) -> None:
    from tasks.store.graph_store import load_graph, load_registry

    report = _forget(wal_root, "WAL")
    planned = _planned(report)
    [team_page] = [p for p in (wal_root / "wiki/entities").glob("*__platform-team.md")]
    assert "__platform-wal-rollout.md" in team_page.read_text(encoding="utf-8")  # derived_from
    rel = team_page.relative_to(wal_root).as_posix()
    assert planned[rel] == ["rewrite page: remove list item, lines 7-7"], planned[rel]  # one fact
    assert not [why for rows in planned.values() for why in rows if why.startswith("delete page")]
    digest = str(report.figures["plan"])
    _forget(wal_root, "WAL", apply=True, confirm_plan=digest, allow_broad=True)
    graph = load_graph(wal_root / "context/knowledge-graph.index.jsonc")
    [team] = [e for e in graph.entities if e.entityName == "Platform Team"]
    assert team.observations == ["[fact] Platform Team owns the memory store"]
    registry = load_registry(wal_root / "context/entity-registry.jsonc")
    assert "Platform Team" in {e.canonicalName for e in registry.entries}
    text = team_page.read_text(encoding="utf-8")
    assert "owns the memory store" in text and "WAL mode" not in text


def test_MC30_a_match_in_prose_or_a_table_needs_a_manual_rewrite_before_apply(wal_root: Path) -> None:
    from tasks.store.errors import InputError

    report = _forget(wal_root, "WAL mode")
    [notes] = [p for p in (wal_root / "wiki/sources").glob("*__storage-notes.md")]
    rel = notes.relative_to(wal_root).as_posix()
    rewrite = [w for w in _planned(report)[rel] if w.startswith("needs_rewrite")]
    assert len(rewrite) == 1 and "paragraph" in rewrite[0] and "table" in rewrite[0], rewrite
    # Its description, the summary quoting it, the paragraph and the table; the team note's
    # description and summary (a list item of its content is an entry: removed whole).
    assert report.figures["needs_rewrite"] == 6
    before = _snapshot(wal_root)
    with pytest.raises(InputError, match="6 unit.* need a manual rewrite"):
        _forget(wal_root, "WAL mode", apply=True, confirm_plan=str(report.figures["plan"]))
    assert _snapshot(wal_root) == before
    # Resolved by hand: the prose says the same without the topic, the table cell too.
    text = notes.read_text(encoding="utf-8")
    text = text.replace("The store runs in WAL mode since", "The store changed its journal after")
    text = text.replace("| journal_mode | WAL mode |", "| journal_mode | see the runbook |")
    notes.write_text(text, encoding="utf-8")
    [team] = [p for p in (wal_root / "wiki/sources").glob("*__platform-wal-rollout.md")]
    team.write_text(team.read_text(encoding="utf-8").replace(" in WAL mode", ""), encoding="utf-8")
    again = _forget(wal_root, "WAL mode")
    assert again.figures["needs_rewrite"] == 0 and again.figures["plan"] != report.figures["plan"]
    _forget(wal_root, "WAL mode", apply=True, confirm_plan=str(again.figures["plan"]))
    kept = notes.read_text(encoding="utf-8")
    assert "changed its journal after the second outage" in kept and "see the runbook" in kept


def test_MC30_allow_broad_match_removes_the_listed_units_whole(wal_root: Path) -> None:
    report = _forget(wal_root, "WAL mode")
    _forget(wal_root, "WAL mode", apply=True, confirm_plan=str(report.figures["plan"]),
            allow_broad=True)
    [notes] = [p for p in (wal_root / "wiki/sources").glob("*__storage-notes.md")]
    text = notes.read_text(encoding="utf-8")
    assert "WAL" not in text and "halved the lock waits" not in text and "journal_mode" not in text
    assert "Backups of the memory store run nightly" in text
    from tests.tasks.privacy.forget_scenario import grep, reconcile

    assert reconcile(wal_root, now=_FORGET_NOW, check=True).findings == []
    assert [p for p in grep(wal_root, "WAL mode") if not p.startswith("raw/")] == [
        "context/tombstones.jsonc"]  # soft: raw/ is immutable, the tombstone names it


def test_MC34_history_check_lists_git_commits_that_still_hold_it(wal_root: Path) -> None:
    import subprocess

    outside = _forget(wal_root, "WAL mode", history_check=True)
    assert str(outside.figures["history_check"]).startswith("unavailable: ")
    assert "unavailable is not a pass" in str(outside.figures["history_check"])
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "memory snapshot"]):
        subprocess.run(["git", "-C", str(wal_root), *args], check=True, capture_output=True,
                       env=env)
    report = _forget(wal_root, "WAL mode", history_check=True)
    assert str(report.figures["history_check"]).startswith("found: 1 commit(s)")
    [commit] = [a for a in report.artifacts if a.path.startswith("git commit ")]
    assert commit.action == "unchanged" and "memory snapshot" in commit.why
    assert _forget(wal_root, "Kubernetes", history_check=True).figures["history_check"] \
        .startswith("no-reachable-copy-detected")  # type: ignore[union-attr]


def test_MC31_soft_names_the_topic_hard_and_purge_keep_one_guard(wal_root: Path) -> None:
    import json

    from tasks.privacy.forget import topic_guard

    def stones_after(mode: str) -> list[dict[str, object]]:
        shown = _forget(wal_root, "WAL mode", mode=mode)
        _forget(wal_root, "WAL mode", apply=True, mode=mode, allow_broad=True,
                confirm_plan=str(shown.figures["plan"]))
        data = json.loads((wal_root / "context/tombstones.jsonc").read_text(encoding="utf-8"))
        return list(data["tombstones"])

    assert [s["topic"] for s in stones_after("soft")] == ["WAL mode"]
    guard = topic_guard("WAL mode")
    for mode in ("hard", "purge"):
        stones = stones_after(mode)
        assert [(s["topic"], s.get("topicSha256")) for s in stones] == [(f"sha256:{guard}", guard)]
        assert "WAL" not in json.dumps(stones)


def test_MC32_MC33_forgotten_content_does_not_come_back_and_the_boundary_is_stated(
        wal_root: Path) -> None:
    from tasks.distill.apply import distill_memory
    from tasks.ingest import collect_inputs, prepare_batch, write_ingest
    from tasks.store.operation import writing_operation
    from tests.tasks.privacy.forget_scenario import grep

    shown = _forget(wal_root, "WAL mode")
    done = _forget(wal_root, "WAL mode", apply=True, allow_broad=True,
                   confirm_plan=str(shown.figures["plan"]))
    boundary = str(done.figures["erasure_boundary"])
    assert "raw/ sources (immutable)" in boundary and "Not touched: git history, clones, forks" in boundary
    settings = load_settings(wal_root, fixed_clock="2026-03-26T09:00:00Z")
    inputs, problems = collect_inputs([wal_root.parent / "notes"])
    again = write_ingest(settings, prepare_batch(inputs, settings), problems)
    assert sorted(p.code for p in again.problems) == ["forgotten_source", "forgotten_source"]
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation, reread_all=True)
    assert [p for p in grep(wal_root, "WAL mode") if not p.startswith("raw/")] == [
        "context/tombstones.jsonc"]
# --- issue 25, developer `rows`: MC10, MC18, MC21/MC23 ------------------------------------------

DECISION_HEAD = "## MC-DEC-20260301-a1000001"


def _check(tree: Path) -> list[tuple[str, str]]:
    from tasks.memstores.check import audit_custodian, custodian_options

    settings = load_settings(fixed_clock="2026-03-24T22:40:05Z")
    audit = audit_custodian(tree, custodian_options(settings, "2026-03-24T22:40:05Z"))
    return [(f.code, f.message) for f in audit.findings if f.severity == "error"]


def _tree(tmp_path: Path, **files: str) -> Path:
    repo = shutil.copytree(FIXTURES / "custodian", tmp_path / "repo")
    for rel, text in files.items():
        target = repo / "docs" / "memory" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return repo / "docs" / "memory"


def test_MC10_a_scope_the_manifest_does_not_declare_is_reported(tmp_path: Path) -> None:
    decisions = (FIXTURES / "custodian/docs/memory/decisions.md").read_text(encoding="utf-8")
    tree = _tree(tmp_path, **{"decisions.md": decisions.replace("Scope: project", "Scope: galaxy", 1)})
    [(code, message)] = [f for f in _check(tree) if f[0] == "mc_invalid_scope"]
    assert "has Scope 'galaxy', not a scope of the manifest (project, area:sync, rule:output)" in message
    assert _check(FIXTURES / "custodian") == []  # project and area:sync are declared


BACKEND = ("# Backend\n\n## MC-AREA-20260301-b6000020 — Writes go through one queue\n\n"
           "Status: active\nScope: project\nSubject: MC-SUBJ-20250610-3c4d5e6f\nFacet: lifecycle\n"
           "Evidence:\n- user-confirmed\n\nDecision:\nAll storage writes go through one queue.\n")


def test_MC18_check_reachability_reports_active_entries_no_route_loads(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from flows.cli.app import app

    tree = _tree(tmp_path, **{"areas/backend.md": BACKEND})
    assert ("mc_entry_unreachable", "line 3: MC-AREA-20260301-b6000020 is active in "
            "areas/backend.md, which no manifest route or module loads [memory-custodian check "
            "--reachability: active invariants stay reachable from normal task loading]") in _check(tree)
    result = CliRunner().invoke(app, ["check", "custodian", str(tree), "--reachability"])
    assert result.exit_code == 1
    assert [line.split(": ")[1] for line in result.stdout.splitlines()[:-1]] == [
        "error mc_entry_unreachable"]
    clean = CliRunner().invoke(app, ["check", "custodian", str(FIXTURES / "custodian"),
                                     "--reachability"])
    assert clean.exit_code == 0, clean.stdout


def test_MC21_MC23_over_budget_files_add_no_memory_unless_allow_long(tmp_path: Path) -> None:
    from flows.ingest import custodian_budget_gate
    from tasks.ingest import collect_inputs

    long_reason = "The sync queue must keep every write in order. " * 20
    decisions = (FIXTURES / "custodian/docs/memory/decisions.md").read_text(encoding="utf-8")
    tree = _tree(tmp_path, **{"decisions.md": decisions.replace(
        "Decision:\n", f"Reason:\n{long_reason}\n\nDecision:\n", 1)})
    inputs, _ = collect_inputs([tree.parent.parent])
    settings = load_settings(tmp_path / "mem")
    kept, problems, warnings = custodian_budget_gate(inputs, settings)
    assert [(p.code, Path(p.file or "").name) for p in problems] == [
        ("custodian_over_budget", "decisions.md")]
    assert "decisions.md" not in {Path(i.path).name for i in kept}
    assert len(kept) == len(inputs) - 1
    allowed, none, said = custodian_budget_gate(inputs, settings.model_copy(
        update={"custodian_allow_long": True}))
    assert allowed == inputs and none == []
    assert any("ingested with --allow-long" in w for w in said)
    assert custodian_budget_gate(collect_inputs([FIXTURES / "custodian"])[0], settings)[1] == []


def test_MC16_a_promotion_names_an_entry_that_exists(tmp_path: Path) -> None:
    inbox = (FIXTURES / "custodian/docs/memory/inbox.md").read_text(encoding="utf-8")
    tree = _tree(tmp_path, **{"inbox.md": inbox.replace(
        "Promoted-To: MC-DEC-20260110-a1000003", "Promoted-To: MC-DEC-20991231-deadbeef")})
    assert [m for c, m in _check(tree) if c == "mc_dangling_link"] == [
        "line 26: MC-INBOX-20260201-99000002 is Promoted-To MC-DEC-20991231-deadbeef, which no "
        "entry has [memory-custodian: Supersedes / Superseded-By name an entry]"]


def test_MC2_every_entry_point_reports_a_tree_without_manifest() -> None:
    from tasks.ingest import collect_inputs
    from tasks.ingest.budget_gate import manifestless_warnings
    from tasks.memstores.check import audit_custodian, custodian_options

    options = custodian_options(load_settings(), "2026-03-24T22:40:05Z")
    every = audit_custodian(FIXTURES, options, every=True)
    assert [Path(s).parent.parent.name for s in every.stores] == [
        "custodian", "custodian-broken", "custodian-no-manifest"]
    assert "mc_manifest_missing" in {f.code for f in every.findings}
    docs = audit_custodian(FIXTURES / "custodian-no-manifest" / "docs", options)
    assert [f.code for f in docs.findings][:1] == ["mc_manifest_missing"]
    inputs, _ = collect_inputs([FIXTURES / "custodian-no-manifest"])
    [warning] = manifestless_warnings(inputs)
    assert "without manifest.md: an incomplete or corrupted setup" in warning
    assert manifestless_warnings(collect_inputs([FIXTURES / "custodian"])[0]) == []


# The rows the seed audit found working, re-run against the fixtures it used
# (tests/fixtures/stores: custodian, custodian-broken, custodian-no-manifest).

def _broken(code: str) -> list[str]:
    from tasks.memstores.check import audit_custodian, custodian_options

    options = custodian_options(load_settings(), "2026-03-24T22:40:05Z")
    audit = audit_custodian(FIXTURES / "custodian-broken", options)
    return [f.message for f in audit.findings if f.code == code]


def test_MC1_a_memory_directory_without_manifest_is_an_incomplete_setup() -> None:
    from tasks.memstores.check import audit_custodian, custodian_options

    audit = audit_custodian(FIXTURES / "custodian-no-manifest",
                            custodian_options(load_settings(), "2026-03-24T22:40:05Z"))
    assert [f.code for f in audit.findings] == ["mc_manifest_missing"] and audit.exit_code() == 1
    assert "routes are not inferred" in audit.findings[0].message


def test_MC9_the_memory_files_are_read() -> None:
    from tasks.memstores.check import audit_custodian, custodian_options

    audit = audit_custodian(FIXTURES / "custodian",
                            custodian_options(load_settings(), "2026-03-24T22:40:05Z"))
    assert audit.counts == {"entries": 22, "files": 11, "subjects": 6}


def test_MC10_active_entries_need_id_status_scope_and_admissible_evidence() -> None:
    for code in ("mc_invalid_entry_id", "mc_unknown_status", "mc_missing_field",
                 "mc_evidence_inadmissible", "mc_invalid_scope"):
        assert len(_broken(code)) == 1, code


def test_MC11_active_entries_need_an_active_subject_and_a_controlled_facet() -> None:
    assert len(_broken("mc_unknown_subject")) == 1
    assert "has Facet 'speed'" in _broken("mc_invalid_facet")[0]


def test_MC12_one_structural_owner_per_scope_subject_facet() -> None:
    [message] = _broken("mc_owner_conflict")
    assert "both active owners of project + MC-SUBJ-" in message


def test_MC13_alias_collisions_are_rejected() -> None:
    assert "repeats the alias 'sync'" in _broken("mc_subject_collision")[0]


def test_MC15_candidates_stay_in_inbox_and_inbox_holds_no_active_entry() -> None:
    assert len(_broken("mc_candidate_misplaced")) == 1


def test_MC17_supersession_is_marked_and_linked() -> None:
    for code in ("mc_supersedes_active", "mc_superseded_unlinked", "mc_dangling_link"):
        assert len(_broken(code)) == 1, code


def test_MC19_manifest_routes_name_files_that_exist() -> None:
    assert "routes to glossary.md, which does not exist" in _broken("mc_route_missing")[0]


def test_MC20_MC22_decision_and_file_budgets_are_counted() -> None:
    assert "tokens (title, Decision, Reason; at most 120)" in _broken("mc_decision_too_long")[0]
    assert _broken("mc_budget_near_limit")[0].startswith("NEAR LIMIT:")
    assert _broken("mc_budget_over")[0].startswith("OVER BUDGET:")


def test_MC24_checks_and_routing_never_write_into_the_memory_directory(root: Path) -> None:
    from tests.tasks.memstores.store_fixtures import tree_digest

    before = tree_digest(FIXTURES)
    _broken("mc_owner_conflict")
    _routed(root, category="implementation", paths=["src/sync/a.ts"])
    assert tree_digest(FIXTURES) == before


def test_MC35_entries_not_reviewed_within_the_window_are_stale() -> None:
    assert any("days ago (limit 365)" in m for m in _broken("mc_entry_stale"))


def test_MC7_inbox_candidates_never_reach_a_packet(root: Path) -> None:
    report = _retrieve(root, "attachment size limit for sync")
    assert "MC-INBOX-" not in report.packet_markdown
    routed = _routed(root, "attachment size limit for sync", category="implementation",
                     paths=["src/sync/a.ts"])
    assert "MC-INBOX-" not in routed.packet_markdown


def test_MC36_a_credential_in_custodian_memory_is_reported_masked() -> None:
    [message] = _broken("mc_secret_detected")
    assert message == ("line 86: Secret Keyword hun************ (15 chars): a credential in "
                       "project memory [memory-custodian check --security: no credentials in "
                       "memory]")
    assert "hunter2hunter2x" not in message



def _mc39(tree: Path) -> list[str]:
    from tasks.memstores.check import audit_custodian, custodian_options

    audit = audit_custodian(tree, custodian_options(load_settings(), "2026-03-24T22:40:05Z"))
    return [f"{f.severity} {f.code}: {f.message}" for f in audit.findings
            if f.code.startswith(("mc_agent", "mc_brief"))]


def test_MC39_entry_files_stay_short_and_brief_is_about_the_project(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from flows.cli.app import app

    assert _mc39(FIXTURES / "custodian-broken") == [
        "warning mc_agent_file_too_long: AGENTS.md is 1236 tokens (at most 500): keep platform "
        "entry files short [memory-custodian: keep platform entry files (AGENTS.md, CLAUDE.md, "
        "GEMINI.md) short]",
        "warning mc_brief_scaffold: line 1: brief.md has 0 word(s) of project prose (fewer than 8) "
        "once placeholders, headings and lines about MemoryCustodian are set aside: still a "
        "scaffold [memory-custodian: brief.md is a curated project summary, not a generated "
        "scaffold]",
        "warning mc_brief_off_topic: line 5: brief.md names MemoryCustodian on 1 line(s): it "
        "summarizes the project, not the memory protocol [memory-custodian: keep brief.md about "
        "the project, not MemoryCustodian]"]
    tree = _tree(tmp_path)  # the project root is the folder holding docs/
    project = tree.parent.parent
    (project / "CLAUDE.md").write_text(
        "# Claude\n\nRead docs/memory/manifest.md, then docs/memory/brief.md.\n", encoding="utf-8")
    assert _mc39(tree) == []
    (project / "GEMINI.md").write_text("Use docs/memory. " * 200, encoding="utf-8")
    (tree / "brief.md").write_text("# Project Brief\n\nPurpose: <what the project is for>\n\n"
                                   "- TODO: system shape\n", encoding="utf-8")
    assert [x.split(":")[0] for x in _mc39(tree)] == ["warning mc_agent_file_too_long",
                                                      "warning mc_brief_scaffold"]
    result = CliRunner().invoke(app, ["check", "custodian", str(project)])
    assert result.exit_code == 1
    [line] = [x for x in result.stdout.splitlines() if "mc_agent_file_too_long" in x]
    assert line.startswith(f"{project / 'GEMINI.md'}: warning mc_agent_file_too_long: GEMINI.md is ")


def _conflicts(path: Path, *options: str) -> tuple[int, dict[str, Any]]:
    import json

    from typer.testing import CliRunner

    from flows.cli.app import app

    result = CliRunner().invoke(app, ["check", "custodian", str(path), "--conflicts", *options,
                                      "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_MC14_check_conflicts_reports_exact_structural_conflicts_only() -> None:
    code, document = _conflicts(FIXTURES / "custodian-broken")
    assert code == 1
    assert sorted(f["code"] for f in document["findings"]) == [
        "mc_duplicate_id", "mc_invalid_exception", "mc_invalid_reconciliation",
        "mc_owner_conflict", "mc_subject_collision", "mc_supersedes_active"]
    assert _conflicts(FIXTURES / "custodian") == (0, {
        "kind": "custodian", "stores": [str(FIXTURES / "custodian/docs/memory")],
        "counts": {"entries": 22, "files": 11, "subjects": 6}, "findings": []})


def test_MC14_merge_review_blocks_conflicts_and_review_needs_a_reconciliation(
        tmp_path: Path) -> None:
    from tests.tasks.memstores.merge_fixtures import (
        EXIT_CODES_DEC,
        EXIT_EDIT,
        RELEASE_DEC,
        RELEASE_EDIT,
        entry,
        record,
        two_sided_repo,
    )

    owners = two_sided_repo(tmp_path / "owners",
                            [("decisions.md", "", entry("MC-DEC-20260310-a1000020", "Sandbox"))],
                            [("decisions.md", "", entry("MC-DEC-20260311-a1000021", "Root"))])
    code, document = _conflicts(owners, "--merge-base", "other")
    assert (code, document["status"]) == (1, "CONFLICT")
    assert "are both active owners of project + MC-SUBJ-20250610-1a2b3c4d + security" in \
        document["findings"][0]["message"]
    review = two_sided_repo(tmp_path / "review", [RELEASE_EDIT], [EXIT_EDIT])
    code, document = _conflicts(review, "--merge-base", "other")
    assert (code, document["status"]) == (1, "REVIEW")
    assert "record a distinct, superseded, exception or subject-merged reconciliation" in \
        document["findings"][0]["message"]
    reconciled = two_sided_repo(tmp_path / "reconciled", [RELEASE_EDIT, ("reconciliations.md", "",
                                record("MC-REC-20260312-0a1b2c3d", "distinct", RELEASE_DEC,
                                       EXIT_CODES_DEC))], [EXIT_EDIT])
    code, document = _conflicts(reconciled, "--merge-base", "other")
    assert (code, document["status"], document["findings"]) == (0, "CLEAR", [])
    assert "not a proof of semantic consistency" in document["merge_review"][0]["detail"]


def test_MC14_without_git_conflict_free_status_is_not_established(tmp_path: Path) -> None:
    copy = tmp_path / "plain"
    shutil.copytree(FIXTURES / "custodian", copy)
    code, document = _conflicts(copy, "--merge-base", "main")
    assert (code, document["status"]) == (1, "unavailable")
    [finding] = document["findings"]
    assert finding["code"] == "mc_merge_unavailable"
    assert "is not in a git work tree; conflict-free status was not established" in finding["message"]


def test_MC14_exception_to_names_an_active_project_entry_of_its_subject_and_facet(
        tmp_path: Path) -> None:
    area = (FIXTURES / "custodian/docs/memory/areas/sync.md").read_text(encoding="utf-8")
    exception = area.replace("Facet: behavior\nEvidence:\n- user-confirmed\nSupersedes",
                             "Facet: behavior\nException-To: MC-CON-20250901-c2000001\nEvidence:"
                             "\n- user-confirmed\nSupersedes", 1)
    tree = _tree(tmp_path, **{"areas/sync.md": exception})
    assert [m for c, m in _check(tree) if c == "mc_invalid_exception"] == [
        "line 26: MC-AREA-20251201-b6000001 is an Exception-To MC-CON-20250901-c2000001 of another "
        "Subject + Facet (MC-SUBJ-20250610-2b3c4d5e + behavior, not MC-SUBJ-20250610-2b3c4d5e + "
        "security) [memory-custodian: Exception-To links an area entry to an active project "
        "entry of the same Subject + Facet]"]
    fixed = exception.replace("Facet: behavior\nException-To", "Facet: security\nException-To")
    assert _check(_tree(tmp_path / "fixed", **{"areas/sync.md": fixed})) == []
