"""tasks/store/layout.py is the one place that spells memory-root paths."""

from __future__ import annotations

import ast
from pathlib import Path

import tasks.store.layout as layout
from tasks.store.layout import MemoryLayout

REPO = Path(__file__).resolve().parents[3]
PATH_CONSTANTS = {
    name: value for name, value in vars(layout).items()
    if name.isupper() and isinstance(value, str) and name != "OTHER_CATEGORY"
}


def _module_string_constants(path: Path) -> list[tuple[str, str]]:
    """(name, value) of every module-level `NAME = "..."` in a file."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        value = getattr(node, "value", None)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            found += [(t.id, value.value) for t in targets if isinstance(t, ast.Name)]
    return found


def test_no_other_module_defines_a_memory_root_path() -> None:
    values = set(PATH_CONSTANTS.values())
    assert {"index.md", "context/knowledge-graph.index.jsonc", ".membank"} <= values
    elsewhere = [
        f"{path.relative_to(REPO)}: {name} = {value!r}"
        for folder in ("tasks", "flows", "schemas", "deployments")
        for path in sorted((REPO / folder).rglob("*.py"))
        if path != REPO / "tasks/store/layout.py"
        for name, value in _module_string_constants(path)
        if value in values
    ]
    assert elsewhere == [], "import these from tasks/store/layout.py instead"


def test_layout_paths_are_the_constants_under_the_root(tmp_path: Path) -> None:
    paths = MemoryLayout(tmp_path)
    assert paths.graph_file == tmp_path / layout.GRAPH_FILE
    assert paths.registry_file == tmp_path / layout.REGISTRY_FILE
    assert paths.raw_manifest_file == tmp_path / layout.MANIFEST_FILE
    assert paths.distill_state_file == tmp_path / layout.DISTILL_STATE_FILE
    assert paths.tombstones_file == tmp_path / layout.TOMBSTONES_FILE
    assert paths.candidates_file == tmp_path / layout.CANDIDATES_FILE
    assert paths.index_file == tmp_path / layout.INDEX_FILE
    assert paths.log_file == tmp_path / layout.LOG_FILE
    assert paths.state_dir == tmp_path / layout.STATE_DIR
    assert layout.RECONCILE_CACHE_FILE.startswith(f"{layout.STATE_DIR}/")
    assert layout.ENTITY_HUB == f"{layout.ENTITY_FOLDER}index.md"
