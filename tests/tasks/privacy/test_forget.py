"""forget: plan changes nothing; soft, hard and purge leave the topic nowhere they promise."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from tasks.distill.apply import distill_memory
from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.privacy.forget import ForgetRequest, forget_operation, topic_guard
from tasks.store.atomic import remove_file
from tasks.store.errors import InputError, RootBoundaryError
from tasks.store.graph_store import load_graph, load_manifest
from tasks.store.layout import MENTION_WORDS_FILE
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.settings import load_settings
from tests import snapshots
from tests.tasks.privacy.forget_scenario import (
    LATER,
    TOPIC,
    build_memory,
    confirmed,
    grep,
    ingest_and_distill,
    reconcile,
)

RAW_LAUNCH = "raw/2026-03-24T22-40-05Z__launch-plan.md"
RAW_UPLOAD = "raw/2026-03-24T22-40-05Z__upload-service.md"
UPLOAD_SOURCE = "wiki/sources/2026-03-24T22-40-05Z__upload-service.md"
RAW_UPLOAD_V2 = "raw/2026-03-25T08-00-00Z__upload-service-2.md"
UPLOAD_ENTITY = "wiki/entities/2026-03-24T22-40-05Z__upload-service.md"


@pytest.fixture
def memory(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / ".memories"
    folder = build_memory(root, tmp_path)
    return root, folder


def forget(root: Path, *, apply: bool, mode: str = "soft", topic: str | None = TOPIC,
           entity: str | None = None, source: str | None = None):  # type: ignore[no-untyped-def]
    """Plan; with `apply`, apply the plan just shown (its hash confirmed, broad match allowed)."""
    settings = load_settings(root, fixed_clock=LATER)
    request = ForgetRequest(topic, entity, source, mode)  # type: ignore[arg-type]
    if not apply:
        return forget_operation(begin_operation(settings, "forget"), request, apply=False)
    request = confirmed(root, request)
    with writing_operation(settings, "forget") as operation:
        return forget_operation(operation, request, apply=True)


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_the_plan_lists_everything_and_changes_nothing(memory: tuple[Path, Path]) -> None:
    root, _folder = memory
    before = snapshot(root)
    report = forget(root, apply=False, mode="hard")
    assert snapshot(root) == before
    planned = {a.path: a.why for a in report.artifacts if a.action == "planned"}
    assert planned["wiki/entities/2026-03-24T22-40-05Z__falcon.md"].startswith("delete page")
    assert planned[UPLOAD_SOURCE].startswith("rewrite page: remove list item")
    assert "section" in planned[UPLOAD_SOURCE]
    graph = planned["context/knowledge-graph.index.jsonc"]
    assert "entity Falcon" in graph
    assert "superseded observation of Upload Service: [fact] Upload Service was load-tested" in graph
    assert "relation Falcon -depends_on-> Upload Service" in graph
    assert "entry Falcon" in planned["context/entity-registry.jsonc"]
    assert "wiki/entities/index.md" in planned and planned["index.md"].startswith("remove entry")
    assert {a.path for a in report.artifacts if a.action == "unchanged"} == {
        RAW_LAUNCH, RAW_UPLOAD, RAW_UPLOAD_V2}
    assert "git history" in str(report.figures["erasure_boundary"])


@pytest.mark.parametrize("mode", ["soft", "hard", "purge"])
def test_apply_leaves_the_topic_only_where_the_mode_keeps_it(memory: tuple[Path, Path], mode: str) -> None:
    root, folder = memory
    index = root / ".membank/search-index.db"  # a derived binary cache (a search index, say)
    index.write_bytes(b"SQLite format 3\x00\x01 ... upload falcon launch ...\x00")
    (root / ".membank/other-cache.db").write_bytes(b"\x00nothing to see\x00")
    report = forget(root, apply=True, mode=mode)
    raws = [RAW_LAUNCH, RAW_UPLOAD, RAW_UPLOAD_V2]  # soft and hard keep raw/ (immutable)
    history = ["context/knowledge-graph.index.jsonc", "context/tombstones.jsonc", *raws,
               UPLOAD_ENTITY]  # soft keeps superseded facts (graph and the page's section)
    expected = {"soft": history, "hard": raws, "purge": []}[mode]
    assert grep(root, TOPIC) == expected
    assert not index.exists() and (root / ".membank/other-cache.db").exists()
    assert reconcile(root, check=True).status == "healthy"
    untouched = (root / "wiki/sources").glob("*storage-costs.md")
    assert "two cents per gigabyte" in next(untouched).read_text()
    upload = root / UPLOAD_SOURCE
    if mode == "purge":
        assert not upload.exists() and not (root / RAW_UPLOAD).exists()
        manifest = load_manifest(root / "context/raw-manifest.jsonc")
        assert len(manifest.purgedAssets or []) == 3 and len(manifest.assets) == 1
        assert all(p.purgedAtUtc == LATER for p in manifest.purgedAssets or [])
    else:
        text = upload.read_text()
        assert "Page the on-call engineer" in text and "dead-letter queue" in text
        assert "Only this section talks about the rollout" not in text  # the whole section went
    stones = json.loads((root / "context/tombstones.jsonc").read_text())["tombstones"]
    graph = (root / "context/knowledge-graph.index.jsonc").read_text()
    assert ("load-tested by the Falcon team" in graph) == (mode == "soft")  # superseded history
    if mode == "soft":
        assert stones[0]["topic"] == TOPIC
    else:
        assert stones[0]["topicSha256"] == topic_guard(TOPIC) == hashlib.sha256(b"falcon").hexdigest()
    assert report.figures["applied"] is True
    # Nothing comes back: a re-ingest is refused, a full re-distill brings no Falcon.
    settings = load_settings(root, fixed_clock="2026-03-26T09:00:00Z")
    inputs, problems = collect_inputs([folder])
    again = write_ingest(settings, prepare_batch(inputs, settings), problems)
    assert sorted(p.code for p in again.problems) == ["forgotten_source", "forgotten_source"]
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation, reread_all=True)
    assert grep(root, TOPIC) == expected


def test_forget_an_entity_by_alias_and_a_source(memory: tuple[Path, Path]) -> None:
    root, _folder = memory
    forget(root, apply=True, topic=None, entity="falcon", mode="hard")
    names = {e.entityName for e in load_graph(root / "context/knowledge-graph.index.jsonc").entities}
    assert "Falcon" not in names and "Upload Service" in names
    words = root / MENTION_WORDS_FILE  # the words of the sources distill read for mentions
    words.write_bytes(b"SQLite format 3\x00 rollout dead-letter queue")
    report = forget(root, apply=True, topic=None, source=RAW_UPLOAD, mode="purge")
    assert not (root / RAW_UPLOAD).exists() and not (root / UPLOAD_SOURCE).exists()
    assert not words.exists()  # a purged source's words do not stay behind
    assert any(a.path == RAW_UPLOAD and a.action == "deleted" for a in report.artifacts)
    assert reconcile(root, check=True).status == "healthy"


def test_bad_requests_are_one_line_errors(memory: tuple[Path, Path]) -> None:
    root, _folder = memory
    with pytest.raises(InputError, match="shorter than"):
        forget(root, apply=False, topic="ab")
    with pytest.raises(InputError, match="no entity named"):
        forget(root, apply=False, topic=None, entity="Nobody Here")
    with pytest.raises(InputError, match="no raw source"):
        forget(root, apply=False, topic=None, source="raw/missing.md")
    with pytest.raises(InputError, match="exactly one"):
        forget(root, apply=False, topic=TOPIC, entity="Falcon")


def test_a_hard_guard_keeps_the_topic_out_of_distill(memory: tuple[Path, Path], tmp_path: Path) -> None:
    root, _folder = memory
    forget(root, apply=True, mode="hard")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "new-plan.md").write_text(
        "---\nentity: Upload Service\nentity_type: service\n---\n\n# New plan\n\n"
        "- [fact] Upload Service took over the Falcon queue\n"
        "- [fact] Upload Service gets a second region\n- depends_on [[Falcon]]\n")
    settings = load_settings(root, fixed_clock="2026-03-26T09:00:00Z")
    inputs, problems = collect_inputs([fresh])
    write_ingest(settings, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)
    graph = (root / "context/knowledge-graph.index.jsonc").read_text()
    assert "second region" in graph  # the rest of the new source is distilled
    assert "falcon" not in graph.casefold()  # the guard (a hash) keeps the topic out


def test_guards_match_names_and_word_runs_not_substrings() -> None:
    from schemas.distill_inbox import TombstoneList
    from tasks.distill.resolve import Forgotten

    guard = topic_guard("Project Falcon")
    forgotten = Forgotten(TombstoneList.model_validate({"tombstones": [
        {"topic": f"sha256:{guard}", "topicSha256": guard, "reason": "r",
         "tombstonedAtUtc": "2026-03-25T09:00:00Z"}]}))
    assert forgotten.is_forgotten_name("project  falcon") and not forgotten.is_forgotten_name("Falcon")
    assert forgotten.mentions_forgotten("The Project Falcon team met.")
    assert not forgotten.mentions_forgotten("Project Falconry is different.")


@pytest.mark.parametrize(("rel", "mode"), [("raw", "purge"), ("wiki/sources", "soft"),
                                           ("context", "hard"), (".membank", "soft")])
def test_a_symlinked_folder_stops_forget_before_it_reads_or_deletes(
        memory: tuple[Path, Path], tmp_path: Path, rel: str, mode: str) -> None:
    """D18: forget --apply deleted 22 files outside the root through a symlinked raw/."""
    root, _folder = memory
    outside = tmp_path / "outside"
    shutil.move(str(root / rel), str(outside))
    os.symlink(outside, root / rel)
    before = {p.relative_to(outside).as_posix(): p.read_bytes()
              for p in outside.rglob("*") if p.is_file()}
    inside = snapshots.snapshot(root)  # (.membank/ holds the lock's holder note)
    for apply in (False, True):
        with pytest.raises(RootBoundaryError, match=f"refusing to write through a symlink: .*{rel}"):
            forget(root, apply=apply, mode=mode)
    assert {p.relative_to(outside).as_posix(): p.read_bytes()
            for p in outside.rglob("*") if p.is_file()} == before
    assert snapshots.snapshot(root) == inside


def test_removals_refuse_a_folder_reached_through_a_symlink(tmp_path: Path) -> None:
    """The store's removal makes the same root-boundary check as its writes."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "note.md").write_text("kept")
    os.symlink(real, tmp_path / "linked")
    with pytest.raises(RootBoundaryError):
        remove_file(tmp_path / "linked" / "note.md")
    assert (real / "note.md").read_text() == "kept"
    os.symlink(real / "note.md", tmp_path / "link.md")
    assert remove_file(tmp_path / "link.md") and (real / "note.md").exists()  # the link, not its target


