"""Catalog lines (hub pages' children, index.md) of pages forget keeps but whose description
named the topic: the line is rewritten with the page's new description, never removed, so the
page stays listed (pure functions; no I/O)."""

from __future__ import annotations

from collections.abc import Callable

from tasks.store.catalog import CatalogEntry, entry_line, parse_entry_lines


def kept_entry(text: str, folder: str, kept: Callable[[str], bool]) -> bool:
    """Is `text` one catalog line that links to a page that stays?"""
    entries = parse_entry_lines(text.strip(), base=folder)
    return len(entries) == 1 and kept(next(iter(entries)))


def rewrite_entries(body: str, folder: str, description_of: Callable[[str, str], str | None]) -> str:
    """`body` with each catalog line for which `description_of(path, line)` gives a description
    rewritten with it (root-relative path; links are relative to `folder`, "" for index.md)."""
    lines = body.split("\n")
    for number, line in enumerate(lines):
        if not line.startswith("- ["):
            continue
        resolved = parse_entry_lines(line, base=folder)
        if len(resolved) != 1:
            continue
        path, entry = next(iter(resolved.items()))
        description = description_of(path, line)
        if description is not None and description != entry.description:
            link = next(iter(parse_entry_lines(line)))
            lines[number] = entry_line(CatalogEntry(path, entry.title, description), link)
    return "\n".join(lines)
