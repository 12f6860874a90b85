"""A reference to a record by its key (tasks/distill/record_keys.py): typed by what the record is,
and the key as written learnt as an alias; a standard's name or a plain link is no citation."""

from __future__ import annotations

import json
from pathlib import Path

from schemas.graph import RegistryEntry
from tasks.distill.record_keys import (
    REFERENCES_DECISION,
    REFERENCES_INCIDENT,
    REFERENCES_PROPOSAL,
    key_spelling,
    names_by_key,
    relation_for_key,
)
from tasks.extract.record_links import RELATES_TO, SUPERSEDES, RecordLink
from tests.stored_sources import bootstrap, store_source
from tests.tasks.distill.test_record_graph import distill, record, relations


def link(text: str, stem: str | None = None, relation_type: str = RELATES_TO) -> RecordLink:
    return RecordLink(relation_type, False, text, stem, None, 3, text, mention=stem is None)


def entry(name: str, kind: str, *aliases: str) -> RegistryEntry:
    return RegistryEntry(canonicalName=name, aliases=list(aliases), entityType=kind)


INCIDENT = entry("INC-14: Catalog unavailable", "incident", "INC-14")
PROPOSAL = entry("Automatic contact scheduling", "proposal", "GEP-0012")
RUNBOOK = entry("Catalog down", "runbook", "RB-12")
PAGE = entry("Postmortem: missed passes", "incident")


def test_a_link_naming_its_record_by_key_is_typed_by_what_the_record_is() -> None:
    assert relation_for_key(link("INC-14"), PAGE, INCIDENT, {("inc", 14)}) == REFERENCES_INCIDENT
    assert relation_for_key(link("GEP-0012: Automatic contact scheduling", "gep-0012-x"), PAGE, PROPOSAL,
                            {("gep", 12)}) == REFERENCES_PROPOSAL
    decision = entry("Use Kafka", "decision")
    assert relation_for_key(link("ADR-0007"), PAGE, decision, {("adr", 7)}) == REFERENCES_DECISION
    # a runbook has no citation type: the link stays what it was
    assert relation_for_key(link("RB-12"), PAGE, RUNBOOK, {("rb", 12)}) == RELATES_TO


def test_other_links_keep_their_type() -> None:
    # a link to the record's file cites it whatever its text; a title or id without a file does not
    assert relation_for_key(link("the design doc", "gep-0012-x"), PAGE, PROPOSAL,
                            {("gep", 12)}) == REFERENCES_PROPOSAL
    assert relation_for_key(link("the design doc"), PAGE, PROPOSAL, {("gep", 12)}) == RELATES_TO
    assert relation_for_key(link("GEP-0012", "gep-0012-x", SUPERSEDES), PAGE, PROPOSAL,
                            {("gep", 12)}) == SUPERSEDES
    # another number of the series, and a decision record's "see also" to another record
    assert relation_for_key(link("INC-15"), PAGE, INCIDENT, {("inc", 14)}) == RELATES_TO
    one, two = entry("One", "decision"), entry("Two", "decision")
    assert relation_for_key(link("ADR 1"), two, one, {("adr", 1)}) == RELATES_TO


def test_a_standard_that_opens_a_title_is_no_key() -> None:
    """"SHA-256 fixity and rolling tape audits" opens with no record's key."""
    assert not names_by_key(link("SHA-256"), {("sha", 256)})
    assert not names_by_key(link("LTO-9"), {("lto", 9)})


def test_a_key_whose_number_starts_the_linked_file_names_it() -> None:
    assert names_by_key(link("RFC 0042", "0042-hold-centre-acknowledgements"), set())
    assert not names_by_key(link("RFC 0043", "0042-hold-centre-acknowledgements"), set())


