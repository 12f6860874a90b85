"""`membank forget`: plan, then (with --apply) remove a topic, an entity or a source.

Modes (spec/memory-custodian.md, Forgetting):
  soft   removes it from active memory: whole page units (list items, blocks, sections), pages
         about it (named, titled or described by it) and pages left empty, graph entities,
         observations and relations, registry entries and aliases, distill candidates,
         proposals, index and hub entries; adds a topic-bearing tombstone. Superseded history
         (the graph's superseded facts) is kept.
  hard   also removes it from superseded history, and keeps no topic-bearing tombstone: one
         guard holds the sha256 of the topic instead, so the tombstone does not leak it.
  purge  also deletes the raw files that carry it (the one sanctioned exception to raw/
         immutability), recorded in the raw manifest under purgedAssets with time and reason.
Every mode refuses a re-ingest of the sources that carried it (their asset ids are kept).

Matching is case-insensitive and on substrings, as a text search of the root would find it.
Planning reads; only `apply_plan` writes, under the root lock, each file atomically.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from schemas.graph import RELATION_ORIGINS_KEY, EntityRegistry
from schemas.raw_manifest import RawAsset, RawManifest
from tasks.errors import ContractError, InputError
from tasks.graph_store import load_manifest, load_registry
from tasks.jsonc import read_jsonc_file
from tasks.layout import MemoryLayout
from tasks.pages import plan_page_text, split_page
from tasks.privacy.units import (
    Unit,
    has_content,
    history_lines,
    link_targets,
    matching_units,
    remove_units,
)

Mode = Literal["soft", "hard", "purge"]
MIN_TOPIC_CHARS = 3
TYPED_LINK_KEYS = ("derived_from", "child_of", "supersedes", "superseded_by")
# Files forget reads or writes by their own rules, not as pages.
_STRUCTURAL = frozenset({"index.md", "log.md"})
_SKIP_TOP = frozenset({"raw", "context", "proposals", ".membank", ".git"})
ERASURE_BOUNDARY = (
    "erasure boundary: {scope}. Not touched: git history, clones, forks, backups, caches and "
    "copies outside this memory root, and what agents already read")
_SCOPE = {
    "soft": "active memory under this root; raw/ sources (immutable) and superseded history are "
            "kept, and the tombstone names the topic",
    "hard": "active memory and superseded history under this root; raw/ sources (immutable) are "
            "kept; the tombstone keeps only a hash of the topic",
    "purge": "active memory, superseded history and the raw/ sources that carry it under this root",
}


@dataclass(frozen=True)
class Target:
    """What to forget: topic strings and/or raw assets, with a label that is safe to print."""

    topics: tuple[str, ...]
    asset_ids: frozenset[str]
    label: str

    def matches(self, text: str) -> bool:
        folded = text.casefold()
        return any(t.casefold() in folded for t in self.topics)


@dataclass
class PageChange:
    path: str
    delete: bool
    why: str
    text: str | None = None  # the new page text when rewritten
    units: list[Unit] = field(default_factory=list)


@dataclass
class ForgetPlan:
    mode: Mode
    target: Target
    carrying_assets: list[RawAsset] = field(default_factory=list)  # raw sources that carry it
    purge: list[RawAsset] = field(default_factory=list)
    unlisted_raw: list[str] = field(default_factory=list)  # raw files carrying it, not in the manifest
    pages: list[PageChange] = field(default_factory=list)
    json_changes: dict[str, tuple[Any, list[str]]] = field(default_factory=dict)  # path -> (data, what)
    deleted_files: dict[str, str] = field(default_factory=dict)  # path -> why (proposals, caches, health)
    text_changes: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (text, why)
    catalog_removed: list[str] = field(default_factory=list)
    removed_entities: set[str] = field(default_factory=set)

    @property
    def deleted_pages(self) -> set[str]:
        return {p.path for p in self.pages if p.delete}

    def boundary(self) -> str:
        return ERASURE_BOUNDARY.format(scope=_SCOPE[self.mode])


# --------------------------------------------------------------------------------------------
# What to forget


def _manifest(layout: MemoryLayout) -> RawManifest | None:
    return load_manifest(layout.raw_manifest_file) if layout.raw_manifest_file.exists() else None


def _registry(layout: MemoryLayout) -> EntityRegistry | None:
    return load_registry(layout.registry_file) if layout.registry_file.exists() else None


def resolve_target(layout: MemoryLayout, *, topic: str | None = None, entity: str | None = None,
                   source: str | None = None) -> Target:
    """One of topic, entity (canonical name or alias) or source (raw path, asset id, original
    path) -> a Target; an unknown entity or source is an InputError."""
    if sum(x is not None for x in (topic, entity, source)) != 1:
        raise InputError("name exactly one of TOPIC, --id ENTITY or --source RAW")
    if topic is not None:
        topic = " ".join(topic.split())
        if len(topic) < MIN_TOPIC_CHARS:
            raise InputError(f"topic {topic!r} is shorter than {MIN_TOPIC_CHARS} characters",
                             hint="a short topic matches too much; name it in full")
        return Target((topic,), frozenset(), "the topic")
    if entity is not None:
        registry = _registry(layout)
        wanted = entity.strip().casefold()
        for entry in registry.entries if registry else []:
            names = [entry.canonicalName, *entry.aliases]
            if wanted in {n.strip().casefold() for n in names}:
                topics = tuple(n for n in names if len(n.strip()) >= MIN_TOPIC_CHARS)
                return Target(topics, frozenset(), f"entity {entry.canonicalName}")
        raise InputError(f"no entity named {entity!r} in the registry", file=layout.registry_file,
                         hint="`membank show` or context/entity-registry.jsonc list the names")
    manifest = _manifest(layout)
    assert source is not None
    for asset in manifest.assets if manifest else []:
        if source in {asset.rawPath, asset.assetId, asset.contentHash, asset.originalPath,
                      os.path.basename(asset.rawPath)}:
            return Target((), frozenset({asset.assetId}), f"source {asset.rawPath}")
    raise InputError(f"no raw source {source!r} in the raw manifest", file=layout.raw_manifest_file,
                     hint="name it by its raw/ path, its asset id or the path it was ingested from")


def topic_guard(topic: str) -> str:
    """The generic guard a hard forget keeps instead of the topic."""
    return hashlib.sha256(" ".join(topic.casefold().split()).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------
# Raw sources


def _text_of(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\x00" in data:
        return None
    return data.decode("utf-8", errors="replace")


def plan_raw(layout: MemoryLayout, plan: ForgetPlan, manifest: RawManifest | None) -> None:
    target = plan.target
    listed = set()
    for asset in manifest.assets if manifest else []:
        listed.add(asset.rawPath)
        carries = asset.assetId in target.asset_ids
        if not carries and target.topics:
            text = _text_of(layout.root / asset.rawPath)
            carries = target.matches(asset.rawPath) or bool(text and target.matches(text))
        if carries:
            plan.carrying_assets.append(asset)
    if plan.mode == "purge":
        plan.purge = list(plan.carrying_assets)
        if target.topics and layout.raw.is_dir():
            for path in sorted(p for p in layout.raw.rglob("*") if p.is_file()):
                rel = layout.relative(path)
                text = _text_of(path)
                if rel not in listed and (target.matches(rel) or (text and target.matches(text))):
                    plan.unlisted_raw.append(rel)


# --------------------------------------------------------------------------------------------
# Pages


def memory_pages(layout: MemoryLayout) -> list[str]:
    """Markdown pages forget reads: everything but raw/, context/, proposals/, hidden folders
    and the structural index.md / log.md (hubs are rewritten from their entries)."""
    found: list[str] = []
    for folder, dirs, files in os.walk(layout.root):
        rel_folder = Path(folder).relative_to(layout.root).as_posix()
        if rel_folder == ".":
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_TOP and not d.startswith("."))
            rel_folder = ""
        else:
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            rel = f"{rel_folder}/{name}" if rel_folder else name
            if name.endswith(".md") and not name.startswith(".") and rel not in _STRUCTURAL:
                found.append(rel)
    return sorted(found)


def is_hub(rel: str) -> bool:
    return PurePosixPath(rel).name == "index.md"


def _source_pages_of(assets: Iterable[RawAsset]) -> set[str]:
    """Source pages of these assets and their shard pages' folder prefixes."""
    pages: set[str] = set()
    for asset in assets:
        if asset.sourcePage:
            pages.add(asset.sourcePage)
            pages.add(f"wiki/sources/shards/{PurePosixPath(asset.sourcePage).stem}/")
    return pages


