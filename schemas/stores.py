"""Memory stores other teams keep in their repositories, as typed records (no I/O).

Two formats (spec/mem-jsonl.md and spec/memory-custodian.md):

    .mem/                 index.jsonl, domains/<domain>.jsonl, archive/<domain>.jsonl
    docs/memory/          manifest.md, subjects.md, decisions.md, constraints.md,
                          do-not-use.md, inbox.md, areas/ rules/ profiles/ archive/

Parsers (tasks/memstores/) turn the files into these models; validators and distill read them.
Every parsed item carries where it was read (`file` relative to the store, 1-based `line`).
Values a store may get wrong (status, type, facet) are kept as plain strings so a wrong one is a
finding with a file and line, not a parse failure.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# --------------------------------------------------------------------------- .mem JSONL

MEM_RECORD_TYPES = ("failure", "convention", "decision", "pattern")  # mem-jsonl.md §5
MEM_STATUSES = ("active", "superseded")  # §2, §6
MEM_INDEX_MAX_BYTES = 350  # §2.1
MEM_UNIVERSAL_DOMAIN = "_universal"
MEM_DOMAIN_PATTERN = r"^(?:_universal|[a-z0-9][a-z0-9-]*)$"


class MemEvidence(BaseModel):
    model_config = ConfigDict(extra="allow")

    files: list[str] = Field(default_factory=list)
    dirs: list[str] = Field(default_factory=list)
    branch: str | None = None
    issues: list[str] = Field(default_factory=list)
    run: str | None = None


class MemProvenance(BaseModel):
    model_config = ConfigDict(extra="allow")

    author: str | None = None
    backend: str | None = None
    created_at: str | None = None


class MemRecord(BaseModel):
    """One learning: one line of domains/<domain>.jsonl or archive/<domain>.jsonl (§3)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    domain: str = Field(min_length=1)
    type: str = Field(min_length=1)
    title: str = Field(min_length=1)
    body: str = ""
    resolution: str | None = None
    evidence: MemEvidence = Field(default_factory=MemEvidence)
    provenance: MemProvenance = Field(default_factory=MemProvenance)
    status: str = Field(min_length=1)
    supersedes: str | None = None
    confidence: str | None = None
    hits: int = 0


class MemIndexEntry(BaseModel):
    """One line of index.jsonl: the scan surface (§2.1)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    domain: str = Field(min_length=1)
    type: str = ""
    title: str = Field(min_length=1)
    files: list[str] = Field(default_factory=list)


# --------------------------------------------------------------------------- MemoryCustodian

MC_STATUSES = ("active", "superseded", "candidate", "promoted", "rejected")
MC_FACETS = (
    "adoption-policy", "version-policy", "architecture", "behavior", "compatibility", "security",
    "performance", "data-model", "interface", "workflow", "lifecycle",
)
# Entry ID kinds: decision, constraint, do-not-use, preference, area, tombstone, inbox candidate.
MC_ENTRY_KINDS = ("DEC", "CON", "DNU", "PREF", "AREA", "TOMB", "INBOX")
MC_SUBJECT_KINDS = ("DEC", "CON", "DNU", "AREA", "TOMB")  # need a Subject and a Facet when active
MC_ENTRY_ID_RE = re.compile(r"^MC-(?P<kind>[A-Z]+)-(?P<date>\d{8})-(?P<hex>[0-9a-f]{8})$")
MC_SUBJECT_ID_RE = re.compile(r"^MC-SUBJ-(?P<date>\d{8})-(?P<hex>[0-9a-f]{8})$")
MC_CANDIDATE_ONLY_EVIDENCE = ("agent-observed", "conversation-unconfirmed")
MC_DECISION_MAX_TOKENS = 120
# Reconciliation records (reconciliations.md): how a REVIEW pair of a merge was resolved.
MC_REC_ID_RE = re.compile(r"^MC-REC-(?P<date>\d{8})-(?P<hex>[0-9a-f]{8})$")
MC_RESOLUTIONS = ("distinct", "superseded", "exception", "subject-merged")
# Entry links a merge review follows: one side superseding what the other links to is a CONFLICT.
MC_RELATION_FIELDS = ("Supersedes", "Superseded-By", "Exception-To", "Promoted-From", "Promoted-To")
# Platform entry files at the project root (the folder holding docs/). The contract says "keep
# them short" without a number: membank's limit is brief.md's template budget, so an entry file
# that points at docs/memory/ is never longer than the brief it points to.
MC_AGENT_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
MC_AGENT_FILE_MAX_TOKENS = 500


class McEntry(BaseModel):
    """One H2 entry (`## MC-DEC-20260728-a1b2c3d4 — Title`) with its fields and body sections."""

    entry_id: str
    kind: str = Field(description="DEC, CON, DNU, PREF, AREA, TOMB or INBOX")
    title: str
    file: str
    line: int = Field(ge=1)
    line_end: int = Field(ge=1)
    id_date: date | None = None
    status: str | None = None
    scope: str | None = None
    subject: str | None = None
    facet: str | None = None
    evidence: list[str] = Field(default_factory=list)
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: str | None = None
    topic: str | None = None
    fields: dict[str, str] = Field(default_factory=dict, description="Every `Key: value` field.")
    field_lines: dict[str, int] = Field(default_factory=dict)
    sections: dict[str, str] = Field(
        default_factory=dict, description="Labelled bodies: Decision, Reason, Statement, ..."
    )

    @property
    def reviewed(self) -> date | None:
        """The entry's freshest date: Reviewed/Updated/Date fields, else its ID's date."""
        for key in ("Reviewed", "Updated", "Date"):
            value = self.fields.get(key)
            if value:
                try:
                    return date.fromisoformat(value[:10])
                except ValueError:
                    continue
        return self.id_date

    @property
    def statement(self) -> str:
        """The entry's main text: Decision, Constraint, Statement, ... or its title."""
        for key in ("Decision", "Constraint", "Statement", "Rejected", "Tombstone", "Preference",
                    "Rule", "body"):
            if self.sections.get(key):
                return self.sections[key]
        return self.title


