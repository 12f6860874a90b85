"""Health summary: what reconcile and the freshness audit found, for people and ops dashboards.

Written under <root>/context/health/ as JSON (dated file, latest.json, a line in history.jsonl),
as a Prometheus textfile and as Prefect artifacts. Its JSON Schema is generated into
schemas/json/ from this model (tasks/json_schemas.py); a test fails when that file is stale.

Status rule (one place, `decide_status`): any finding of severity `error` makes the memory
`failing`; otherwise any `warning` makes it `degraded`; `info` findings never change the status.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.common import UtcTimestamp

HEALTH_SCHEMA_VERSION: Final = "1.0"

# Finding codes of the graph content checks (reconcile): what distill should never leave behind.
ENTITY_WITHOUT_EVIDENCE = "entity_without_evidence"  # no observation and no source (warning)
ENTITY_NAME_MARKUP = "entity_name_markup"  # name starts with a list marker or heading punctuation
RELATION_TYPE_UNKNOWN = "relation_type_unknown"  # relation type not in the relation vocabulary

Severity = Literal["info", "warning", "error"]
HealthStatus = Literal["healthy", "degraded", "failing"]
HealthKind = Literal["reconcile", "freshness", "privacy"]
HealthMode = Literal["check", "repair", "audit"]

# Finding codes of the privacy audit (tasks/privacy/audit.py) and their severities; the ingest
# and proposal gates report the same codes. A finding names file, line, kind and a masked
# preview, never the value.
PRIVACY_FINDING_CODES: dict[str, Severity] = {"secret_detected": "error", "pii_detected": "warning"}


class Finding(BaseModel):
    """One thing wrong (or worth knowing) about one file."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="Stable machine code, e.g. dead_link, invalid_jsonc.")
    severity: Severity
    path: str | None = Field(None, description="Root-relative path of the file concerned.")
    message: str
    hint: str | None = Field(None, description="What a person (or a repair) should do.")


# The pages_by_type key of a page whose front matter states no `type`: the spec's historian
# records (context/project.md, sessions, plans) carry only their time keys, so they are not
# invalid; a page whose front matter cannot be read is reported by its own finding.
UNTYPED_PAGE = "untyped"


class HealthCounts(BaseModel):
    """What was counted. `null` means this flow does not assess it (reconcile does not judge
    staleness; the freshness audit does not check links), never zero."""

    model_config = ConfigDict(extra="forbid")

    pages_total: int = 0
    # Keyed by front matter `type`; UNTYPED_PAGE counts pages that state none.
    pages_by_type: dict[str, int] = Field(default_factory=dict)
    entities: int = 0
    relations: int = 0
    observations_active: int = 0
    observations_superseded: int = 0
    orphans: int | None = None
    dead_links: int | None = None
    invalid_files: int | None = None
    stale_pages: int | None = None
    stale_hubs: int | None = None
    stale_observations: int | None = None
    sources_changed: int | None = None
    secrets_found: int | None = None
    pii_found: int | None = None
    repairs: int = 0
    findings_by_severity: dict[str, int] = Field(default_factory=dict)
    findings_by_code: dict[str, int] = Field(default_factory=dict)


class HubFreshness(BaseModel):
    """A hub row with subtree freshness (spec/wiki-memory-pkf.md, hubsByRecent)."""

    model_config = ConfigDict(extra="forbid")

    path: str
    title: str | None = None
    updated_at: UtcTimestamp | None = Field(None, description="The hub page's own updated_at.")
    subtree_updated_at: UtcTimestamp | None = Field(
        None, description="Most recent write under the hub: itself and its direct children."
    )
    freshest_path: str | None = Field(None, description="The page that wrote last under the hub.")
    age_days: float | None = None
    children: int = 0


