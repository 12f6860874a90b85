"""Byte snapshots of a memory root, to prove a rerun or a replay changed nothing."""

from __future__ import annotations

from pathlib import Path


def snapshot(root: Path, *, skip: tuple[str, ...] = (".membank",)) -> dict[str, bytes]:
    """Every file under `root` by relative path, except those under the `skip` folders
    (root-relative: ".membank", "context/health", ...)."""
    files = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not any(rel == s or rel.startswith(f"{s}/") for s in skip):
            files[rel] = path.read_bytes()
    return files
