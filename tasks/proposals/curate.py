"""memory_curate of spec/wiki-memory-pkf.md: maintain the page graph without deleting a fact.

    supersede  pageId [section] superseded by supersededByPageId [supersededBySection]
    merge      sourcePageId [sourceSection] into pageId [targetSection] (mergedContent optional)
    link       add a typed link (kind) from pageId to toPath (or toPageId); with toSection the
               link names that section of it (`path#anchor`), which must be one of its sections
    unlink     remove a typed link (kind + toPath [+ toSection], or linkId "kind:path[#anchor]")
               from pageId
    reparent   move childPaths under the hub pageId (a topic hub, or a folder hub in their
               folder): each child's `child_of` names it, the old hubs stop listing the child,
               the new one lists it, index.md keeps every record

A page id is its root-relative path. A superseded page stays, with `superseded_by` naming what
replaced it (and the replacement `supersedes` it); a superseded or merged-over section keeps its
old text, quoted, under the page's `## Superseded` section. Every write is one journaled batch
under the writer lock (tasks.store.operation.writing_operation); the search index and log.md
follow. A re-parented page keeps its file and name (links to it stay valid), so its new hub
must be in its folder. `limit` bounds the pages one call may write (the spec names the field and
not its meaning; membank reads it as a safety bound): an operation that would write more is
refused and its batch rolled back, nothing written.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from schemas.page import TYPED_LINK_KEYS
from schemas.report import MemoryOperationReport
from tasks.markdown.blocks import normalize_anchor, read_blocks, sections
from tasks.markdown.sections import SectionUpdate, merge_sections, split_sections
from tasks.proposals.apply import topic_hub_update
from tasks.proposals.plan import hub_page_path, link_path
from tasks.search.refresh import refresh_search_index
from tasks.store.catalog import (
    CatalogEntry,
    hub_definition,
    hub_meta,
    parse_entry_lines,
    render_hub_body,
    update_index,
)
from tasks.store.errors import InputError, MembankError, RootError
from tasks.store.layout import INDEX_FILE, WIKI_FOLDER, WIKI_HUB_PAGES
from tasks.store.logbook import log_operation
from tasks.store.names import in_shards, resolve_inside
from tasks.store.operation import Operation, writing_operation
from tasks.store.page_writes import write_page
from tasks.store.pages import read_page
from tasks.store.report import StageFigures
from tasks.store.settings import MembankSettings

OPS = ("supersede", "merge", "link", "unlink", "reparent")
MAX_CHILDREN = 200
KINDS = {key.replace("_", "-"): key for key in TYPED_LINK_KEYS}


@dataclass(frozen=True)
class CurateRequest:
    """The spec's memory_curate parameters that membank serves (paths are page ids)."""

    op: str
    pageId: str | None = None
    childPaths: list[str] | None = None
    section: str | None = None
    reason: str | None = None
    kind: str | None = None
    targetSection: str | None = None
    sourcePageId: str | None = None
    sourceSection: str | None = None
    mergedContent: str | None = None
    supersededByPageId: str | None = None
    supersededBySection: str | None = None
    linkId: str | None = None
    toPageId: str | None = None
    toPath: str | None = None
    toSection: str | None = None
    limit: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _page(operation: Operation, value: str | None, name: str) -> str:
    """A wiki page inside the root that exists, by its root-relative path."""
    if not value or not value.strip():
        raise InputError(f"{name} is missing", hint="pass a page path as memory_browse returns it")
    rel = posixpath.normpath(value.strip().split("#", 1)[0])
    try:
        path = resolve_inside(operation.root, rel)
    except RootError as exc:
        raise InputError(f"{name} {value!r} is not a path inside the memory root") from exc
    if not rel.startswith(WIKI_FOLDER) or not rel.endswith(".md") or not path.is_file():
        raise InputError(f"{name} {value!r} is not an existing wiki page",
                         hint="copy the path verbatim from memory_browse or memory_search")
    return rel


def _links(meta: dict[str, Any], key: str) -> list[str]:
    value = meta.get(key)
    return [value] if isinstance(value, str) else [v for v in value or [] if isinstance(v, str)]


