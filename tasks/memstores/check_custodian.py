"""The rules of a MemoryCustodian tree (spec/memory-custodian.md), one StoreFinding each.

    manifest      present (Hard Gate); every routed file exists (`Load if present` may not)
    admission     active entries: Status, Scope, Evidence (user-confirmed or source-backed);
                  decisions, constraints, do-not-use, areas, tombstones: an active Subject of
                  subjects.md and a controlled Facet; candidates only in inbox.md
    conflicts     one active owner per normalized Scope + Subject + Facet; reconciliation
                  records and Exception-To links agree with the entries
                  (tasks/memstores/reconciliations.py); `check --conflicts` keeps CONFLICT_CODES
    supersession  superseded entries name Superseded-By; links name existing entries; what an
                  active entry supersedes is marked superseded
    scopes        an active entry's Scope is `project` or a module the manifest declares
    reachability  active entries sit in files a route or a declared module loads
    budgets       per-file token budgets of the manifest (tiktoken): NEAR LIMIT at 80 %, OVER
                  BUDGET above; decision entries (title, Decision, Reason) <= 120 tokens
    freshness     active entries reviewed within `stale_days` (Reviewed/Updated/Date, else the
                  Entry ID's date)
    entry files   brief.md is not a scaffold and not about MemoryCustodian; AGENTS.md,
                  CLAUDE.md, GEMINI.md of the project root stay short (tasks/memstores/check_brief.py)

Privacy and secrets: `privacy_check` takes the detector of `membank audit privacy` (secrets
only, tasks/memstores/check.py `secret_check`): `mc_secret_detected`, the value masked.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import PurePosixPath

from schemas.stores import (
    MC_CANDIDATE_ONLY_EVIDENCE,
    MC_DECISION_MAX_TOKENS,
    MC_FACETS,
    MC_STATUSES,
    MC_SUBJECT_KINDS,
    McEntry,
    StoreFinding,
)
from tasks.memstores.check_brief import check_agent_files, check_brief
from tasks.memstores.custodian import ARCHIVE_DIR, INBOX, CustodianTree
from tasks.memstores.custodian_views import TokenCounter, file_budgets
from tasks.memstores.findings import PrivacyCheck, store_finding
from tasks.memstores.reconciliations import check_exceptions, check_reconciliations
from tasks.memstores.store_names import MANIFEST

# `check custodian --conflicts`: the conflict class of the rules, merge review findings included.
CONFLICT_CODES = frozenset({
    "mc_owner_conflict", "mc_subject_collision", "mc_duplicate_id", "mc_supersedes_active",
    "mc_invalid_reconciliation", "mc_invalid_exception", "mc_merge_conflict", "mc_merge_review",
    "mc_merge_unavailable",
})


@dataclass(frozen=True)
class CustodianCheckOptions:
    today: date
    stale_days: float
    count_tokens: TokenCounter
    privacy_check: PrivacyCheck | None = None


def check_subjects(tree: CustodianTree) -> list[StoreFinding]:
    """Subject identity: an ID, an exact normalized alias (or display name) and a Canonical-Ref
    each belong to one Subject. Collisions are reported, never merged."""
    out: list[StoreFinding] = []
    owners: dict[tuple[str, str], int] = {}
    for number, subject in enumerate(tree.subjects):
        keys = [("Subject ID", subject.subject_id.upper())]
        keys += [("alias", " ".join(a.casefold().split())) for a in {subject.name, *subject.aliases}]
        if subject.canonical_ref:
            keys.append(("Canonical-Ref", subject.canonical_ref.strip().casefold()))
        for kind, value in sorted(set(keys)):
            owner = owners.setdefault((kind, value), number)
            if owner != number:
                out.append(store_finding("mc_subject_collision", subject.file, subject.line,
                                         f"{subject.subject_id} repeats the {kind} {value!r} of "
                                         f"{tree.subjects[owner].subject_id}"))
    return out


def _in_archive(entry: McEntry) -> bool:
    return entry.file.startswith(f"{ARCHIVE_DIR}/")


def check_manifest(tree: CustodianTree) -> list[StoreFinding]:
    out: list[StoreFinding] = []
    if tree.manifest is None:
        return out
    registry = tree.manifest.protocol.get("subject_registry")
    targets = [(r.target, r.line, r.required) for r in tree.manifest.routes]
    if registry:
        targets.append((registry, 0, True))
    for target, line, required in targets:
        if not required or target.endswith("/"):
            continue
        if target not in tree.files:
            out.append(store_finding("mc_route_missing", MANIFEST, line or None,
                                     f"routes to {target}, which does not exist"))
    return out


def _admission(entry: McEntry, subjects: set[str], out: list[StoreFinding]) -> None:
    """Required fields of an active entry, its Subject, Facet and Evidence."""
    required = ["Scope", "Evidence"]
    if entry.kind in MC_SUBJECT_KINDS:
        required += ["Subject", "Facet"]
    values = {"Scope": entry.scope, "Evidence": entry.evidence, "Subject": entry.subject,
              "Facet": entry.facet}
    for name in required:
        if not values[name]:
            out.append(store_finding("mc_missing_field", entry.file, entry.line,
                                     f"active entry {entry.entry_id} has no {name}"))
    if entry.subject and entry.subject not in subjects:
        out.append(store_finding("mc_unknown_subject", entry.file, entry.field_lines.get("Subject"),
                                 f"{entry.entry_id} names Subject {entry.subject}, not an active "
                                 "Subject of subjects.md"))
    if entry.facet and entry.facet not in MC_FACETS:
        out.append(store_finding("mc_invalid_facet", entry.file, entry.field_lines.get("Facet"),
                                 f"{entry.entry_id} has Facet {entry.facet!r}"))
    if entry.evidence and all(e.split()[0] in MC_CANDIDATE_ONLY_EVIDENCE for e in entry.evidence):
        out.append(store_finding("mc_evidence_inadmissible", entry.file,
                                 entry.field_lines.get("Evidence"),
                                 f"active entry {entry.entry_id} has only candidate evidence "
                                 f"({', '.join(entry.evidence)})"))


def check_entries(tree: CustodianTree) -> list[StoreFinding]:
    """Status, placement, admission and ownership of every entry."""
    out: list[StoreFinding] = []
    subjects = {s.subject_id for s in tree.subjects if s.status in (None, "active")}
    owners: dict[tuple[str, str, str], McEntry] = {}
    seen: dict[str, McEntry] = {}
    for entry in tree.entries:
        if entry.entry_id in seen:
            first = seen[entry.entry_id]
            out.append(store_finding("mc_duplicate_id", entry.file, entry.line,
                                     f"{entry.entry_id} is also the entry at {first.file} line "
                                     f"{first.line}"))
            continue
        seen[entry.entry_id] = entry
        if entry.status not in MC_STATUSES:
            said = f"Status {entry.status!r}" if entry.status else "no Status"
            out.append(store_finding("mc_unknown_status", entry.file,
                                     entry.field_lines.get("Status", entry.line),
                                     f"{entry.entry_id} has {said}"))
            continue
        in_inbox = entry.file == INBOX
        if (entry.status in ("candidate", "promoted") and not in_inbox) or (
            entry.status == "active" and in_inbox
        ):
            out.append(store_finding("mc_candidate_misplaced", entry.file, entry.line,
                                     f"{entry.entry_id} ({entry.status}) in {entry.file}"))
            continue
        if entry.status != "active" or in_inbox:
            continue
        if _in_archive(entry):
            out.append(store_finding("mc_active_in_archive", entry.file, entry.line,
                                     f"{entry.entry_id} is active but archive/ is never loaded"))
            continue
        _admission(entry, subjects, out)
        if entry.scope and entry.subject and entry.facet:
            key = (" ".join(entry.scope.lower().split()), entry.subject.upper(), entry.facet.lower())
            owner = owners.setdefault(key, entry)
            if owner is not entry:
                out.append(store_finding(
                    "mc_owner_conflict", entry.file, entry.line,
                    f"{entry.entry_id} and {owner.entry_id} ({owner.file} line {owner.line}) are "
                    f"both active owners of {key[0]} + {key[1]} + {key[2]}"))
    return out


def check_links(tree: CustodianTree) -> list[StoreFinding]:
    """Supersession: superseded entries are linked; links name entries that exist."""
    out: list[StoreFinding] = []
    by_id: dict[str, McEntry] = {}
    for entry in tree.entries:
        by_id.setdefault(entry.entry_id, entry)
    for entry in tree.entries:
        if by_id[entry.entry_id] is not entry:
            continue
        if entry.status == "superseded":
            if not entry.superseded_by:
                out.append(store_finding("mc_superseded_unlinked", entry.file,
                                         entry.field_lines.get("Status", entry.line),
                                         f"{entry.entry_id} is superseded but names no Superseded-By"))
            elif entry.superseded_by not in by_id:
                out.append(store_finding("mc_dangling_link", entry.file,
                                         entry.field_lines.get("Superseded-By"),
                                         f"{entry.entry_id} is Superseded-By {entry.superseded_by}, "
                                         "which no entry has"))
        promoted_to = entry.fields.get("Promoted-To")
        if entry.status == "promoted" and promoted_to and promoted_to not in by_id:
            out.append(store_finding("mc_dangling_link", entry.file,
                                     entry.field_lines.get("Promoted-To"),
                                     f"{entry.entry_id} is Promoted-To {promoted_to}, which no "
                                     "entry has"))
        if entry.status != "active":
            continue
        for old_id in entry.supersedes:
            old = by_id.get(old_id)
            line = entry.field_lines.get("Supersedes")
            if old is None:
                out.append(store_finding("mc_dangling_link", entry.file, line,
                                         f"{entry.entry_id} supersedes {old_id}, which no entry has"))
            elif old.status == "active":
                out.append(store_finding("mc_supersedes_active", old.file, old.line,
                                         f"{old_id} is superseded by {entry.entry_id} but still "
                                         "Status: active"))
    return out


def _decision_text(entry: McEntry) -> str:
    return "\n".join([entry.title, entry.sections.get("Decision", ""),
                      entry.sections.get("Reason", "")])


def check_budgets(tree: CustodianTree, count_tokens: TokenCounter) -> list[StoreFinding]:
    """File budgets from the manifest, and the 120-token decision entry budget."""
    out: list[StoreFinding] = []
    for item in file_budgets(tree, count_tokens):
        if item.state == "OVER BUDGET":
            out.append(store_finding("mc_budget_over", item.file, None,
                                     f"OVER BUDGET: {item.tokens} tokens, budget {item.budget} "
                                     f"(manifest.md line {item.budget_line})"))
        elif item.state == "NEAR LIMIT":
            out.append(store_finding("mc_budget_near_limit", item.file, None,
                                     f"NEAR LIMIT: {item.tokens} tokens, "
                                     f"{item.tokens * 100 // item.budget} % of {item.budget} "
                                     f"(manifest.md line {item.budget_line})"))
    decisions = [e for e in tree.entries
                 if e.status == "active" and "Decision" in e.sections and not _in_archive(e)]
    for entry, tokens in zip(decisions, count_tokens([_decision_text(e) for e in decisions]),
                             strict=True):
        if tokens > MC_DECISION_MAX_TOKENS:
            out.append(store_finding("mc_decision_too_long", entry.file, entry.line,
                                     f"{entry.entry_id} is {tokens} tokens (title, Decision, Reason; "
                                     f"at most {MC_DECISION_MAX_TOKENS})"))
    return out


SCOPE_KINDS = {"areas": "area", "rules": "rule", "profiles": "profile"}


def manifest_scopes(tree: CustodianTree) -> list[str]:
    """The scopes the manifest declares: `project`, and `area:<name>`, `rule:<name>`,
    `profile:<name>` for each module of its optional module index."""
    modules = tree.manifest.modules if tree.manifest is not None else []
    return ["project", *sorted({f"{SCOPE_KINDS.get(m.kind, m.kind)}:{PurePosixPath(m.target).stem}"
                                for m in modules})]


def _loaded_entries(tree: CustodianTree) -> list[McEntry]:
    return [e for e in tree.entries
            if e.status == "active" and e.file != INBOX and not _in_archive(e)]


def check_scopes(tree: CustodianTree) -> list[StoreFinding]:
    """An active entry's Scope is one the manifest declares (`Scope: galaxy` is not)."""
    if tree.manifest is None:
        return []
    scopes = manifest_scopes(tree)
    return [store_finding("mc_invalid_scope", e.file, e.field_lines.get("Scope", e.line),
                          f"{e.entry_id} has Scope {e.scope!r}, not a scope of the manifest "
                          f"({', '.join(scopes)})")
            for e in _loaded_entries(tree)
            if e.scope and " ".join(e.scope.lower().split()) not in scopes]