@pytest.mark.parametrize("mode", ["soft", "purge"])
def test_a_second_apply_changes_nothing(memory: tuple[Path, Path], mode: str) -> None:
    """D27: each rerun appended a tombstone; a purge rerun replaced the guard by one without
    the purged asset ids (re-ingest no longer refused)."""
    root, folder = memory
    forget(root, apply=True, mode=mode)
    first = snapshots.snapshot(root)
    stones = json.loads((root / "context/tombstones.jsonc").read_text())["tombstones"]
    assert len(stones) == 1 and len(stones[0]["assetIds"]) == 3
    settings = load_settings(root, fixed_clock="2026-03-26T09:00:00Z")
    request = confirmed(root, ForgetRequest(TOPIC, mode=mode),  # type: ignore[arg-type]
                        now="2026-03-26T09:00:00Z")
    with writing_operation(settings, "forget") as operation:
        again = forget_operation(operation, request, apply=True)
    assert [a for a in again.artifacts if a.action != "unchanged"] == []
    assert snapshots.snapshot(root) == first  # log.md too: nothing happened
    inputs, problems = collect_inputs([folder])
    refused = write_ingest(settings, prepare_batch(inputs, settings), problems)
    assert sorted(p.code for p in refused.problems) == ["forgotten_source", "forgotten_source"]