def test_a_key_inside_the_linked_files_name_after_a_tools_prefix_names_it() -> None:
    """A tracker's export names its file with the tool first ("gitlab-incident-87-lanes-down"):
    "[incident 87](..)" names it by its key and cites it; another number does not."""
    assert names_by_key(link("incident 87", "gitlab-incident-87-lanes-down"), set())
    assert not names_by_key(link("incident 88", "gitlab-incident-87-lanes-down"), set())
    assert relation_for_key(link("incident 87", "gitlab-incident-87-lanes-down"), PAGE, INCIDENT,
                            set()) == REFERENCES_INCIDENT


def test_the_key_as_written_is_learnt_once_and_only_the_key() -> None:
    rfd = entry("RFD 31: Privilege review prioritisation", "proposal", "RFD-0031")
    assert key_spelling(link("RFD 31"), rfd, {("rfd", 31)}) == "RFD 31"
    assert key_spelling(link("GEP-0012"), PROPOSAL, {("gep", 12)}) is None  # known so already
    assert key_spelling(link("GEP-0012: Automatic contact scheduling", "g"), PROPOSAL, {("gep", 12)}) is None
    incident = entry("Boardwall screens blank", "incident")
    assert key_spelling(link("INC-2025-0731 review"), incident, {("inc", 2025)}) == "INC-2025-0731"