def _links_to(deleted: set[str]) -> Callable[[str], bool]:
    """Does a text name one of the deleted root-relative paths (a shard folder ends in "/")?"""
    files = {p for p in deleted if not p.endswith("/")}
    folders = {p for p in deleted if p.endswith("/")}

    def matches(text: str) -> bool:
        return any(p in text for p in files) or any(f in text for f in folders)

    return matches


def _unit_links(page: str, deleted: set[str]) -> Callable[[str], bool]:
    """Does a unit of `page` link (relative to the page's folder) to a deleted path?"""
    folder = PurePosixPath(page).parent.as_posix()
    files = {p for p in deleted if not p.endswith("/")}
    folders = tuple(p for p in deleted if p.endswith("/"))

    def matches(text: str) -> bool:
        if "](" not in text and "href" not in text and "src" not in text:
            return False
        for href in link_targets(text):
            path = href.split("#", 1)[0].split("?", 1)[0]
            if not path or "://" in path:
                continue
            resolved = posixpath.normpath(posixpath.join(folder, path)) if not path.startswith("/") \
                else path.lstrip("/")
            if resolved in files or resolved.startswith(folders):
                return True
        return False

    return matches


def _page_verdict(rel: str, text: str, target: Target, gone: set[str],
                  links: Callable[[str], bool], unit_links: Callable[[str], bool], *,
                  now_iso: str, keep_history: bool) -> PageChange | None:
    """Delete, rewrite or keep one page (None: nothing to change)."""
    if rel in gone or any(rel.startswith(p) for p in gone if p.endswith("/")):
        return PageChange(rel, True, f"a page of the forgotten {target.label}")
    if target.matches(rel):
        return PageChange(rel, True, "named after it")
    if not target.matches(text) and not links(text) and not _names_any(text, gone):
        return None  # neither the topic nor a removed page's name: nothing to read closer
    try:
        page = split_page(text, file=rel)
    except ContractError:
        if target.matches(text):
            return PageChange(rel, True, "mentions it; its frontmatter cannot be read to edit it")
        return None
    meta = _drop_links(page.meta, links)
    if target.matches(json.dumps(meta, default=str, ensure_ascii=False)):
        return PageChange(rel, True, "its metadata names it (title, description or a field)")
    units = matching_units(page.body, lambda t: target.matches(t) or unit_links(t))
    if keep_history:  # soft: a page's superseded sections are history, kept like the graph's
        kept = history_lines(page.body)
        units = [u for u in units if u.start not in kept]
    if not units and meta == page.meta:
        return None
    body = remove_units(page.body, units)
    if not is_hub(rel) and not has_content(body):
        return PageChange(rel, True, "nothing left once the units naming it are removed", units=units)
    what = "; ".join(u.describe() for u in units) or "typed links to removed pages"
    return PageChange(rel, False, f"remove {what}",
                      plan_page_text(text, meta, body, now_iso=now_iso, file=rel) or text, units)


