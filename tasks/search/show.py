"""`membank show PATH|ENTITY`: one page (frontmatter and body, or one section of it with
`PATH#anchor`) or one entity (registry entry, observations with provenance, relations both ways,
superseded facts with what replaced them), names resolved through the registry's aliases."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from schemas.graph import SUPERSEDED_RELATIONS_KEY, entity_key
from schemas.search import ShownEntity, ShownPage
from tasks.memstores.distill_hooks import STORE_RECORD_KEY
from tasks.search.query import QueryError, SearchOptions, search
from tasks.search.sections import page_sections
from tasks.store.errors import InputError
from tasks.store.graph_store import load_graph_data
from tasks.store.jsonc import read_jsonc_file
from tasks.store.layout import MemoryLayout
from tasks.store.pages import read_page

T = TypeVar("T")


def _page_file(layout: MemoryLayout, target: str) -> Path | None:
    """The page file `target` names (root-relative or absolute), if it exists inside the root."""
    candidate = Path(target)
    path = candidate if candidate.is_absolute() else layout.root / candidate
    try:
        resolved = path.resolve()
        resolved.relative_to(layout.root.resolve())
    except (OSError, ValueError):
        return None
    return resolved if resolved.is_file() else None


def show_page(layout: MemoryLayout, path: Path, anchor: str | None = None) -> ShownPage:
    page = read_page(path)
    sections = page_sections(page.body)
    body = page.body
    if anchor:
        section = next((s for s in sections if s.anchor == anchor.lower()), None)
        if section is None:
            raise InputError(f"no section #{anchor}", file=layout.relative(path),
                             hint="sections: " + ", ".join(s.anchor for s in sections if s.anchor))
        body = f"## {section.heading}\n\n{section.text}\n"
    return ShownPage(path=layout.relative(path), frontmatter=_plain(page.meta), body=body,
                     anchors=[s.anchor for s in sections if s.anchor])


def _plain(meta: dict[str, Any]) -> dict[str, Any]:
    """Frontmatter as JSON-ready values (YAML may give dates)."""
    return {k: (v if isinstance(v, str | int | float | bool | list | dict | None) else str(v))
            for k, v in meta.items()}


_PARSED: dict[tuple[str, str], tuple[tuple[int, ...], Any]] = {}


def _parsed(path: Path, kind: str, parse: Callable[[Path], T]) -> T:
    """`parse(path)`, kept for the process while the file is the same one (a warm server shows
    entity after entity): the graph and registry are replaced by rename when written, and an
    edit in place changes their time or size."""
    found = path.stat()
    signature = (found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size)
    kept = _PARSED.get((str(path), kind))
    if kept is None or kept[0] != signature:
        kept = (signature, parse(path))
        _PARSED[(str(path), kind)] = kept
    return cast(T, kept[1])


def _read_registry(path: Path) -> list[dict[str, Any]]:
    data = read_jsonc_file(path)
    entries = data.get("entries") if isinstance(data, dict) else None
    return [e for e in entries or () if isinstance(e, dict) and isinstance(e.get("canonicalName"), str)]


def _registry_entries(layout: MemoryLayout) -> list[dict[str, Any]]:
    if not layout.registry_file.exists():
        return []
    return _parsed(layout.registry_file, "registry", _read_registry)


def resolve_entity(layout: MemoryLayout, name: str) -> tuple[str, dict[str, Any] | None]:
    """The canonical name `name` stands for (itself, an alias or a record key) and its entry."""
    key = entity_key(name)
    for entry in _registry_entries(layout):
        names = [entry["canonicalName"], *(entry.get("aliases") or ()), entry.get("recordKey") or ""]
        if any(isinstance(n, str) and entity_key(n) == key for n in names):
            return entry["canonicalName"], entry
    return name.strip(), None


_Json = dict[str, Any]  # one relation as the graph file holds it


@dataclass(frozen=True)
class _Graph:
    """The graph file's data with its entities and relations by entity key (read once)."""

    data: dict[str, Any]
    entities: dict[str, _Json]
    outgoing: dict[str, list[_Json]]
    incoming: dict[str, list[_Json]]


