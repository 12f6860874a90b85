"""tasks/store/layout.py is the one place that spells memory-root paths."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import tasks.store.layout as layout
from tasks.store.layout import MemoryLayout
from tests.shipped_code import shipped_modules

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
        f"{rel}: {name} = {value!r}"
        for rel, path in shipped_modules()
        if rel != "tasks/store/layout.py"
        for name, value in _module_string_constants(path)
        if value in values
    ]
    assert elsewhere == [], "import these from tasks/store/layout.py instead"


# Top-level memory folders (raw, wiki, context, sessions, ..., proposals, .membank).
TOP_FOLDERS = frozenset({folder.split("/", 1)[0] for folder in layout.CORE_FOLDERS}
                        | {layout.PROPOSALS_DIR, layout.STATE_DIR})


def _spells_a_memory_path(value: str) -> bool:
    """A folder prefix (wiki/, raw/, sessions/, ...), a bare wiki/.membank folder name, the
    shards folder inside a path, or a hub page name (index.md, <folder>/index.md). Words with
    whitespace are prose (messages, hints); bare "raw"/"context"/"proposals"/"shards" are also
    scan kinds, flow names and figure keys, so only their slash forms count."""
    if not value or any(c.isspace() for c in value):
        return False
    return (value.split("/", 1)[0] in TOP_FOLDERS and "/" in value
            or value in (layout.WIKI_DIR, layout.STATE_DIR)
            or f"/{layout.SHARDS_NAME}/" in f"{value}/"
            or value == layout.HUB_NAME or value.endswith(f"/{layout.HUB_NAME}"))


def _code_strings(tree: ast.Module) -> Iterator[ast.Constant]:
    """Every string constant of the code, f-string parts included; docstrings are not code."""
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings):
            yield node


def test_no_other_module_spells_a_memory_folder_or_hub_name() -> None:
    """Folder prefixes and hub names come from tasks/store/layout.py (constants, hub_path) and
    tasks/store/names.py (is_hub_page, in_shards), not string literals."""
    spelled = [
        f"{rel}:{node.lineno}: {node.value!r}"
        for rel, path in shipped_modules()
        if rel != "tasks/store/layout.py"
        for node in _code_strings(ast.parse(path.read_text(encoding="utf-8")))
        if _spells_a_memory_path(node.value)
    ]
    assert spelled == [], "use tasks/store/layout.py's constants or tasks/store/names.py's tests"


@pytest.mark.parametrize(("value", "spells"), [
    ("wiki/", True), ("wiki/sources/", True), ("raw/", True), ("context/project.md", True),
    ("proposals/inbox", True), ("sessions/", True), ("/shards/", True), ("index.md", True),
    ("/index.md", True), ("wiki", True), (".membank", True),
    ("raw", False), ("shards", False), ("proposals", False), ("context", False),
    ("raw/ is immutable: restore it", False), ("wiki-page", False), ("xindex.md", False),
])
def test_the_spelling_check_knows_paths_from_words(value: str, spells: bool) -> None:
    assert _spells_a_memory_path(value) is spells


def test_docstrings_are_not_code_but_f_string_parts_are() -> None:
    tree = ast.parse('"""wiki/ and index.md"""\ndef f(x):\n    """raw/"""\n    return f"{x}/index.md"\n')
    assert [node.value for node in _code_strings(tree)] == ["/index.md"]


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
    assert paths.raw == tmp_path / layout.RAW_DIR and paths.shards == tmp_path / layout.SHARDS_DIR
    assert layout.SHARDS_FOLDER == "wiki/sources/shards/" and layout.RAW_FOLDER == "raw/"
    assert layout.WIKI_HUB_PAGES == tuple(f"{folder}/index.md" for folder, _, _ in layout.WIKI_HUBS)
