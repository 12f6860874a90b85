"""walk_pages (tasks/search/pages.py): the pages the search index holds, each with its lstat."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tasks.checks.walk import SKIP_PATHS, walk_root
from tasks.search.pages import is_indexable, pages_of_walk, walk_pages


def _reference(root: Path) -> list[tuple[str, int, int]]:
    """Every file is_indexable keeps, reached without a symlink, that is a regular file."""
    found = []
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            rel = name if rel_folder == "." else f"{rel_folder}/{name}"
            info = os.lstat(os.path.join(folder, name))
            if is_indexable(rel) and stat.S_ISREG(info.st_mode):
                found.append((rel, info.st_ino, info.st_size))
    return sorted(found)


def test_the_walk_keeps_what_is_indexable_and_stats_it_in_place(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    pages = ["wiki/concepts/a.md", "wiki/concepts/deep/b.md", "sessions/s.md", "notes.md",
             "wiki/entities/index.md"]
    skipped = ["index.md", "log.md", "raw/r.md", "proposals/p.md", "wiki/.hidden/h.md",
               "wiki/concepts/.tmp.md", "wiki/concepts/c.txt", "wiki/concepts/d.md.bak"]
    for n, rel in enumerate(pages + skipped):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x" * (n + 1))
    (root / "wiki/concepts/link.md").symlink_to(root / "notes.md")  # a symlinked page
    (root / "wiki/linked").symlink_to(root / "wiki/concepts", target_is_directory=True)
    (root / "wiki/concepts/folder.md").mkdir()  # a folder named like a page
    walked = [(rel, info.st_ino, info.st_size) for rel, info in walk_pages(root)]
    assert walked == _reference(root)
    assert [rel for rel, _, _ in walked] == sorted(pages)
    assert dict((rel, size) for rel, _, size in walked)["notes.md"] == 4  # its own lstat


def test_the_pages_of_reconcile_s_walk_are_walk_pages_s(tmp_path: Path) -> None:
    """pages_of_walk over reconcile's walk (tasks/checks/walk.py), with the folders that walk
    skips walked again, finds the very pages and stats walk_pages finds."""
    root = tmp_path / "memory"
    for n, rel in enumerate(["wiki/concepts/a.md", "sessions/s.md", "notes.md", "index.md",
                             "log.md", "raw/r.md", "proposals/p.md", "wiki/.hidden/h.md",
                             "wiki/concepts/.tmp.md", "wiki/concepts/c.txt",
                             "context/health/report.md", "context/health/deep/more.md",
                             ".membank/state.md", "docs/memory/decisions/d.md",
                             "docs/guide.md"]):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x" * (n + 1))
    (root / "docs/memory/MEMORY.md").write_text("# custodian\n")
    (root / "wiki/concepts/link.md").symlink_to(root / "notes.md")
    (root / "wiki/linked").symlink_to(root / "wiki/concepts", target_is_directory=True)
    stats = walk_root(root).stats
    mine = sorted((rel, st.st_mtime_ns, st.st_size)
                  for rel, st in pages_of_walk(root, stats, SKIP_PATHS))
    theirs = [(rel, st.st_mtime_ns, st.st_size) for rel, st in walk_pages(root)]
    assert mine == theirs
    assert "context/health/deep/more.md" in {rel for rel, _, _ in mine}
    assert "context/health/report.md" not in stats  # walked here, not by reconcile