def _set_link(operation: Operation, rel: str, key: str, target: str, *, add: bool) -> bool:
    page = read_page(operation.root / rel)
    links = _links(page.meta, key)
    if (target in links) == add:
        return False
    meta = dict(page.meta)
    meta[key] = [*links, target] if add else [link for link in links if link != target]
    if not meta[key]:
        del meta[key]
    return write_page(operation.root / rel, meta, page.body, now_iso=operation.now_iso).changed


def _anchors(operation: Operation, rel: str) -> dict[str, str]:
    body = read_page(operation.root / rel).body
    return {s.anchor: s.markup for s in split_sections(body).sections}


def _rewrite_section(operation: Operation, rel: str, update: SectionUpdate) -> bool:
    """Write one section (its old text kept under Superseded); a heading of '' means the
    section must exist already."""
    page = read_page(operation.root / rel)
    known = {s.anchor: s.markup for s in split_sections(page.body).sections}
    if not update.heading:
        if update.anchor not in known:
            raise InputError(f"{rel} has no section #{update.anchor}",
                             hint="sections: " + (", ".join(a for a in known if a) or "none"))
        update = SectionUpdate(update.anchor, known[update.anchor], update.content, update.source)
    body, touched, _records = merge_sections(page.body, [update], now_iso=operation.now_iso)
    if not touched:
        return False
    return write_page(operation.root / rel, dict(page.meta), body, now_iso=operation.now_iso).changed


def _href(rel: str, target: str, anchor: str | None) -> str:
    link = posixpath.relpath(target, posixpath.dirname(rel))
    return f"{link}#{anchor}" if anchor else link


def _supersede(operation: Operation, request: CurateRequest) -> list[str]:
    page = _page(operation, request.pageId, "pageId")
    by = _page(operation, request.supersededByPageId, "supersededByPageId")
    if page == by and not request.section:
        raise InputError("a page cannot supersede itself")
    source = request.reason or f"memory_curate: superseded by {by}"
    if request.section:
        text = f"Superseded by [{by}]({_href(page, by, request.supersededBySection)})."
        update = SectionUpdate(request.section.lower(), "", text, source)
        return [page] if _rewrite_section(operation, page, update) else []
    changed = _set_link(operation, page, "superseded_by", by, add=True)
    changed_by = _set_link(operation, by, "supersedes", page, add=True)
    return [p for p, done in ((page, changed), (by, changed_by)) if done]


def _merge(operation: Operation, request: CurateRequest) -> list[str]:
    target = _page(operation, request.pageId, "pageId")
    source = _page(operation, request.sourcePageId, "sourcePageId")
    if target == source:
        raise InputError("a page cannot be merged into itself")
    sections = split_sections(read_page(operation.root / source).body)
    if request.sourceSection:
        found = sections.find(request.sourceSection.lower())
        if found is None:
            raise InputError(f"{source} has no section #{request.sourceSection}")
        text, heading = found.text, found.markup
    else:
        text = "\n\n".join(s for s in [sections.preamble.strip(), *(
            f"{s.markup}\n\n{s.text}".replace("\n## ", "\n### ") for s in sections.sections)] if s)
        heading = None
    text = request.mergedContent if request.mergedContent is not None else text
    anchor = (request.targetSection or request.sourceSection
              or posixpath.basename(source).split("__", 1)[-1].removesuffix(".md")).lower()
    new_heading = "" if anchor in _anchors(operation, target) else (heading or f"## {anchor}")
    why = request.reason or f"memory_curate: merged from {source}"
    written = _rewrite_section(operation, target, SectionUpdate(anchor, new_heading, text, why))
    linked = _set_link(operation, source, "superseded_by", target, add=True)
    back = _set_link(operation, target, "supersedes", source, add=True)
    return sorted({p for p, done in ((target, written or back), (source, linked)) if done})


def _link_target(request: CurateRequest) -> tuple[str | None, str | None]:
    if request.linkId:
        kind, _, path = request.linkId.partition(":")
        return kind, path
    target = request.toPath or request.toPageId
    if target and request.toSection:
        target = f"{target.split('#', 1)[0]}#{normalize_anchor(request.toSection)}"
    return request.kind, target