def _names_any(text: str, gone: set[str]) -> bool:
    """Does the text carry the file or folder name of a removed page (links are relative)?"""
    return any(PurePosixPath(p.rstrip("/")).name in text for p in gone)


def _drop_links(meta: dict[str, Any], links: Callable[[str], bool]) -> dict[str, Any]:
    out = dict(meta)
    for key in TYPED_LINK_KEYS:
        value = out.get(key)
        if isinstance(value, list):
            kept = [v for v in value if not links(str(v))]
            if len(kept) != len(value):
                out[key] = kept
        elif isinstance(value, str) and links(value):
            out.pop(key)
    return out


def plan_pages(layout: MemoryLayout, plan: ForgetPlan, now_iso: str) -> None:
    """Two passes until stable: pages about it go, then units linking to what went."""
    target = plan.target
    gone = _source_pages_of(plan.purge if plan.mode == "purge" else [
        a for a in plan.carrying_assets if a.assetId in target.asset_ids])
    texts = {rel: (layout.root / rel).read_text(encoding="utf-8", errors="replace")
             for rel in memory_pages(layout)}
    changes: dict[str, PageChange] = {}
    while True:
        deleted = {p for p in gone if p.endswith("/") or p in texts}
        links = _links_to(deleted)
        for rel, text in texts.items():
            if rel in changes and changes[rel].delete:
                continue  # decided in an earlier pass, with its own reason
            change = _page_verdict(rel, text, target, gone, links, _unit_links(rel, deleted),
                                   now_iso=now_iso, keep_history=plan.mode == "soft")
            if change is not None:
                changes[rel] = change
        newly = {rel for rel, c in changes.items() if c.delete} - gone
        if not newly:
            break
        gone |= newly
    plan.pages = [changes[rel] for rel in sorted(changes)]


