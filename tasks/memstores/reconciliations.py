"""Reconciliation records and Exception-To links of a MemoryCustodian tree, checked against the
tree's own entries and Subjects (spec/memory-custodian.md, Writing Memory: "REVIEW requires an
explicit distinct, superseded, exception, or subject-merged reconciliation").

    reconciliations.md   `## MC-REC-YYYYMMDD-8hex — Title`, Status: active, Resolution, an
                         `Entries:` list of >= 2 Entry IDs, an `Evidence:` list (admissible as an
                         active entry's: not only agent-observed / conversation-unconfirmed)
    distinct             active entries of different Scope + Subject + Facet, on active Subjects
    superseded           two entries: one superseded, one active, linked by Supersedes or
                         Superseded-By
    exception            two entries: an area-scoped one whose Exception-To names the other, an
                         active project-scoped entry of the same Subject + Facet
    subject-merged       two entries: one's Subject is `Status: merged` with `Merged-Into:` the
                         other's Subject, which is active

Every Entry ID a record names resolves to exactly one entry. Only valid records clear a REVIEW
pair of the merge review (tasks/memstores/merge_review.py). Pure: trees in, findings out.
"""

from __future__ import annotations

from itertools import combinations

from schemas.stores import MC_CANDIDATE_ONLY_EVIDENCE, McEntry, McReconciliation, McSubject, StoreFinding
from tasks.memstores.custodian import CustodianTree
from tasks.memstores.findings import store_finding

Identity = tuple[str, str, str]


def structural_identity(entry: McEntry) -> Identity | None:
    """Normalized Scope + Subject ID + Facet, the structural owner; None when one is missing."""
    if not (entry.scope and entry.subject and entry.facet):
        return None
    return " ".join(entry.scope.lower().split()), entry.subject.upper(), entry.facet.lower()


def is_area_scope(scope: str | None) -> bool:
    return bool(scope) and " ".join((scope or "").lower().split()).startswith("area:")


def evidence_admissible(evidence: list[str]) -> bool:
    """Some item is user-confirmed or source-backed (candidate-only evidence is not)."""
    return any(item.split()[0] not in MC_CANDIDATE_ONLY_EVIDENCE for item in evidence if item.split())


def _subjects_by_id(subjects: list[McSubject]) -> dict[str, McSubject]:
    return {s.subject_id.upper(): s for s in subjects}


def _subject_active(subject: McSubject | None) -> bool:
    return subject is not None and subject.status in (None, "active")


def exception_problem(entry: McEntry, by_id: dict[str, McEntry]) -> str | None:
    """Why an active entry's Exception-To link is invalid, or None when it holds."""
    target_id = entry.fields.get("Exception-To", "")
    if not is_area_scope(entry.scope):
        return (f"{entry.entry_id} has Exception-To {target_id} but Scope {entry.scope!r}: only "
                "an area-scoped entry is an exception to a project entry")
    target = by_id.get(target_id)
    if target is None:
        return f"{entry.entry_id} is an Exception-To {target_id}, which no entry has"
    if target.status != "active" or " ".join((target.scope or "").lower().split()) != "project":
        return (f"{entry.entry_id} is an Exception-To {target_id}, which is not an active "
                f"project entry (Status {target.status}, Scope {target.scope})")
    mine, theirs = structural_identity(entry), structural_identity(target)
    if mine is None or theirs is None or mine[1:] != theirs[1:]:
        return (f"{entry.entry_id} is an Exception-To {target_id} of another Subject + Facet "
                f"({entry.subject} + {entry.facet}, not {target.subject} + {target.facet})")
    return None


def check_exceptions(tree: CustodianTree) -> list[StoreFinding]:
    """`Exception-To` of an active entry names an active project entry of its Subject + Facet,
    from an area-scoped entry."""
    by_id: dict[str, McEntry] = {}
    for entry in tree.entries:
        by_id.setdefault(entry.entry_id, entry)
    out = []
    for entry in tree.entries:
        if entry.status != "active" or not entry.fields.get("Exception-To"):
            continue
        problem = exception_problem(entry, by_id)
        if problem:
            out.append(store_finding("mc_invalid_exception", entry.file,
                                     entry.field_lines.get("Exception-To", entry.line), problem))
    return out


