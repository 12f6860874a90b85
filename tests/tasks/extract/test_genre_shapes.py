"""Shapes of non-ADR documents as teams write them (issue 23, recall33's round on dev8): an RFC
with Context and Decision sections, a one-file decision log, minutes that link their recording,
owner lines and header-table owner rows, incident roles and dash owners."""

from __future__ import annotations

from pathlib import Path

from tasks.extract import Extraction, SourceRef, extract_facts

DEV8 = Path(__file__).resolve().parents[2] / "fixtures" / "distill" / "dev8"


def _extract(text: str, path: str = "docs/doc.md") -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", path))


def _observations(result: Extraction) -> list[str]:
    return [o.text for o in result.observations]


def _related(result: Extraction) -> dict[str, tuple[str, str]]:
    return {r.target.display: (r.relation_type, r.target.entity_type) for r in result.relations}


def test_an_rfc_with_context_and_decision_sections_is_a_proposal() -> None:
    result = _extract((DEV8 / "proposals/rfc-0057-wal-segment-compaction.md").read_text(encoding="utf-8"))
    assert result.subject is not None and result.subject.ref.entity_type == "proposal"
    assert not result.is_decision_record
    observations = _observations(result)
    assert any(o.startswith("Design: We will add a checkpointing compactor") for o in observations)
    assert "Created: 2025-04-02" in observations and "Status: Accepted" in observations
    assert _related(result)["Storage team"] == ("owned_by", "team")  # "Author: Henrik Solberg (Storage team)"


def test_an_adr_with_one_proposal_section_stays_a_record() -> None:
    adr = _extract("# Use Postgres\n\n## Context\n\nWe need a store.\n\n## Decision\n\nWe will use "
                   "Postgres.\n\n## Consequences\n\nOne more thing to run.\n\n## Motivation\n\nx\n\n"
                   "## Drawbacks\n\ny\n")
    assert adr.is_decision_record  # Consequences: only decision records have it


def test_a_one_file_decision_log_reads_each_entry_and_its_wrapped_decision() -> None:
    log = ("# Platform decision log\n\nDecisions too small for an RFC.\n\n## 2025-05-20: Adopt Renovate\n\n"
           "**Decision:** We adopt Renovate for dependency updates and switch\noff Dependabot.\n"
           "**Why:** It groups updates.\n\n## 2025-03-11: Keep Terraform state in S3\n\n"
           "**Decision:** Terraform state stays in S3.\n**Why:** No incident in two years.\n")
    result = _extract(log)
    observations = _observations(result)
    assert "Decision: We adopt Renovate for dependency updates and switch off Dependabot." in observations
    assert "Decision: Terraform state stays in S3." in observations
    assert not any("Why" in o or "log" in o.lower() for o in observations if o.startswith("Decision"))


def test_a_recording_link_is_no_decision_and_an_item_is_read_once() -> None:
    minutes = ("# Ingest review, 2025-05-06\n\nAttendees: Ana Silva, Wen Li\n\n## Agenda\n\n1. WAL\n\n"
               "## Decisions\n\n- RFC 57 is accepted.\n- Decision: Recording available here: "
               "https://meet.example.com/rec/1\n\n## Action items\n\n- Wen Li to update the sheet\n")
    decisions = [o for o in _observations(_extract(minutes)) if o.startswith("Decision: ")]
    assert decisions == ["Decision: RFC 57 is accepted."]


def test_owner_lines_and_owner_rows_name_people_and_teams() -> None:
    runbook = ("# Runbook: Redis near its memory limit\n\nOwner: Identity team · Last reviewed: 2025-05-12 · "
               "Severity: P2\n\n## Alert\n\nFires above 90 %.\n\n## What it means\n\nRedis evicts keys.\n\n"
               "## Mitigation\n\nScale out.\n")
    result = _extract(runbook)
    assert _related(result)["Identity team"] == ("owned_by", "team")
    assert "Review date: 2025-05-12" in _observations(result)
    assert "Alert: Fires above 90 %." in _observations(result)
    assert "Meaning: Redis evicts keys." in _observations(result)
    postmortem = (DEV8 / "postmortems/2025-03-18-internal-dns-failures.md").read_text(encoding="utf-8")
    related = _related(_extract(postmortem))
    assert related["Lena Fischer"] == ("owned_by", "person")
    assert related["Platform networking"] == ("owned_by", "team")


def test_incident_roles_and_dash_owners_are_people_never_technologies() -> None:
    text = (DEV8 / "postmortems/2025-08-27-log-pipeline-backlog.md").read_text(encoding="utf-8")
    result = _extract(text)
    types = {e.ref.display: e.ref.entity_type for e in result.entities}
    assert not {"Julia", "Julia Nowak", "Sipho Ndlovu"} & {n for n, t in types.items() if t == "technology"}
    assert "Action item: Add an alert on log ingestion delay above 10 minutes (owner: Julia Nowak)" in (
        _observations(result))
    assert _related(result)["Observability team"] == ("about", "team")  # it owns an action item


def test_a_components_table_with_operations_makes_an_architecture_page() -> None:
    text = (DEV8 / "architecture/search-platform.md").read_text(encoding="utf-8")
    result = _extract(text)
    observations = _observations(result)
    assert any(o.startswith("Constraint: At most one full reindex") for o in observations)
    assert any(o.startswith("Overview: The search platform answers") for o in observations)


def test_a_proposal_names_its_choice_after_a_verb_and_its_alternatives_in_bold() -> None:
    rfc = ("# RFC 0042: Replace the flag vendor\n\n- Status: Accepted\n- Author: Amara Okafor\n\n## Context\n\n"
           "Our flag vendor costs too much.\n\n## Proposal\n\nRun Unleash, open source, on our own clusters.\n\n"
           "## Alternatives considered\n\n- **Flagsmith**: similar features, but young.\n"
           "- **Keep the vendor**: it would not move on price.\n- **Nothing**: not an option.\n\n"
           "## Decision\n\nAccepted on 2025-03-04.\n")
    result = _extract(rfc)
    assert result.subject is not None and result.subject.ref.entity_type == "proposal"
    related = _related(result)
    assert {"Unleash", "Flagsmith"} <= set(related)
    assert not {"Run Unleash", "Keep the vendor", "Nothing"} & set(related)
