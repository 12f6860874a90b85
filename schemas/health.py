"""Health summary: what reconcile and the freshness audit found, for people and ops dashboards.

Written under <root>/context/health/ as JSON (dated file, latest.json, a line in history.jsonl),
as a Prometheus textfile and as Prefect artifacts. Its JSON Schema is generated into
schemas/json/ from this model (tasks/json_schemas.py); a test fails when that file is stale.

Status rule (one place, `decide_status`): any finding of severity `error` makes the memory
`failing`; otherwise any `warning` makes it `degraded`; `info` findings never change the status.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.common import UtcTimestamp

HEALTH_SCHEMA_VERSION = "1.0"

# Finding codes of the graph content checks (reconcile): what distill should never leave behind.
ENTITY_WITHOUT_EVIDENCE = "entity_without_evidence"  # no observation and no source (warning)
ENTITY_NAME_MARKUP = "entity_name_markup"  # name starts with a list marker or heading punctuation
RELATION_TYPE_UNKNOWN = "relation_type_unknown"  # relation type not in the relation vocabulary

Severity = Literal["info", "warning", "error"]
HealthStatus = Literal["healthy", "degraded", "failing"]
HealthKind = Literal["reconcile", "freshness"]


class Finding(BaseModel):
    """One thing wrong (or worth knowing) about one file."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="Stable machine code, e.g. dead_link, invalid_jsonc.")
    severity: Severity
    path: str | None = Field(None, description="Root-relative path of the file concerned.")
    message: str
    hint: str | None = Field(None, description="What a person (or a repair) should do.")


class HealthCounts(BaseModel):
    """What was counted. `null` means this flow does not assess it (reconcile does not judge
    staleness; the freshness audit does not check links), never zero."""

    model_config = ConfigDict(extra="forbid")

    pages_total: int = 0
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
    repairs: int = 0
    findings_by_severity: dict[str, int] = Field(default_factory=dict)


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
    mode: Literal["check", "repair", "audit"]
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
