"""Merge-aware review of two MemoryCustodian trees that share a base (spec/memory-custodian.md:
"Run check --conflicts before merge/rebase work and use merge-aware review when Git is
available"). Pure: the three trees and each side's changed paths in, a status and findings out;
tasks/memstores/merge_git.py reads the trees from git.

What each side changed since the base: entries and Subjects that are new or differ (positions
aside). Deleted entries are not classified.

    CONFLICT  (mc_merge_conflict, blocking)
      both sides changed one entry differently; both made an active entry of the same normalized
      Scope + Subject + Facet; both created Subjects with one Canonical-Ref or an exact alias;
      one side supersedes an entry the other changes or links to (Supersedes, Superseded-By,
      Exception-To, Promoted-From, Promoted-To); one side marks a Subject merged while the other
      adds active entries on it; a side holds an invalid reconciliation record
    REVIEW    (mc_merge_review, needs a reconciliation)
      two active entries of different identity changed concurrently in one hard-memory file
      (decisions.md, constraints.md, do-not-use.md, areas/), or on different Facets of one
      Subject, or a project constraint beside an area entry: cleared by a valid record of either
      side naming both, or an Exception-To link between them; an entry whose Evidence file
      (repo:, doc:, test:) the other side changed (one entry: review it, no record clears it)
    CLEAR     neither: no proof of semantic consistency
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from schemas.stores import (
    MC_RELATION_FIELDS,
    McEntry,
    McReconciliation,
    McSubject,
    MergeStatus,
    StoreFinding,
)
from tasks.memstores.custodian import CustodianTree
from tasks.memstores.findings import store_finding
from tasks.memstores.reconciliations import (
    check_reconciliations,
    is_area_scope,
    reconciled_pairs,
    structural_identity,
)

HARD_MEMORY_FILES = ("decisions.md", "constraints.md", "do-not-use.md")
EVIDENCE_PATH_KINDS = ("repo", "doc", "test")
_POSITION = {"line", "line_end", "field_lines"}
_Item = TypeVar("_Item", McEntry, McSubject)


@dataclass
class Side:
    """One side of the merge: what it changed since the base."""

    name: str
    tree: CustodianTree
    entries: dict[str, McEntry] = field(default_factory=dict)
    subjects: dict[str, McSubject] = field(default_factory=dict)
    changed_paths: set[str] = field(default_factory=set)  # project-relative, from git diff
    records: list[McReconciliation] = field(default_factory=list)  # valid at this side
    invalid: list[StoreFinding] = field(default_factory=list)


def _by_id(items: list[_Item]) -> dict[str, _Item]:
    found: dict[str, _Item] = {}
    for item in items:
        key = item.entry_id if isinstance(item, McEntry) else item.subject_id
        found.setdefault(key.upper(), item)
    return found


def _changed(base: dict[str, _Item], side: dict[str, _Item]) -> dict[str, _Item]:
    return {key: item for key, item in side.items()
            if key not in base or base[key].model_dump(exclude=_POSITION)
            != item.model_dump(exclude=_POSITION)}


def make_side(name: str, base: CustodianTree, tree: CustodianTree,
              changed_paths: set[str] | None = None) -> Side:
    records, invalid = check_reconciliations(tree)
    return Side(name, tree, _changed(_by_id(base.entries), _by_id(tree.entries)),
                _changed(_by_id(base.subjects), _by_id(tree.subjects)),
                set(changed_paths or ()), records, invalid)


def _where(entry: McEntry) -> str:
    return f"{entry.file} line {entry.line}"


def _links(entry: McEntry) -> set[str]:
    found = {*entry.supersedes, *(entry.superseded_by or "").split()}
    for name in MC_RELATION_FIELDS:
        found.update(entry.fields.get(name, "").replace(",", " ").split())
    return {ident.upper() for ident in found}


def _conflict(entry: McEntry | McSubject, message: str) -> StoreFinding:
    return store_finding("mc_merge_conflict", entry.file, entry.line, message)


def _pair_conflict(left: Side, right: Side, a: McEntry, b: McEntry) -> StoreFinding | None:
    if a.entry_id == b.entry_id:
        return _conflict(a, f"{a.entry_id} was changed on both {left.name} ({_where(a)}) and "
                            f"{right.name} ({_where(b)}), differently")
    key = structural_identity(a)
    if a.status == b.status == "active" and key is not None and key == structural_identity(b):
        return _conflict(a, f"{left.name} {a.entry_id} ({_where(a)}) and {right.name} "
                            f"{b.entry_id} ({_where(b)}) are both active owners of "
                            f"{a.scope} + {a.subject} + {a.facet}")
    return None


def _review_reasons(a: McEntry, b: McEntry) -> list[str]:
    reasons = []
    if a.file == b.file and (a.file in HARD_MEMORY_FILES or a.file.startswith("areas/")):
        reasons.append(f"both in {a.file}")
    if a.subject and (a.subject or "").upper() == (b.subject or "").upper() and (
            (a.facet or "").lower() != (b.facet or "").lower()):
        reasons.append(f"different Facets ({a.facet}, {b.facet}) of Subject {a.subject}")
    for con, other in ((a, b), (b, a)):
        if con.kind == "CON" and (con.scope or "").strip().lower() == "project" and \
                is_area_scope(other.scope):
            reasons.append(f"project constraint {con.entry_id} beside area entry {other.entry_id}")
    return reasons


def _reconciled(a: McEntry, b: McEntry, pairs: set[frozenset[str]]) -> bool:
    return (frozenset((a.entry_id, b.entry_id)) in pairs
            or a.fields.get("Exception-To") == b.entry_id
            or b.fields.get("Exception-To") == a.entry_id)


def entry_pairs(left: Side, right: Side) -> tuple[list[StoreFinding], list[StoreFinding]]:
    """(conflicts, reviews) of every pair of entries the two sides changed."""
    conflicts: list[StoreFinding] = []
    reviews: list[StoreFinding] = []
    pairs = reconciled_pairs([*left.records, *right.records])
    for a in left.entries.values():
        for b in right.entries.values():
            if a.entry_id == b.entry_id and a.model_dump(exclude=_POSITION) == \
                    b.model_dump(exclude=_POSITION):
                continue  # the same change on both sides
            found = _pair_conflict(left, right, a, b)
            if found is not None:
                conflicts.append(found)
                continue
            if a.status != "active" or b.status != "active" or _reconciled(a, b, pairs):
                continue
            reasons = _review_reasons(a, b)
            if reasons:
                reviews.append(store_finding(
                    "mc_merge_review", a.file, a.line,
                    f"{left.name} {a.entry_id} ({_where(a)}) and {right.name} {b.entry_id} "
                    f"({_where(b)}) changed concurrently: {'; '.join(reasons)}; record a "
                    "distinct, superseded, exception or subject-merged reconciliation naming both"))
    return conflicts, reviews


def _status_of(tree: CustodianTree, key: str) -> str | None:
    found = _by_id(tree.entries).get(key)
    return found.status if found else None


def supersession_conflicts(base: CustodianTree, one: Side, other: Side) -> list[StoreFinding]:
    """`one` supersedes an entry (newly) that `other` changes while active or links to."""
    out = []
    for key, old in one.entries.items():
        if old.status != "superseded" or _status_of(base, key) == "superseded":
            continue
        for entry in other.entries.values():
            if entry.entry_id.upper() == key and entry.status == "active":
                what = "changes it"
            elif key in _links(entry):
                what = f"links to it from {entry.entry_id} ({_where(entry)})"
            else:
                continue
            out.append(_conflict(old, f"{one.name} supersedes {old.entry_id} ({_where(old)}) "
                                      f"while {other.name} {what}"))
    return out


def merged_subject_conflicts(base: CustodianTree, one: Side, other: Side) -> list[StoreFinding]:
    """`one` marks a Subject merged while `other` adds or changes active entries on it."""
    out = []
    before = _by_id(base.subjects)
    for key, subject in one.subjects.items():
        if subject.status != "merged" or (key in before and before[key].status == "merged"):
            continue
        for entry in other.entries.values():
            if entry.status == "active" and (entry.subject or "").upper() == key:
                out.append(_conflict(subject, f"{one.name} marks Subject {subject.subject_id} "
                                              f"merged into {subject.merged_into} while "
                                              f"{other.name} changes active {entry.entry_id} "
                                              f"({_where(entry)}) on it"))
    return out


def _subject_keys(subject: McSubject) -> set[tuple[str, str]]:
    keys = {("alias", " ".join(name.casefold().split())) for name in (subject.name, *subject.aliases)}
    if subject.canonical_ref:
        keys.add(("Canonical-Ref", subject.canonical_ref.strip().casefold()))
    return keys


def subject_conflicts(left: Side, right: Side) -> list[StoreFinding]:
    """Subjects both sides created or changed: one id changed differently, or two ids that share
    a Canonical-Ref or an exact alias."""
    out = []
    for a in left.subjects.values():
        for b in right.subjects.values():
            if a.subject_id == b.subject_id:
                if a.model_dump(exclude={"line"}) != b.model_dump(exclude={"line"}):
                    out.append(_conflict(a, f"Subject {a.subject_id} was changed on both "
                                            f"{left.name} and {right.name}, differently"))
                continue
            if a.status not in (None, "active") or b.status not in (None, "active"):
                continue
            for kind, value in sorted(_subject_keys(a) & _subject_keys(b)):
                out.append(_conflict(a, f"{left.name} Subject {a.subject_id} and {right.name} "
                                        f"Subject {b.subject_id} share the {kind} {value!r}"))
    return out


def evidence_path(item: str) -> str | None:
    """The project-relative file of a `repo:`, `doc:` or `test:` Evidence item."""
    kind, sep, rest = item.split()[0].partition(":") if item.split() else ("", "", "")
    if not sep or kind not in EVIDENCE_PATH_KINDS:
        return None
    path = rest.split("@", 1)[0].split("#", 1)[0].removeprefix("./")
    return path or None


def evidence_reviews(one: Side, other: Side) -> list[StoreFinding]:
    out = []
    for entry in one.entries.values():
        if entry.status != "active":
            continue
        for path in sorted({p for p in map(evidence_path, entry.evidence) if p}):
            if path in other.changed_paths:
                out.append(store_finding(
                    "mc_merge_review", entry.file, entry.line,
                    f"{one.name} {entry.entry_id} ({_where(entry)}) rests on Evidence {path}, "
                    f"which {other.name} changed: review the entry against it"))
    return out


def classify(base: CustodianTree, left: Side, right: Side) -> tuple[MergeStatus, list[StoreFinding]]:
    """CONFLICT, REVIEW or CLEAR, with the findings it rests on (sorted, each once)."""
    conflicts, reviews = entry_pairs(left, right)
    conflicts += subject_conflicts(left, right)
    for one, other in ((left, right), (right, left)):
        conflicts += supersession_conflicts(base, one, other)
        conflicts += merged_subject_conflicts(base, one, other)
        conflicts += [store_finding("mc_merge_conflict", f.file, f.line, f"{one.name}: {f.message}")
                      for f in one.invalid]
        reviews += evidence_reviews(one, other)
    findings = sorted(set(conflicts + reviews), key=lambda f: (f.code, f.file, f.line or 0, f.message))
    status: MergeStatus = "CONFLICT" if conflicts else "REVIEW" if reviews else "CLEAR"
    return status, findings
