"""spec/mem-jsonl.md, row by row (issue 25): each test is named after the seed audit's row
(../shared/reviews/seed-audit-2026-12-01.md) and does what the row tried. J23 (tombstones and
an inbox) is not in this contract: no test."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from schemas.search import RetrievalReport, RoutingRequest
from tasks.memstores.check import audit_mem
from tasks.memstores.check_mem import check_mem_store
from tasks.memstores.mem_jsonl import read_mem_store
from tasks.search.retrieve import retrieve
from tasks.store.operation import reading_operation
from tasks.store.settings import load_settings
from tests.tasks.memstores.pipeline import NOW, ingest_and_distill
from tests.tasks.memstores.store_fixtures import FIXTURES, MEM_GOOD

RECORD: dict[str, object] = {"id": "mem_db90", "domain": "database", "type": "convention", "title": "Index foreign keys",
          "body": "Joins on unindexed keys scan.", "resolution": None,
          "evidence": {"files": ["src/db/schema.ts"], "dirs": ["src/db"], "branch": None,
                       "issues": [], "run": None},
          "provenance": {"author": "agent:claude-code", "backend": "boxd",
                         "created_at": "2026-02-01T09:00:00Z"},
          "status": "active", "supersedes": None, "confidence": "high", "hits": 0}


def _line(value: dict[str, object]) -> str:
    return json.dumps(value, separators=(",", ":")) + "\n"


def _index(record: dict[str, object], **changes: object) -> dict[str, object]:
    evidence = record["evidence"]
    assert isinstance(evidence, dict)
    return {"id": record["id"], "domain": record["domain"], "type": record["type"],
            "title": record["title"], "files": evidence["files"], **changes}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(MEM_GOOD.parent, repo)
    return repo / ".mem"


def _append(store: Path, rel: str, *lines: dict[str, object]) -> None:
    with (store / rel).open("a", encoding="utf-8") as handle:
        handle.writelines(_line(line) for line in lines)


def _codes(store: Path) -> Counter[str]:
    return Counter(f.code for f in check_mem_store(read_mem_store(store)))


def _messages(store: Path, code: str) -> list[str]:
    return [f.message for f in check_mem_store(read_mem_store(store)) if f.code == code]


def test_J1_the_layout_is_read_and_a_good_store_is_ok() -> None:
    audit = audit_mem(MEM_GOOD)
    assert audit.findings == [] and audit.exit_code() == 0
    assert audit.counts == {"active_records": 12, "archived_records": 3, "domains": 4,
                            "index_lines": 12}


def test_J2_an_index_id_without_an_active_record_is_a_broken_store(store: Path) -> None:
    _append(store, "index.jsonl", _index(RECORD))
    assert _messages(store, "mem_index_orphan") == [
        "index entry 'mem_db90' has no matching active record in domains/"]


def test_J3_an_active_record_in_archive_is_a_broken_store(store: Path) -> None:
    _append(store, "archive/database.jsonl", RECORD)
    assert _codes(store)["mem_active_in_archive"] == 1


def test_J4_a_domain_that_is_not_a_lowercase_slug_says_so(store: Path) -> None:
    upper = {**RECORD, "domain": "Database"}
    (store / "domains" / "Database.jsonl").write_text(_line(upper), encoding="utf-8")
    _append(store, "index.jsonl", _index(upper))
    assert _messages(store, "mem_domain_mismatch") == [
        "record 'mem_db90' has domain 'Database', not a lowercase slug (a-z, 0-9, -)"]


def test_J5_an_index_line_that_no_longer_copies_its_record_is_reported(store: Path) -> None:
    _append(store, "domains/database.jsonl", RECORD)
    _append(store, "index.jsonl", _index(RECORD, type="decision", files=["src/other.ts"]))
    assert _messages(store, "mem_index_stale") == [
        "index line of 'mem_db90': type and files differ from the record's "
        "(domains/database.jsonl line 5)"]


def test_J6_an_index_line_over_350_bytes_is_reported(store: Path) -> None:
    long = {**RECORD, "title": "Index foreign keys " + "and more " * 40}
    _append(store, "domains/database.jsonl", long)
    _append(store, "index.jsonl", _index(long))
    assert _codes(store)["mem_index_too_long"] == 1


def test_J7_an_index_title_that_differs_from_its_record_is_caught(store: Path) -> None:
    _append(store, "domains/database.jsonl", RECORD)
    _append(store, "index.jsonl", _index(RECORD, title="Index foreign"))
    assert _codes(store)["mem_title_mismatch"] == 1


def test_J8_record_fields_have_their_shapes(store: Path) -> None:
    bad = {**RECORD, "id": "mem 10", "confidence": "sure", "hits": -3,
           "provenance": {"created_at": "yesterday"}}
    _append(store, "domains/database.jsonl", bad)
    _append(store, "index.jsonl", _index(bad))
    [message] = _messages(store, "mem_invalid_field")
    for part in ("'mem 10'", "provenance.author is missing", "'yesterday' is not an ISO 8601",
                 "confidence 'sure'", "hits -3 is negative"):
        assert part in message


def test_J9_a_pretty_printed_or_broken_line_is_reported_with_its_record(store: Path) -> None:
    pretty = json.dumps(RECORD, indent=2) + "\n"
    with (store / "domains" / "database.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(pretty + '{"id":"mem_db91","domain":"database",\n')
    codes = _codes(store)
    assert codes["mem_pretty_printed"] == 1 and codes["mem_invalid_json"] == 1
    assert _messages(store, "mem_invalid_json")[0].startswith("record 'mem_db91': not valid JSON")


def test_J10_an_unknown_type_is_reported(store: Path) -> None:
    gotcha = {**RECORD, "type": "gotcha"}
    _append(store, "domains/database.jsonl", gotcha)
    _append(store, "index.jsonl", _index(gotcha))
    assert _codes(store)["mem_unknown_type"] == 1


def test_J11_a_line_rewritten_in_place_is_reported_in_a_git_work_tree(store: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(store.parent), "-c", "user.email=t@t", "-c",
                        "user.name=t", *args], check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "memory")
    assert _codes(store)["mem_line_rewritten"] == 0
    domain = store / "domains" / "database.jsonl"
    domain.write_text(domain.read_text(encoding="utf-8").replace(
        "Batch inserts in chunks of 500 rows", "Batch inserts in chunks of 900 rows"), encoding="utf-8")
    assert _messages(store, "mem_line_rewritten") == [
        "record 'mem_db05': a line of the last commit was edited or removed in place"]
    git("checkout", "-q", "--", ".")
    # a supersession moves a line: domains/ -> archive/, and the index line goes
    lines = domain.read_text(encoding="utf-8").splitlines(keepends=True)
    old = next(line for line in lines if '"mem_db05"' in line)
    domain.write_text("".join(line for line in lines if line != old)
                      + _line({**RECORD, "supersedes": "mem_db05"}), encoding="utf-8")
    _append(store, "archive/database.jsonl", {**json.loads(old), "status": "superseded"})
    index = store / "index.jsonl"
    index.write_text("".join(line for line in index.read_text(encoding="utf-8").splitlines(True)
                             if '"mem_db05"' not in line) + _line(_index(RECORD)), encoding="utf-8")
    assert _codes(store) == Counter()


def _retrieve(root: Path, task: str, paths: list[str] | None = None,
              work_tree: Path | None = None) -> RetrievalReport:
    settings = load_settings(root, fixed_clock=NOW, search_semantic=False)
    routing = RoutingRequest(paths=paths) if paths else None
    with reading_operation(settings, "retrieve") as operation:
        return retrieve(operation, task, routing=routing, work_tree=work_tree)


@pytest.fixture(scope="module")
def mem_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mem") / "root"
    ingest_and_distill(root, [FIXTURES / "mem"])
    return root


def test_J12_priming_reads_the_index_universal_and_domains_by_path_never_archive(
        mem_root: Path) -> None:
    report = _retrieve(mem_root, "store user sessions in Redis")
    [priming] = report.packet.mem_priming
    assert priming.files_read == ["index.jsonl", "domains/_universal.jsonl"]  # index first
    assert [r.id for r in priming.records] == ["mem_un01", "mem_un02"]
    assert priming.summary == "memory: primed 2 records from _universal"
    assert "memory: primed 2 records from _universal" in report.packet_markdown
    by_path = _retrieve(mem_root, "fix the migration", paths=["src/db/migrate.ts"])
    [primed] = by_path.packet.mem_priming
    assert primed.files_read == ["index.jsonl", "domains/_universal.jsonl", "domains/database.jsonl"]
    why = {r.id: r.why for r in primed.records}
    assert why["mem_db04"] == "path: src/db/migrate.ts <- src/db/migrate.ts"
    assert why["mem_db03"] == "path: src/db/migrate.ts <- src/db/*.ts"
    assert by_path.packet.routing is None  # --path alone, no custodian tree: nothing to route
    archived = ("mem_db01", "mem_db02", "mem_au01")  # archive/: never primed, never ranked
    for text in (report.packet_markdown, by_path.packet_markdown):
        assert not any(ident in text for ident in archived), text


def test_J12_the_changed_files_of_a_git_work_tree_join_the_working_set(
        mem_root: Path, tmp_path: Path) -> None:
    tree = tmp_path / "work"
    (tree / "src" / "auth").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    (tree / "src" / "auth" / "jwt.ts").write_text("export {}\n", encoding="utf-8")
    report = _retrieve(mem_root, "tidy the code", work_tree=tree)
    [priming] = report.packet.mem_priming
    assert priming.paths == ["src/auth/jwt.ts"]
    assert "domains/auth.jsonl" in priming.files_read
    assert {r.id for r in priming.records} >= {"mem_au03", "mem_au04"}
    outside = _retrieve(mem_root, "tidy the code", work_tree=tmp_path / "not-a-repo")
    assert outside.packet.mem_priming[0].paths == []


def test_J13_a_record_with_no_index_line_is_invisible_and_reported(store: Path) -> None:
    _append(store, "domains/database.jsonl", RECORD)
    assert _messages(store, "mem_record_not_indexed") == [
        "active record 'mem_db90' has no line in index.jsonl"]


def test_J14_the_merge_union_driver_is_checked_in_gitattributes(store: Path) -> None:
    assert _codes(store)["mem_merge_union_missing"] == 0  # the fixture repo declares it
    (store.parent / ".gitattributes").write_text(".mem/index.jsonl merge=union\n", encoding="utf-8")
    [message] = _messages(store, "mem_merge_union_missing")
    assert "domains/_universal.jsonl" in message and "index.jsonl," not in message
    (store / ".gitattributes").write_text("*.jsonl merge=union\n", encoding="utf-8")
    assert _codes(store)["mem_merge_union_missing"] == 0  # the inner file wins
    (store / ".gitattributes").write_text("domains/*.jsonl -merge\n", encoding="utf-8")
    assert _codes(store)["mem_merge_union_missing"] == 1


def test_J16_supersession_in_three_moves_is_valid_and_in_two_is_not(store: Path) -> None:
    assert _codes(store) == Counter()  # the fixture's supersessions are complete
    _append(store, "domains/database.jsonl", {**RECORD, "supersedes": "mem_db03"})
    _append(store, "index.jsonl", _index(RECORD))
    assert _codes(store)["mem_supersedes_not_archived"] == 1  # mem_db03 still active


def test_J17_a_backwards_supersession_is_reported(store: Path) -> None:
    _append(store, "archive/database.jsonl", {**RECORD, "status": "superseded"})
    _append(store, "index.jsonl", _index(RECORD))
    assert _messages(store, "mem_retired_still_listed") == [
        "index lists 'mem_db90', retired to archive/database.jsonl line 3"]


def test_J18_a_status_other_than_active_or_superseded_is_reported(store: Path) -> None:
    _append(store, "archive/database.jsonl", {**RECORD, "status": "retired"})
    assert _codes(store)["mem_unknown_status"] == 1


def test_J19_the_validator_gates_with_its_exit_code_and_joins_reconcile(
        store: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from flows.cli.app import app
    from tests.tasks.memstores.test_reconcile_stores import _store_codes

    runner = CliRunner()
    assert runner.invoke(app, ["check", "mem", str(store)]).exit_code == 0
    _append(store, "index.jsonl", _index(RECORD))
    assert runner.invoke(app, ["check", "mem", str(store)]).exit_code == 1
    assert runner.invoke(app, ["check", "mem", str(tmp_path / "none")]).exit_code == 2
    root = tmp_path / "root"
    ingest_and_distill(root, [])
    assert _store_codes(root, store_paths=[store.parent])["mem_index_orphan"] == 1


def test_J20_no_mem_folder_means_nothing_to_check(tmp_path: Path) -> None:
    from tasks.store.errors import InputError

    with pytest.raises(InputError, match="no .mem store here"):
        audit_mem(tmp_path)


def test_J21_a_store_without_index_jsonl_is_reported(store: Path) -> None:
    (store / "index.jsonl").unlink()
    assert _messages(store, "mem_store_missing") == ["index.jsonl is missing: no record is visible"]


def test_J22_retired_records_stay_linked_to_what_replaced_them(mem_root: Path) -> None:
    graph = json.loads((mem_root / "context" / "knowledge-graph.index.jsonc").read_text())
    auth = next(e for e in graph["entities"] if e["entityName"] == "auth domain")
    retired = {s["observation"][:10]: s["supersededBy"] for s in auth["supersededObservations"]}
    assert retired == {"[mem_au01]": "mem_au02"}


def test_J15_a_secret_in_a_record_is_reported_by_the_validator_masked(store: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    leaky = {**RECORD, "body": f"CI pushes with the token {token}."}
    _append(store, "domains/database.jsonl", leaky)
    _append(store, "index.jsonl", _index(leaky))
    from tasks.memstores.check import audit_mem

    found = [f for f in audit_mem(store).findings if f.code == "mem_secret_detected"]
    assert [f.path.rsplit("/", 1)[-1] for f in found] == ["database.jsonl"]
    assert "record 'mem_db90': GitHub Token ghp_" in found[0].message
    assert token not in found[0].message


def test_J15_a_secret_on_a_later_line_is_found_on_its_line(store: Path) -> None:
    from tasks.memstores.check import mem_secret_check

    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    text = f'{{"id":"mem_a","body":"plain"}}\n{{"id":"mem_b","body":"push with {token}"}}\n'
    [finding] = mem_secret_check("domains/x.jsonl", text)
    assert finding.line == 2 and finding.message.startswith("record 'mem_b': GitHub Token")
