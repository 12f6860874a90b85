"""The .mem rules: the good store is clean, the broken copy breaks each rule exactly once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from schemas.health import STORE_FINDING_CODES
from tasks.memstores.check import audit_mem
from tasks.memstores.check_mem import check_mem_store
from tasks.memstores.mem_jsonl import parse_lines, read_mem_store
from tests.tasks.memstores.store_fixtures import FIXTURES, MEM_BROKEN, MEM_GOOD, tree_digest

# mem_line_rewritten needs a git history, mem_secret_detected a secret (a fixture holding one
# would be refused by ingest): tests/spec/test_mem_jsonl.py, J11 and J15
MEM_CODES = {code for code in STORE_FINDING_CODES if code.startswith("mem_")
             and code not in ("mem_line_rewritten", "mem_secret_detected")}


def test_good_store_has_no_findings() -> None:
    store = read_mem_store(MEM_GOOD)
    assert check_mem_store(store) == []
    assert len(store.domains) == 12 and len(store.archive) == 3 and len(store.index) == 12


def test_broken_store_breaks_every_rule_exactly_once() -> None:
    findings = check_mem_store(read_mem_store(MEM_BROKEN))
    counts = Counter(f.code for f in findings)
    assert counts == Counter(MEM_CODES - {"mem_store_missing"})
    assert all(f.file for f in findings)
    assert all(f.line is not None for f in findings if f.code != "mem_merge_union_missing")


def test_each_broken_rule_names_its_file_and_line() -> None:
    found = {f.code: (f.file, f.line) for f in check_mem_store(read_mem_store(MEM_BROKEN))}
    assert found["mem_invalid_json"] == ("domains/ci.jsonl", 4)
    assert found["mem_pretty_printed"] == ("domains/ci.jsonl", 5)
    assert found["mem_index_orphan"] == ("index.jsonl", 17)
    assert found["mem_title_mismatch"] == ("index.jsonl", 18)
    assert found["mem_active_in_archive"] == ("archive/ci.jsonl", 1)


def test_a_folder_without_a_store_is_one_finding(tmp_path: Path) -> None:
    findings = check_mem_store(read_mem_store(tmp_path))
    assert [f.code for f in findings] == ["mem_store_missing"]


def test_missing_index_is_reported(tmp_path: Path) -> None:
    (tmp_path / "domains").mkdir()
    (tmp_path / "domains" / "ci.jsonl").write_text("")
    assert [f.code for f in check_mem_store(read_mem_store(tmp_path))] == [
        "mem_store_missing", "mem_merge_union_missing"]  # no .gitattributes beside it either


def test_malformed_lines_are_findings_not_exceptions() -> None:
    data = b'{"id": 1}\n[1, 2]\n\xff\xfe\n{\n  "id": "mem_a"\n'
    records, findings = parse_lines("domains/ci.jsonl", data, "domains")
    assert records == []
    assert [(f.code, f.line) for f in findings] == [
        ("mem_invalid_record", 1), ("mem_invalid_record", 2), ("mem_invalid_json", 3),
        ("mem_invalid_json", 4), ("mem_invalid_json", 5)]


def test_pretty_printed_record_is_read_whole() -> None:
    data = b'{\n  "id": "mem_a", "domain": "ci", "type": "pattern",\n  "title": "T", "status": "active"\n}\n'
    records, findings = parse_lines("domains/ci.jsonl", data, "domains")
    assert [(f.code, f.line) for f in findings] == [("mem_pretty_printed", 1)]
    assert records[0].record is not None and records[0].record.id == "mem_a"
    assert (records[0].line, records[0].line_end) == (1, 4)


def test_audit_finds_stores_under_a_folder_and_writes_nothing() -> None:
    before = tree_digest(FIXTURES)
    audit = audit_mem(FIXTURES)
    assert tree_digest(FIXTURES) == before
    assert [Path(s).parent.name for s in audit.stores] == ["mem", "mem-broken"]
    assert len(audit.findings) == len(MEM_CODES) - 1
    assert audit.exit_code() == 1
    assert all(f.message.startswith("line ") and "[mem-jsonl §" in f.message
               for f in audit.findings if f.code != "mem_merge_union_missing")


def test_privacy_seam_sees_every_file_once() -> None:
    from schemas.stores import StoreFinding

    seen: list[str] = []

    def detector(rel: str, text: str) -> list[StoreFinding]:
        seen.append(rel)
        return [StoreFinding(code="privacy_probe", file=rel, line=1, message=text[:5])]

    findings = check_mem_store(read_mem_store(MEM_GOOD), privacy_check=detector)
    assert seen == sorted(seen) and len(seen) == 7
    assert [f.file for f in findings] == seen
