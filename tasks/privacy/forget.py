"""`membank forget`: plan, then (with --apply) remove a topic, an entity or a source.

Modes (spec/memory-custodian.md, Forgetting):
  soft   removes it from active memory: whole page units (list items, blocks, sections), pages
         about it (named, titled or described by it) and pages left empty, graph entities,
         observations and relations, registry entries and aliases, distill candidates,
         proposals, index and hub entries; adds a topic-bearing tombstone. Superseded history
         (the graph's superseded facts) is kept.
  hard   also removes it from superseded history, and keeps no topic-bearing tombstone: one
         guard holds the sha256 of the topic instead, so the tombstone does not leak it.
  purge  also deletes the raw files that carry it (the one sanctioned exception to raw/
         immutability), recorded in the raw manifest under purgedAssets with time and reason.
Every mode refuses a re-ingest of the sources that carried it (their asset ids are kept).

A topic matches whole words of content, case-insensitively; paths (typed links, file names in
metadata and links) are not content (tasks/privacy/topic_match.py). A match inside prose, a
table or code is marked needs_rewrite, and apply takes the plan's hash and refuses a broad plan
unless --allow-broad-match (tasks/privacy/forget_guards.py).
Planning reads; only `apply_plan` writes, under the root lock, each file atomically.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, TypeAlias

from schemas.report import ArtifactRecord
from tasks.privacy.forget_catalog import plan_hub_descriptions, plan_index_descriptions
from tasks.privacy.forget_context import plan_context, plan_files
from tasks.privacy.forget_guards import (
    broad_reasons,
    check_apply,
    plan_hash,
    rewrite_count,
    rewrite_rows,
)
from tasks.privacy.forget_plan import (
    ForgetPlan,
    Mode,
    Target,
    check_boundary,
    manifest_if_any,
    page_text,
    plan_pages,
    plan_raw,
    resolve_target,
    topic_guard,
)
from tasks.search.refresh import refresh_search_index
from tasks.store.atomic import atomic_write_text, remove_file
from tasks.store.catalog import read_index_entries, update_index
from tasks.store.jsonc import dumps_json, read_jsonc_file
from tasks.store.layout import (
    INDEX_FILE,
    MANIFEST_FILE,
    MENTION_WORDS_FILE,
    OBSERVATION_BASELINE_FILE,
    RECONCILE_CACHE_FILE,
    RECONCILE_ROWS_FILE,
    TOMBSTONES_FILE,
    MemoryLayout,
)
from tasks.store.logbook import record_operation
from tasks.store.names import in_shards
from tasks.store.report import StageFigures, StageReport

if TYPE_CHECKING:
    from schemas.report import ArtifactAction

__all__ = ["ForgetPlan", "ForgetRequest", "Mode", "Target", "apply_plan", "build_plan",
           "forget_operation", "topic_guard"]


@dataclass(frozen=True)
class ForgetRequest:
    """What `membank forget` is asked: exactly one of a topic, an entity (canonical name or
    alias) or a source (raw path, asset id, original path), and how deep to forget it."""

    topic: str | None = None
    entity: str | None = None
    source: str | None = None
    mode: Mode = "soft"
    confirm_plan: str | None = None  # --confirm-plan: the hash of the plan the user reviewed
    allow_broad: bool = False  # --allow-broad-match: remove the needs_rewrite units whole
    history_check: bool = False  # --history-check: list git commits that still hold it


def build_plan(layout: MemoryLayout, target: Target, mode: Mode, now_iso: str) -> ForgetPlan:
    """The complete plan; reads only. `now_iso` is the updated_at of rewritten pages.
    A folder reached through a symlink stops it first (RootBoundaryError)."""
    check_boundary(layout)
    plan = ForgetPlan(mode, target)
    manifest = manifest_if_any(layout)
    plan_raw(layout, plan, manifest)
    plan_pages(layout, plan, now_iso)
    plan_hub_descriptions(plan, now_iso)
    texts = {c.path: page_text(layout, c.path) for c in plan.pages if c.delete}
    plan_context(layout, plan, texts)
    if plan.emptied_entities:  # their pages go too: plan again so hubs and links follow
        plan_pages(layout, plan, now_iso, also_gone=plan.deleted_pages)
        plan_hub_descriptions(plan, now_iso)
        texts = {c.path: page_text(layout, c.path) for c in plan.pages if c.delete}
        plan_context(layout, plan, texts)
    plan_files(layout, plan)

    if layout.index_file.exists():
        deleted = plan.deleted_pages
        entries = read_index_entries(layout)
        plan.catalog_removed = sorted(p for p in entries if p in deleted)
        plan_index_descriptions(plan, entries)
    return plan


# --------------------------------------------------------------------------------------------
# Tombstones


def plan_tombstones(layout: MemoryLayout, plan: ForgetPlan, now_iso: str) -> dict[str, Any]:
    """soft: a topic-bearing tombstone; hard and purge: prior ones for the topic replaced by a
    guard holding its sha256. Every mode keeps the forgotten asset ids (re-ingest refused).

    Idempotent: a tombstone already there for the same topic (or guard, or source) is kept as
    it is, only gaining asset ids it did not list, so a second forget changes nothing (a purge
    rerun finds no asset left to name: the ids the first one recorded stay)."""
    path = layout.tombstones_file
    data = read_jsonc_file(path) if path.exists() else {"tombstones": []}
    target = plan.target
    assets = {a.assetId for a in plan.carrying_assets} | target.asset_ids | {a.assetId for a in plan.purge}
    reason = f"membank forget --mode {plan.mode}"
    entries = [_tombstone(plan.mode, topic, sorted(assets), reason, now_iso)
               for topic in target.topics or ("",)]
    keys = {str(e["topic"]) for e in entries}
    guards = {topic_guard(t) for t in target.topics}
    kept: list[dict[str, Any]] = []
    inherited: set[str] = set()  # asset ids of the topic-bearing tombstones a guard replaces
    for stone in data.get("tombstones", []):
        if plan.mode != "soft" and _topic_bearing_of(stone, target, guards, keys):
            inherited.update(stone.get("assetIds") or ())
            continue
        kept.append(stone)
    existing = {str(stone.get("topic", "")): stone for stone in kept}
    for entry in entries:
        ids = set(entry.pop("assetIds", ())) | inherited
        old = existing.get(str(entry["topic"]))
        if old is None:
            kept.append({**entry, "assetIds": sorted(ids)} if ids else entry)
        elif not ids <= set(old.get("assetIds") or ()):
            old["assetIds"] = sorted(ids | set(old.get("assetIds") or ()))
    data["tombstones"] = kept
    return data


def _tombstone(mode: Mode, topic: str, assets: list[str], reason: str, now_iso: str) -> dict[str, Any]:
    entry: dict[str, Any]
    if not topic:  # a source: its asset ids are the guard
        entry = {"topic": f"asset:{assets[0]}", "reason": reason, "tombstonedAtUtc": now_iso}
    elif mode == "soft":
        entry = {"topic": topic, "reason": reason, "tombstonedAtUtc": now_iso}
    else:
        guard = topic_guard(topic)
        entry = {"topic": f"sha256:{guard}", "reason": reason, "tombstonedAtUtc": now_iso,
                 "topicSha256": guard}
    if assets:
        entry["assetIds"] = assets
    return entry


def _topic_bearing_of(stone: dict[str, Any], target: Target, guards: set[str], keys: set[str]) -> bool:
    """A tombstone naming the topic in clear, which a hard forget replaces by its guard (a guard
    or a source's tombstone is never read as text: a short topic can occur in a hash)."""
    topic = str(stone.get("topic", ""))
    if topic in keys or stone.get("topicSha256") or topic.startswith(("sha256:", "asset:")):
        return False
    return target.matches(topic) or topic_guard(topic) in guards


# --------------------------------------------------------------------------------------------
# Apply (one writer, under the root lock)


Change: TypeAlias = "tuple[str, ArtifactAction, str]"  # (path, action, why) of one change made


def apply_plan(layout: MemoryLayout, plan: ForgetPlan, now_iso: str) -> list[Change]:
    """Carry the plan out; return (path, action, why) of every change, in order.

    Call inside the operation's journaled batch (writing_operation): every rewrite and every
    removal (pages, raw files, caches) is journaled, so a crash at any step rolls the whole
    forget back and the next run applies it from the start; nothing is half-forgotten. A plan
    with nothing left to change changes nothing (not even reconcile's baselines)."""
    done: list[Change] = []
    stones = plan_tombstones(layout, plan, now_iso)
    if atomic_write_text(layout.tombstones_file, dumps_json(stones)):
        done.append((TOMBSTONES_FILE, "updated", f"tombstone ({plan.mode})"))
    done += _apply_pages(layout, plan, now_iso)
    done += _apply_context_files(layout, plan, now_iso)
    for rel in [a.rawPath for a in plan.purge] + plan.unlisted_raw:
        remove_file(layout.root / rel)
        done.append((rel, "deleted", "purged raw source (recorded in the raw manifest)"))
    for rel in _reset_reconcile_baselines(layout) if done else ():
        done.append((rel, "deleted", "reconcile's baselines: forget is the one sanctioned erasure"))
    if done:  # the words of every source read for mentions (a purged one's among them)
        remove_file(layout.root / MENTION_WORDS_FILE)
    return done


def _apply_pages(layout: MemoryLayout, plan: ForgetPlan, now_iso: str) -> list[Change]:
    """Pages deleted or rewritten, emptied shard folders removed, their catalog entries gone."""
    done: list[Change] = []
    for change in plan.pages:
        path = layout.root / change.path
        if change.delete:
            remove_file(path)
            done.append((change.path, "deleted", change.why))
        elif change.text is not None and atomic_write_text(path, change.text):
            done.append((change.path, "updated", change.why))
    _remove_empty_shard_folders(layout, plan)
    if plan.catalog_removed or plan.catalog_described:
        entries = read_index_entries(layout)
        for rel in plan.catalog_removed:
            entries.pop(rel, None)
        for rel, description in plan.catalog_described.items():
            if rel in entries:
                entries[rel] = replace(entries[rel], description=description)
        if update_index(layout, entries.values(), now_iso=now_iso, replace_all=True).changed:
            done.append((INDEX_FILE, "updated", f"{len(plan.catalog_removed)} entr(ies) removed, "
                         f"{len(plan.catalog_described)} description(s) rewritten"))
    return done


def _apply_context_files(layout: MemoryLayout, plan: ForgetPlan, now_iso: str) -> list[Change]:
    """The JSON and text files rewritten (the raw manifest records the purge), others deleted."""
    done: list[Change] = []
    for rel, (data, what) in sorted(plan.json_changes.items()):
        if rel == MANIFEST_FILE and plan.purge:
            data.setdefault("purgedAssets", []).extend(
                {"assetId": a.assetId, "purgedAtUtc": now_iso, "reason": f"membank forget --mode purge "
                 f"({plan.target.label if not plan.target.topics else 'a forgotten topic'})"}
                for a in plan.purge)
        if atomic_write_text(layout.root / rel, dumps_json(data)):
            done.append((rel, "updated", "; ".join(what)))
    for rel, (text, why) in sorted(plan.text_changes.items()):
        if atomic_write_text(layout.root / rel, text):
            done.append((rel, "updated", why))
    for rel, why in sorted(plan.deleted_files.items()):
        remove_file(layout.root / rel)
        done.append((rel, "deleted", why))
    return done


def _remove_empty_shard_folders(layout: MemoryLayout, plan: ForgetPlan) -> None:
    for folder in {PurePosixPath(c.path).parent for c in plan.pages if c.delete and in_shards(c.path)}:
        path = layout.root / folder.as_posix()
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def _reset_reconcile_baselines(layout: MemoryLayout) -> list[str]:
    """Reconcile remembers log.md's prefix and every observation to catch silent erasure; after
    a forget those baselines would call the sanctioned erasure tampering: start them afresh."""
    return [rel for rel in (RECONCILE_CACHE_FILE, RECONCILE_ROWS_FILE, OBSERVATION_BASELINE_FILE)
            if remove_file(layout.root / rel)]


# --------------------------------------------------------------------------------------------
# The operation


def _plan_artifacts(plan: ForgetPlan) -> list[tuple[str, str]]:
    """(path, what would happen) of every change the plan holds, for the report."""
    rows = [(c.path, ("delete page: " if c.delete else "rewrite page: ") + c.why) for c in plan.pages]
    rows += [(rel, "rewrite: remove " + "; ".join(what))
             for rel, (_d, what) in sorted(plan.json_changes.items())]
    rows += [(rel, f"rewrite: {why}") for rel, (_t, why) in sorted(plan.text_changes.items())]
    rows += [(rel, f"delete: {why}") for rel, why in sorted(plan.deleted_files.items())]
    rows += [(INDEX_FILE, f"remove entry {rel}") for rel in plan.catalog_removed]
    rows += [(INDEX_FILE, f"rewrite the description of entry {rel}, which named it")
             for rel in sorted(plan.catalog_described)]
    rows += [(a.rawPath, "delete raw source (purge; recorded in the raw manifest)") for a in plan.purge]
    rows += [(rel, "delete raw file (purge; not in the manifest)") for rel in plan.unlisted_raw]
    rows.append((TOMBSTONES_FILE, "add a topic-bearing tombstone" if plan.mode == "soft"
                 else "replace tombstones of the topic by a sha256 guard"))
    return rows


def forget_operation(operation: Any, request: ForgetRequest, *, apply: bool) -> Any:
    """Plan (apply=False: nothing changes) or apply; the report lists every change and states
    the erasure boundary. `operation` must hold the root lock when apply is True. Apply takes
    the plan's hash (request.confirm_plan) and refuses a plan that differs or is too broad
    (tasks/privacy/forget_guards.py)."""
    layout, stage = operation.layout, operation.stage
    target = resolve_target(layout, topic=request.topic, entity=request.entity,
                            source=request.source)
    mode = request.mode
    plan = build_plan(layout, target, mode, operation.now_iso)
    rows = _plan_artifacts(plan)
    digest = (check_apply(plan, rows, confirm=request.confirm_plan, allow_broad=request.allow_broad)
              if apply else plan_hash(plan, rows))
    figures = _report_plan(stage, plan, apply=apply, digest=digest)
    if request.history_check:
        figures.history_check = _report_history(stage, layout, plan)
    if not apply:
        stage.note_artifacts(ArtifactRecord(path=p, action="planned", why=w) for p, w in rows)
        stage.note_artifacts(ArtifactRecord(path=p, action="planned", why=w)
                             for p, w in rewrite_rows(plan))
        figures.next = _next_step(plan, digest)
        stage.note_figures(figures)
        return stage.finish()
    stage.note_figures(figures)
    done = apply_plan(layout, plan, operation.now_iso)
    stage.note_artifacts(ArtifactRecord(path=p, action=a, why=w) for p, a, w in done)
    # log.md gets counts, not the paths (a page's name can carry the topic).
    logged = stage.finish().model_copy(update={"artifacts": [ArtifactRecord(
        path=TOMBSTONES_FILE, action="updated" if done else "unchanged", why=f"forget ({mode})")]})
    # (a forget with nothing left to do changes nothing, log.md included)
    record_operation(layout, logged)
    # The search index follows the batch (pages removed or rewritten), as after any writer.
    refresh_search_index(operation, [p for p, _action, _why in done if p.endswith(".md")])
    return stage.finish()


class ForgetFigures(StageFigures):
    """The plan in figures: its mode, hash and counts; the boundary of what forgetting erases,
    what git history still holds (--history-check) and the next step (plan only) in words."""

    mode: str
    applied: bool
    plan: str
    pages_deleted: int
    pages_rewritten: int
    needs_rewrite: int
    raw_purged: int
    raw_kept_carrying_it: int
    erasure_boundary: str
    entities_removed: int | None = None
    history_check: str | None = None
    next: str | None = None


def _report_plan(stage: StageReport, plan: ForgetPlan, *, apply: bool,
                 digest: str) -> ForgetFigures:
    """The plan's figures (its hash among them); the raw sources it keeps, as artifacts."""
    kept = [] if plan.mode == "purge" else [a.rawPath for a in plan.carrying_assets]
    for rel in kept:
        stage.note_artifact(rel, "raw/ is immutable: still carries it (--mode purge deletes it)",
                            "unchanged")
    return ForgetFigures(
        mode=plan.mode, applied=apply, plan=digest, pages_deleted=len(plan.deleted_pages),
        pages_rewritten=sum(1 for c in plan.pages if not c.delete),
        needs_rewrite=rewrite_count(plan), raw_purged=len(plan.purge) + len(plan.unlisted_raw),
        raw_kept_carrying_it=len(kept), erasure_boundary=plan.boundary(),
        entities_removed=len(plan.removed_entities) or None)


def _next_step(plan: ForgetPlan, digest: str) -> str:
    reasons = broad_reasons(plan)
    step = f"nothing changed; to carry out this plan: --apply --confirm-plan {digest}"
    if reasons:
        step += " --allow-broad-match (" + "; ".join(reasons) + ")"
    return step


def _report_history(stage: StageReport, layout: MemoryLayout, plan: ForgetPlan) -> str:
    """--history-check: the git commits that still hold it (git history is never rewritten),
    as artifacts; the check's verdict in words."""
    from tasks.privacy.history import BOUNDARY, history_check

    raw = tuple(a.rawPath for a in plan.carrying_assets if a.assetId in plan.target.asset_ids)
    check = history_check(layout.root, plan.target.topics, raw)
    stage.note_artifacts(ArtifactRecord(path=f"git commit {commit}", action="unchanged",
                                        why=f"{what}: git history still holds it")
                         for commit, what in check.commits)
    return f"{check.status}: {check.detail} ({BOUNDARY})"