def _superseded_holds(pair: list[McEntry]) -> bool:
    return any(old.status == "superseded" and new.status == "active"
               and (old.superseded_by == new.entry_id or old.entry_id in new.supersedes)
               for old, new in (pair, pair[::-1]))


def _exception_holds(pair: list[McEntry]) -> bool:
    by_id = {e.entry_id: e for e in pair}
    return any(area.status == "active" and area.fields.get("Exception-To") == other.entry_id
               and exception_problem(area, by_id) is None for area, other in (pair, pair[::-1]))


def _merged_holds(pair: list[McEntry], subjects: dict[str, McSubject]) -> bool:
    for left, right in (pair, pair[::-1]):
        merged = subjects.get((left.subject or "").upper())
        into = subjects.get((right.subject or "").upper())
        if (merged is not None and merged.status == "merged" and _subject_active(into)
                and (merged.merged_into or "").upper() == (right.subject or "").upper()):
            return True
    return False


def _distinct_holds(entries: list[McEntry], subjects: dict[str, McSubject]) -> bool:
    identities = [structural_identity(e) for e in entries]
    return (all(e.status == "active" and _subject_active(subjects.get((e.subject or "").upper()))
                for e in entries)
            and None not in identities and len(set(identities)) == len(identities))


_RELATION_NEEDS = {
    "superseded": "one superseded and one active entry linked by Supersedes / Superseded-By",
    "exception": "an area entry whose Exception-To names an active project entry of the same "
                 "Subject + Facet",
    "subject-merged": "one entry's Subject marked merged into the other's active Subject",
    "distinct": "active entries on active Subjects with different Scope + Subject + Facet",
}


def _relation_problem(record: McReconciliation, entries: list[McEntry],
                      subjects: dict[str, McSubject]) -> str | None:
    resolution = record.resolution or ""
    if resolution != "distinct" and len(entries) != 2:
        return f"a {resolution} resolution names exactly two entries (it names {len(entries)})"
    holds = {
        "superseded": lambda: _superseded_holds(entries),
        "exception": lambda: _exception_holds(entries),
        "subject-merged": lambda: _merged_holds(entries, subjects),
        "distinct": lambda: _distinct_holds(entries, subjects),
    }[resolution]()
    if holds:
        return None
    return f"{resolution} needs {_RELATION_NEEDS[resolution]}; the entries it names are not"


def _record_problems(record: McReconciliation, tree: CustodianTree,
                     subjects: dict[str, McSubject]) -> list[str]:
    problems = list(record.problems)
    if not problems and not evidence_admissible(record.evidence):
        problems.append("Evidence must be user-confirmed or source-backed, not only "
                        f"{', '.join(record.evidence)}")
    if problems:
        return problems
    found = {ident: [e for e in tree.entries if e.entry_id == ident] for ident in record.entries}
    unresolved = [ident for ident, hits in found.items() if len(hits) != 1]
    if unresolved:
        return [f"{', '.join(unresolved)} must each name exactly one entry of the tree"]
    problem = _relation_problem(record, [hits[0] for hits in found.values()], subjects)
    return [problem] if problem else []


def check_reconciliations(tree: CustodianTree) -> tuple[list[McReconciliation], list[StoreFinding]]:
    """(valid records, one finding per invalid record naming its id and the cause)."""
    subjects = _subjects_by_id(tree.subjects)
    valid: list[McReconciliation] = []
    out: list[StoreFinding] = []
    seen_ids: dict[str, McReconciliation] = {}
    seen_sets: dict[frozenset[str], McReconciliation] = {}
    for record in tree.reconciliations:
        problems = _record_problems(record, tree, subjects)
        first = seen_ids.setdefault(record.record_id, record)
        if first is not record:
            problems.insert(0, f"the record id is also used at line {first.line}")
        same = seen_sets.setdefault(frozenset(record.entries), record)
        if same is not record and not problems:
            problems.append(f"it names the same entries as {same.record_id}")
        if problems:
            out.append(store_finding("mc_invalid_reconciliation", record.file, record.line,
                                     f"{record.record_id}: {'; '.join(problems)}"))
        else:
            valid.append(record)
    return valid, out


def reconciled_pairs(records: list[McReconciliation]) -> set[frozenset[str]]:
    """Every pair of Entry IDs that valid records name together."""
    return {frozenset(pair) for record in records for pair in combinations(record.entries, 2)}
