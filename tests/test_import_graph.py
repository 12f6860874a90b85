"""No import cycle among the shipped modules (issue 27): function-level and TYPE_CHECKING
imports count, so a cycle cannot be hidden by moving one of its imports into a function."""

from __future__ import annotations

from pathlib import Path

from tests.import_graph import import_graph, shipped_module_files, strongly_connected


def test_the_shipped_code_has_no_import_cycle() -> None:
    graph = import_graph(shipped_module_files())
    assert len(graph) > 150
    assert strongly_connected(graph) == [], "move the piece both sides need down a layer"


def test_the_check_sees_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "low.py").write_text("def late():\n    from pkg.high import x\n", encoding="utf-8")
    (tmp_path / "pkg" / "high.py").write_text("from . import low\nfrom pkg.mid import y\n", encoding="utf-8")
    (tmp_path / "pkg" / "mid.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.high import z\n", encoding="utf-8")
    (tmp_path / "top.py").write_text("import pkg.low\n", encoding="utf-8")
    graph = import_graph(shipped_module_files(tmp_path, ["pkg"], ["top.py"]))
    assert graph["top"] == {"pkg.low"}
    assert graph["pkg.high"] == {"pkg", "pkg.low", "pkg.mid"}
    assert strongly_connected(graph) == [["pkg.high", "pkg.low", "pkg.mid"]]
