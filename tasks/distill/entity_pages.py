"""Entity pages (wiki/entities/<prefix>__<slug>.md): rendered from the graph, one per canonical
entity, with sections Observations, Relations, Sources and Superseded facts that link back to the
source pages. Sections a person added by hand are kept where they are."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from schemas.graph import RegistryEntry, entity_key
from schemas.report import Problem
from tasks.distill.registry_rows import registered_pages
from tasks.markdown.blocks import read_blocks, sections
from tasks.markdown.escapes import escape_link_text
from tasks.store.errors import AmbiguousNameError, MembankError
from tasks.store.folder_slugs import FolderSlugs
from tasks.store.layout import ENTITY_FOLDER, ENTITY_HUB, WIKI_FOLDER, MemoryLayout
from tasks.store.names import slug_from_title
from tasks.store.pages import Page, split_page

MANAGED_SECTIONS = ("Observations", "Relations", "Sources", "Superseded facts")
_NONE = "_None yet._"


@dataclass(frozen=True)
class EntityPageContext:
    """What a page needs beyond its entity: links to other pages and source titles."""

    page_of: Mapping[str, str]  # entity key -> root-relative page path
    source_titles: Mapping[str, str]  # source page -> title
    source_assets: Mapping[str, str]  # source page -> raw asset id


def _rel(from_page: str, to_path: str) -> str:
    """Link from an entity page to `to_path` (root-relative), relative to the page's folder."""
    if from_page.startswith(ENTITY_FOLDER) and "/" not in from_page[len(ENTITY_FOLDER) :]:
        if to_path.startswith(ENTITY_FOLDER) and "/" not in to_path[len(ENTITY_FOLDER) :]:
            return to_path[len(ENTITY_FOLDER) :]
        if to_path.startswith(WIKI_FOLDER):
            return "../" + to_path[len(WIKI_FOLDER) :]
    return os.path.relpath(to_path, PurePosixPath(from_page).parent.as_posix()).replace(os.sep, "/")


def _source_link(page: str, source: str, context: EntityPageContext) -> str:
    title = context.source_titles.get(source) or PurePosixPath(source).stem.split("__", 1)[-1]
    return f"[{escape_link_text(title)}]({_rel(page, source)})"


def _lines(start: int, end: int) -> str:
    return f"raw line {start}" if start == end else f"raw lines {start}-{end}"


def _entity_link(page: str, name: str, context: EntityPageContext) -> str:
    target = context.page_of.get(name.strip().lower())
    return f"[{escape_link_text(name)}]({_rel(page, target)})" if target else escape_link_text(name)


def entity_sources(entity: Mapping[str, Any]) -> list[str]:
    """Source pages of an entity's observations, active and superseded, sorted."""
    return sorted(
        {p["sourcePage"] for p in entity.get("observationProvenance") or ()}
        | {
            str(s.get("sourcePage"))
            for s in entity.get("supersededObservations") or ()
            if s.get("sourcePage")
        }
    )


def render_entity_body(
    page: str,
    entity: Mapping[str, Any],
    outgoing: list[Mapping[str, Any]],
    incoming: list[Mapping[str, Any]],
    context: EntityPageContext,
) -> str:
    """The page body of one graph entity, given as plain dicts in the graph file's shape."""
    name = entity["entityName"]
    lines = [f"# {name}", "", _kind_sentence(name, entity["entityType"]), ""]
    lines += ["## Observations", ""]
    lines += _observation_rows(page, entity, context) or [_NONE]
    lines += ["", "## Relations", ""]
    lines += _relation_rows(page, outgoing, incoming, context) or [_NONE]
    lines += ["", "## Sources", ""]
    lines += _source_rows(page, entity, context) or [_NONE]
    lines += ["", "## Superseded facts", ""]
    lines += [_superseded_row(page, fact, context)
              for fact in entity.get("supersededObservations") or ()] or [_NONE]
    return "\n".join(lines) + "\n"


def _observation_rows(page: str, entity: Mapping[str, Any], context: EntityPageContext) -> list[str]:
    where: dict[str, list[str]] = {}
    for prov in entity.get("observationProvenance") or ():
        where.setdefault(prov["observation"], []).append(
            f"{_source_link(page, prov['sourcePage'], context)}, "
            f"{_lines(prov['lineStart'], prov['lineEnd'])}"
        )
    return [
        f"- {obs}" + (f" ({'; '.join(where[obs])})" if obs in where else "")
        for obs in entity.get("observations") or ()
    ]


def _relation_rows(page: str, outgoing: list[Mapping[str, Any]],
                   incoming: list[Mapping[str, Any]], context: EntityPageContext) -> list[str]:
    rows = [
        f"- {relation['relationType']} {_entity_link(page, relation['targetEntityName'], context)}"
        for relation in outgoing
    ]
    rows += [
        f"- {_entity_link(page, relation['sourceEntityName'], context)} "
        f"{relation['relationType']} this"
        for relation in incoming
    ]
    return rows