# --------------------------------------------------------------------------------------------
# Graph, registry and the other context files (JSON data; written by apply_plan)


def _entity_pages_removed(plan: ForgetPlan, texts: dict[str, str]) -> set[str]:
    """Names (casefolded) of the entities whose pages are deleted."""
    names = set()
    for change in plan.pages:
        if change.delete and change.path.startswith("wiki/entities/") and not is_hub(change.path):
            try:
                meta = split_page(texts.get(change.path, ""), file=change.path).meta
            except ContractError:
                continue
            name = meta.get("entity_name") or meta.get("title")
            if isinstance(name, str):
                names.add(name.strip().casefold())
    return names


def _clip(text: object, limit: int = 100) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _from_assets(item: Any, assets: frozenset[str]) -> bool:
    return bool(assets) and any(a in json.dumps(item, default=str) for a in assets)


def plan_graph(data: dict[str, Any], plan: ForgetPlan, assets: frozenset[str],
               removed: set[str]) -> list[str]:
    """Edit the graph data in place; return what was removed, in words."""
    target, history = plan.target, plan.mode != "soft"
    kept_entities, what = [], []
    for entity in data.get("entities", []):
        name = str(entity.get("entityName", ""))
        if target.matches(name) or name.strip().casefold() in removed:
            removed.add(name.strip().casefold())
            what.append(f"entity {name}")
            continue
        gone_obs = {o for o in entity.get("observations", []) if target.matches(o)}
        for prov in entity.get("observationProvenance", []):
            if prov.get("rawAssetId") in assets or target.matches(json.dumps(prov)):
                gone_obs.add(prov.get("observation"))
        if gone_obs:
            entity["observations"] = [o for o in entity.get("observations", []) if o not in gone_obs]
            entity["observationProvenance"] = [p for p in entity.get("observationProvenance", [])
                                               if p.get("observation") not in gone_obs]
            what += [f"observation of {name}: {_clip(o)}" for o in sorted(gone_obs, key=str)]
        if history and entity.get("supersededObservations"):
            before = entity["supersededObservations"]
            entity["supersededObservations"] = [
                s for s in before if not (target.matches(json.dumps(s)) or _from_assets(s, assets))]
            what += [f"superseded observation of {name}: {_clip(s.get('observation'))}"
                     for s in before if s not in entity["supersededObservations"]]
        kept_entities.append(entity)
    data["entities"] = kept_entities
    what += _plan_relations(data, plan, assets, removed)
    return what


def _relation_gone(relation: dict[str, Any], target: Target, assets: frozenset[str],
                   removed: set[str]) -> bool:
    ends = {str(relation.get(k, "")).strip().casefold() for k in ("sourceEntityName", "targetEntityName")}
    if ends & removed or target.matches(json.dumps(relation)):
        return True
    origins = relation.get(RELATION_ORIGINS_KEY)
    if isinstance(origins, list) and origins and assets:
        return all(isinstance(o, dict) and o.get("rawAssetId") in assets for o in origins)
    return False