def _check_section(operation: Operation, target: str, anchor: str) -> None:
    """A section-anchored link names a `##` section the target page has (blocks.sections)."""
    if not target.endswith(".md"):
        raise InputError(f"toSection needs a page to link into, not {target!r}")
    body = read_page(operation.root / target).body
    known = [s.anchor for s in sections(read_blocks(body)) if s.anchor]
    if anchor not in known:
        raise InputError(f"{target} has no section #{anchor}",
                         hint="sections: " + (", ".join(known) or "none"))


def _link(operation: Operation, request: CurateRequest, *, add: bool) -> list[str]:
    page = _page(operation, request.pageId, "pageId")
    kind, target = _link_target(request)
    key = KINDS.get((kind or "").replace("_", "-"))
    if key is None:
        raise InputError(f"kind {kind!r} is not a typed link", hint="one of " + ", ".join(KINDS))
    if not target or not target.strip():
        raise InputError("toPath (or linkId) is missing", hint="name the linked page")
    path, _, anchor = target.strip().partition("#")
    path, anchor = posixpath.normpath(path), normalize_anchor(anchor)
    if add:
        try:
            exists = resolve_inside(operation.root, path).is_file()
        except RootError:
            exists = False
        if not exists:
            raise InputError(f"toPath {path!r} is not an existing file in the memory",
                             hint="link to a root-relative path as memory_search returns it")
        if anchor and key == "child_of":
            raise InputError("a child-of link names a hub page, not a section of it")
        if anchor:
            _check_section(operation, path, anchor)
    target = f"{path}#{anchor}" if anchor else path
    return [page] if _set_link(operation, page, key, target, add=add) else []


def _run(operation: Operation, request: CurateRequest) -> list[str]:
    if request.op == "reparent":
        return reparent(operation, request)
    if request.op == "supersede":
        return _supersede(operation, request)
    if request.op == "merge":
        return _merge(operation, request)
    return _link(operation, request, add=request.op == "link")


def curate(settings: MembankSettings, request: CurateRequest) -> MemoryOperationReport:
    """One curation operation as one journaled batch; its report names the pages it wrote."""
    if request.op not in OPS:
        raise InputError(f"op {request.op!r} is not served", hint="one of " + ", ".join(OPS))
    if request.extra or (request.childPaths and request.op != "reparent"):
        name = sorted(request.extra)[0] if request.extra else "childPaths"
        raise InputError(f"{name} is not used by op {request.op}",
                         hint="childPaths is for op reparent" if name == "childPaths" else None)
    if request.limit is not None and request.limit < 1:
        raise InputError(f"limit must be 1 or more, not {request.limit}")
    with writing_operation(settings, "update") as operation:
        written = _run(operation, request)
        if request.limit is not None and len(written) > request.limit:
            raise InputError(f"memory_curate {request.op} would write {len(written)} pages, over "
                             f"limit {request.limit}: nothing was written",
                             hint="raise limit, or curate fewer pages per call")
        stage = operation.stage
        for path in written:
            stage.note_artifact(path, f"memory_curate {request.op}")
        stage.note_figures(CurateFigures(pages_written=len(written)))
        if written:
            log_operation(operation.layout, stage)
            refresh_search_index(operation, written)
    return stage.finish()


class CurateFigures(StageFigures):
    pages_written: int


# --------------------------------------------------------------------------- reparent


def _hub(operation: Operation, value: str | None) -> str:
    """The new parent: a folder hub (`wiki/concepts` or its index.md) or a page of type hub."""
    if value and value.strip() and not value.strip().endswith(".md"):
        value = hub_page_path(value)
    rel = _page(operation, value, "pageId")
    if rel not in WIKI_HUB_PAGES and read_page(operation.root / rel).meta.get("type") != "hub":
        raise InputError(f"pageId {rel!r} is not a hub (a folder's index.md or a page of type hub)",
                         hint="re-parent children under a hub memory_browse lists")
    return rel


def _is_hub(operation: Operation, rel: str) -> bool:
    if rel in WIKI_HUB_PAGES:
        return True
    try:
        return read_page(operation.root / rel).meta.get("type") == "hub"
    except (MembankError, OSError):
        return False