def test_minutes_citing_an_incident_and_a_proposal_by_key_relate_to_those_documents(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    bootstrap(root)
    store_source(root, "docs/postmortems/inc-2026-014-catalog-outage.md",
                 "# INC-14: Catalog unavailable\n\n**Severity:** SEV-2 · **Date:** 2026-02-03\n\n## Summary\n\n"
                 "Search exhausted the database connections.\n\n## Impact\n\nNo search for 70 minutes.\n\n"
                 "## Root cause\n\nA pool of 20 connections.\n\n## Resolution\n\nWe raised the pool to 80.\n\n"
                 "## Action items\n\n- Alert on pool use (Catalog team)\n")
    store_source(root, "docs/design/rfd-0031-review.md",
                 "# RFD 31: Privilege review prioritisation\n\n## Summary\n\nScore pages by risk.\n\n"
                 "## Motivation\n\nReviewers read pages in order.\n\n## Drawbacks\n\nA model to run.\n")
    store_source(root, "docs/minutes/2026-03-03-weekly.md",
                 "# Platform weekly, 3 March 2026\n\n## Notes\n\nINC-14 follow-ups have held. RFD 31 is "
                 "accepted.\n\n## Decisions\n\n- Ship RFD 31 in April.\n")
    distill(root)
    found = relations(root)
    assert any(kind == REFERENCES_INCIDENT and target == "INC-14: Catalog unavailable"
               for _, kind, target in found), found
    assert any(kind == REFERENCES_PROPOSAL and target == "RFD 31: Privilege review prioritisation"
               for _, kind, target in found), found


def test_a_decision_log_keeps_its_own_links_and_learns_no_key_from_them(tmp_path: Path) -> None:
    """"See also ADR 1" between two records stays `relates_to`, and teaches no alias."""
    root = tmp_path / ".memories"
    bootstrap(root)
    store_source(root, "docs/decisions/0001-one.md", record(1, "One"))
    store_source(root, "docs/decisions/0002-two.md", record(2, "Two", "See also ADR 1 for the background."))
    distill(root)
    assert ("Two", "relates_to", "One") in relations(root)
    registry = json.loads((root / "context/entity-registry.jsonc").read_text())
    assert "ADR 1" not in next(e for e in registry["entries"] if e["canonicalName"] == "One")["aliases"]


def test_a_link_to_a_decision_log_cites_a_decision() -> None:
    """A decision log kept as one page is read as meeting notes (its rows are decisions); a page
    that links it cites the decisions it records. Other minutes stay related, and a decision
    record's "see also" the log keeps its type."""
    log = entry("Billing — decision register", "meeting")
    sync = entry("Billing weekly sync, 3 March", "meeting")
    to_log = link("the decision register", "billing-decisions")
    assert relation_for_key(to_log, PAGE, log, set()) == REFERENCES_DECISION
    assert relation_for_key(link("the sync notes", "billing-sync"), PAGE, sync, set()) == RELATES_TO
    assert relation_for_key(to_log, entry("Use Kafka", "decision"), log, set()) == RELATES_TO


def test_a_link_text_dated_by_day_and_month_names_no_other_key() -> None:
    """"[Debrief 5 March](../postmortems/2024-03-05-x.md)": a word, a day and a month title a
    page by its date; the link cites the record it points to. "INC-15" still names another key."""
    target = entry("Debrief: e-book lending down", "incident")
    dated = link("Debrief 5 March", "2024-03-05-ebook-lending-debrief")
    assert relation_for_key(dated, PAGE, target, set()) == REFERENCES_INCIDENT
    assert relation_for_key(link("Review 12th Jan 2025", "2025-01-12-review"), PAGE, target,
                            set()) == REFERENCES_INCIDENT
    assert relation_for_key(link("INC 15 follow-up", "2024-03-05-ebook-lending-debrief"), PAGE, target,
                            {("inc", 14)}) == RELATES_TO


def test_a_wiki_link_by_a_pages_title_cites_that_page_in_any_folder(tmp_path: Path) -> None:
    """Outliner notes (Logseq, Obsidian) link a page by its title, `[[Pallet label exchange]]`:
    the one document of that title, whatever its folder, is cited (typed by what it records);
    a title no document has stays a mention, no link."""
    root = tmp_path / ".memories"
    bootstrap(root)
    store_source(root, "docs/design/pallet-label-exchange.md",
                 "# Pallet label exchange\n\n**Status:** Accepted\n\n## Summary\n\nDepots exchange labels.\n\n"
                 "## Motivation\n\nLabels arrive late.\n\n## Goals\n\nEvery label arrives first.\n\n"
                 "## Non-Goals\n\nPrinting.\n\n## Drawbacks\n\nOne more queue.\n")
    store_source(root, "docs/minutes/2026-03-03-depot-sync.md",
                 "title:: Depot sync 2026-03-03\ntype:: [[meeting]]\n\n- ## Agenda\n\t- Labels\n"
                 "- ## Labels\n\t- Rollout moved to April, see [[Pallet label exchange]] and [[Forklift Fleet]].\n"
                 "\t- DECISION: two depots first.\n")
    distill(root)
    found = relations(root)
    cited = [(source, kind) for source, kind, target in found if target == "Pallet label exchange"]
    assert any(kind == REFERENCES_PROPOSAL for _, kind in cited), found
    assert not any(kind == SUPERSEDES for _, kind, _ in found)
    assert not any(target == "Forklift Fleet" and kind.startswith("references") for _, kind, target in found)


def test_a_page_of_no_type_is_cited_as_what_its_title_or_the_links_text_calls_it() -> None:
    """A page no genre was read from (a tracker's RFC task, an exported doc) is cited as the kind
    its title opens with ("RFC: ..."), or a link's text that ends with "design" calls it; a title
    that opens with a subject, not a kind, leaves the link related."""
    rfc = entry("RFC: Replace the scheduler with a constraint solver", "document")
    assert relation_for_key(link("T88", "t88-scheduler-rfc"), PAGE, rfc, set()) == REFERENCES_PROPOSAL
    paper = entry("Refund auto-approval in Billing", "document")
    assert relation_for_key(link("refund design", "refund-auto-approval"), PAGE, paper, set()) == REFERENCES_PROPOSAL
    assert relation_for_key(link("refund notes", "refund-auto-approval"), PAGE, paper, set()) == RELATES_TO
    howto = entry("Payments: how refunds are paid", "document")
    assert relation_for_key(link("T88", "payments-refunds"), PAGE, howto, set()) == RELATES_TO
    report = entry("Incident report: checkout down", "document")
    assert relation_for_key(link("the report", "ir-7-checkout"), PAGE, report, set()) == REFERENCES_INCIDENT


_LOG = ("# Payments — decision log\n\nOne row per decision.\n\n"
        "| ID | Date | Decision | Owner | Status |\n|----|------|----------|-------|--------|\n"
        "| PD-01 | 2025-03-14 | Card payments go through the Stripe gateway | Ana | Active |\n"
        "| PD-02 | 2025-04-02 | Refunds are issued by the ledger service only | Ben | Active |\n"
        "| PD-03 | 2025-05-20 | Settlement files are kept for seven years | Ana | Active |\n")
_CITING = ("# Incident review: refunds paid twice\n\n**Date:** 2026-01-12\n\n## Summary\n\n"
           "Refunds were paid twice for an hour; the ledger only path (PD-02) was bypassed.\n\n"
           "## Root cause\n\nA retry loop in the refund worker.\n\n## Resolution\n\nWe removed the retry.\n")
_REPLACING = ("# Settlement archive in cold storage\n\nStatus: Accepted\n\n## Summary\n\n"
              "This proposal replaces PD-03 in the payments decision log: files move to cold storage "
              "after two years.\n\n## Motivation\n\nStorage costs.\n")


def test_a_page_citing_a_log_entry_by_its_key_cites_the_log(tmp_path: Path) -> None:
    """A decision log kept as one table numbers its entries ("PD-02"): a page that cites an entry
    by its key cites the decisions the log records; a page that replaces one entry relates to the
    log and never supersedes it (the log's other decisions stand); the key is no alias of the log."""
    root = tmp_path / ".memories"
    bootstrap(root)
    store_source(root, "docs/decisions/payments-decision-log.md", _LOG)
    store_source(root, "docs/postmortems/refunds-paid-twice.md", _CITING)
    store_source(root, "docs/design/settlement-cold-storage.md", _REPLACING)
    distill(root)
    found = relations(root)
    log = "Payments — decision log"
    assert ("Incident review: refunds paid twice", REFERENCES_DECISION, log) in found, found
    assert ("Settlement archive in cold storage", REFERENCES_DECISION, log) in found, found
    assert not any(kind in {"supersedes", "replaces"} for _, kind, _ in found), found
    registry = json.loads((root / "context/entity-registry.jsonc").read_text())
    assert not any("PD-02" in e.get("aliases", []) for e in registry["entries"])


def test_a_log_distilled_in_an_earlier_run_is_found_by_its_entry_keys(tmp_path: Path) -> None:
    """The log's entry keys are kept in the distill state: a page distilled later finds it."""
    root = tmp_path / ".memories"
    bootstrap(root)
    store_source(root, "docs/decisions/payments-decision-log.md", _LOG)
    distill(root)
    state = json.loads((root / "context/distill-state.jsonc").read_text())
    kept = [s for s in state["sources"] if s.get("entryKeys")]
    assert [(s["entryEntity"], s["entryKeys"]) for s in kept] == [
        ("Payments — decision log", ["PD-01", "PD-02", "PD-03"])]
    store_source(root, "docs/postmortems/refunds-paid-twice.md", _CITING)
    distill(root)
    assert ("Incident review: refunds paid twice", REFERENCES_DECISION, "Payments — decision log") in relations(root)


def test_a_key_written_with_a_word_before_its_number_cites_the_record_and_teaches_no_alias(
        tmp_path: Path) -> None:
    """"(LLIS entry 0007)" names the lessons entry filed as llis-0007; ServiceNow's "INC0048812"
    the postmortem titled by it. The first spelling is no key of its own: no alias is learnt."""
    root = tmp_path / ".memories"
    bootstrap(root)
    store_source(root, "docs/postmortems/llis-0007-curtailment-overrun.md",
                 "# Lessons learned: curtailment overrun\n\n**Incident date:** 2026-01-21\n\n## Summary\n\n"
                 "A setpoint was typed 23 minutes late.\n\n## Root cause\n\nManual entry.\n\n"
                 "## Resolution\n\nWe automated the setpoint.\n")
    store_source(root, "docs/postmortems/inc0048812-duplicate-sms.md",
                 "# INC0048812: duplicate SMS to patrons\n\n**Incident date:** 2026-02-03\n\n## Summary\n\n"
                 "Patrons got two texts.\n\n## Root cause\n\nA retried job.\n\n## Resolution\n\nWe made it idempotent.\n")
    store_source(root, "docs/design/auto-setpoints.md",
                 "# Automatic setpoints\n\nStatus: Accepted\n\n## Summary\n\nThe bridge writes setpoints "
                 "itself (after LLIS entry 0007, and the texts of INC0048812).\n\n## Motivation\n\nDelays.\n")
    distill(root)
    found = relations(root)
    assert ("Automatic setpoints", REFERENCES_INCIDENT, "Lessons learned: curtailment overrun") in found, found
    assert ("Automatic setpoints", REFERENCES_INCIDENT, "INC0048812: duplicate SMS to patrons") in found, found
    registry = json.loads((root / "context/entity-registry.jsonc").read_text())
    aliases = {alias for e in registry["entries"] for alias in e.get("aliases", [])}
    assert not {"LLIS", "LLIS entry 0007", "LLIS entry"} & aliases, aliases


def test_a_proposal_filed_among_the_decision_records_is_cited_as_a_decision() -> None:
    # a PEP-style proposal kept in the folder adr-tools, log4brains or MADR keep records in
    cited = link("SSP-14: Grade passback", "ssp-14-grade-passback")
    for folder in ("docs/decisions", "doc/adr", "architecture/decision-records", "adrs"):
        assert relation_for_key(cited, PAGE, PROPOSAL, {("ssp", 14)}, folder) == REFERENCES_DECISION
    # a design folder, a flat docs folder, or a folder only named like one: still a proposal
    for folder in ("docs/design", "docs", "", "decisions-archive/rfcs"):
        assert relation_for_key(cited, PAGE, PROPOSAL, {("ssp", 14)}, folder) == REFERENCES_PROPOSAL
    # a page of no record type filed there (a message-board thread) records a decision too
    thread = entry("Going fine-free: what changes", "document")
    assert relation_for_key(link("Basecamp thread", "going-fine-free"), PAGE, thread, set(),
                            "decisions") == REFERENCES_DECISION
    assert relation_for_key(link("Basecamp thread", "going-fine-free"), PAGE, thread, set(), "notes") == RELATES_TO
    # an incident filed there stays an incident
    assert relation_for_key(link("INC-14"), PAGE, INCIDENT, {("inc", 14)}, "decisions") == REFERENCES_INCIDENT


def test_a_link_to_a_proposal_in_the_decisions_folder_cites_a_decision(tmp_path: Path) -> None:
    """The folder a document was filed in reaches the citation's type (RecordIndex.log_of)."""
    root = tmp_path / ".memories"
    bootstrap(root)
    proposal = ("# RFD 31: Privilege review prioritisation\n\n**Status:** Accepted\n\n## Summary\n\n"
                "Score pages by risk.\n\n## Motivation\n\nReviewers read pages in order.\n\n"
                "## Drawbacks\n\nA model to run.\n")
    store_source(root, "docs/decisions/rfd-0031-review.md", proposal)
    store_source(root, "docs/design/rfd-0032-triage.md", proposal.replace("31: Privilege review", "32: Triage"))
    store_source(root, "docs/minutes/2026-03-03-weekly.md",
                 "# Platform weekly, 3 March 2026\n\n## Notes\n\nRFD 31 holds; RFD 32 is next.\n\n"
                 "## Decisions\n\n- Ship RFD 32 in April.\n")
    distill(root)
    found = {(kind, target) for _, kind, target in relations(root)}
    assert (REFERENCES_DECISION, "RFD 31: Privilege review prioritisation") in found, found
    assert (REFERENCES_PROPOSAL, "RFD 32: Triage prioritisation") in found, found


def test_a_page_of_no_type_is_cited_as_what_the_folder_it_was_filed_in_keeps() -> None:
    """A page no genre reader took (a form's answers, an A3 sheet, an analysis in a house style)
    filed among the team's incident write-ups is cited as an incident, one filed among the
    proposals or design docs as a proposal; elsewhere it stays related, and a page whose own
    type was read keeps it wherever it is filed."""
    sheet = entry("Cold room alarm log — entry 12", "document")
    cited = link("the write-up", "cold-room-entry-12")
    for folder in ("postmortems", "docs/post-mortems", "incidents", "ops/incident-reports", "rca"):
        assert relation_for_key(cited, PAGE, sheet, set(), folder) == REFERENCES_INCIDENT, folder
    for folder in ("rfcs", "docs/design", "proposals", "design-docs", "keps"):
        assert relation_for_key(cited, PAGE, sheet, set(), folder) == REFERENCES_PROPOSAL, folder
    for folder in ("notes", "runbooks", "", "incident-tooling", "docs/designer"):
        assert relation_for_key(cited, PAGE, sheet, set(), folder) == RELATES_TO, folder
    assert relation_for_key(cited, PAGE, RUNBOOK, set(), "postmortems") == RELATES_TO
    # a stated link keeps its own type; an id of another record in the text stays related
    assert relation_for_key(link("the write-up", "cold-room-entry-12", SUPERSEDES), PAGE, sheet, set(),
                            "postmortems") == SUPERSEDES
    assert relation_for_key(link("INC-15", "cold-room-entry-12"), PAGE, sheet, {("cr", 12)},
                            "postmortems") == RELATES_TO


def test_a_key_in_a_links_text_is_the_key_of_a_page_that_states_none() -> None:
    """"[SR-RFC-031](../design/ltr-v3.md)": the linked page states no key of its own, so the key is
    the one the citing team knows it by, and the link cites it; a page that states another key
    ("INC-14" linked as "INC-15") is not named by it."""
    design = entry("Ranking model v3", "proposal")
    assert relation_for_key(link("SR-RFC-031", "ltr-v3"), PAGE, design, set()) == REFERENCES_PROPOSAL
    assert relation_for_key(link("OPS-INC-7", "cold-room"), PAGE, entry("Cold room alarm", "document"), set(),
                            "incidents") == REFERENCES_INCIDENT
    assert relation_for_key(link("INC-15", "inc-14-catalog"), PAGE, INCIDENT, {("inc", 14)}) == RELATES_TO


def test_a_decision_cited_by_a_key_with_a_teams_prefix_is_referenced(tmp_path: Path) -> None:
    """"per SR-DEC-07" in a sentence cites the one record whose title opens with that key; a key of
    the same team naming no document ("SR-DEC-09") links nothing."""
    root = tmp_path / ".memories"
    bootstrap(root)
    store_source(root, "docs/decisions/index-engine.md",
                 "# SR-DEC-07 — Product index engine\n\n**Status:** Accepted\n\n## Context\n\n"
                 "We need one index engine.\n\n## Decision\n\nWe will use Vespa for the product index.\n\n"
                 "## Consequences\n\nA new cluster to run.\n")
    store_source(root, "docs/architecture/ranker.md",
                 "# Ranker overview\n\n## Components\n\nThe ranker scores 1,000 candidates per query in "
                 "a rank profile, per SR-DEC-07, and SR-DEC-09 is still open.\n")
    distill(root)
    found = relations(root)
    assert ("Ranker overview", REFERENCES_DECISION, "SR-DEC-07 — Product index engine") in found, found
    assert not any("SR-DEC-09" in target for _, _, target in found), found
