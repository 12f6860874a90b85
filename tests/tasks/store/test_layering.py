"""The store layer stands apart from the stages: its modules import only the store layer, the
markdown layer and schemas/, so a stage can change without the store noticing."""

from __future__ import annotations

import ast
from pathlib import Path

STORE = Path(__file__).resolve().parents[3] / "tasks" / "store"
ALLOWED = ("tasks.store", "tasks.markdown")


def imported_tasks_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name == "tasks" or name.startswith("tasks.")}


def test_the_store_layer_imports_no_stage() -> None:
    modules = sorted(STORE.glob("*.py"))
    assert len(modules) > 10
    stray = {
        f"{path.name}: {name}"
        for path in modules
        for name in imported_tasks_modules(path)
        if not name.startswith(ALLOWED)
    }
    assert stray == set()


def test_the_check_sees_a_stage_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from tasks.store.atomic import x\nimport tasks.distill.apply\n", encoding="utf-8")
    assert imported_tasks_modules(sample) == {"tasks.store.atomic", "tasks.distill.apply"}
