"""`membank custodian status|list|subjects`: JSON shapes, a tree without manifest, no Prefect."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from flows.cli.app import app
from tests.conftest import REPO_ROOT
from tests.tasks.memstores.store_fixtures import CUSTODIAN_GOOD, CUSTODIAN_NO_MANIFEST

runner = CliRunner()


def test_status_json_counts_entries_by_status_and_budgets_each_file() -> None:
    result = runner.invoke(app, ["custodian", "status", str(CUSTODIAN_GOOD), "--json"])
    assert result.exit_code == 0, result.output
    view = json.loads(result.stdout)
    assert view["entries"] == {"active": 15, "candidate": 1, "promoted": 1, "superseded": 5}
    assert (view["subjects"], view["files"], view["protocol_version"]) == (6, 11, "0.7")
    assert {"file": "brief.md", "tokens": 66, "budget": 500, "state": "ok"} in view["budgets"]


def test_a_tree_without_manifest_is_shown_as_an_incomplete_setup() -> None:
    result = runner.invoke(app, ["custodian", "status", str(CUSTODIAN_NO_MANIFEST)])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].endswith("protocol ? (no manifest.md: incomplete setup)")
    listed = runner.invoke(app, ["custodian", "list", str(CUSTODIAN_NO_MANIFEST), "--status",
                                 "rejected"])
    assert listed.exit_code == 0 and listed.stdout == ""


def test_the_views_never_import_prefect() -> None:
    code = ("import sys\nfrom typer.testing import CliRunner\nfrom flows.cli.app import app\n"
            f"r = CliRunner().invoke(app, ['custodian', 'list', {str(CUSTODIAN_GOOD)!r}])\n"
            "assert r.exit_code == 0, r.output\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'prefect']\n")
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True)
