"""Reconciliation records and Exception-To links, checked against the tree that holds them."""

from __future__ import annotations

import pytest

from tasks.memstores.custodian import parse_reconciliations
from tasks.memstores.reconciliations import check_exceptions, check_reconciliations
from tests.tasks.memstores.merge_fixtures import (
    CLI,
    EXIT_CODES_DEC,
    NETWORK_CON,
    RELEASE_DEC,
    SYNC,
    Edit,
    entry,
    record,
    tree_of,
)

REC = "MC-REC-20260310-0a1b2c3d"
OLD_PYTHON = "MC-DEC-20250801-a1000002"  # superseded by MC-DEC-20260301-a1000001
NEW_PYTHON = "MC-DEC-20260301-a1000001"
EXCEPTION = "MC-AREA-20260310-b6000010"
SYNC_EXCEPTION: Edit = ("areas/sync.md", "", entry(
    EXCEPTION, "The sync engine may call the mirror", scope="area:sync", subject=SYNC,
    fields=f"Exception-To: {NETWORK_CON}\n"))


def _problems(*edits: Edit) -> list[str]:
    valid, findings = check_reconciliations(tree_of(list(edits)))
    assert len(valid) + len(findings) == 1
    return [f.message for f in findings]


def test_a_record_is_parsed_from_its_fields_and_lists() -> None:
    [parsed] = parse_reconciliations("reconciliations.md", "# R\n" + record(
        REC, "distinct", RELEASE_DEC, EXIT_CODES_DEC))
    assert (parsed.record_id, parsed.status, parsed.resolution, parsed.line) == (
        REC, "active", "distinct", 3)
    assert parsed.entries == [RELEASE_DEC, EXIT_CODES_DEC] and parsed.evidence == ["user-confirmed"]
    assert parsed.problems == []


@pytest.mark.parametrize(("resolution", "entries", "extra"), [
    ("distinct", (RELEASE_DEC, EXIT_CODES_DEC), []),
    ("superseded", (OLD_PYTHON, NEW_PYTHON), []),
    ("exception", (EXCEPTION, NETWORK_CON), [SYNC_EXCEPTION]),
])
def test_each_resolution_holds_when_the_entries_agree(resolution: str, entries: tuple[str, ...],
                                                      extra: list[Edit]) -> None:
    assert _problems(*extra, ("reconciliations.md", "", record(REC, resolution, *entries))) == []


def test_subject_merged_needs_the_subject_marked_merged_into_the_others() -> None:
    merged = ("subjects.md", "Status: active\nKind: interface",
              f"Status: merged\nMerged-Into: {SYNC}\nKind: interface")
    pair = ("reconciliations.md", "", record(REC, "subject-merged", EXIT_CODES_DEC, NETWORK_CON))
    assert _problems(merged, pair) == []
    assert "subject-merged needs one entry's Subject marked merged" in _problems(pair)[0]


@pytest.mark.parametrize(("text", "cause"), [
    (record(REC, "distinct", RELEASE_DEC, "MC-DEC-20990101-deadbeef"),
     "MC-DEC-20990101-deadbeef must each name exactly one entry"),
    (record(REC, "superseded", RELEASE_DEC, EXIT_CODES_DEC),
     "superseded needs one superseded and one active entry"),
    (record(REC, "exception", RELEASE_DEC, EXIT_CODES_DEC), "exception needs an area entry"),
    (record(REC, "distinct", OLD_PYTHON, NEW_PYTHON), "distinct needs active entries"),
    (record(REC, "distinct", RELEASE_DEC), "Entries must list at least two Entry IDs"),
    (record(REC, "merged", RELEASE_DEC, EXIT_CODES_DEC), "Resolution must be one of"),
    (record(REC, "distinct", RELEASE_DEC, EXIT_CODES_DEC, status="draft"),
     "Status must be active (it is draft)"),
    (record(REC, "distinct", RELEASE_DEC, EXIT_CODES_DEC, evidence="agent-observed"),
     "Evidence must be user-confirmed or source-backed"),
    (record("MC-REC-2026-x", "distinct", RELEASE_DEC, EXIT_CODES_DEC), "the heading is not"),
    (record(REC, "superseded", OLD_PYTHON, NEW_PYTHON, RELEASE_DEC), "names exactly two entries"),
])
def test_an_invalid_record_is_a_finding_naming_it_and_the_cause(text: str, cause: str) -> None:
    [message] = _problems(("reconciliations.md", "", text))
    assert message.startswith(text.split()[1]) and cause in message, message


def test_a_record_id_used_twice_is_invalid_the_second_time() -> None:
    twice = record(REC, "distinct", RELEASE_DEC, EXIT_CODES_DEC) * 2
    valid, findings = check_reconciliations(tree_of([("reconciliations.md", "", twice)]))
    assert len(valid) == 1 and "the record id is also used at line" in findings[0].message


def test_exception_to_holds_from_an_area_entry_to_its_project_owner() -> None:
    assert check_exceptions(tree_of([SYNC_EXCEPTION])) == []


@pytest.mark.parametrize(("scope", "subject", "target", "cause"), [
    ("project", SYNC, NETWORK_CON, "only an area-scoped entry is an exception"),
    ("area:sync", SYNC, "MC-CON-20990101-deadbeef", "which no entry has"),
    ("area:sync", CLI, NETWORK_CON, "of another Subject + Facet"),
    ("area:sync", SYNC, "MC-DEC-20250801-a1000002", "which is not an active project entry"),
])
def test_an_invalid_exception_to_is_reported(scope: str, subject: str, target: str,
                                             cause: str) -> None:
    exception = entry(EXCEPTION, "Exception", scope=scope, subject=subject,
                      facet="version-policy" if target.startswith("MC-DEC") else "security",
                      fields=f"Exception-To: {target}\n")
    [finding] = check_exceptions(tree_of([("areas/sync.md", "", exception)]))
    assert finding.code == "mc_invalid_exception" and cause in finding.message, finding.message
    assert finding.file == "areas/sync.md" and finding.line is not None
