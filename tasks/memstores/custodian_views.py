"""The read-only views of memory-custodian's CLI (`status`, `list --status S`, `subject list`)
over a parsed tree: plain rows, no I/O. Its write commands (`add`, `subject add`, `enable`,
`migrate`, `compact`) are the memory-custodian CLI's own: membank never writes docs/memory/."""

from __future__ import annotations

import fnmatch
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from tasks.memstores.custodian import CustodianTree

NEAR_LIMIT_RATIO = 0.8
TokenCounter = Callable[[list[str]], list[int]]


@dataclass(frozen=True)
class FileBudget:
    file: str
    tokens: int
    budget: int
    budget_line: int

    @property
    def state(self) -> str:
        """OVER BUDGET above the budget, NEAR LIMIT at 80 % of it, else ok."""
        if self.tokens > self.budget:
            return "OVER BUDGET"
        return "NEAR LIMIT" if self.tokens >= NEAR_LIMIT_RATIO * self.budget else "ok"


def file_budgets(tree: CustodianTree, count_tokens: TokenCounter) -> list[FileBudget]:
    """Every file the manifest's Context budget covers (first matching pattern), by path."""
    budgets = tree.manifest.budgets if tree.manifest is not None else []
    covered = [(rel, next((b for b in budgets if fnmatch.fnmatchcase(rel, b.pattern)), None))
               for rel in sorted(tree.files)]
    pairs = [(rel, b) for rel, b in covered if b is not None]
    counted = count_tokens([tree.files[rel] for rel, _ in pairs])
    return [FileBudget(rel, tokens, b.tokens, b.line)
            for (rel, b), tokens in zip(pairs, counted, strict=True)]


def entry_rows(tree: CustodianTree, status: str | None = None) -> list[dict[str, object]]:
    """`list [--status S]`: every entry (of that Status), in file order."""
    return [{"id": e.entry_id, "status": e.status, "type": e.kind, "scope": e.scope,
             "subject": e.subject, "facet": e.facet, "file": e.file, "line": e.line,
             "title": e.title}
            for e in tree.entries if status is None or e.status == status]


def subject_rows(tree: CustodianTree) -> list[dict[str, object]]:
    """`subject list`: every Subject of the registry."""
    return [{"id": s.subject_id, "name": s.name, "status": s.status, "kind": s.kind,
             "canonical_ref": s.canonical_ref, "aliases": list(s.aliases), "line": s.line}
            for s in tree.subjects]


def status_view(tree: CustodianTree, count_tokens: TokenCounter) -> dict[str, object]:
    """`status`: protocol version, entries by Status, Subjects, and each budgeted file's tokens
    with its NEAR LIMIT / OVER BUDGET state."""
    protocol = tree.manifest.protocol.get("protocol_version") if tree.manifest else None
    return {
        "manifest": tree.manifest is not None,
        "protocol_version": protocol,
        "entries": dict(sorted(Counter(e.status or "none" for e in tree.entries).items())),
        "subjects": len(tree.subjects),
        "files": len(tree.files),
        "budgets": [{"file": b.file, "tokens": b.tokens, "budget": b.budget, "state": b.state}
                    for b in file_budgets(tree, count_tokens)],
    }
