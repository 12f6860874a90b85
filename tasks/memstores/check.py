"""Audit stores on disk: find, read (never write), check; findings in the health model.

Used by `membank check mem|custodian` and by the nightly reconcile (see `audit_configured`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from schemas.health import Finding
from schemas.stores import McMergeReview, StoreFinding
from tasks.memstores.check_custodian import CustodianCheckOptions, check_custodian_tree
from tasks.memstores.check_mem import check_mem_store, mem_counts
from tasks.memstores.custodian import read_custodian
from tasks.memstores.discover import (
    custodian_dir_for_check,
    find_custodian_dirs,
    find_manifestless_dirs,
    find_mem_stores,
)
from tasks.memstores.findings import store_finding, to_finding, to_findings
from tasks.memstores.mem_jsonl import read_mem_store
from tasks.memstores.store_names import is_mem_store
from tasks.store.errors import InputError
from tasks.store.settings import MembankSettings
from tasks.store.tokens import count_tokens


@dataclass
class StoreAudit:
    kind: str  # mem | custodian
    stores: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def exit_code(self) -> int:
        return 1 if any(f.severity != "info" for f in self.findings) else 0


def _shown(store: Path, given: Path) -> str:
    """How a store is named in findings: as the user gave the path (relative stays relative)."""
    try:
        return os.path.relpath(store, Path.cwd()) if not given.is_absolute() else str(store)
    except ValueError:
        return str(store)


def audit_mem(path: Path) -> StoreAudit:
    """Every .mem store at or under `path`; none there means the check cannot run."""
    audit = StoreAudit("mem")
    if not path.exists():
        raise InputError("path does not exist", file=path, hint="give a .mem/ folder or a repository")
    stores = find_mem_stores(path)
    if not stores:
        raise InputError("no .mem store here (no .mem/ folder with index.jsonl or domains/)",
                         file=path, hint="give the .mem/ folder or the repository holding it")
    for root in stores:
        store = read_mem_store(root)
        audit.stores.append(_shown(root, path))
        audit.findings += to_findings(check_mem_store(store, mem_secret_check),
                                      _shown(root, path))
        for key, value in mem_counts(store).items():
            audit.counts[key] = audit.counts.get(key, 0) + value
    return audit


def secret_check(rel: str, text: str) -> list[StoreFinding]:
    """Secrets in a MemoryCustodian file (the detector of `membank audit privacy`, secrets
    only): one finding per line, the value masked."""
    from tasks.privacy.detect import DetectOptions, scan_text

    found = scan_text(rel, text, DetectOptions(pii=False))
    by_line: dict[int, list[str]] = {}
    for item in found:
        by_line.setdefault(item.line, []).append(f"{item.kind} {item.preview}")
    return [store_finding("mc_secret_detected", rel, line,
                          "; ".join(dict.fromkeys(kinds)) + ": a credential in project memory")
            for line, kinds in sorted(by_line.items())]


# Lines worth the detector's time (it reads ~0.5 MB/s): a secret assigned, or a token's shape.
# Matched on the lowered text (a case-blind regex reads 4x slower).
_SECRET_HINT = re.compile(
    r"(?:pass(?:word|wd)?|secret|token|api[_-]?key|access[_-]?key|credential|bearer)\W{0,3}\s*[=:]"
    r"|akia[0-9a-z]{12}|asia[0-9a-z]{12}|gh[pousr]_[a-z0-9]{20}|xox[abposr]-|sk_live_"
    r"|sk-[a-z0-9]{20}|-----begin|://[^/\s:@]+:[^/\s@]+@")


def mem_secret_check(rel: str, text: str) -> list[StoreFinding]:
    """Secrets in a .mem file (mem-jsonl §5: never recorded), one finding per line naming its
    record, the value masked. Only lines with a secret's hint are given to the detector."""
    starts = sorted({text.rfind("\n", 0, m.start()) + 1 for m in _SECRET_HINT.finditer(text.lower())})
    if not starts:
        return []
    from tasks.memstores.mem_jsonl import ID_IN_LINE
    from tasks.privacy.detect import DetectOptions, scan_text

    out: list[StoreFinding] = []
    number, counted = 1, 0
    for start in starts:
        number, counted = number + text.count("\n", counted, start), start
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        kinds = list(dict.fromkeys(f"{f.kind} {f.preview}" for f in
                                   scan_text(rel, line + "\n", DetectOptions(pii=False))))
        if kinds:
            ident = ID_IN_LINE.search(line.encode("utf-8"))
            named = f"record {ident.group(1).decode()!r}: " if ident else ""
            out.append(store_finding("mem_secret_detected", rel, number,
                                     f"{named}{'; '.join(kinds)}: a credential in project memory"))
    return out