def _source_rows(page: str, entity: Mapping[str, Any], context: EntityPageContext) -> list[str]:
    rows = []
    for source in entity_sources(entity):
        asset = context.source_assets.get(source)
        tail = f" (raw asset `{asset[:12]}`)" if asset else ""
        rows.append(f"- {_source_link(page, source, context)}{tail}")
    return rows


def _superseded_row(page: str, fact: Mapping[str, Any], context: EntityPageContext) -> str:
    superseded_by = fact.get("supersededBy")
    if superseded_by and not superseded_by.startswith(WIKI_FOLDER):
        by = f"superseded by {_entity_link(page, superseded_by, context)}"
    elif superseded_by:
        by = f"superseded by {_source_link(page, superseded_by, context)}"
    else:
        by = "superseded"
    origin = (
        f"; was in {_source_link(page, str(fact['sourcePage']), context)}"
        if fact.get("sourcePage")
        else ""
    )
    return (f"- ~~{fact['observation']}~~ "
            f"({by} on {fact['supersededAtUtc']}: {fact['reason']}{origin})")


def merge_hand_sections(new_body: str, old_body: str | None) -> str:
    """Keep H2 sections of the old page that distill does not manage, after ours (sections as
    tasks.markdown.blocks reads them, each kept line for line)."""
    if not old_body:
        return new_body
    blocks = read_blocks(old_body)
    kept: list[str] = []
    for section in sections(blocks, 2)[1:]:
        if section.heading not in MANAGED_SECTIONS:
            kept += ["", *blocks.lines[section.line : section.end]]
    if not kept:
        return new_body
    return new_body.rstrip("\n") + "\n" + "\n".join(kept).rstrip("\n") + "\n"


DISTILLED_SOURCE = "distilled by membank from the sources in derived_from"


def entity_page_meta(
    entity: Mapping[str, Any], aliases: list[str], tags: list[str], sources: list[str]
) -> dict[str, Any]:
    name, entity_type = entity["entityName"], entity["entityType"]
    meta: dict[str, Any] = {
        "type": "entity",
        "title": name,
        "description": f"What this memory knows about {name} ({entity_type.replace('_', ' ')}), "
        "each fact linked to its source.",
        "derived_from": sources,
        "child_of": [ENTITY_HUB],
        "entity_name": name,
        "entity_type": entity_type,
        "aliases": aliases,
        # wiki-memory-pkf.md invariant 5: an artifact a pipeline leg wrote says who and from what
        "memory": {"memoryRole": "knowledge", "source": DISTILLED_SOURCE},
    }
    if tags:
        meta["tags"] = tags
    return meta


def _kind_sentence(name: str, entity_type: str) -> str:
    """"X is a decision entity of this memory." (an article that fits; no "entity entity")."""
    kind = entity_type.replace("_", " ").strip()
    if kind.lower() in {"entity", ""}:
        return f"{name} is an entity of this memory."
    article = "an" if kind[0].lower() in "aeiou" else "a"
    return f"{name} is {article} {kind} entity of this memory."


# --------------------------------------------------------------------------- page paths


def entity_page_slug(name: str) -> str | None:
    """The slug of an entity page's file name (`<prefix>__<slug>.md`), None for another file."""
    if name.endswith(".md") and name != ".md" and "__" in name:
        return name[:-3].split("__", 1)[1]
    return None


def allocate_page_paths(layout: MemoryLayout, prefix: str, entries: Mapping[str, RegistryEntry],
                        touched: Sequence[str]) -> dict[str, str]:
    """Entity key -> page path, for the `touched` entities (their page is fixed at creation on
    the registry entry's entityPage; a new one is found by slug on disk or created with the
    `prefix`) and every other entry with a page (its aliases' keys lead there too). Of
    RegistryEntries, only the touched entries are made models."""
    on_disk = FolderSlugs(layout.entities, entity_page_slug)  # listed when needed
    used: set[str] = set()
    for _key, page, _aliases in registered_pages(entries):
        used.update({page, page.rsplit("__", 1)[-1].removesuffix(".md")})
    page_of: dict[str, str] = {}
    for key in touched:
        entry = entries.get(key)
        if entry is not None:
            page_of[key] = _page_for(layout, prefix, entry, on_disk, used)
    for key, page, aliases in registered_pages(entries):
        if key not in page_of:
            page_of[key] = page
            for alias in aliases:
                page_of.setdefault(entity_key(alias), page)
    return page_of