class PageAge(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str
    type: str | None = None
    updated_at: UtcTimestamp
    age_days: float


class FreshnessDetail(BaseModel):
    model_config = ConfigDict(extra="forbid")

    thresholds: dict[str, float] = Field(default_factory=dict)
    hubs_by_recent: list[HubFreshness] = Field(default_factory=list)
    pages: list[PageAge] = Field(default_factory=list, description="Every page, oldest first.")


class HealthSummary(BaseModel):
    """The versioned health document both scheduled flows emit."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal["1.0"] = HEALTH_SCHEMA_VERSION
    kind: HealthKind
    project: str = "default"
    root: str
    generated_at: UtcTimestamp
    status: HealthStatus
    status_rule: str = Field(description="The rule that decided the status, in words.")
    mode: HealthMode
    counts: HealthCounts = Field(default_factory=HealthCounts)
    findings: list[Finding] = Field(default_factory=list)
    repaired: list[Finding] = Field(
        default_factory=list, description="What this run repaired (empty for --check)."
    )
    durations_seconds: dict[str, float] = Field(default_factory=dict)
    freshness: FreshnessDetail | None = None

    def exit_code(self) -> int:
        return 0 if self.status == "healthy" else 1


def decide_status(findings: list[Finding]) -> tuple[HealthStatus, str]:
    """failing if any error, degraded if any warning, else healthy; with the rule in words."""
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = sum(1 for f in findings if f.severity == "warning")
    if errors:
        return "failing", f"failing: {errors} finding(s) of severity error (any error fails)"
    if warnings:
        return "degraded", f"degraded: {warnings} warning(s) and no error (any warning degrades)"
    return "healthy", "healthy: no error or warning findings (info findings do not count)"


# Finding codes of the store audits (`membank check mem|custodian`, nightly reconcile):
# code -> (severity, the rule it enforces, hint). One place; tasks/memstores/ only uses these.
STORE_FINDING_CODES: dict[str, tuple[Severity, str, str]] = {
    "mem_store_missing": ("error", "mem-jsonl §2: .mem/ holds index.jsonl and domains/",
                          "point at a .mem/ folder (or a folder holding one)"),
    "mem_invalid_json": ("error", "mem-jsonl §3: one record = one line of JSON",
                         "fix the line; it is not JSON"),
    "mem_pretty_printed": ("error", "mem-jsonl §3: never pretty-printed",
                           "put the record back on one line"),
    "mem_invalid_record": ("error", "mem-jsonl §3: the record's fields",
                           "give the line every field of the record with the right type"),
    "mem_unknown_status": ("error", "mem-jsonl §2/§6: status is active or superseded",
                           "use status active (domains/) or superseded (archive/)"),
    "mem_unknown_type": ("warning", "mem-jsonl §5: type is failure, convention, decision or pattern",
                         "use one of the four record types"),
    "mem_domain_mismatch": ("error", "mem-jsonl §2: a record lives in its domain's file",
                            "move the line to the file named after its domain"),
    "mem_duplicate_id": ("error", "mem-jsonl §2: each id is in exactly one place, once",
                         "give the learning a new id, or drop the repeated line"),
    "mem_index_orphan": ("error", "mem-jsonl §2: an index id has an active record in domains/",
                         "append the record to domains/, or remove the index line"),
    "mem_record_not_indexed": ("warning", "mem-jsonl §5: a record with no index line is invisible",
                               "append its index line to index.jsonl"),
    "mem_title_mismatch": ("error", "mem-jsonl §2.1: index title equals the record's title",
                           "copy the record's title into the index line"),
    "mem_index_too_long": ("warning", "mem-jsonl §2.1: index lines stay under ~350 bytes",
                           "shorten the title in the record, then copy it to the index"),
    "mem_active_in_archive": ("error", "mem-jsonl §2: nothing active in archive/",
                              "archive/ holds retired records (status superseded) only"),
    "mem_superseded_in_domains": ("error", "mem-jsonl §6: a retired record leaves domains/",
                                  "move the line to archive/<domain>.jsonl"),
    "mem_retired_still_listed": ("error", "mem-jsonl §2: an archived id is in neither index nor "
                                 "domains/", "remove the old id's index line and domains/ line"),
    "mem_supersedes_not_archived": ("error", "mem-jsonl §6: supersedes points at an archived record",
                                    "move the replaced record to archive/ or fix supersedes"),
    "mem_invalid_field": ("error", "mem-jsonl §3: id, provenance{author, created_at}, "
                          "confidence and hits have their shapes",
                          "fix the field in a new record that supersedes this one (§6)"),
    "mem_index_stale": ("warning", "mem-jsonl §2.1: the index line copies the record's fields",
                        "copy the record's type and files into its index line"),
    "mem_line_rewritten": ("error", "mem-jsonl §3/§5: append, never rewrite an existing line",
                           "restore the line; supersede the record with a new one (§6)"),
    "mem_secret_detected": ("error", "mem-jsonl §5: do not record secrets, tokens, credentials",
                            "remove the record's secret (and rotate it): supersede it with one "
                            "that names where the secret lives"),
    "mem_merge_union_missing": ("warning", "mem-jsonl §5: the repo declares merge=union in "
                                ".gitattributes", "add `.mem/**/*.jsonl merge=union` to .gitattributes"),
    "mc_manifest_missing": ("error", "memory-custodian Hard Gate: manifest.md must exist",
                            "restore manifest.md, migrate, or carefully reinitialize"),
    "mc_route_missing": ("error", "memory-custodian: manifest routing targets exist",
                         "create the routed file or fix the manifest route"),
    "mc_invalid_entry_id": ("error", "memory-custodian: Entry IDs are MC-TYPE-YYYYMMDD-8hex",
                            "rename the entry heading to a valid Entry ID"),
    "mc_duplicate_id": ("error", "memory-custodian: an Entry ID is unique in the memory set",
                        "give one of the entries a new Entry ID"),
    "mc_unknown_status": ("error", "memory-custodian: Status is active, superseded, candidate, "
                          "promoted or rejected", "use a protocol Status"),
    "mc_missing_field": ("error", "memory-custodian Protocol 0.7: active entries need Status, "
                         "Scope, Evidence (and Subject, Facet)", "add the missing field"),
    "mc_unknown_subject": ("error", "memory-custodian: Subject is an active Subject of subjects.md",
                           "add the Subject to subjects.md or fix the Subject ID"),
    "mc_subject_collision": ("error", "memory-custodian: Subject IDs, aliases and Canonical-Refs "
                             "are unique", "rename the alias or review the Subjects (no auto-merge)"),
    "mc_invalid_facet": ("error", "memory-custodian: Facet is a controlled Facet",
                         "use one of the eleven controlled Facets"),
    "mc_evidence_inadmissible": ("error", "memory-custodian: active entries need user-confirmed "
                                 "or source-backed Evidence", "confirm it, or keep it in inbox.md"),
    "mc_owner_conflict": ("error", "memory-custodian: one active owner per Scope + Subject + Facet",
                          "supersede the older owner, change scope, or review the Subject"),
    "mc_superseded_unlinked": ("error", "memory-custodian: a superseded entry names Superseded-By",
                               "add Superseded-By: <replacing Entry ID>"),
    "mc_dangling_link": ("error", "memory-custodian: Supersedes / Superseded-By name an entry",
                         "fix the Entry ID the link names"),
    "mc_supersedes_active": ("error", "memory-custodian: a superseded entry is marked superseded",
                             "set Status: superseded on the replaced entry"),
    "mc_candidate_misplaced": ("error", "memory-custodian: candidates live in inbox.md only, "
                               "inbox.md holds no active entry", "move the entry"),
    "mc_active_in_archive": ("warning", "memory-custodian: archive/ is never loaded",
                             "promote the invariant to a loaded file before archiving"),
    "mc_budget_near_limit": ("warning", "memory-custodian: NEAR LIMIT at 80 % of the file budget",
                             "dry-run maintenance: shorten, merge, split by area"),
    "mc_budget_over": ("error", "memory-custodian: OVER BUDGET above the file budget",
                       "dry-run maintenance before adding more active memory"),
    "mc_decision_too_long": ("warning", "memory-custodian: decision entries stay <= 120 tokens",
                             "rewrite the decision semantically; move detail elsewhere"),
    "mc_invalid_scope": ("error", "memory-custodian Protocol 0.7: active entries have a valid "
                         "scope", "use project or a module the manifest declares (area:NAME)"),
    "mc_entry_unreachable": ("error", "memory-custodian check --reachability: active invariants "
                             "stay reachable from normal task loading",
                             "move it to brief.md, constraints.md or a declared area"),
    "mc_secret_detected": ("error", "memory-custodian check --security: no credentials in "
                           "memory", "remove it (and rotate it); memory names where a secret "
                           "lives, never its value"),
    "mc_agent_file_too_long": ("warning", "memory-custodian: keep platform entry files (AGENTS.md, "
                               "CLAUDE.md, GEMINI.md) short", "point at docs/memory/manifest.md; "
                               "move project memory into the memory files"),
    "mc_brief_scaffold": ("warning", "memory-custodian: brief.md is a curated project summary, "
                          "not a generated scaffold", "curate it from authoritative project files "
                          "before relying on it"),
    "mc_brief_off_topic": ("warning", "memory-custodian: keep brief.md about the project, not "
                           "MemoryCustodian", "move the protocol text out; describe the project's "
                           "purpose, shape and direction"),
    "mc_entry_stale": ("warning", "memory-custodian check --freshness: entries are reviewed",
                       "review the entry and add Reviewed: YYYY-MM-DD, or supersede it"),
    "mc_invalid_exception": ("error", "memory-custodian: Exception-To links an area entry to an "
                             "active project entry of the same Subject + Facet",
                             "fix the Exception-To Entry ID, or the exception's Scope, Subject "
                             "or Facet"),
    "mc_invalid_reconciliation": ("error", "memory-custodian check --conflicts: a reconciliation "
                                  "record agrees with the entries it names",
                                  "fix the record (Status, Resolution, Entries, Evidence) or the "
                                  "entries' links; never reuse a record id"),
    "mc_merge_conflict": ("error", "memory-custodian merge-aware review: exact structural "
                          "conflicts block substantial work", "resolve it before merging: "
                          "supersede one owner, change scope, or review the Subject"),
    "mc_merge_review": ("warning", "memory-custodian merge-aware review: REVIEW needs an explicit "
                        "distinct, superseded, exception or subject-merged reconciliation",
                        "review both entries; record the outcome in reconciliations.md"),
    "mc_merge_unavailable": ("error", "memory-custodian merge-aware review: use it when Git is "
                             "available", "run it in a git work tree with git installed and a "
                             "REF that resolves"),
}
