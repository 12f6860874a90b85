"""Proposal intake: read a batch, gate each proposal, apply the accepted ones, file every one.

    <root>/proposals/inbox/      where agents drop proposals (`membank propose` with no FILE)
    <root>/proposals/applied/    accepted proposals, as submitted
    <root>/proposals/rejected/   rejected proposals beside <name>.reason.json {code, field, ...}
    <root>/context/adopted-deliverables.jsonc   every adoption, keyed by proposal hash and by
                                 deliverable assetId|contentHash, so a replay is a dedupe hit

Nothing is lost: each proposal ends applied, rejected with its reason kept, or reported as a
duplicate of what was already adopted (and then stored nowhere again). Pages are written one
proposal after the other through `write_page`; hubs, index.md, the ledger and log.md are written
once per batch. Replaying a batch changes no byte of the memory.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from schemas.proposal import Adoption, ProposalRejection
from schemas.report import ArtifactAction, MemoryOperationReport, Problem
from tasks.markdown.sections import SplitBody, join_sections, split_sections, written_section
from tasks.privacy.gate import PROPOSAL_SECRET_HINT, SECRET_DETECTED, check_proposal, load_baseline
from tasks.proposals.gate import Verdict, gate_proposal
from tasks.proposals.inbox import Submitted, file_proposal, inbox_files, read_submitted
from tasks.proposals.ledger import load_ledger, save_ledger
from tasks.proposals.parse import parse_proposal
from tasks.proposals.view import RootView
from tasks.search.refresh import refresh_search_index
from tasks.store.atomic import atomic_write_text, check_real_folder, remove_file
from tasks.store.catalog import (
    CHILDREN_HEADING,
    CatalogEntry,
    entry_line,
    parse_entry_lines,
    update_hub,
    update_index,
)
from tasks.store.errors import RootError
from tasks.store.jsonc import dumps_json
from tasks.store.layout import (
    APPLIED_DIR,
    CONTEXT_DIR,
    INBOX_DIR,
    INDEX_FILE,
    LEDGER_FILE,
    REJECTED_DIR,
    WIKI_DIR,
    WIKI_HUB_PAGES,
    MemoryLayout,
)
from tasks.store.logbook import log_operation
from tasks.store.operation import Operation, writing_operation
from tasks.store.page_writes import write_page
from tasks.store.pages import read_page
from tasks.store.report import CountFigures, RecoveryFigures, StageReport
from tasks.store.settings import MembankSettings

_FOLDER_HUBS = frozenset(WIKI_HUB_PAGES)


def topic_hub_update(
    layout: MemoryLayout, hub: str, children: list[CatalogEntry], now_iso: str,
    drop: Iterable[str] = (),
) -> bool:
    """Upsert children into a topic hub's `## Children` section (other sections untouched);
    the entries of `drop` (children moved under another hub) leave it."""
    page = read_page(layout.root / hub)
    folder = PurePosixPath(hub).parent.as_posix()
    split = split_sections(page.body)
    current = split.find("children")
    entries = parse_entry_lines(current.text, base=folder) if current else {}
    for gone in drop:
        entries.pop(gone, None)
    for child in children:
        entries[child.path] = child
    lines = [entry_line(e, os.path.relpath(e.path, folder)) for e in sorted(entries.values())]
    section = written_section(
        "children", current.markup if current else CHILDREN_HEADING, "\n".join(lines)
    )
    sections = [s if s.anchor != "children" else section for s in split.sections]
    if current is None:
        sections.append(section)
    body = join_sections(SplitBody(split.preamble, tuple(sections)))
    return write_page(layout.root / hub, dict(page.meta), body, now_iso=now_iso).changed


def _describe(verdict: Verdict) -> str:
    plan = verdict.plan
    assert plan is not None
    if plan.created:
        return f"new leaf under {plan.hub}"
    anchors = ", ".join(a or "introduction" for a in plan.anchors) or "no section changed"
    kind = "merged into the existing page on this topic" if plan.merged else "sections"
    return f"{kind}: {anchors}" + (f" ({plan.superseded} superseded)" if plan.superseded else "")


# --------------------------------------------------------------------------- the batch


class ProposalFigures(CountFigures):
    """What a proposal batch did, one count per outcome."""

    proposals: int = 0
    accepted: int = 0
    rejected: int = 0
    duplicates: int = 0


@dataclass
class _Batch:
    """What one batch has done so far; the hubs, index, ledger and log are written by finish()."""

    operation: Operation
    view: RootView
    hub_children: dict[str, list[CatalogEntry]] = field(default_factory=dict)
    index_entries: list[CatalogEntry] = field(default_factory=list)
    counts: ProposalFigures = field(default_factory=lambda: ProposalFigures())

    @property
    def layout(self) -> MemoryLayout:
        return self.operation.layout

    @property
    def stage(self) -> StageReport:
        return self.operation.stage

    def duplicate(self, submitted: Submitted, shown: str, verdict: Verdict) -> None:
        """Already adopted: reported, stored nowhere again, taken out of the inbox."""
        self.counts.duplicates += 1
        if submitted.from_inbox:
            remove_file(submitted.path)
        self.stage.note_artifact(shown, verdict.message, "dedupe_hit")

    def reject(self, submitted: Submitted, verdict: Verdict, name: str | None = None) -> None:
        """Kept in proposals/rejected/ (as `name`, by default its own) beside
        <name>.reason.json; a problem in the report."""
        self.counts.rejected += 1
        stored, written = file_proposal(self.layout, submitted, REJECTED_DIR, name)
        reason = ProposalRejection.model_validate(
            {
                "proposal": name or submitted.path.name,
                "code": verdict.code,
                "field": verdict.field,
                "message": verdict.message,
                "hint": verdict.hint,
            }
        )
        reason_written = atomic_write_text(
            self.layout.root / f"{stored}.reason.json",
            dumps_json(reason.model_dump(mode="json", exclude_none=True)),
        )
        self.stage.note_problem(
            Problem(file=stored, code=reason.code, message=verdict.message, hint=verdict.hint)
        )
        self.stage.note_artifact(stored, f"rejected: {verdict.code} ({verdict.field})",
                                 "rejected" if written or reason_written else "unchanged")

    def accept(self, submitted: Submitted, verdict: Verdict) -> None:
        """Write the planned page, remember the adoption, file the proposal as applied."""
        plan, proposal = verdict.plan, verdict.proposal
        assert plan is not None and proposal is not None
        self.counts.accepted += 1
        # plan.text is write_page's own plan (plan_page_text: created_at kept, updated_at
        # refreshed on real change) against the text read under this lock: write it as is.
        path = self.layout.root / plan.path
        changed = plan.text is not None and atomic_write_text(path, plan.text)
        self.view.wrote(plan)
        action: ArtifactAction = (
            "created" if plan.created else ("updated" if changed else "unchanged")
        )
        self.stage.note_artifact(plan.path, _describe(verdict), action)
        self.stage.report.graph_delta.superseded_records_count += plan.superseded
        # Catalog entries are upserts: unchanged ones write nothing, missing ones are healed.
        entry = CatalogEntry(
            plan.path,
            str(plan.meta.get("title") or plan.path),
            str(plan.meta.get("description") or ""),
            hub=plan.meta.get("type") == "hub",
        )
        self.index_entries.append(entry)
        if plan.hub:
            self.hub_children.setdefault(plan.hub, []).append(entry)
        deliverable = proposal.deliverableSource
        self.view.adopted(
            Adoption(
                proposalHash=verdict.digest,
                proposal=submitted.path.name,
                page=plan.path,
                placement=proposal.placement.kind,
                section=proposal.placement.section,
                assetId=deliverable.assetId if deliverable else None,
                contentHash=deliverable.contentHash if deliverable else None,
                sizeBytes=deliverable.sizeBytes if deliverable else None,
                adoptedAtUtc=self.operation.now_iso,
            )
        )
        stored, written = file_proposal(self.layout, submitted, APPLIED_DIR)
        self.stage.note_artifact(stored, f"applied to {plan.path}",
                                 "applied" if written else "unchanged")

    def finish(self, adoptions_before: int) -> MemoryOperationReport:
        """One write per hub, one index update, the ledger, then log.md."""
        layout, stage, now = self.layout, self.stage, self.operation.now_iso
        for hub, children in sorted(self.hub_children.items()):
            if hub in _FOLDER_HUBS:
                changed = update_hub(layout, hub, children, now_iso=now).changed
            else:
                changed = topic_hub_update(layout, hub, children, now)
            if changed:
                stage.note_artifact(hub, "hub lists its children")
        if self.index_entries and update_index(layout, self.index_entries, now_iso=now).changed:
            stage.note_artifact(INDEX_FILE, "catalog of records")
        ledger = self.view.ledger
        if len(ledger.adoptions) != adoptions_before and save_ledger(layout, ledger, now_iso=now):
            stage.note_artifact(LEDGER_FILE, "adopted proposals and deliverables")
        stage.note_figures(self.counts)
        _warn_of_problems(stage)
        log_operation(layout, stage)
        refresh_search_index(self.operation)
        return stage.finish()


def process_proposals(
    operation: Operation, files: Iterable[Path] | None = None
) -> MemoryOperationReport:
    """Gate and apply a batch, in order: the given files, or everything in the inbox."""
    layout, settings = operation.layout, operation.settings
    if not (layout.root / WIKI_DIR).is_dir():
        raise RootError(
            "memory root has no wiki/ folder", file=layout.root, hint="run `membank init` first"
        )
    inbox = layout.root / INBOX_DIR
    # Refused before any proposal is filed, so a batch never stops half-way on these.
    for folder in (INBOX_DIR, APPLIED_DIR, REJECTED_DIR, WIKI_DIR, CONTEXT_DIR):
        check_real_folder(layout.root / folder)
    paths = list(files) if files else inbox_files(layout)
    ledger = load_ledger(layout, operation.now_iso)
    batch = _Batch(operation, RootView(layout.root, ledger, semantic=settings.search_semantic))
    adoptions_before = len(ledger.adoptions)
    accepted = load_baseline(layout.root)
    for path in paths:
        submitted = read_submitted(path, inbox=inbox, max_bytes=settings.max_source_bytes)
        shown = layout.relative(path) if submitted.from_inbox else str(path)
        batch.counts.proposals += 1
        if submitted.raw is None:
            operation.stage.note_problem(
                Problem(
                    file=shown,
                    code="unreadable_proposal",
                    message=submitted.problem or "cannot read",
                    hint="pass an existing .md or .json proposal file",
                )
            )
            continue
        privacy = check_proposal(path.name, submitted.raw, settings, accepted)
        operation.stage.note_problems(privacy.warnings)
        if privacy.rejected:
            batch.reject(replace(submitted, raw=privacy.redacted), Verdict(
                privacy.redacted_name, "rejected", "", code=SECRET_DETECTED, field="body",
                message=privacy.message, hint=PROPOSAL_SECRET_HINT), privacy.redacted_name)
            continue
        verdict = gate_proposal(
            parse_proposal(submitted.raw, name=path.name),
            batch.view,
            now_iso=operation.now_iso,
            prefix=operation.prefix,
            page_limit_chars=settings.page_limit_chars,
        )
        if verdict.outcome == "duplicate":
            batch.duplicate(submitted, shown, verdict)
        elif verdict.outcome == "rejected":
            batch.reject(submitted, verdict)
        else:
            batch.accept(submitted, verdict)
    return batch.finish(adoptions_before)


# Proposals gated and applied under one hold of the writer lock: between two chunks another
# writer (a reconcile, an ingest) gets in instead of waiting for the whole inbox.
PROPOSALS_PER_LOCK = 500


def _warn_of_problems(stage: StageReport) -> None:
    if stage.problems:
        stage.report.memory_health.consistency_warnings = [p.one_line() for p in stage.problems]


def _absorb(total: StageReport, chunk: MemoryOperationReport) -> None:
    """Add a later chunk's report to the first one's: its artifacts and problems, its graph
    delta and its counts (each figure a declared count, added)."""
    total.note_artifacts(chunk.artifacts)
    total.note_problems(chunk.problems)
    total.report.graph_delta = total.report.graph_delta.plus(chunk.graph_delta)
    total.note_figures(RecoveryFigures.read(total.report).plus(RecoveryFigures.read(chunk)))
    total.note_figures(ProposalFigures.read(total.report).plus(ProposalFigures.read(chunk)))
    _warn_of_problems(total)


def process_in_chunks(settings: MembankSettings, files: list[Path] | None = None, *,
                      per_lock: int = PROPOSALS_PER_LOCK) -> MemoryOperationReport:
    """process_proposals over the given files (or the inbox, listed once), `per_lock` at a time,
    each chunk under its own hold of the writer lock; one report for them all."""
    with writing_operation(settings, "propose") as operation:
        paths = files or inbox_files(operation.layout)
        total = StageReport.resume(process_proposals(operation, paths[:per_lock] or None))
    for start in range(per_lock, len(paths), per_lock):
        with writing_operation(settings, "propose") as operation:
            _absorb(total, process_proposals(operation, paths[start : start + per_lock]))
    return total.finish()


__all__ = [
    "PROPOSALS_PER_LOCK",
    "process_in_chunks",
    "process_proposals",
]