def _page_for(layout: MemoryLayout, prefix: str, entry: RegistryEntry,
              on_disk: FolderSlugs, used: set[str]) -> str:
    """The entity's page path: fixed at creation (kept in the registry), found by slug otherwise;
    a slug already taken by another entity gets a numeric suffix."""
    if entry.entityPage:
        return entry.entityPage
    try:
        base = slug_from_title(entry.canonicalName)
    except AmbiguousNameError:  # e.g. "Data!" or a name without latin letters: still a page
        base = f"entity-{hashlib.sha256(entry.canonicalName.encode()).hexdigest()[:12]}"
    slug, counter = base, 1
    while True:
        name = on_disk.first(slug)
        if name is not None:
            existing = f"{ENTITY_FOLDER}{name}"
            if existing not in used and _page_is_for(layout.root / existing, entry):
                path = existing
                break
        elif slug not in used:
            path = f"{ENTITY_FOLDER}{prefix}__{slug}.md"
            break
        counter += 1
        slug = f"{base}-{counter}"
    entry.entityPage = path
    used.update({path, slug})
    return path


def _page_is_for(path: Path, entry: RegistryEntry) -> bool:
    try:
        meta = split_page(path.read_text(encoding="utf-8"), file=path).meta
    except (OSError, MembankError):
        return False
    name = str(meta.get("entity_name") or meta.get("title") or "")
    return (
        not name
        or entity_key(name) == entity_key(entry.canonicalName)
        or entity_key(name) in {entity_key(a) for a in entry.aliases}
    )


# --------------------------------------------------------------------------- page jobs


@dataclass(frozen=True)
class PageJob:
    """One entity page to write: where, its frontmatter and body, and whose page it is."""

    page: str  # root-relative path
    path: Path
    meta: dict[str, Any]
    body: str
    entity_name: str
    entity_type: str


@dataclass(frozen=True)
class EntityPageSet:
    """What the pages of some entities are made of besides their context: the graph (in the
    file's shape, normalized), the registry entries and tags their sources give them."""

    graph: Mapping[str, Any]
    entries: Mapping[str, RegistryEntry]  # entity key -> registry entry
    tags: Mapping[str, AbstractSet[str]]  # entity key -> tags


def plan_entity_pages(layout: MemoryLayout, touched: Sequence[str], pages: EntityPageSet,
                      context: EntityPageContext) -> tuple[list[PageJob], list[Problem]]:
    """A PageJob per touched entity with a page path in `context.page_of`, in `touched` order;
    a page on disk whose frontmatter cannot be read is a Problem (and is left alone)."""
    touched_set = set(touched)
    outgoing: dict[str, list[Mapping[str, Any]]] = {}
    incoming: dict[str, list[Mapping[str, Any]]] = {}
    for relation in pages.graph["relations"]:
        source = entity_key(relation["sourceEntityName"])
        target = entity_key(relation["targetEntityName"])
        if source in touched_set:
            outgoing.setdefault(source, []).append(relation)
        if target in touched_set:
            incoming.setdefault(target, []).append(relation)
    by_key = {entity_key(e["entityName"]): e for e in pages.graph["entities"]}
    jobs: list[PageJob] = []
    problems: list[Problem] = []
    for key in touched:
        entity, entry = by_key.get(key), pages.entries.get(key)
        if entity is None or entry is None:
            continue
        page = context.page_of[key]
        try:
            old = _old_page(layout.root / page)
        except MembankError as exc:
            problems.append(Problem(file=page, code="invalid_entity_page", message=exc.cause,
                                    hint="fix the page's frontmatter; distill will not overwrite it"))
            continue
        body = render_entity_body(page, entity, outgoing.get(key, []), incoming.get(key, []), context)
        jobs.append(PageJob(page, layout.root / page,
                            _page_meta(page, entity, entry, pages.tags.get(key, set()), old),
                            merge_hand_sections(body, old.body if old else None),
                            entity["entityName"], entity["entityType"]))
    return jobs, problems


def _old_page(path: Path) -> Page | None:
    return split_page(path.read_text(encoding="utf-8"), file=path) if path.exists() else None


def _page_meta(page: str, entity: Mapping[str, Any], entry: RegistryEntry,
               tags: AbstractSet[str], old: Page | None) -> dict[str, Any]:
    """The page's frontmatter: ours, then the old page's other keys; tags are kept."""
    old_tags = old.meta.get("tags") if old else None
    page_tags = sorted(set(tags) | set(old_tags if isinstance(old_tags, list) else []))
    meta = entity_page_meta(entity, list(entry.aliases), page_tags, entity_sources(entity))
    if old is not None:
        return {**{k: v for k, v in old.meta.items() if k not in meta}, **meta}
    meta["utc_datetime_prefix"] = page.rsplit("/", 1)[-1].split("__", 1)[0]
    return meta
