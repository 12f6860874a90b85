"""The privacy audit: secrets and personal data already stored in the memory root.

Scans raw/, wiki/, context/ (not context/health/, our own output), proposals/ (inbox, applied
and rejected) and the other memory folders and root files; hidden names and .membank/ are
skipped, and so are files that are not UTF-8 text (binary assets). Large roots are scanned in
forked worker processes (MEMBANK_TASK_WORKERS); the findings are masked before they leave a
worker. Read-only: writes nothing but its health summary, and never imports Prefect.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import orjson

from schemas.health import PRIVACY_FINDING_CODES, Finding, HealthCounts, HealthSummary
from schemas.privacy import BASELINE_FILE
from schemas.report import MemoryOperationReport
from tasks.health.findings import finding, problems_from
from tasks.health.summary import build_summary
from tasks.privacy.detect import DetectOptions, PrivacyFinding, scan_key_bodies, scan_text
from tasks.privacy.gate import detect_options, load_baseline
from tasks.store.atomic import atomic_write_text
from tasks.store.jsonc import dumps_json
from tasks.store.layout import HEALTH_DIR, PROPOSALS_DIR, STATE_DIR
from tasks.store.operation import Operation
from tasks.store.report import StageFigures
from tasks.store.settings import MembankSettings

SKIPPED = frozenset({STATE_DIR, ".git", HEALTH_DIR})
PARALLEL_MIN_FILES = 400  # below this a process pool costs more than it saves
_CHUNK = 200


def audit_paths(root: Path) -> list[str]:
    """Root-relative paths of every file the audit reads, sorted."""
    found: list[str] = []

    def walk(folder: Path, rel: str) -> None:
        for entry in os.scandir(folder):
            if entry.name.startswith("."):
                continue
            path = f"{rel}{entry.name}"
            if path in SKIPPED:
                continue
            if entry.is_dir(follow_symlinks=False):
                walk(Path(entry.path), f"{path}/")
            elif entry.is_file(follow_symlinks=False):
                found.append(path)

    walk(root, "")
    return sorted(found)


def scan_files(root: str, paths: list[str], options: DetectOptions) -> tuple[list[PrivacyFinding], int]:
    """Findings of the given files and how many were skipped as not text. Runs in workers."""
    findings: list[PrivacyFinding] = []
    skipped = 0
    for rel in paths:
        try:
            data = Path(root, rel).read_bytes()
        except OSError:
            skipped += 1
            continue
        if b"\x00" in data:
            skipped += 1
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            skipped += 1
            continue
        findings.extend(scan_text(rel, text, options))
        if rel.startswith(f"{PROPOSALS_DIR}/") and options.secrets:
            findings.extend(scan_key_bodies(rel, text))  # what an older redaction left
    return findings, skipped


def _chunks(paths: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(paths), size):
        yield paths[start:start + size]


def scan_root(root: Path, paths: list[str], settings: MembankSettings) -> tuple[list[PrivacyFinding], int]:
    """All findings under `root`, in path order; forked workers for large roots on Linux."""
    options = detect_options(settings)
    workers = settings.task_workers
    if len(paths) < PARALLEL_MIN_FILES or workers < 2 or not sys.platform.startswith("linux"):
        return scan_files(str(root), paths, options)
    findings: list[PrivacyFinding] = []
    skipped = 0
    chunks = list(_chunks(paths, _CHUNK))
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        for found, missed in pool.map(scan_files, [str(root)] * len(chunks), chunks,
                                      [options] * len(chunks)):
            findings.extend(found)  # in path order: map keeps the chunks' order
            skipped += missed
    return findings, skipped


def health_findings(findings: list[PrivacyFinding]) -> list[Finding]:
    out = []
    for item in findings:
        code = "secret_detected" if item.category == "secret" else "pii_detected"
        hint = ("remove it: `membank forget --source <raw file>` for a stored source, or edit the "
                "page; if it is not sensitive, accept it in .secrets.baseline")
        out.append(finding(code, PRIVACY_FINDING_CODES[code], item.path,
                           f"line {item.line}: {item.kind} {item.preview}", hint))
    return out


def update_baseline(root: Path, findings: list[PrivacyFinding]) -> int:
    """Add findings to `<root>/.secrets.baseline` (detect-secrets' format: type, file, line and
    sha1 `hashed_secret`, never the value); return how many were new. A person then marks real
    secrets `"is_secret": true` (those stay findings) and removes them from the memory."""
    from detect_secrets.__version__ import VERSION

    path = root / BASELINE_FILE
    data: dict[str, Any] = orjson.loads(path.read_bytes()) if path.exists() else {
        "version": VERSION, "plugins_used": [], "filters_used": [], "results": {}}
    results = data.setdefault("results", {})
    added = 0
    for item in findings:
        entries = results.setdefault(item.path, [])
        if any(e.get("hashed_secret") == item.fingerprint and e.get("type") == item.kind for e in entries):
            continue
        entries.append({"type": item.kind, "filename": item.path, "hashed_secret": item.fingerprint,
                        "is_verified": False, "line_number": item.line})
        added += 1
    data["results"] = {name: sorted(entries, key=lambda e: (e.get("line_number") or 0, e["type"]))
                       for name, entries in sorted(results.items())}
    atomic_write_text(path, dumps_json(data))
    return added


class PrivacyAuditFigures(StageFigures):
    """What the privacy audit scanned and found (`baseline_added` with --accept only)."""

    baseline_added: int | None = None
    files_scanned: int | None = None
    files_skipped: int | None = None
    secrets_found: int | None = None
    pii_found: int | None = None


def privacy_audit(operation: Operation, *,
                  accept_all: bool = False) -> tuple[MemoryOperationReport, HealthSummary]:
    """Scan the memory root; the findings go to the report and a `privacy` health summary.
    `accept_all` first records every current finding in the baseline (the caller holds the
    root lock), so the audit reports only what was not accepted."""
    started = time.perf_counter()
    settings, root, stage = operation.settings, operation.root, operation.stage
    paths = audit_paths(root)
    durations = {"list": time.perf_counter() - started}
    t0 = time.perf_counter()
    found, skipped = scan_root(root, paths, settings)
    if accept_all:
        stage.note_figures(PrivacyAuditFigures(baseline_added=update_baseline(root, found)))
    accepted = load_baseline(root)
    found = [f for f in found if (f.kind, f.fingerprint) not in accepted]
    durations["scan"] = time.perf_counter() - t0
    findings = health_findings(found)
    secrets = sum(1 for f in found if f.category == "secret")
    counts = HealthCounts(pages_total=len(paths) - skipped, secrets_found=secrets,
                          pii_found=len(found) - secrets)
    stage.note_problems(problems_from(findings))
    stage.note_figures(PrivacyAuditFigures(
        files_scanned=len(paths) - skipped, files_skipped=skipped, secrets_found=secrets,
        pii_found=len(found) - secrets))
    report = stage.finish()
    durations["total"] = time.perf_counter() - started
    summary = build_summary(kind="privacy", mode="audit", project=settings.project, root=root,
                            now_iso=operation.now_iso, findings=findings, counts=counts,
                            repaired=[], durations=durations,
                            limit=settings.health_max_findings_per_code)
    return report, summary
