"""`membank propose` has help and is documented (no flow runs here)."""

from __future__ import annotations

from typer.testing import CliRunner

from flows.cli import app
from tests.conftest import REPO_ROOT


def test_propose_has_help_and_a_readme_row() -> None:
    result = CliRunner().invoke(app, ["propose", "--help"])
    assert result.exit_code == 0
    assert "--root" in result.stdout and "--json" in result.stdout
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "| `membank propose [FILE...]` |" in readme
    assert "## Proposals" in readme
