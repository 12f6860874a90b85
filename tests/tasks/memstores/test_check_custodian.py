"""The MemoryCustodian rules: the good tree is clean, the broken copy breaks each rule once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from schemas.health import STORE_FINDING_CODES
from tasks.memstores.check import audit_custodian, custodian_options
from tasks.memstores.check_custodian import CustodianCheckOptions, check_custodian_tree
from tasks.memstores.custodian import parse_entries, parse_manifest, read_custodian
from tasks.store.errors import InputError
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW
from tests.tasks.memstores.store_fixtures import (
    CUSTODIAN_BROKEN,
    CUSTODIAN_GOOD,
    CUSTODIAN_NO_MANIFEST,
    FIXTURES,
    tree_digest,
)

# The merge review's codes need two git revisions (tests/tasks/memstores/test_merge_review.py).
MERGE_CODES = {"mc_merge_conflict", "mc_merge_review", "mc_merge_unavailable"}
MC_CODES = {code for code in STORE_FINDING_CODES if code.startswith("mc_")} - MERGE_CODES


@pytest.fixture
def options() -> CustodianCheckOptions:
    return custodian_options(load_settings(), FIXED_NOW)


def test_good_tree_parses_and_has_no_findings(options: CustodianCheckOptions) -> None:
    tree = read_custodian(CUSTODIAN_GOOD)
    assert len(tree.entries) >= 20 and len(tree.subjects) == 6
    assert sum(e.status == "superseded" for e in tree.entries) == 5
    assert sum(e.kind == "TOMB" for e in tree.entries) == 2
    assert check_custodian_tree(tree, options) == []


def test_broken_tree_breaks_every_rule_exactly_once(options: CustodianCheckOptions) -> None:
    findings = check_custodian_tree(read_custodian(CUSTODIAN_BROKEN), options)
    assert Counter(f.code for f in findings) == Counter(MC_CODES - {"mc_manifest_missing"})
    assert all(f.file for f in findings)
    budget_codes = {"mc_budget_near_limit", "mc_budget_over", "mc_agent_file_too_long"}  # whole files
    assert all(f.line is not None for f in findings if f.code not in budget_codes)


def test_missing_manifest_is_the_only_finding(options: CustodianCheckOptions) -> None:
    findings = check_custodian_tree(read_custodian(CUSTODIAN_NO_MANIFEST), options)
    assert [(f.code, f.file) for f in findings] == [("mc_manifest_missing", "manifest.md")]


def test_freshness_follows_the_clock() -> None:
    late = custodian_options(load_settings(), "2026-12-01T00:00:00Z")
    stale = [f for f in check_custodian_tree(read_custodian(CUSTODIAN_GOOD), late)
             if f.code == "mc_entry_stale"]
    assert {f.file for f in stale} >= {"constraints.md", "decisions.md"}


def test_entry_fields_are_typed() -> None:
    tree = read_custodian(CUSTODIAN_GOOD)
    entry = next(e for e in tree.entries if e.entry_id == "MC-DEC-20260301-a1000001")
    assert (entry.status, entry.scope, entry.facet) == ("active", "project", "version-policy")
    assert entry.subject == "MC-SUBJ-20250610-1a2b3c4d"
    assert entry.evidence == ["repo:pyproject.toml", "user-confirmed"]
    assert entry.supersedes == ["MC-DEC-20250801-a1000002"]
    assert entry.sections["Decision"] == "Support Python 3.11 and newer for the build scripts."
    assert (entry.file, entry.line) == ("decisions.md", 5)
    tomb = next(e for e in tree.entries if e.kind == "TOMB")
    assert tomb.topic == "acme-keyring"


def test_manifest_routes_keep_load_if_present_optional() -> None:
    manifest = parse_manifest((CUSTODIAN_GOOD / "manifest.md").read_text())
    optional = {r.target for r in manifest.routes if not r.required}
    assert optional == {"preferences.md", "rules/output.md", "changelog.md"}
    assert {"areas/sync.md", "brief.md", "inbox.md"} <= {r.target for r in manifest.routes if r.required}
    assert {b.pattern: b.tokens for b in manifest.budgets}["areas/*.md"] == 800


def test_manifest_route_targets_are_read_from_code_spans() -> None:
    text = (
        "# M\n\n## Always load\n\n- `brief.md` first\n- `` areas/a`b.md `` odd\n- plain.md\n"
        "- \\`escaped.md`\n"
    )
    targets = [route.target for route in parse_manifest(text).routes]
    assert targets == ["brief.md", "areas/a`b.md", "plain.md"]


def test_unknown_status_and_bad_ids_are_findings_not_exceptions() -> None:
    text = "# D\n\n## MC-DEC-20260101-0000000g — Bad hex\n\nStatus: active\n\n## MC-XYZ-1 — x\n"
    entries, findings = parse_entries("decisions.md", text)
    assert entries == []
    assert [(f.code, f.line) for f in findings] == [("mc_invalid_entry_id", 3), ("mc_invalid_entry_id", 7)]


def test_audit_is_read_only_and_finds_the_tree(options: CustodianCheckOptions) -> None:
    before = tree_digest(FIXTURES)
    audit = audit_custodian(FIXTURES / "custodian", options)
    assert tree_digest(FIXTURES) == before
    assert audit.findings == [] and audit.exit_code() == 0
    assert audit.stores[0].endswith("custodian/docs/memory")


def test_a_path_without_memory_cannot_run(tmp_path: Path, options: CustodianCheckOptions) -> None:
    with pytest.raises(InputError):
        audit_custodian(tmp_path, options)