def _plan_relations(data: dict[str, Any], plan: ForgetPlan, assets: frozenset[str],
                    removed: set[str]) -> list[str]:
    what = []
    before = data.get("relations", [])
    data["relations"] = [r for r in before if not _relation_gone(r, plan.target, assets, removed)]
    what += [f"relation {r.get('sourceEntityName')} -{r.get('relationType')}-> "
             f"{r.get('targetEntityName')}" for r in before if r not in data["relations"]]
    if plan.mode != "soft":
        for key, value in list(data.items()):
            if key.startswith("superseded") and isinstance(value, list):
                kept = [r for r in value if not (_relation_gone(r, plan.target, assets, removed)
                                                 or _from_assets(r, assets))]
                if len(kept) != len(value):
                    data[key] = kept
                    what.append(f"{len(value) - len(kept)} entr(ies) of {key}")
    return what


def plan_registry(data: dict[str, Any], target: Target, removed: set[str]) -> list[str]:
    what, kept = [], []
    for entry in data.get("entries", []):
        name = str(entry.get("canonicalName", ""))
        if name.strip().casefold() in removed or target.matches(name):
            removed.add(name.strip().casefold())
            what.append(f"entry {name}")
            continue
        aliases = entry.get("aliases", [])
        keep = [a for a in aliases if not target.matches(a)]
        if len(keep) != len(aliases):
            entry["aliases"] = keep
            what += [f"alias {a} of {name}" for a in aliases if a not in keep]
        kept.append(entry)
    data["entries"] = kept
    return what


def _filter_list(data: dict[str, Any], key: str, drop: Callable[[Any], bool], label: str) -> list[str]:
    before = data.get(key)
    if not isinstance(before, list):
        return []
    data[key] = [item for item in before if not drop(item)]
    gone = len(before) - len(data[key])
    return [f"{gone} {label}"] if gone else []


def plan_context(layout: MemoryLayout, plan: ForgetPlan, texts: dict[str, str]) -> None:
    """Graph, registry, candidates, adoption ledger, distill state and the manifest."""
    target = plan.target
    assets = frozenset(target.asset_ids | {a.assetId for a in plan.purge})
    deleted = plan.deleted_pages
    links = _links_to(deleted | {p for p in _source_pages_of(plan.purge)})
    removed = _entity_pages_removed(plan, texts)

    def drop(item: Any) -> bool:
        text = json.dumps(item, default=str, ensure_ascii=False)
        return target.matches(text) or _from_assets(item, assets) or links(text)

    purged = frozenset(a.assetId for a in plan.purge)

    def drop_state(item: Any) -> bool:  # distill skips tombstoned assets: keep their state
        return target.matches(json.dumps(item, ensure_ascii=False)) or _from_assets(item, purged)

    edits: list[tuple[str, Callable[[dict[str, Any]], list[str]]]] = [
        ("context/entity-registry.jsonc", lambda d: plan_registry(d, target, removed)),
        ("context/knowledge-graph.index.jsonc", lambda d: plan_graph(d, plan, assets, removed)),
        ("context/entity-registry.jsonc", lambda d: plan_registry(d, target, removed)),
        ("context/distill-candidates.jsonc", lambda d: _filter_list(d, "candidates", drop, "candidate(s)")),
        ("context/adopted-deliverables.jsonc", lambda d: _filter_list(d, "adoptions", drop, "adoption(s)")),
        ("context/distill-state.jsonc", lambda d: _filter_list(d, "sources", drop_state,
                                                                      "distilled source(s)")),
    ]
    for rel, edit in edits:  # the registry twice: entities the graph removed lose their entry
        path = layout.root / rel
        if rel in plan.json_changes:
            data, what = plan.json_changes[rel]
        elif path.exists():
            data, what = read_jsonc_file(path), []
        else:
            continue
        what = what + edit(data)
        if what:
            plan.json_changes[rel] = (data, what)
    plan.removed_entities = removed
    _plan_manifest(layout, plan, links)


