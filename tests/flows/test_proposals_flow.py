"""End to end: the proposals flow and `membank propose` on the session's Prefect test server."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from flows.cli.app import app
from flows.proposals import proposals_flow
from flows.run import run_flow
from tasks.store.layout import APPLIED_DIR, INBOX_DIR, REJECTED_DIR
from tests.proposal_fixtures import EXISTING, proposal, proposal_markdown, seed_memory, snapshot


def test_proposals_flow_applies_the_inbox_and_replays_clean(
    tmp_path: Path, fixed_clock_env: str
) -> None:
    root = seed_memory(tmp_path / ".memories").root
    inbox = root / INBOX_DIR
    inbox.mkdir(parents=True)
    leaf = proposal_markdown(proposal())
    extend = proposal_markdown(
        proposal(
            title="Retry budget",
            body="Retry five times.\n",
            placement={"kind": "extend_section", "page": EXISTING, "section": "budget"},
        )
    )
    (inbox / "leaf.md").write_text(leaf)
    (inbox / "extend.md").write_text(extend)
    (inbox / "orphan.md").write_text(proposal_markdown(proposal(placement={"kind": "new_leaf"})))

    report = proposals_flow(root=str(root))
    assert report.mode == "propose" and report.status == "partial"
    assert report.figures["accepted"] == 2
    assert [p.code for p in report.problems] == ["placement_required"]
    assert "wiki/synthesis/index.md" in report.problems[0].message
    assert (root / REJECTED_DIR / "orphan.md.reason.json").exists()
    assert sorted(p.name for p in (root / APPLIED_DIR).iterdir()) == ["extend.md", "leaf.md"]
    assert "Retry five times." in (root / EXISTING).read_text()

    before = snapshot(root)
    (inbox / "leaf.md").write_text(leaf)
    (inbox / "extend.md").write_text(extend)
    again = run_flow(root=str(root))  # `run` processes a non-empty inbox after bootstrap
    propose_stages = [stage for stage in again.stages if stage.mode == "propose"]
    assert len(propose_stages) == 1 and propose_stages[0].figures["duplicates"] == 2
    assert snapshot(root) == before


def test_cli_propose_prints_the_report_and_exits_by_outcome(
    tmp_path: Path, fixed_clock_env: str
) -> None:
    root = seed_memory(tmp_path / ".memories").root
    good = tmp_path / "good.json"
    good.write_text(json.dumps(proposal()))
    runner = CliRunner()
    result = runner.invoke(app, ["propose", str(good), "--root", str(root), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "propose" and data["figures"]["accepted"] == 1

    bad = tmp_path / "bad.md"
    bad.write_text(proposal_markdown(proposal(title="Data")))
    result = runner.invoke(app, ["propose", str(bad), "--root", str(root)])
    assert result.exit_code == 1
    assert "ambiguous_name" in result.stdout

    result = runner.invoke(app, ["propose", "--root", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "membank init" in result.stderr
