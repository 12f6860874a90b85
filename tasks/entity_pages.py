"""Entity pages (wiki/entities/<prefix>__<slug>.md): rendered from the graph, one per canonical
entity, with sections Observations, Relations, Sources and Superseded facts that link back to the
source pages. Sections a person added by hand are kept where they are."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from schemas.graph import GraphEntity, GraphRelation

ENTITY_HUB = "wiki/entities/index.md"
ENTITY_FOLDER = "wiki/entities/"
MANAGED_SECTIONS = ("Observations", "Relations", "Sources", "Superseded facts")
_NONE = "_None yet._"
_H2_RE = re.compile(r"^## +(.+?)\s*$")


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
        if to_path.startswith("wiki/"):
            return "../" + to_path[len("wiki/") :]
    return os.path.relpath(to_path, PurePosixPath(from_page).parent.as_posix()).replace(os.sep, "/")


def _escape(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


def _source_link(page: str, source: str, context: EntityPageContext) -> str:
    title = context.source_titles.get(source) or PurePosixPath(source).stem.split("__", 1)[-1]
    return f"[{_escape(title)}]({_rel(page, source)})"


def _lines(start: int, end: int) -> str:
    return f"raw line {start}" if start == end else f"raw lines {start}-{end}"


def _entity_link(page: str, name: str, context: EntityPageContext) -> str:
    target = context.page_of.get(name.strip().lower())
    return f"[{_escape(name)}]({_rel(page, target)})" if target else _escape(name)


def render_entity_body(
    page: str,
    entity: GraphEntity,
    outgoing: list[GraphRelation],
    incoming: list[GraphRelation],
    context: EntityPageContext,
) -> str:
    name = entity.entityName
    sources = sorted(
        {p.sourcePage for p in entity.observationProvenance}
        | {
            str(s.model_extra.get("sourcePage"))
            for s in entity.supersededObservations
            if s.model_extra and s.model_extra.get("sourcePage")
        }
    )
    where: dict[str, list[str]] = {}
    for prov in entity.observationProvenance:
        where.setdefault(prov.observation, []).append(
            f"{_source_link(page, prov.sourcePage, context)}, {_lines(prov.lineStart, prov.lineEnd)}"
        )
    lines = [
        f"# {name}",
        "",
        f"{name} is a {entity.entityType.replace('_', ' ')} entity of this memory.",
        "",
    ]

    lines += ["## Observations", ""]
    rows = [
        f"- {obs}" + (f" ({'; '.join(where[obs])})" if obs in where else "")
        for obs in entity.observations
    ]
    lines += rows or [_NONE]

    lines += ["", "## Relations", ""]
    rows = [
        f"- {relation.relationType} {_entity_link(page, relation.targetEntityName, context)}"
        for relation in outgoing
    ]
    rows += [
        f"- {_entity_link(page, relation.sourceEntityName, context)} {relation.relationType} this"
        for relation in incoming
    ]
    lines += rows or [_NONE]

    lines += ["", "## Sources", ""]
    rows = []
    for source in sources:
        asset = context.source_assets.get(source)
        tail = f" (raw asset `{asset[:12]}`)" if asset else ""
        rows.append(f"- {_source_link(page, source, context)}{tail}")
    lines += rows or [_NONE]

    lines += ["", "## Superseded facts", ""]
    rows = []
    for fact in entity.supersededObservations:
        extra = fact.model_extra or {}
        by = (
            f"superseded by {_entity_link(page, fact.supersededBy, context)}"
            if fact.supersededBy and not (fact.supersededBy.startswith("wiki/"))
            else (
                f"superseded by {_source_link(page, fact.supersededBy, context)}"
                if fact.supersededBy
                else "superseded"
            )
        )
        origin = (
            f"; was in {_source_link(page, str(extra['sourcePage']), context)}"
            if extra.get("sourcePage")
            else ""
        )
        rows.append(
            f"- ~~{fact.observation}~~ ({by} on {fact.supersededAtUtc}: {fact.reason}{origin})"
        )
    lines += rows or [_NONE]
    return "\n".join(lines) + "\n"


def merge_hand_sections(new_body: str, old_body: str | None) -> str:
    """Keep H2 sections of the old page that distill does not manage, after ours."""
    if not old_body:
        return new_body
    kept: list[str] = []
    current: list[str] | None = None
    for line in old_body.splitlines():
        heading = _H2_RE.match(line)
        if heading:
            current = [] if heading.group(1) not in MANAGED_SECTIONS else None
            if current is not None:
                kept.append("")
                current = kept
        if current is not None:
            current.append(line)
    if not kept:
        return new_body
    return new_body.rstrip("\n") + "\n" + "\n".join(kept).rstrip("\n") + "\n"


def entity_page_meta(
    entity: GraphEntity, aliases: list[str], tags: list[str], sources: list[str]
) -> dict[str, Any]:
    name = entity.entityName
    meta: dict[str, Any] = {
        "type": "entity",
        "title": name,
        "description": f"What this memory knows about {name} ({entity.entityType.replace('_', ' ')}), "
        "each fact linked to its source.",
        "derived_from": sources,
        "child_of": [ENTITY_HUB],
        "entity_name": name,
        "entity_type": entity.entityType,
        "aliases": aliases,
    }
    if tags:
        meta["tags"] = tags
    return meta
