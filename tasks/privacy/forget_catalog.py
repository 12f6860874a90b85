"""Catalog lines of the pages forget keeps: a hub page's child line or an index.md entry whose
description named the topic is rewritten with the page's planned description, never removed,
so the page stays listed (reads only; the plan carries the new texts)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import PurePosixPath

from tasks.privacy.forget_plan import ForgetPlan, PageChange, Target
from tasks.store.catalog import CatalogEntry, entry_line, parse_entry_lines
from tasks.store.errors import ContractError
from tasks.store.names import is_hub_page
from tasks.store.pages import plan_page_text, split_page


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


def description_of(changes: dict[str, PageChange], texts: dict[str, str], target: Target,
                   ) -> Callable[[str, str], str | None]:
    """For a catalog line of a page that stays: the page's description as planned, when the
    line names the topic or the plan rewrites that description (None: leave the line)."""
    def describe(path: str, line: str) -> str | None:
        change = changes.get(path)
        if change is not None and change.delete or path not in texts:
            return None
        if change is not None and change.description is not None:
            return change.description
        if not target.matches(line):
            return None
        try:
            meta = split_page(texts[path], file=path).meta
        except ContractError:
            return None
        return str(meta.get("description") or meta.get("title") or "")

    return describe


def plan_hub_descriptions(plan: ForgetPlan, now_iso: str) -> None:
    """A hub's line for a child that stays and named it gets the child's planned description."""
    changes, texts = {c.path: c for c in plan.pages}, plan.page_texts
    describe = description_of(changes, texts, plan.target)
    for rel, text in texts.items():
        current = changes.get(rel)
        if not is_hub_page(rel) or (current is not None and current.delete):
            continue
        base = current.text if current is not None and current.text is not None else text
        page = split_page(base, file=rel)
        body = rewrite_entries(page.body, PurePosixPath(rel).parent.as_posix(), describe)
        if body == page.body:
            continue
        new = plan_page_text(base, page.meta, body, now_iso=now_iso, file=rel) or base
        if current is None:
            changes[rel] = PageChange(rel, False, "rewrite the description of a child that named it",
                                      new, before=hashlib.sha256(text.encode("utf-8")).hexdigest())
        else:
            current.text, current.why = new, current.why + "; rewrite the description of a child"
    plan.pages = [changes[rel] for rel in sorted(changes)]


def plan_index_descriptions(plan: ForgetPlan, entries: dict[str, CatalogEntry]) -> None:
    """index.md's entries of kept pages whose description named it: the planned description."""
    describe = description_of({c.path: c for c in plan.pages}, plan.page_texts, plan.target)
    for rel, entry in entries.items():
        description = describe(rel, f"{entry.title} — {entry.description}")
        if description is not None and description != entry.description:
            plan.catalog_described[rel] = description