class McSubject(BaseModel):
    """One Subject of subjects.md: stable identity, display name, aliases."""

    subject_id: str
    name: str
    file: str
    line: int = Field(ge=1)
    status: str | None = None
    kind: str | None = None
    canonical_ref: str | None = None
    aliases: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    merged_into: str | None = Field(None, description="`Merged-Into:` of a `Status: merged` "
                                    "Subject: the active Subject it was merged into.")


class McReconciliation(BaseModel):
    """One record of reconciliations.md (`## MC-REC-20261201-0a1b2c3d — Title`): how a pair of
    entries a merge review put in REVIEW was reconciled. `problems` holds what is malformed in
    the record itself; whether it agrees with the entries is checked against a tree."""

    record_id: str
    title: str
    file: str
    line: int = Field(ge=1)
    status: str | None = None
    resolution: str | None = None
    entries: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)


class McRoute(BaseModel):
    """A file the manifest routes to (Always load, Load by task, optional module index)."""

    target: str
    line: int = Field(ge=1)
    section: str
    required: bool = Field(description="False for `Load if present` targets.")
    task: str | None = Field(None, description="The Load by task heading it sits under "
                             "(`Implementation / execution / debugging`), if any.")


class McModule(BaseModel):
    """An optional module of the manifest's index (rules/, profiles/, areas/): how it activates.

    `activation` is `task`, `path`, `explicit-only`, `task-or-explicit` or `path-or-explicit`;
    `task:artifact` is read as activation `task` with tasks `artifact`."""

    target: str
    kind: str = Field(description="rules, profiles or areas (the folder).")
    line: int = Field(ge=1)
    activation: str = ""
    tasks: list[str] = Field(default_factory=list)
    paths: list[str] = Field(default_factory=list, description="Repo-relative path globs.")


class McBudget(BaseModel):
    """`- decisions.md: 800 tokens max` of the manifest's Context budget section."""

    pattern: str
    tokens: int = Field(gt=0)
    line: int = Field(ge=1)


class McManifest(BaseModel):
    protocol: dict[str, str] = Field(default_factory=dict)
    routes: list[McRoute] = Field(default_factory=list)
    budgets: list[McBudget] = Field(default_factory=list)
    modules: list[McModule] = Field(default_factory=list)


# --------------------------------------------------------------------------- merge review

MergeStatus = Literal["CLEAR", "REVIEW", "CONFLICT", "unavailable"]
MERGE_CLEAR_NOTE = ("no deterministic conflict or reconciliation risk was detected; this is not a "
                    "proof of semantic consistency")
MERGE_UNAVAILABLE_NOTE = "conflict-free status was not established"


class McMergeReview(BaseModel):
    """`check custodian --conflicts --merge-base REF` of one tree: the status of merging REF
    into HEAD, the commits read, and what the status rests on (findings join the audit)."""

    store: str
    ref: str
    status: MergeStatus
    base: str | None = Field(None, description="`git merge-base HEAD REF`, when found.")
    head: str | None = None
    target: str | None = Field(None, description="The commit REF names, when it resolves.")
    detail: str = ""


# --------------------------------------------------------------------------- findings


class StoreFinding(BaseModel):
    """A rule a store breaks, where: `file` relative to the store root, `line` 1-based.

    Converted to the health summary's Finding by tasks.memstores.findings (code, severity and
    rule from schemas.health.STORE_FINDING_CODES)."""

    model_config = ConfigDict(frozen=True)

    code: str
    file: str
    line: int | None = None
    message: str
