"""Findings: make, sort, cap, and turn them into report problems (pure: what the gates import)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from schemas.health import (
    Finding,
    Severity,
)
from schemas.report import Problem

_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


def finding(code: str, severity: Severity, path: str | None, message: str,
            hint: str | None = None) -> Finding:
    return Finding(code=code, severity=severity, path=path, message=message, hint=hint)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (_SEVERITY_RANK[f.severity], f.code, f.path or "",
                                           f.message))


def cap_findings(findings: list[Finding], limit: int) -> list[Finding]:
    """Keep at most `limit` findings per code, plus one line saying how many were left off."""
    kept: list[Finding] = []
    per_code: Counter[str] = Counter()
    for item in sort_findings(findings):
        per_code[item.code] += 1
        if per_code[item.code] <= limit:
            kept.append(item)
    for code, total in sorted(per_code.items()):
        if total > limit:
            first = next(f for f in kept if f.code == code)
            kept.append(finding(code, first.severity, None,
                                f"... and {total - limit} more {code} finding(s) not listed",
                                first.hint))
    return kept


def problems_from(findings: Iterable[Finding]) -> list[Problem]:
    """Warnings and errors as report problems (info findings are not problems)."""
    return [Problem(file=f.path, code=f.code, message=f.message, hint=f.hint)
            for f in findings if f.severity != "info"]