def test_no_candidate_keeps_evidence_from_a_removed_page(memory: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    """D27: a pending candidate (a code term seen once) kept evidence in a deleted source page."""
    root, _folder = memory
    ops = tmp_path / "ops"
    ops.mkdir()
    (ops / "queue-ops.md").write_text("# Falcon queue operations\n\nRun `drain_queue_now` before "
                                      "a deploy.\n")
    ingest_and_distill(root, ops, LATER)
    inbox = json.loads((root / "context/distill-candidates.jsonc").read_text())
    pending = [e["sourcePage"] for c in inbox.get("pendingCandidates", []) for e in c["evidence"]]
    assert any("queue-ops" in page for page in pending)  # the case this test is about
    forget(root, apply=True, mode="soft")
    inbox = json.loads((root / "context/distill-candidates.jsonc").read_text())
    pages = [e["sourcePage"] for key in ("candidates", "pendingCandidates")
             for c in inbox.get(key, []) for e in c["evidence"]]
    assert [page for page in pages if not (root / page).exists()] == []


@pytest.mark.parametrize("mode", ["soft", "hard", "purge"])
def test_entities_left_without_evidence_go_too(memory: tuple[Path, Path], tmp_path: Path,
                                               mode: str) -> None:
    """D28: an entity whose every fact was forgotten stayed, empty (entity_without_evidence)."""
    root, _folder = memory
    extra = tmp_path / "checklist"
    extra.mkdir()
    (extra / "launch-checklist.md").write_text(
        "---\nentity: Launch Checklist\nentity_type: process\n---\n\n# Launch checklist\n\n"
        "Written for the Falcon launch.\n\n- [fact] Launch Checklist gates every Falcon release\n")
    ingest_and_distill(root, extra, LATER)
    reconcile(root, now=LATER)
    warned = {f.message for f in reconcile(root, check=True).findings
              if f.code == "entity_without_evidence"}
    plan = forget(root, apply=False, mode=mode)
    planned = {a.path: a.why for a in plan.artifacts if a.action == "planned"}
    assert "entity Launch Checklist (nothing known about it is left)" in \
        planned["context/knowledge-graph.index.jsonc"]
    assert "entry Launch Checklist" in planned["context/entity-registry.jsonc"]
    forget(root, apply=True, mode=mode)
    names = {e.entityName for e in load_graph(root / "context/knowledge-graph.index.jsonc").entities}
    assert "Launch Checklist" not in names
    assert not list((root / "wiki/entities").glob("*launch-checklist*"))
    after = reconcile(root, check=True)
    assert {f.message for f in after.findings if f.code == "entity_without_evidence"} <= warned
    assert after.status == "healthy"


def test_forget_deletes_the_extraction_cache_that_names_it(memory: tuple[Path, Path]) -> None:
    """(dall50) distill's kept extractions hold the sources' text: forget deletes the file when
    it names the topic (rebuilt by the next distill --all), as it does a search index."""
    from tasks.distill.extraction_cache import CACHE_FILE, ExtractionCache, encoded_entry
    from tasks.distill.plan import extract_each, plan_distill
    from tasks.store.layout import MemoryLayout

    root, _folder = memory
    plan = plan_distill(MemoryLayout(root), reread_all=True)
    cache = ExtractionCache(root / CACHE_FILE)
    lookup = cache.lookup(plan.to_read)
    cache.store([entry for item, key, outcomes in zip(plan.to_read, lookup.keys,
                                                      extract_each(plan.to_read), strict=True)
                 if (entry := encoded_entry(item, key, outcomes)) is not None])
    cache.close()
    assert cache.stored and TOPIC.lower().encode() in (root / CACHE_FILE).read_bytes().lower()
    forget(root, apply=True, mode="soft")
    assert not (root / CACHE_FILE).exists()