def _ancestors(operation: Operation, hub: str) -> set[str]:
    """The hubs above `hub` (its child_of chain), to refuse a cycle."""
    seen: set[str] = set()
    todo = [hub]
    while todo and len(seen) < MAX_CHILDREN:
        rel = todo.pop()
        if rel in seen or rel in WIKI_HUB_PAGES or not (operation.root / rel).is_file():
            continue
        seen.add(rel)
        todo += [link_path("child_of", p) for p in _links(read_page(operation.root / rel).meta,
                                                          "child_of")]
    return seen


def _children(operation: Operation, request: CurateRequest, hub: str) -> list[str]:
    paths = request.childPaths or []
    if not paths:
        raise InputError("childPaths is missing", hint="name the pages to move under pageId")
    if len(paths) > MAX_CHILDREN:
        raise InputError(f"childPaths has {len(paths)} pages, over the {MAX_CHILDREN} one call moves")
    folder, above = posixpath.dirname(hub), _ancestors(operation, hub)
    children = list(dict.fromkeys(_page(operation, p, "childPaths[]") for p in paths))
    for child in children:
        if child in WIKI_HUB_PAGES or in_shards(child):
            raise InputError(f"{child!r} cannot be re-parented (a folder hub or a shard keeps "
                             "its parent)")
        if child in above:
            raise InputError(f"{child!r} is {hub!r} or a hub above it: the move would make a cycle")
        if posixpath.dirname(child) != folder:
            raise InputError(f"{child!r} is not in {folder}/, the folder of hub {hub!r}",
                             hint="a page keeps its file (links to it stay valid): pick a hub "
                             f"in {posixpath.dirname(child)}/")
    return children


def _move(operation: Operation, child: str, hub: str) -> tuple[bool, list[str], CatalogEntry]:
    """Point the child's child_of at `hub` alone;
    returns (written, the hubs it left, its catalog entry)."""
    page = read_page(operation.root / child)
    links = [link_path("child_of", p) for p in _links(page.meta, "child_of")]
    left = [p for p in links if p != hub and _is_hub(operation, p)]
    meta = dict(page.meta)
    meta["child_of"] = [hub]  # a wiki page is the child of one hub (placement)
    entry = CatalogEntry(child, str(page.meta.get("title") or child),
                         str(page.meta.get("description") or ""))
    written = meta["child_of"] != links and write_page(
        operation.root / child, meta, page.body, now_iso=operation.now_iso).changed
    return written, left, entry


def _list_children(operation: Operation, hub: str, add: list[CatalogEntry],
                   drop: list[str]) -> bool:
    """A hub's listing with `add` upserted and `drop` gone (its other content kept)."""
    layout, now = operation.layout, operation.now_iso
    if hub not in WIKI_HUB_PAGES:
        return topic_hub_update(layout, hub, add, now, drop=drop)
    page = read_page(layout.root / hub)
    folder, title, overview = hub_definition(hub)
    entries = parse_entry_lines(page.body, base=folder)
    for gone in drop:
        entries.pop(gone, None)
    entries.update({e.path: e for e in add})
    title = str(page.meta.get("title") or title)
    overview = str(page.meta.get("description") or overview)
    return write_page(layout.root / hub, hub_meta(title, overview),
                      render_hub_body(title, overview, entries.values(), folder),
                      now_iso=now).changed


def reparent(operation: Operation, request: CurateRequest) -> list[str]:
    """Move childPaths under the hub pageId: child_of, both hubs' listings and index.md; no
    page is removed and no text dropped."""
    hub = _hub(operation, request.pageId)
    written: list[str] = []
    entries: list[CatalogEntry] = []
    dropped: dict[str, list[str]] = {}
    for child in _children(operation, request, hub):
        moved, left, entry = _move(operation, child, hub)
        written += [child] if moved else []
        entries.append(entry)
        for old in left:
            dropped.setdefault(old, []).append(child)
    for old, gone in sorted(dropped.items()):
        if (operation.root / old).is_file() and _list_children(operation, old, [], gone):
            written.append(old)
    if _list_children(operation, hub, entries, []):
        written.append(hub)
    if update_index(operation.layout, entries, now_iso=operation.now_iso).changed:
        written.append(INDEX_FILE)
    return written
