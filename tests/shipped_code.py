"""The shipped modules the code-shape tests read (layering, paths, parsers, lengths)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO_ROOT

SHIPPED_FOLDERS = ("tasks", "flows", "schemas", "deployments")


def shipped_modules() -> list[tuple[str, Path]]:
    """(repo-relative posix path, path) of every .py file of the shipped folders, sorted."""
    return [(path.relative_to(REPO_ROOT).as_posix(), path)
            for folder in SHIPPED_FOLDERS
            for path in sorted((REPO_ROOT / folder).rglob("*.py"))]
