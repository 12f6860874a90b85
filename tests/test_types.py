"""Types are checked as part of the tests: mypy strict with the pydantic plugin (pyproject.toml).

All shipped code is checked: flows/, tasks/, schemas/, deployments/ and the Python API."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHECKED = ["flows", "tasks", "schemas", "deployments", "membank.py"]


def test_mypy_strict_finds_nothing() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-error-summary", *CHECKED],
        capture_output=True, text=True, cwd=REPO, check=False, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