def reachable_files(tree: CustodianTree) -> set[str]:
    """Files normal task loading can reach: the manifest's routes and its declared modules."""
    if tree.manifest is None:
        return set()
    return {r.target for r in tree.manifest.routes} | {m.target for m in tree.manifest.modules}


def check_reachability(tree: CustodianTree) -> list[StoreFinding]:
    """`check --reachability`: an active entry in a file no route or module loads is an
    invariant normal task loading never sees."""
    if tree.manifest is None:
        return []
    reachable = reachable_files(tree)
    return [store_finding("mc_entry_unreachable", e.file, e.line,
                          f"{e.entry_id} is active in {e.file}, which no manifest route or "
                          "module loads")
            for e in _loaded_entries(tree) if e.file not in reachable]


def check_freshness(tree: CustodianTree, today: date, stale_days: float) -> list[StoreFinding]:
    out: list[StoreFinding] = []
    for entry in tree.entries:
        if entry.status != "active" or entry.file == INBOX or _in_archive(entry):
            continue
        reviewed = entry.reviewed
        if reviewed is not None and (today - reviewed).days > stale_days:
            out.append(store_finding("mc_entry_stale", entry.file, entry.line,
                                     f"{entry.entry_id} was last reviewed {reviewed.isoformat()}, "
                                     f"{(today - reviewed).days} days ago (limit {stale_days:g})"))
    return out


def check_custodian_tree(tree: CustodianTree, options: CustodianCheckOptions) -> list[StoreFinding]:
    """Every rule; parse findings included. Without a manifest only the manifest finding and
    the entry rules apply: routes and budgets come from the manifest alone."""
    out = list(tree.findings)
    out += check_manifest(tree)
    out += check_subjects(tree)
    out += check_entries(tree)
    out += check_links(tree)
    out += check_exceptions(tree)
    out += check_reconciliations(tree)[1]
    out += check_scopes(tree)
    out += check_reachability(tree)
    if tree.manifest is not None:
        out += check_budgets(tree, options.count_tokens)
    out += check_freshness(tree, options.today, options.stale_days)
    out += check_brief(tree)
    out += check_agent_files(tree, options.count_tokens)
    if options.privacy_check is not None:
        for rel in sorted(tree.files):
            out += options.privacy_check(rel, tree.files[rel])
    return out
