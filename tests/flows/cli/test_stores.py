"""`membank check mem|custodian`: exit codes, JSON output, no Prefect, nothing written."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from flows.cli.app import app
from tests.conftest import FIXED_NOW, REPO_ROOT
from tests.tasks.memstores.store_fixtures import CUSTODIAN_BROKEN, FIXTURES, MEM_BROKEN, MEM_GOOD, tree_digest

runner = CliRunner()


def test_check_mem_exit_codes_and_json() -> None:
    assert runner.invoke(app, ["check", "mem", str(MEM_GOOD)]).exit_code == 0
    result = runner.invoke(app, ["check", "mem", str(MEM_BROKEN), "--json"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["kind"] == "mem" and len(document["findings"]) == 18  # each rule once
    assert all(f["path"].startswith(str(MEM_BROKEN)) for f in document["findings"])


def test_check_custodian_reports_each_rule(monkeypatch) -> None:
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", FIXED_NOW)
    before = tree_digest(FIXTURES)
    result = runner.invoke(app, ["check", "custodian", str(CUSTODIAN_BROKEN.parent.parent)])
    assert result.exit_code == 1
    assert "mc_owner_conflict" in result.stdout and "decisions.md: error" in result.stdout
    assert tree_digest(FIXTURES) == before


def test_check_without_a_store_cannot_run(tmp_path) -> None:
    result = runner.invoke(app, ["check", "custodian", str(tmp_path / "missing")])
    assert result.exit_code == 2
    assert "path does not exist" in result.stderr


def test_check_never_imports_prefect() -> None:
    code = ("import sys\nfrom typer.testing import CliRunner\nfrom flows.cli.app import app\n"
            f"r = CliRunner().invoke(app, ['check', 'mem', {str(MEM_GOOD)!r}])\n"
            f"r2 = CliRunner().invoke(app, ['check', 'custodian', {str(CUSTODIAN_BROKEN)!r}])\n"
            "assert r.exit_code == 0 and r2.exit_code == 1, (r.output, r2.output)\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'prefect']\n")
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True)


def test_check_mem_where_there_is_no_store_cannot_run(tmp_path) -> None:
    result = runner.invoke(app, ["check", "mem", str(tmp_path)])
    assert result.exit_code == 2 and "no .mem store here" in result.stderr


def test_check_custodian_conflicts_keeps_the_conflict_class(monkeypatch) -> None:
    from tasks.memstores.check_custodian import CONFLICT_CODES

    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", FIXED_NOW)
    assert runner.invoke(app, ["check", "custodian", str(FIXTURES / "custodian"),
                               "--conflicts"]).exit_code == 0
    result = runner.invoke(app, ["check", "custodian", str(CUSTODIAN_BROKEN), "--conflicts",
                                 "--json"])
    assert result.exit_code == 1
    codes = sorted(f["code"] for f in json.loads(result.stdout)["findings"])
    assert codes == ["mc_duplicate_id", "mc_invalid_exception", "mc_invalid_reconciliation",
                     "mc_owner_conflict", "mc_subject_collision", "mc_supersedes_active"]
    assert set(codes) <= CONFLICT_CODES


def test_check_custodian_merge_base_prints_the_merge_status(tmp_path, monkeypatch) -> None:
    from tests.tasks.memstores.merge_fixtures import EXIT_EDIT, RELEASE_EDIT, two_sided_repo

    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", FIXED_NOW)
    repo = two_sided_repo(tmp_path, [RELEASE_EDIT], [EXIT_EDIT])
    before = tree_digest(repo / "docs")
    result = runner.invoke(app, ["check", "custodian", str(repo), "--merge-base", "other",
                                 "--json"])
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert document["status"] == "REVIEW" and document["merge_review"][0]["ref"] == "other"
    assert [f["code"] for f in document["findings"]] == ["mc_merge_review"]
    clear = runner.invoke(app, ["check", "custodian", str(repo), "--conflicts", "--merge-base",
                                "main"])
    assert clear.exit_code == 0, clear.output
    assert "CLEAR: no deterministic conflict" in clear.stdout
    assert "not a proof of semantic consistency" in clear.stdout
    missing = runner.invoke(app, ["check", "custodian", str(repo), "--merge-base", "gone"])
    assert missing.exit_code == 1 and "merge status unavailable" in missing.stdout
    assert "conflict-free status was not established" in missing.stdout
    option = runner.invoke(app, ["check", "custodian", str(repo), "--merge-base", "--all"])
    assert option.exit_code == 2 and "is not a git revision" in option.stderr
    assert tree_digest(repo / "docs") == before
