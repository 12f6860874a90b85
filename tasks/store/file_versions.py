"""The versions of the graph and registry files as the search index records what it reflects
(mtime ns and size; "absent"): a stat each, with nothing of the graph's schema or segments
imported, so an index update that finds the graph unchanged loads neither."""

from __future__ import annotations

from pathlib import Path


def file_signature(path: Path) -> str:
    """A file's version as the search index records it (mtime ns and size; "absent")."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return "absent"
    return f"{found.st_mtime_ns}:{found.st_size}"


def graph_signature(graph_file: Path, registry_file: Path) -> str:
    """The graph and registry's versions, as the search index records what it reflects."""
    return f"{file_signature(graph_file)}|{file_signature(registry_file)}"
