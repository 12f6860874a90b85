"""log.md: the append-only operation timeline, one entry per operation that changed something."""

from __future__ import annotations

from schemas.report import MemoryOperationReport
from tasks.store.atomic import atomic_write_text
from tasks.store.layout import LOG_FILE, MemoryLayout
from tasks.store.names import utc_prefix
from tasks.store.pages import read_page, render_page
from tasks.store.report import StageReport

LOG_TITLE = "Memory log"
LOG_DESCRIPTION = "Append-only timeline of memory operations, one entry per operation."
_MAX_ARTIFACT_LINES = 20


def log_entry(report: MemoryOperationReport) -> str:
    """One operation as a markdown section."""
    changed = [a for a in report.artifacts if a.action not in {"unchanged", "read"}]
    delta = report.graph_delta
    lines = [
        f"## {report.memory_write_timestamp_utc} {report.mode} ({report.status})",
        "",
        f"- artifacts changed: {len(changed)}",
        f"- graph delta: +{delta.entities_added_count} entities, "
        f"+{delta.relations_added_count} relations, +{delta.observations_added_count} observations, "
        f"{delta.superseded_records_count} superseded",
    ]
    if report.problems:
        lines.append(f"- problems: {len(report.problems)}")
    for artifact in changed[:_MAX_ARTIFACT_LINES]:
        lines.append(f"- {artifact.action}: {artifact.path}")
    if len(changed) > _MAX_ARTIFACT_LINES:
        lines.append(f"- ... and {len(changed) - _MAX_ARTIFACT_LINES} more")
    return "\n".join(lines) + "\n"


def log_meta(created_iso: str, updated_iso: str) -> dict[str, str]:
    return {
        "created_at": created_iso,
        "updated_at": updated_iso,
        "type": "log",
        "title": LOG_TITLE,
        "description": LOG_DESCRIPTION,
    }


def append_log(layout: MemoryLayout, entry_markdown: str, *, now_iso: str) -> None:
    """Append one entry; only updated_at in the frontmatter changes, the body only grows."""
    if layout.log_file.exists():
        page = read_page(layout.log_file)
        created = str(page.meta.get("created_at", now_iso))
        meta = {**page.meta, **log_meta(created, now_iso)}
        body = page.body.rstrip("\n") + "\n\n" + entry_markdown
    else:
        meta = log_meta(now_iso, now_iso)
        body = f"# {LOG_TITLE}\n\n" + entry_markdown

    meta.setdefault("utc_datetime_prefix", utc_prefix(meta["created_at"]))
    atomic_write_text(layout.log_file, render_page(meta, body))


def record_operation(layout: MemoryLayout, report: MemoryOperationReport) -> bool:
    """Append the report to log.md when the operation changed something; return whether it did."""
    if not report.changed:
        return False
    append_log(layout, log_entry(report), now_iso=report.memory_write_timestamp_utc)
    return True


def log_operation(layout: MemoryLayout, stage: StageReport) -> bool:
    """Finish the report (its status is logged), record_operation, and the log.md artifact in
    the report when it wrote the entry (the tail every writer repeats); returns whether it did."""
    if not record_operation(layout, stage.finish()):
        return False
    stage.note_artifact(LOG_FILE, "operation timeline")
    return True