def _plan_manifest(layout: MemoryLayout, plan: ForgetPlan, links: Callable[[str], bool]) -> None:
    path = layout.raw_manifest_file
    if not path.exists():
        return
    data = read_jsonc_file(path)
    purged = {a.assetId for a in plan.purge}
    what = []
    for asset in data.get("assets", []):
        if asset.get("assetId") not in purged and asset.get("sourcePage") and links(asset["sourcePage"]):
            asset.pop("sourcePage")
            what.append(f"source page of {asset['rawPath']} (removed)")
    if purged:
        data["assets"] = [a for a in data.get("assets", []) if a.get("assetId") not in purged]
        what.append(f"{len(purged)} asset(s) moved to purgedAssets")
    if what:
        plan.json_changes["context/raw-manifest.jsonc"] = (data, what)


# --------------------------------------------------------------------------------------------
# Proposals, log, health and caches


def plan_files(layout: MemoryLayout, plan: ForgetPlan) -> None:
    target = plan.target
    links = _links_to(plan.deleted_pages | _source_pages_of(plan.purge))

    def carries(text: str) -> bool:
        return target.matches(text) or links(text) or any(a in text for a in target.asset_ids)

    for folder, why in (("proposals", "a proposal that names it"),
                        ("context/health", "a health report that names it"),
                        (".membank", "a derived cache that names it (rebuilt by the next run)")):
        base = layout.root / folder
        if not base.is_dir():
            continue
        for path in sorted(p for p in base.rglob("*") if p.is_file() and not p.name.endswith(".lock")):
            rel = layout.relative(path)
            text = _text_of(path)
            if text is None:  # binary, e.g. a search index database: look at its bytes
                if folder == ".membank" and _bytes_carry(path, target):
                    plan.deleted_files[rel] = why
                continue
            if not carries(text) and not target.matches(rel):
                continue
            if rel.endswith("history.jsonl"):
                kept = "".join(line for line in text.splitlines(keepends=True) if not carries(line))
                plan.text_changes[rel] = (kept, "history lines that name it")
            else:
                plan.deleted_files[rel] = why
                reason = path.with_name(path.name + ".reason.json")
                if reason.exists():
                    plan.deleted_files[layout.relative(reason)] = "the reason file of a proposal removed"
    log = layout.log_file
    if log.exists():
        text = log.read_text(encoding="utf-8")
        lines = text.split("\n")
        new = [("- forgotten: an entry removed by membank forget" if line.startswith("- ")
                else "## (an entry removed by membank forget)") if carries(line) else line
               for line in lines]
        if new != lines:
            count = sum(a != b for a, b in zip(lines, new, strict=True))
            plan.text_changes["log.md"] = ("\n".join(new), f"{count} timeline line(s) that name it")


def _bytes_carry(path: Path, target: Target) -> bool:
    """Does a binary file hold a topic (UTF-8, any ASCII case) or a forgotten asset id?"""
    try:
        data = path.read_bytes().lower()
    except OSError:
        return False
    needles = [t.casefold().encode("utf-8") for t in target.topics] + [
        a.encode("ascii") for a in target.asset_ids]
    return any(n in data for n in needles)


def build_plan(layout: MemoryLayout, target: Target, mode: Mode, now_iso: str) -> ForgetPlan:
    """The complete plan; reads only. `now_iso` is the updated_at of rewritten pages."""
    plan = ForgetPlan(mode, target)
    manifest = _manifest(layout)
    plan_raw(layout, plan, manifest)
    plan_pages(layout, plan, now_iso)
    texts = {c.path: (layout.root / c.path).read_text(encoding="utf-8", errors="replace")
             for c in plan.pages if c.delete}
    plan_context(layout, plan, texts)
    plan_files(layout, plan)
    from tasks.catalog import read_index_entries

    if layout.index_file.exists():
        deleted = plan.deleted_pages
        plan.catalog_removed = sorted(p for p in read_index_entries(layout) if p in deleted)
    return plan


# --------------------------------------------------------------------------------------------
# Tombstones


