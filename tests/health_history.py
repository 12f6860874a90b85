"""Generated health history: days of runs written by the real health code (build_summary,
history_line, append_history), for dashboard tests and benchmarks/bench_dashboard.py.

Each day has a nightly reconcile, freshness audits every six hours and an ingest; the memory
grows, findings come and go, a stage slows down now and then. Deterministic for a given end.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from schemas.health import FreshnessDetail, HealthCounts, HubFreshness, PageAge
from schemas.report import MemoryOperationReport
from tasks.health.findings import finding
from tasks.health.history import append_history, history_line, ingest_history_line
from tasks.health.summary import build_summary
from tasks.store.clock import iso_utc, parse_utc
from tasks.store.names import utc_prefix


def _size(day: int) -> HealthCounts:
    """What both checks count alike: the memory grows by three pages a day."""
    pages = 40 + day * 3
    return HealthCounts(pages_total=pages, pages_by_type={"entity": pages // 2, "source": pages // 3,
                                                          "hub": 6, "concept": pages - pages // 2 - pages // 3 - 6},
                        entities=pages // 2, relations=pages, observations_active=pages * 4,
                        observations_superseded=day)


def _reconcile(day: int, when: str, root: Path):
    findings = []
    if day % 7 == 3:
        findings.append(finding("dead_link", "error", f"wiki/concepts/page-{day}.md",
                                "link to wiki/concepts/gone.md points at no file", "fix the link"))
    for n in range(day % 4):
        findings.append(finding("orphan_page", "warning", f"wiki/synthesis/note-{day}-{n}.md",
                                "page hangs under no hub", "add child_of: wiki/synthesis"))
    findings.append(finding("index_resynced", "info", "index.md", "index.md listed again"))
    counts = _size(day).model_copy(update={"orphans": day % 4, "dead_links": int(day % 7 == 3),
                                           "invalid_files": 0})
    scan = 0.05 + (day % 10) * 0.004 + (0.08 if day % 30 == 29 else 0)
    return build_summary(kind="reconcile", mode="repair", project="default", root=root,
                         now_iso=when, findings=findings, counts=counts, repaired=[],
                         durations={"scan": scan, "check_and_repair": 0.03, "total": scan + 0.04},
                         limit=50)


def _freshness(day: int, hour: int, when: str, root: Path):
    stale = max(0, (day % 12) - 6)
    findings = [finding("stale_page", "warning", f"wiki/concepts/old-{n}.md",
                        f"not updated for {95 + n} days (threshold 90)", "review it") for n in range(stale)]
    pages = [PageAge(path=f"wiki/concepts/old-{n}.md", type="concept",
                     updated_at=iso_utc(parse_utc(when) - timedelta(days=120 - n)), age_days=120.0 - n)
             for n in range(12)]
    hubs = [HubFreshness(path=f"wiki/{name}/index.md", subtree_updated_at=iso_utc(parse_utc(when) - timedelta(days=age)),
                         age_days=float(age), children=3) for name, age in
            (("entities", 1), ("sources", 2), ("concepts", 12 + day % 20), ("synthesis", 40))]
    counts = _size(day).model_copy(update={"stale_pages": stale, "stale_hubs": int(day % 20 > 17),
                                           "stale_observations": day % 5, "sources_changed": day % 3})
    return build_summary(kind="freshness", mode="audit", project="default", root=root, now_iso=when,
                         findings=findings, counts=counts, repaired=[],
                         durations={"graph": 0.01, "audit": 0.02 + hour * 0.001, "total": 0.035},
                         limit=50, freshness=FreshnessDetail(hubs_by_recent=hubs, pages=pages))


def _ingest(day: int, when: str) -> MemoryOperationReport:
    report = MemoryOperationReport(mode="ingest", memory_write_timestamp_utc=when,
                                   utc_datetime_prefix=utc_prefix(when))
    report.figures.update({"files_ingested": 3 + day % 5, "bytes_ingested": 2_000_000 + day * 1000,
                           "shards_written": day % 3, "seconds": 0.8 + (day % 9) * 0.05})
    report.figures["mb_per_s"] = round(report.figures["bytes_ingested"] / 1e6 / report.figures["seconds"], 2)
    return report


def reconcile_summary(root: Path, when: str):
    """One day-one reconcile's summary (a dead link, the index resynced)."""
    return _reconcile(3, when, root)


def _line(root: Path, kind: str, day: int, hour: int, when: str) -> dict[str, object]:
    if kind == "reconcile":
        line = history_line(_reconcile(day, when, root))
    elif kind == "freshness":
        line = history_line(_freshness(day, hour, when, root))
    else:
        line = ingest_history_line(_ingest(day, when))
    assert line is not None
    return line


def write_history(root: Path, *, days: int, end: str) -> int:
    """Append `days` days of runs ending at `end` to root's history.jsonl; return the count."""
    last = parse_utc(end)
    written = 0
    for day in range(days):
        midnight = (last - timedelta(days=days - 1 - day)).replace(hour=0, minute=0, second=0)
        runs = [(midnight + timedelta(hours=2), "reconcile", 0)]
        runs += [(midnight + timedelta(hours=h, minutes=5), "freshness", h) for h in (0, 6, 12, 18)]
        runs += [(midnight + timedelta(hours=9, minutes=30), "ingest", 0)]
        for moment, kind, hour in sorted(runs):
            if moment > last:
                continue
            when = iso_utc(moment)
            append_history(root, _line(root, kind, day, hour, when), now_iso=when)
            written += 1
    return written


def write_first_day(root: Path, *, runs: int, start: str) -> list[str]:
    """A first afternoon: `membank run` (an ingest, a reconcile, a freshness audit), then more
    reconciles and audits in turn, minutes to an hour apart, while the memory grows; `runs`
    lines from `start` (all on its day). Returns their times."""
    kinds = ["ingest", "reconcile", "freshness"] + ["reconcile", "freshness"] * runs
    moment, times = parse_utc(start), []
    for n, kind in enumerate(kinds[:runs]):
        moment += timedelta(minutes=(n * 13) % 50 + 1)
        when = iso_utc(moment)
        append_history(root, _line(root, kind, n, 12 + n // 4, when), now_iso=when)
        times.append(when)
    assert len({t[:10] for t in times}) == 1, "the runs must fit in one day"
    return times
