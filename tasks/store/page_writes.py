"""Pages written to disk: through the atomic writer, with the created_at/updated_at contract
of tasks.store.pages (which holds the format and reading, and which the atomic writer uses to
check a markdown file before it replaces one)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tasks.store.atomic import StagedWrites, atomic_write_text
from tasks.store.pages import Page, plan_page_text


@dataclass(frozen=True)
class PageWrite:
    path: Path
    created: bool
    changed: bool


def write_page(path: Path, meta: dict[str, Any], body: str, *, now_iso: str,
               read: tuple[str, Page] | None = None) -> PageWrite:
    """Create or update a page atomically with the created_at/updated_at contract. `read`:
    the page's text and its split_page, as the caller just read them (not read again)."""
    result, text = planned_page(path, meta, body, now_iso=now_iso, read=read)
    if text is not None:
        atomic_write_text(path, text)
    return result


def stage_page(staged: StagedWrites, path: Path, meta: dict[str, Any], body: str, *,
               now_iso: str) -> PageWrite:
    """write_page for many pages at once: the new text is staged in `staged` (a StagedWrites
    made with `replacing=True`), in place at its commit."""
    result, text = planned_page(path, meta, body, now_iso=now_iso)
    if text is not None:
        staged.stage(path, text.encode("utf-8"))
    return result


def planned_page(path: Path, meta: dict[str, Any], body: str, *, now_iso: str,
                 read: tuple[str, Page] | None = None) -> tuple[PageWrite, str | None]:
    """What writing the page does, and the text to write (None: the bytes on disk stay)."""
    existing: str | None
    if read is not None:
        existing = read[0]
    else:
        try:
            existing = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            existing = None
    text = plan_page_text(existing, meta, body, now_iso=now_iso, file=path,
                          split=read[1] if read is not None else None)
    if text is None:
        return PageWrite(path, created=False, changed=False), None
    return PageWrite(path, created=existing is None, changed=True), (
        None if text == existing else text)
