"""The code stays as ruff (configured in pyproject.toml) wants it: lint is part of the tests."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.shipped_code import shipped_modules

REPO = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format",
                             "concise", str(REPO)], capture_output=True, text=True, cwd=REPO, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


# Functions longer than this are split (issue 12); one that must stay longer is listed here with
# the reason, as "path:function": "why".
MAX_FUNCTION_LINES = 60
LONG_FUNCTIONS: dict[str, str] = {}


def long_functions(paths: list[Path], root: Path = REPO) -> list[str]:
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                where = f"{path.relative_to(root)}:{node.name}"
                if lines > MAX_FUNCTION_LINES and where not in LONG_FUNCTIONS:
                    found.append(f"{where} ({lines} lines, line {node.lineno})")
    return found


def test_no_function_is_longer_than_the_limit() -> None:
    shipped = [REPO / "membank.py"] + [
        path for _rel, path in shipped_modules() if "vendor" not in path.parts]
    assert long_functions(shipped) == [], "split them, or list them in LONG_FUNCTIONS with why"


def test_the_length_check_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{n} = {n}" for n in range(MAX_FUNCTION_LINES))
    sample = tmp_path / "sample.py"
    sample.write_text(f"def fits():\n{body[:-len(body.splitlines()[-1])]}\ndef too_long():\n{body}\n",
                      encoding="utf-8")
    assert long_functions([sample], tmp_path) == ["sample.py:too_long (61 lines, line 62)"]
