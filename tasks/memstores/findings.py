"""StoreFinding -> the health summary's Finding, with severity, rule and hint from the one code
table (schemas.health.STORE_FINDING_CODES)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable

from schemas.health import STORE_FINDING_CODES, Finding
from schemas.stores import StoreFinding

# The seam for secrets / private data in store text: (store-relative file, text) -> findings.
# Filled by the detector of `membank audit privacy` (issue 16) once it exists; until then the
# checks claim nothing about privacy.
PrivacyCheck = Callable[[str, str], list[StoreFinding]]


def store_finding(code: str, file: str, line: int | None, message: str) -> StoreFinding:
    if code not in STORE_FINDING_CODES:  # a typo here would hide a rule: fail loudly
        raise KeyError(f"unknown store finding code {code!r}")
    return StoreFinding(code=code, file=file, line=line, message=message)


def to_finding(item: StoreFinding, prefix: str = "") -> Finding:
    """`prefix` (the store's path as the user gave it) is put before the store-relative file."""
    severity, rule, hint = STORE_FINDING_CODES[item.code]
    path = f"{prefix.rstrip('/')}/{item.file}" if prefix else item.file
    if item.file == "." and prefix:  # about the whole store (the merge review could not run)
        path = prefix
    if item.file.startswith("../"):  # a project-root file (AGENTS.md) beside the store
        path = posixpath.normpath(path)
    where = f"line {item.line}: " if item.line is not None else ""
    return Finding(code=item.code, severity=severity, path=path,
                   message=f"{where}{item.message} [{rule}]", hint=hint)


def to_findings(items: Iterable[StoreFinding], prefix: str = "") -> list[Finding]:
    ordered = sorted(items, key=lambda f: (f.file, f.line or 0, f.code, f.message))
    return [to_finding(item, prefix) for item in ordered]
