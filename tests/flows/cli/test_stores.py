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