def plan_tombstones(layout: MemoryLayout, plan: ForgetPlan, now_iso: str) -> dict[str, Any]:
    """soft: a topic-bearing tombstone; hard and purge: prior ones for the topic replaced by a
    guard holding its sha256. Every mode keeps the forgotten asset ids (re-ingest refused)."""
    path = layout.tombstones_file
    data = read_jsonc_file(path) if path.exists() else {"tombstones": []}
    target = plan.target
    assets = sorted({a.assetId for a in plan.carrying_assets} | target.asset_ids
                    | {a.assetId for a in plan.purge})
    guards = {topic_guard(t) for t in target.topics}
    kept = []
    for stone in data.get("tombstones", []):
        topic = str(stone.get("topic", ""))
        if plan.mode != "soft" and (target.matches(topic) or topic_guard(topic) in guards):
            continue  # a topic-bearing tombstone of this topic: replaced by the guard below
        kept.append(stone)
    reason = f"membank forget --mode {plan.mode}"
    for topic in target.topics or ("",):
        entry: dict[str, Any]
        if not topic:  # a source: its asset ids are the guard
            entry = {"topic": f"asset:{assets[0]}", "reason": reason, "tombstonedAtUtc": now_iso}
        elif plan.mode == "soft":
            entry = {"topic": topic, "reason": reason, "tombstonedAtUtc": now_iso}
        else:
            guard = topic_guard(topic)
            entry = {"topic": f"sha256:{guard}", "reason": reason, "tombstonedAtUtc": now_iso,
                     "topicSha256": guard}
        if assets:
            entry["assetIds"] = assets
        if entry not in kept:
            kept.append(entry)
    data["tombstones"] = kept
    return data


# --------------------------------------------------------------------------------------------
# Apply (one writer, under the root lock)


def apply_plan(layout: MemoryLayout, plan: ForgetPlan, now_iso: str) -> list[tuple[str, str, str]]:
    """Carry the plan out; return (path, action, why) of every change, in order.

    Order for a crash: the tombstone first (distill and ingest refuse it from then on), then
    pages, context files, the manifest (purgedAssets) and only then the raw files, so a crash
    leaves at worst a raw file listed as purged, which a rerun removes."""
    from tasks.atomic import atomic_write_text
    from tasks.catalog import read_index_entries, update_index
    from tasks.jsonc import dumps_json

    done: list[tuple[str, str, str]] = []
    stones = plan_tombstones(layout, plan, now_iso)
    if atomic_write_text(layout.tombstones_file, dumps_json(stones)):
        done.append(("context/tombstones.jsonc", "updated", f"tombstone ({plan.mode})"))
    for change in plan.pages:
        path = layout.root / change.path
        if change.delete:
            path.unlink(missing_ok=True)
            done.append((change.path, "deleted", change.why))
        elif change.text is not None and atomic_write_text(path, change.text):
            done.append((change.path, "updated", change.why))
    _remove_empty_shard_folders(layout, plan)
    if plan.catalog_removed:
        entries = read_index_entries(layout)
        for rel in plan.catalog_removed:
            entries.pop(rel, None)
        if update_index(layout, entries.values(), now_iso=now_iso, replace_all=True).changed:
            done.append(("index.md", "updated", f"{len(plan.catalog_removed)} entr(ies) removed"))
    for rel, (data, what) in sorted(plan.json_changes.items()):
        if rel == "context/raw-manifest.jsonc" and plan.purge:
            data.setdefault("purgedAssets", []).extend(
                {"assetId": a.assetId, "purgedAtUtc": now_iso, "reason": f"membank forget --mode purge "
                 f"({plan.target.label if not plan.target.topics else 'a forgotten topic'})"}
                for a in plan.purge)
        if atomic_write_text(layout.root / rel, dumps_json(data)):
            done.append((rel, "updated", "; ".join(what)))
    for rel, (text, why) in sorted(plan.text_changes.items()):
        if atomic_write_text(layout.root / rel, text):
            done.append((rel, "updated", why))
    for rel, why in sorted(plan.deleted_files.items()):
        (layout.root / rel).unlink(missing_ok=True)
        done.append((rel, "deleted", why))
    for rel in _reset_reconcile_baselines(layout):
        done.append((rel, "deleted", "reconcile's baselines: forget is the one sanctioned erasure"))
    for rel in [a.rawPath for a in plan.purge] + plan.unlisted_raw:
        (layout.root / rel).unlink(missing_ok=True)
        done.append((rel, "deleted", "purged raw source (recorded in the raw manifest)"))
    return done