def custodian_options(settings: MembankSettings, today_iso: str) -> CustodianCheckOptions:
    from datetime import date

    encoding = settings.tokenizer_encoding
    return CustodianCheckOptions(
        today=date.fromisoformat(today_iso[:10]),
        stale_days=settings.store_stale_days,
        count_tokens=lambda texts: count_tokens(texts, encoding, threads=1),
        privacy_check=secret_check,  # memory-custodian: ask before writing credentials
    )


def custodian_roots(path: Path, *, every: bool = False) -> list[Path]:
    """The memory directory at or under `path` (all of them with `every`); none: InputError."""
    if not path.exists():
        raise InputError("path does not exist", file=path,
                         hint="give a docs/memory/ folder or a repository")
    roots = sorted([*find_custodian_dirs(path), *find_manifestless_dirs(path)]) if every else []
    if not roots:
        found = custodian_dir_for_check(path)
        if found is None:
            raise InputError("no MemoryCustodian memory directory here (no manifest.md, no "
                             "memory files)", file=path, hint="give the docs/memory/ folder")
        roots = [found]
    return roots


def audit_custodian(path: Path, options: CustodianCheckOptions, *, every: bool = False) -> StoreAudit:
    """The memory directory at or under `path` (all of them with `every`)."""
    roots = custodian_roots(path, every=every)
    audit = StoreAudit("custodian")
    for root in roots:
        tree = read_custodian(root)
        audit.stores.append(_shown(root, path))
        items: list[StoreFinding] = check_custodian_tree(tree, options)
        audit.findings += to_findings(items, _shown(root, path))
        audit.counts["entries"] = audit.counts.get("entries", 0) + len(tree.entries)
        audit.counts["subjects"] = audit.counts.get("subjects", 0) + len(tree.subjects)
        audit.counts["files"] = audit.counts.get("files", 0) + len(tree.files)
    return audit


def audit_merge(path: Path, ref: str, *, every: bool = False) -> tuple[list[McMergeReview],
                                                                      list[Finding]]:
    """`--merge-base REF`: the merge review of each memory directory audit_custodian checks."""
    from tasks.memstores.merge_git import review_merge, validate_ref

    validate_ref(ref)
    reviews: list[McMergeReview] = []
    findings: list[Finding] = []
    for root in custodian_roots(path, every=every):
        review, items = review_merge(root, ref, _shown(root, path))
        reviews.append(review)
        findings += to_findings(items, review.store)
    return reviews, findings


def _unique(paths: list[Path]) -> list[Path]:
    return sorted({p.resolve(): p for p in paths}.values())


def configured_stores(settings: MembankSettings, root: Path) -> tuple[list[Path], list[Path]]:
    """(.mem stores, MemoryCustodian trees) the nightly reconcile audits: the memory root's own
    (`<root>/.mem`, trees under `<root>/docs`) and those at or under `settings.store_paths`."""
    configured = [Path(p).expanduser() for p in settings.store_paths]
    mem = [root / ".mem"] if is_mem_store(root / ".mem") else []
    custodian = find_custodian_dirs(root / "docs")
    for place in configured:
        mem += find_mem_stores(place)
        custodian += find_custodian_dirs(place)
    return _unique(mem), _unique(custodian)


def audit_configured(settings: MembankSettings, root: Path, now_iso: str) -> list[Finding]:
    """Findings of every configured store, for the reconcile health summary; a configured path
    that does not exist is one finding, not a failed run."""
    items: list[Finding] = [
        to_finding(store_finding("mem_store_missing", str(path), None,
                                 "configured store path (MEMBANK_STORE_PATHS) does not exist"))
        for path in settings.store_paths if not Path(path).expanduser().exists()]
    mem, custodian = configured_stores(settings, root)
    if custodian:
        options = custodian_options(settings, now_iso)
        for tree in custodian:
            items += to_findings(check_custodian_tree(read_custodian(tree), options),
                                 _named(tree, root))
    for store in mem:
        items += to_findings(check_mem_store(read_mem_store(store), mem_secret_check),
                             _named(store, root))
    return items


def _named(store: Path, root: Path) -> str:
    """Root-relative for the root's own stores (Finding.path is root-relative), else absolute."""
    try:
        return store.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(store.resolve())
