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

# re-exported: distill imports them from here (tasks/layout.py defines them)
from tasks.layout import ENTITY_FOLDER as ENTITY_FOLDER
from tasks.layout import ENTITY_HUB as ENTITY_HUB
from tasks.markdown.fences import code_flags

MANAGED_SECTIONS = ("Observations", "Relations", "Sources", "Superseded facts")
_NONE = "_None yet._"
_H2_RE = re.compile(r"^## ++(.*\S)\s*+$")  # linear: no lazy text before a blank run


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
    sources = entity_sources(entity)
    where: dict[str, list[str]] = {}
    for prov in entity.get("observationProvenance") or ():
        where.setdefault(prov["observation"], []).append(
            f"{_source_link(page, prov['sourcePage'], context)}, "
            f"{_lines(prov['lineStart'], prov['lineEnd'])}"
        )
    lines = [
        f"# {name}",
        "",
        _kind_sentence(name, entity["entityType"]),
        "",
    ]

    lines += ["## Observations", ""]
    rows = [
        f"- {obs}" + (f" ({'; '.join(where[obs])})" if obs in where else "")
        for obs in entity.get("observations") or ()
    ]
    lines += rows or [_NONE]

    lines += ["", "## Relations", ""]
    rows = [
        f"- {relation['relationType']} {_entity_link(page, relation['targetEntityName'], context)}"
        for relation in outgoing
    ]
    rows += [
        f"- {_entity_link(page, relation['sourceEntityName'], context)} "
        f"{relation['relationType']} this"
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
    for fact in entity.get("supersededObservations") or ():
        superseded_by = fact.get("supersededBy")
        by = (
            f"superseded by {_entity_link(page, superseded_by, context)}"
            if superseded_by and not (superseded_by.startswith("wiki/"))
            else (
                f"superseded by {_source_link(page, superseded_by, context)}"
                if superseded_by
                else "superseded"
            )
        )
        origin = (
            f"; was in {_source_link(page, str(fact['sourcePage']), context)}"
            if fact.get("sourcePage")
            else ""
        )
        rows.append(
            f"- ~~{fact['observation']}~~ "
            f"({by} on {fact['supersededAtUtc']}: {fact['reason']}{origin})"
        )
    lines += rows or [_NONE]
    return "\n".join(lines) + "\n"


def merge_hand_sections(new_body: str, old_body: str | None) -> str:
    """Keep H2 sections of the old page that distill does not manage, after ours."""
    if not old_body:
        return new_body
    kept: list[str] = []
    current: list[str] | None = None
    for line, in_code in code_flags(old_body.splitlines()):
        heading = None if in_code else _H2_RE.match(line)
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
