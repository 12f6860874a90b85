"""memory_curate of spec/wiki-memory-pkf.md: maintain the page graph without deleting a fact.

    supersede  pageId [section] superseded by supersededByPageId [supersededBySection]
    merge      sourcePageId [sourceSection] into pageId [targetSection] (mergedContent optional)
    link       add a typed link (kind) from pageId to toPath (or toPageId)
    unlink     remove a typed link (kind + toPath, or linkId "kind:path") from pageId

A page id is its root-relative path. A superseded page stays, with `superseded_by` naming what
replaced it (and the replacement `supersedes` it); a superseded or merged-over section keeps its
old text, quoted, under the page's `## Superseded` section. Every write is one journaled batch
under the writer lock (tasks.store.operation.writing_operation); the search index and log.md
follow. Not served (yet): re-parenting children (`childPaths`).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from schemas.page import TYPED_LINK_KEYS
from schemas.report import ArtifactRecord, MemoryOperationReport
from tasks.markdown.sections import SectionUpdate, merge_sections, split_sections
from tasks.search.refresh import refresh_search_index
from tasks.store.errors import InputError, RootError
from tasks.store.layout import WIKI_FOLDER
from tasks.store.logbook import log_operation
from tasks.store.names import resolve_inside
from tasks.store.operation import Operation, writing_operation
from tasks.store.pages import read_page, write_page
from tasks.store.settings import MembankSettings

OPS = ("supersede", "merge", "link", "unlink")
KINDS = {key.replace("_", "-"): key for key in TYPED_LINK_KEYS}


@dataclass(frozen=True)
class CurateRequest:
    """The spec's memory_curate parameters that membank serves (paths are page ids)."""

    op: str
    pageId: str | None = None
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
    return request.kind, request.toPath or request.toPageId


def _link(operation: Operation, request: CurateRequest, *, add: bool) -> list[str]:
    page = _page(operation, request.pageId, "pageId")
    kind, target = _link_target(request)
    key = KINDS.get((kind or "").replace("_", "-"))
    if key is None:
        raise InputError(f"kind {kind!r} is not a typed link", hint="one of " + ", ".join(KINDS))
    if not target or not target.strip():
        raise InputError("toPath (or linkId) is missing", hint="name the linked page")
    target = posixpath.normpath(target.strip())
    if add:
        try:
            exists = resolve_inside(operation.root, target).is_file()
        except RootError:
            exists = False
        if not exists:
            raise InputError(f"toPath {target!r} is not an existing file in the memory",
                             hint="link to a root-relative path as memory_search returns it")
    return [page] if _set_link(operation, page, key, target, add=add) else []


def _run(operation: Operation, request: CurateRequest) -> list[str]:
    if request.op == "supersede":
        return _supersede(operation, request)
    if request.op == "merge":
        return _merge(operation, request)
    return _link(operation, request, add=request.op == "link")


def curate(settings: MembankSettings, request: CurateRequest) -> MemoryOperationReport:
    """One curation operation as one journaled batch; its report names the pages it wrote."""
    if request.op not in OPS:
        raise InputError(f"op {request.op!r} is not served", hint="one of " + ", ".join(OPS)
                         + " (re-parenting children is not served yet)")
    if request.extra:
        name = sorted(request.extra)[0]
        raise InputError(f"{name} is not used by op {request.op}")
    with writing_operation(settings, "update") as operation:
        written = _run(operation, request)
        report = operation.report
        report.artifacts += [ArtifactRecord(path=p, why=f"memory_curate {request.op}",
                                            action="updated") for p in written]
        report.figures["pages_written"] = len(written)
        if written:
            log_operation(operation.layout, report)
            refresh_search_index(operation, written)
    return report