def _remove_empty_shard_folders(layout: MemoryLayout, plan: ForgetPlan) -> None:
    for folder in {PurePosixPath(c.path).parent for c in plan.pages if c.delete and "/shards/" in c.path}:
        path = layout.root / folder.as_posix()
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def _reset_reconcile_baselines(layout: MemoryLayout) -> list[str]:
    """Reconcile remembers log.md's prefix and every observation to catch silent erasure; after
    a forget those baselines would call the sanctioned erasure tampering: start them afresh."""
    from tasks.scan import BASELINE_FILE, CACHE_FILE

    removed = []
    for rel in (CACHE_FILE, BASELINE_FILE):
        if (layout.root / rel).exists():
            (layout.root / rel).unlink()
            removed.append(rel)
    return removed


# --------------------------------------------------------------------------------------------
# The operation


def _plan_artifacts(plan: ForgetPlan) -> list[tuple[str, str]]:
    """(path, what would happen) of every change the plan holds, for the report."""
    rows = [(c.path, ("delete page: " if c.delete else "rewrite page: ") + c.why) for c in plan.pages]
    rows += [(rel, "rewrite: remove " + "; ".join(what))
             for rel, (_d, what) in sorted(plan.json_changes.items())]
    rows += [(rel, f"rewrite: {why}") for rel, (_t, why) in sorted(plan.text_changes.items())]
    rows += [(rel, f"delete: {why}") for rel, why in sorted(plan.deleted_files.items())]
    rows += [("index.md", f"remove entry {rel}") for rel in plan.catalog_removed]
    rows += [(a.rawPath, "delete raw source (purge; recorded in the raw manifest)") for a in plan.purge]
    rows += [(rel, "delete raw file (purge; not in the manifest)") for rel in plan.unlisted_raw]
    rows.append(("context/tombstones.jsonc", "add a topic-bearing tombstone" if plan.mode == "soft"
                 else "replace tombstones of the topic by a sha256 guard"))
    return rows


def forget_operation(operation: Any, *, topic: str | None, entity: str | None, source: str | None,
                     mode: Mode, apply: bool) -> Any:
    """Plan (apply=False: nothing changes) or apply; the report lists every change and states
    the erasure boundary. `operation` must hold the root lock when apply is True."""
    from schemas.report import ArtifactRecord
    from tasks.logbook import record_operation

    layout, report = operation.layout, operation.report
    target = resolve_target(layout, topic=topic, entity=entity, source=source)
    plan = build_plan(layout, target, mode, operation.now_iso)
    kept = [] if mode == "purge" else [a.rawPath for a in plan.carrying_assets]
    report.figures.update({"mode": mode, "applied": apply, "pages_deleted": len(plan.deleted_pages),
                           "pages_rewritten": sum(1 for c in plan.pages if not c.delete),
                           "raw_purged": len(plan.purge) + len(plan.unlisted_raw),
                           "raw_kept_carrying_it": len(kept),
                           "erasure_boundary": plan.boundary()})
    if plan.removed_entities:
        report.figures["entities_removed"] = len(plan.removed_entities)
    for rel in kept:
        report.artifacts.append(ArtifactRecord(path=rel, action="unchanged",
                                               why="raw/ is immutable: still carries it "
                                                   "(--mode purge deletes it)"))
    if not apply:
        report.artifacts += [ArtifactRecord(path=p, action="planned", why=w)
                             for p, w in _plan_artifacts(plan)]
        report.figures["next"] = "nothing changed; rerun with --apply to carry out this plan"
        return report
    done = apply_plan(layout, plan, operation.now_iso)
    report.artifacts += [ArtifactRecord(path=p, action=a, why=w) for p, a, w in done]  # type: ignore[arg-type]
    # log.md gets counts, not the paths (a page's name can carry the topic).
    logged = report.model_copy(update={"artifacts": [ArtifactRecord(
        path="context/tombstones.jsonc", action="updated", why=f"forget ({mode})")]})
    record_operation(layout, logged)
    return report
