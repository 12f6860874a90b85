"""The import graph of the shipped code, read from the source (ast), for the shape tests.

Every import statement counts wherever it stands: at module level, under `if TYPE_CHECKING:`,
or inside a function. A function-level import still ties the two modules together; it only
hides the tie from the import list at the top.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.conftest import REPO_ROOT
from tests.shipped_code import SHIPPED_FOLDERS

Graph = dict[str, set[str]]


def module_name(rel: Path) -> str:
    parts = rel.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def shipped_module_files(root: Path = REPO_ROOT, folders: Iterable[str] = SHIPPED_FOLDERS,
                         loose: Iterable[str] = ("membank.py",)) -> dict[str, Path]:
    """{dotted module name: file} of the shipped folders and the loose top-level modules."""
    files = {module_name(path.relative_to(root)): path
             for folder in folders for path in sorted((root / folder).rglob("*.py"))}
    files.update({module_name(Path(name)): root / name for name in loose if (root / name).exists()})
    return files


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[:len(package) - node.level + 1]
        base = ".".join([*package, base] if base else package)
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def imports_of(path: Path, module: str, known: Mapping[str, Path]) -> set[str]:
    """The shipped modules `module` (in `path`) imports, by any import statement anywhere."""
    found: set[str] = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target in _targets(node, module, is_package):
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    found.add(target)
    return found


def import_graph(files: Mapping[str, Path]) -> Graph:
    return {module: imports_of(path, module, files) for module, path in files.items()}


def strongly_connected(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (each an import
    cycle), sorted; iterative, so a deep graph cannot reach the recursion limit."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            child = next((w for w in edges if w not in index or w in on_stack), None)
            if child is not None and child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
                continue
            if child is not None:
                low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)
