"""The health history: one compact line per run in history.jsonl, one dated summary per day and
kind, and pruning by age (MEMBANK_HEALTH_HISTORY_DAYS)."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import orjson

from schemas.common import PREFIX_PATTERN
from schemas.health import (
    HealthSummary,
)
from schemas.report import MemoryOperationReport
from tasks.health.summary import findings_table
from tasks.store.atomic import atomic_write_bytes, check_write_target
from tasks.store.clock import iso_utc, parse_utc
from tasks.store.layout import health_dir
from tasks.store.names import utc_prefix

_DATED_RE = re.compile(
    rf"^(?P<prefix>{PREFIX_PATTERN})__(?:reconcile|freshness|privacy)-health\.json$")


# How many of the stalest hubs and pages, and of the findings (worst first), a history line
# keeps for the dashboard: a line per run must stay small to keep drawing it cheap.
STALEST_KEPT = 10


FINDINGS_KEPT = 100


def history_line(summary: HealthSummary) -> dict[str, object]:
    """The history.jsonl line of one run: everything the dashboard draws, nothing more."""
    line: dict[str, object] = {
        "generated_at": summary.generated_at, "kind": summary.kind, "mode": summary.mode,
        "status": summary.status, "exit_code": summary.exit_code(),
        "counts": summary.counts.model_dump(mode="json"),
        "durations_seconds": summary.durations_seconds,
        "findings": findings_table(summary)[:FINDINGS_KEPT],
    }
    if summary.freshness is not None:
        hubs = sorted(summary.freshness.hubs_by_recent,
                      key=lambda h: (-(h.age_days or 0.0), h.path))[:STALEST_KEPT]
        line["stalest_hubs"] = [{"path": h.path, "age_days": h.age_days,
                                 "subtree_updated_at": h.subtree_updated_at} for h in hubs]
        line["stalest_pages"] = [{"path": p.path, "type": p.type, "age_days": p.age_days,
                                  "updated_at": p.updated_at}
                                 for p in summary.freshness.pages[:STALEST_KEPT]]
    return line


def ingest_history_line(report: MemoryOperationReport) -> dict[str, object] | None:
    """The history line of an ingest that stored something (a pure replay adds no line, so
    a rerun changes nothing): its throughput for the dashboard."""
    figures = report.figures
    stored = figures.get("files_ingested", 0)
    if not isinstance(stored, int) or stored <= 0:
        return None
    seconds = figures.get("seconds")
    return {"generated_at": report.memory_write_timestamp_utc, "kind": "ingest", "mode": "ingest",
            "status": report.status, "exit_code": report.exit_code(),
            "durations_seconds": {"total": seconds} if isinstance(seconds, int | float) else {},
            "ingest": {"files": stored, "bytes": figures.get("bytes_ingested", 0),
                       "shards": figures.get("shards_written", 0),
                       "mb_per_s": figures.get("mb_per_s")}}


def record_ingest_run(root: Path, report: MemoryOperationReport, keep_days: float | None) -> bool:
    """Append an ingest's line to history.jsonl; the dashboard shows it on its next drawing."""
    line = ingest_history_line(report)
    if line is None:
        return False
    append_history(root, line, now_iso=report.memory_write_timestamp_utc, keep_days=keep_days)
    return True


def append_history(root: Path, line: dict[str, object], *, now_iso: str,
                   keep_days: float | None = None) -> int:
    """Append one run's line to history.jsonl (pruning with `keep_days`); return how many
    files and lines the pruning removed."""
    folder = health_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    history = folder / "history.jsonl"
    check_write_target(history)  # a symlink there would be appended to / truncated
    with history.open("ab") as handle:
        handle.write(orjson.dumps(line, option=orjson.OPT_SORT_KEYS) + b"\n")
    if keep_days is None:
        return 0
    return prune_health_history(root, now_iso, keep_days)


def keep_latest_of_day(folder: Path, kind: str, prefix: str) -> int:
    """Keep one dated summary per day per kind: remove the others of `prefix`'s day that are
    older than the newest (a rerun the same day replaces the morning's file)."""
    day = prefix[:10]
    same_day = sorted(entry.name for entry in os.scandir(folder)
                      if entry.name.startswith(day) and entry.name.endswith(f"__{kind}-health.json")
                      and _DATED_RE.match(entry.name))
    for name in same_day[:-1]:
        (folder / name).unlink(missing_ok=True)  # an overlapping writer may have taken it
    return max(len(same_day) - 1, 0)


def prune_health_history(root: Path, now_iso: str, keep_days: float) -> int:
    """Remove dated health summaries and history.jsonl lines older than `keep_days` before
    `now_iso`; return how many went. latest-* files are never pruned.

    Health summaries are an operations time series, not memory facts: unbounded, a root with
    the nightly reconcile and a freshness audit every six hours gains ~1,800 files a year.
    History lines that do not parse are kept (they are not ours to judge)."""
    folder = health_dir(root)
    cutoff = iso_utc(parse_utc(now_iso) - timedelta(days=keep_days))
    cutoff_prefix = utc_prefix(cutoff)  # same-width UTC stamps: string order is time order
    pruned = 0
    for entry in os.scandir(folder):
        match = _DATED_RE.match(entry.name)
        if match and match["prefix"] < cutoff_prefix:
            os.unlink(entry.path)
            pruned += 1
    history = folder / "history.jsonl"
    if history.exists():
        lines = history.read_bytes().splitlines(keepends=True)
        kept = [line for line in lines if not _history_line_before(line, cutoff)]
        if len(kept) != len(lines):
            atomic_write_bytes(history, b"".join(kept), validate=False)
            pruned += len(lines) - len(kept)
    return pruned


def _history_line_before(line: bytes, cutoff: str) -> bool:
    try:
        stamp = orjson.loads(line).get("generated_at")
    except (orjson.JSONDecodeError, AttributeError):
        return False
    return isinstance(stamp, str) and stamp < cutoff
