"""What `membank forget` would change: the target, raw sources and pages (reads only).

The modes and the operation are in tasks/privacy/forget.py; context files in forget_context.py.
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

from schemas.graph import EntityRegistry
from schemas.raw_manifest import RawAsset, RawManifest
from tasks.markdown.links import link_targets
from tasks.privacy.topic_match import mentions, named_after
from tasks.privacy.units import (
    Unit,
    has_content,
    history_lines,
    is_entry,
    matching_units,
    remove_units,
)
from tasks.store.atomic import check_real_folder, check_write_target
from tasks.store.catalog import parse_entry_lines
from tasks.store.errors import ContractError, InputError
from tasks.store.graph_store import load_manifest, load_registry
from tasks.store.layout import (
    CANDIDATES_FILE,
    CONTEXT_DIR,
    DISTILL_STATE_FILE,
    GRAPH_FILE,
    HEALTH_DIR,
    INBOX_DIR,
    INDEX_FILE,
    LEDGER_FILE,
    LOG_FILE,
    MANIFEST_FILE,
    PROPOSALS_DIR,
    RAW_DIR,
    REGISTRY_FILE,
    SHARDS_DIR,
    SHARDS_FOLDER,
    STATE_DIR,
    TOMBSTONES_FILE,
    WIKI_DIR,
    WIKI_HUBS,
    MemoryLayout,
)
from tasks.store.names import is_hub_page
from tasks.store.pages import plan_page_text, split_page
from tasks.store.versions import revert_pages_of

Mode = Literal["soft", "hard", "purge"]
MIN_TOPIC_CHARS = 3
TYPED_LINK_KEYS = ("derived_from", "child_of", "supersedes", "superseded_by")
# Frontmatter keys that name what a page is about: a page they name is removed whole.
NAME_KEYS = frozenset({"title", "entity_name", "entity", "name", "aliases"})
# Files forget reads or writes by their own rules, not as pages.
_STRUCTURAL = frozenset({INDEX_FILE, LOG_FILE})
_SKIP_TOP = frozenset({RAW_DIR, CONTEXT_DIR, PROPOSALS_DIR, STATE_DIR, ".git"})
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
        """Does the content of `text` name a topic as whole words (paths left out)?"""
        return mentions(self.topics, text)

    def names(self, rel: str) -> bool:
        """Is the file `rel` named after a topic (its words in the file's name)?"""
        return named_after(self.topics, rel)


@dataclass
class PageChange:
    path: str
    delete: bool
    why: str
    text: str | None = None  # the new page text when rewritten
    units: list[Unit] = field(default_factory=list)
    # Units of prose, tables or code that name the topic: a match there asks for a manual
    # rewrite (spec: Forgetting 4); `--apply` removes them whole only with --allow-broad-match.
    rewrite: list[Unit] = field(default_factory=list)
    before: str = ""  # sha256 of the page's text as planned (the plan's hash covers it)
    description: str | None = None  # the new description when the old one named it


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
    catalog_described: dict[str, str] = field(default_factory=dict)  # index.md entry -> description
    page_texts: dict[str, str] = field(default_factory=dict)  # the pages as read (by path)
    removed_entities: set[str] = field(default_factory=set)
    emptied_entities: set[str] = field(default_factory=set)  # the forget left them no evidence

    @property
    def deleted_pages(self) -> set[str]:
        return {p.path for p in self.pages if p.delete}

    def boundary(self) -> str:
        return ERASURE_BOUNDARY.format(scope=_SCOPE[self.mode])


# --------------------------------------------------------------------------------------------
# The root's boundary

# Folders forget reads and changes, and the files it reads and rewrites by name.
_BOUNDARY_FOLDERS = (RAW_DIR, WIKI_DIR, *(folder for folder, _t, _o in WIKI_HUBS), SHARDS_DIR,
                     CONTEXT_DIR, HEALTH_DIR, PROPOSALS_DIR, INBOX_DIR, STATE_DIR)
_NAMED_FILES = (INDEX_FILE, LOG_FILE, GRAPH_FILE, REGISTRY_FILE, MANIFEST_FILE, DISTILL_STATE_FILE,
                TOMBSTONES_FILE, CANDIDATES_FILE, LEDGER_FILE)


def check_boundary(layout: MemoryLayout) -> None:
    """The root-boundary check every writer makes (tasks/store/atomic.py), before forget reads
    anything: a folder it reads or changes reached through a symlink, or one of its named files
    being a symlink, stops it with one RootBoundaryError naming the symlink; nothing is read or
    deleted. Symlinked files elsewhere are never followed (see `page_text`, `text_of`)."""
    for folder in _BOUNDARY_FOLDERS:
        check_real_folder(layout.root / folder)
    for rel in _NAMED_FILES:
        check_write_target(layout.root / rel)


def page_text(layout: MemoryLayout, rel: str) -> str:
    """A page's text; a symlink is not followed (its name alone can match: it is removed as a
    link, what it points to is never read)."""
    path = layout.root / rel
    if os.path.islink(path):
        return ""
    return path.read_text(encoding="utf-8", errors="replace")


# --------------------------------------------------------------------------------------------
# What to forget


def manifest_if_any(layout: MemoryLayout) -> RawManifest | None:
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
    manifest = manifest_if_any(layout)
    assert source is not None
    for asset in manifest.assets if manifest else []:
        if source in {asset.rawPath, asset.assetId, asset.contentHash, asset.originalPath,
                      asset.sourcePath, os.path.basename(asset.rawPath)}:
            return Target((), frozenset({asset.assetId}), f"source {asset.rawPath}")
    raise InputError(f"no raw source {source!r} in the raw manifest", file=layout.raw_manifest_file,
                     hint="name it by its raw/ path, its asset id or the path it was ingested from")


def topic_guard(topic: str) -> str:
    """The generic guard a hard forget keeps instead of the topic."""
    return hashlib.sha256(" ".join(topic.casefold().split()).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------
# Raw sources


def text_of(path: Path) -> str | None:
    """A file's text; None for a binary file, an unreadable one or a symlink (never followed)."""
    if os.path.islink(path):
        return None
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
            text = text_of(layout.root / asset.rawPath)
            carries = target.names(asset.rawPath) or bool(text and target.matches(text))
        if carries:
            plan.carrying_assets.append(asset)
    if plan.mode == "purge":
        plan.purge = list(plan.carrying_assets)
        if target.topics and layout.raw.is_dir():
            found = (p for p in layout.raw.rglob("*") if p.is_file() and not p.is_symlink())
            for path in sorted(found):
                rel = layout.relative(path)
                text = text_of(path)
                if rel not in listed and (target.names(rel) or (text and target.matches(text))):
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


def source_pages_of(assets: Iterable[RawAsset]) -> set[str]:
    """Source pages of these assets and their shard pages' folder prefixes."""
    pages: set[str] = set()
    for asset in assets:
        if asset.sourcePage:
            pages.add(asset.sourcePage)
            pages.add(f"{SHARDS_FOLDER}{PurePosixPath(asset.sourcePage).stem}/")
    return pages


def links_to(deleted: set[str]) -> Callable[[str], bool]:
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


@dataclass(frozen=True)
class _PagePass:
    """One pass over the pages: what is forgotten, the pages gone so far, links to them."""

    target: Target
    gone: set[str]
    links: Callable[[str], bool]  # does a link in this text lead to a page that is gone?
    now_iso: str
    keep_history: bool  # soft: a page's superseded sections are history, kept like the graph's
    pages: frozenset[str] = frozenset()  # every page forget reads

    def kept(self, rel: str) -> bool:
        return rel in self.pages and rel not in self.gone


def _page_verdict(rel: str, text: str, unit_links: Callable[[str], bool],
                  context: _PagePass) -> PageChange | None:
    """Delete, rewrite or keep one page (None: nothing to change)."""
    target, gone, links = context.target, context.gone, context.links
    if rel in gone or any(rel.startswith(p) for p in gone if p.endswith("/")):
        return PageChange(rel, True, f"a page of the forgotten {target.label}")
    if not target.matches(text) and not links(text) and not _names_any(text, gone):
        return None  # neither the topic nor a removed page's name: nothing to read closer
    try:
        page = split_page(text, file=rel)
    except ContractError:
        if target.matches(text):
            return PageChange(rel, True, "mentions it; its frontmatter cannot be read to edit it")
        return None
    meta = _drop_links(page.meta, links)
    if target.matches(_meta_text(meta, NAME_KEYS)):
        return PageChange(rel, True, "its title or name names it")
    # A description (or another field) is prose: a match there asks for a rewrite; the plan
    # puts the title in its place (another field goes), which --allow-broad-match accepts.
    fields = [key for key in meta if key not in TYPED_LINK_KEYS and key not in NAME_KEYS
              and target.matches(json.dumps(meta[key], default=str, ensure_ascii=False))]
    meta = without_fields(meta, fields, target)
    folder = PurePosixPath(rel).parent.as_posix()
    hub = is_hub_page(rel)  # a child that stays keeps its line (rewritten if it named it)
    units = matching_units(page.body, lambda t: unit_links(t) or (
        target.matches(t) and not (hub and kept_entry(t, folder, context.kept))))
    if context.keep_history:
        kept = history_lines(page.body)
        units = [u for u in units if u.start not in kept]
    if not units and meta == page.meta:
        return None
    lines = page.body.split("\n")
    rewrite = [Unit(0, 1, f"frontmatter {key}") for key in fields] + [
        u for u in units if not is_entry(u) and target.matches("\n".join(lines[u.start:u.end]))]
    body = remove_units(page.body, units)
    if not is_hub_page(rel) and not has_content(body):
        return PageChange(rel, True, "nothing left once the units naming it are removed",
                          units=units, rewrite=rewrite)
    what = "; ".join(u.describe() for u in units) or "typed links to removed pages"
    change = PageChange(rel, False, f"remove {what}",
                        plan_page_text(text, meta, body, now_iso=context.now_iso, file=rel) or text,
                        units, rewrite)
    if "description" in fields:
        change.description = str(meta.get("description", ""))
        if not units:
            change.why = "rewrite its description, which names it"
    return change


FORGOTTEN_VALUE = "(removed by membank forget)"


def without_fields(meta: dict[str, Any], fields: list[str], target: Target) -> dict[str, Any]:
    """`meta` with what `fields` say of the topic taken out, its shape kept: a description
    becomes the page's title; in another field a list loses the items that name it, a text
    naming it becomes FORGOTTEN_VALUE (a required key stays valid)."""
    if not fields:
        return meta
    out = dict(meta)
    for key in fields:
        out[key] = _scrub(meta[key], target)
    if "description" in fields and isinstance(meta.get("title"), str):
        out["description"] = meta["title"]
    return out


def _scrub(value: Any, target: Target) -> Any:
    if isinstance(value, dict):
        return {k: _scrub(v, target) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, target) for v in value
                if not (isinstance(v, str) and target.matches(v))]
    if isinstance(value, str) and target.matches(value):
        return FORGOTTEN_VALUE
    return value


def _meta_text(meta: dict[str, Any], keys: frozenset[str]) -> str:
    """What the frontmatter's `keys` say."""
    return json.dumps({k: v for k, v in meta.items() if k in keys}, default=str, ensure_ascii=False)


def kept_entry(text: str, folder: str, kept: Callable[[str], bool]) -> bool:
    """Is `text` one catalog line (of a hub in `folder`) that links to a page that stays?"""
    entries = parse_entry_lines(text.strip(), base=folder)
    return len(entries) == 1 and kept(next(iter(entries)))


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


def plan_pages(layout: MemoryLayout, plan: ForgetPlan, now_iso: str,
               also_gone: Iterable[str] = ()) -> None:
    """Two passes until stable: pages about it go, then units linking to what went.
    `also_gone`: pages known to go for another reason (entities left with no evidence)."""
    target = plan.target
    going = plan.purge if plan.mode == "purge" else [
        a for a in plan.carrying_assets if a.assetId in target.asset_ids]
    gone = source_pages_of(going) | set(also_gone) | revert_pages_of(
        manifest_if_any(layout), {a.assetId for a in going})
    texts = {rel: page_text(layout, rel) for rel in memory_pages(layout)}
    # Pages already planned to go keep the reason they were given (an emptied entity's page).
    changes: dict[str, PageChange] = {c.path: c for c in plan.pages if c.delete and c.path in gone}
    while True:
        deleted = {p for p in gone if p.endswith("/") or p in texts}
        context = _PagePass(target, gone, links_to(deleted), now_iso, plan.mode == "soft",
                            frozenset(texts))
        for rel, text in texts.items():
            if rel in changes and changes[rel].delete:
                continue  # decided in an earlier pass, with its own reason
            change = _page_verdict(rel, text, _unit_links(rel, deleted), context)
            if change is not None:
                changes[rel] = change
        newly = {rel for rel, c in changes.items() if c.delete} - gone
        if not newly:
            break
        gone |= newly
    plan.page_texts = texts
    for rel, change in changes.items():
        change.before = hashlib.sha256(texts.get(rel, "").encode("utf-8")).hexdigest()
    plan.pages = [changes[rel] for rel in sorted(changes)]
