"""`membank propose` has help and is documented (no flow runs here)."""

from __future__ import annotations

from typer.testing import CliRunner

from flows.cli.app import app
from tests.conftest import REPO_ROOT


def test_propose_has_help_and_a_readme_row() -> None:
    result = CliRunner().invoke(app, ["propose", "--help"])
    assert result.exit_code == 0
    assert "--root" in result.stdout and "--json" in result.stdout
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "| `membank propose [FILE...]` |" in readme
    assert "## Proposals" in readme


def test_the_readme_proposal_example_is_accepted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tasks.proposals.gate import gate_proposal
    from tasks.proposals.ledger import empty_ledger
    from tasks.proposals.parse import parse_proposal
    from tasks.proposals.view import RootView
    from tests.proposal_fixtures import seed_memory

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Proposals", 1)[1]
    example = section.split("```markdown\n", 1)[1].split("```\n", 1)[0]
    root = seed_memory(tmp_path / ".memories").root
    (root / "raw/2026-03-24T22-40-05Z__upload-logs.md").write_text("logs\n", encoding="utf-8")
    now = "2026-03-24T22:40:05Z"
    verdict = gate_proposal(
        parse_proposal(example.encode(), name="example.md"),
        RootView(root, empty_ledger(now)),
        now_iso=now,
        prefix="2026-03-24T22-40-05Z",
        page_limit_chars=64_000,
    )
    assert verdict.outcome == "accepted", verdict.message