def _read_graph(path: Path) -> _Graph:
    data = load_graph_data(path)
    entities: dict[str, _Json] = {}
    for entity in data["entities"]:
        entities.setdefault(entity_key(entity["entityName"]), entity)  # (first one wins)
    outgoing: dict[str, list[_Json]] = {}
    incoming: dict[str, list[_Json]] = {}
    for relation in data.get("relations") or ():
        outgoing.setdefault(entity_key(relation["sourceEntityName"]), []).append(relation)
        incoming.setdefault(entity_key(relation["targetEntityName"]), []).append(relation)
    return _Graph(data, entities, outgoing, incoming)


def _relations(graph: _Graph, key: str) -> tuple[list[_Json], list[_Json], list[_Json]]:
    outgoing, incoming = list(graph.outgoing.get(key, ())), list(graph.incoming.get(key, ()))
    retired = [r for r in graph.data.get(SUPERSEDED_RELATIONS_KEY) or ()
               if isinstance(r, dict) and key in {entity_key(str(r.get("sourceEntityName", ""))),
                                                  entity_key(str(r.get("targetEntityName", "")))}]
    return outgoing, incoming, retired


def show_entity(layout: MemoryLayout, name: str) -> ShownEntity | None:
    canonical, entry = resolve_entity(layout, name)
    if not layout.graph_file.exists():
        return None
    graph = _parsed(layout.graph_file, "graph", _read_graph)
    key = entity_key(canonical)
    entity = graph.entities.get(key)
    if entity is None:
        return None
    provenance = {p["observation"]: p for p in entity.get("observationProvenance") or ()}
    observations = [{"observation": text, **{k: v for k, v in provenance.get(text, {}).items()
                                             if k != "observation"}}
                    for text in entity.get("observations") or ()]
    outgoing, incoming, retired = _relations(graph, key)
    return ShownEntity(
        name=entity["entityName"], entity_type=entity["entityType"],
        aliases=list((entry or {}).get("aliases") or ()),
        page=(entry or {}).get("entityPage"), registry_entry=entry,
        observations=observations, superseded=list(entity.get("supersededObservations") or ()),
        relations_out=outgoing, relations_in=incoming, superseded_relations=retired)


_ENTRY_ID_RE = re.compile(r"^(?:MC-[A-Z]+-\d{8}-[0-9a-f]{8}|mem_\w+)$")


def _store_entry(entity: dict[str, Any], entry_id: str) -> dict[str, Any] | None:
    for fact in [*(entity.get("observationProvenance") or ()),
                 *(entity.get("supersededObservations") or ())]:
        typed = fact.get(STORE_RECORD_KEY) if isinstance(fact, dict) else None
        if isinstance(typed, dict) and entry_id in (typed.get("entryId"), typed.get("recordId")):
            return dict(fact)
    return None


def show_store_entry(layout: MemoryLayout, entry_id: str) -> ShownEntity | None:
    """The entity holding a store entry (a MemoryCustodian Entry ID or a .mem record id), as
    a Subject ID resolves to its Subject's entity; the entry itself in `store_entry`."""
    if not _ENTRY_ID_RE.match(entry_id) or not layout.graph_file.exists():
        return None
    for entity in load_graph_data(layout.graph_file)["entities"]:
        entry = _store_entry(entity, entry_id)
        if entry is not None:
            shown = show_entity(layout, entity["entityName"])
            if shown is not None:
                shown.store_entry = entry
            return shown
    return None


def show(layout: MemoryLayout, target: str) -> ShownPage | ShownEntity:
    """A page when `target` names one (optionally `#anchor`), else an entity by name or alias."""
    if not target.strip():
        raise InputError("nothing to show", hint="pass a page path or an entity name")
    path_part, _, anchor = target.partition("#")
    path = _page_file(layout, path_part) if path_part.endswith(".md") else None
    if path is not None:
        return show_page(layout, path, anchor or None)
    shown = show_entity(layout, target) or show_store_entry(layout, target.strip())
    if shown is not None:
        return shown
    raise InputError(f"no page or entity named {target!r}", hint=_suggestion(layout, target))


def _suggestion(layout: MemoryLayout, target: str) -> str:
    try:
        hits = search(layout, target, SearchOptions(limit=3)).hits
    except QueryError:
        hits = []
    if not hits:
        return "`membank search WORDS` finds pages and entities"
    shown = dict.fromkeys(f"{h.title} ({h.path})" for h in hits)
    return "nearest: " + "; ".join(shown)
