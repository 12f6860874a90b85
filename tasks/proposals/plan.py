"""The page write an accepted proposal makes: a new leaf under its hub, or sections merged into
an existing page (what they said before kept under `## Superseded`). Pure: the memory is read
through a `MemoryView`; nothing here writes.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import Any, Protocol

from schemas.page import TYPED_LINK_KEYS, MemoryBlock
from schemas.proposal import Adoption, Placement, Proposal
from tasks.markdown.blocks import anchor_of, normalize_anchor, without_explicit_anchor
from tasks.markdown.sections import (
    SectionUpdate,
    has_open_fence,
    has_title,
    heading_text,
    merge_sections,
    split_sections,
    strip_title_line,
)
from tasks.store.errors import AmbiguousNameError
from tasks.store.layout import HISTORIAN_TYPES, WIKI_FOLDER, hub_path
from tasks.store.names import historian_hub, slug_from_title
from tasks.store.pages import new_page_meta, plan_page_text, split_page

HAND_WRITTEN_SOURCE = "written before proposal intake; sections[] lists the proposed sections"


class Rejection(Exception):
    """A proposal fails a check: its REJECTION_CODES code, the field at fault, why."""

    def __init__(self, code: str, field: str | None, message: str, hint: str | None = None):
        super().__init__(message)
        self.code, self.field, self.message, self.hint = code, field, message, hint


class MemoryView(Protocol):
    """What the gate may read of the memory. Paths are root-relative posix strings."""

    def exists(self, path: str) -> bool: ...

    def text(self, path: str) -> str | None: ...

    def is_hub(self, path: str) -> bool: ...

    def hubs(self) -> list[str]: ...

    def page_with_slug(self, folder: str, slug: str) -> str | None: ...

    def raw_paths_of_asset(self, asset_id: str) -> set[str]: ...

    def adoption(self, digest: str, deliverable_key: str | None) -> Adoption | None: ...

    def page_of_asset(self, asset_id: str) -> str | None: ...


@dataclass(frozen=True)
class PagePlan:
    """The page write an accepted proposal makes (text None: the page already says this)."""

    path: str
    meta: dict[str, Any]
    body: str
    text: str | None
    size: int
    created: bool
    merged: bool  # a new leaf that extended an existing page on the same topic
    hub: str | None  # the hub a created page is registered under
    anchors: tuple[str, ...] = ()
    superseded: int = 0


def link_values(value: object) -> list[object]:
    if value is None:
        return []
    if isinstance(value, (str, int, float)):
        return [value]
    return list(value) if isinstance(value, (list, tuple)) else [value]


def normalize_page_path(value: str) -> str:
    """One spelling of a root-relative path: `./a/../b/` is `b`; an escape keeps its `..`."""
    path = value.strip().replace("\\", "/")
    if not path:
        return ""
    normalized = posixpath.normpath(path)
    return "" if normalized == "." else normalized


def hub_page_path(value: str) -> str:
    """`wiki/synthesis` and `wiki/synthesis/` mean `wiki/synthesis/index.md`."""
    path = normalize_page_path(value)
    return path if path.endswith(".md") else hub_path(path)


def text_field(data: dict[str, Any], key: str, default: str = "") -> str:
    value = data.get(key)
    return value if isinstance(value, str) else default


def link_path(key: str, value: str) -> str:
    """A typed link's one spelling; a child_of naming a hub folder means its index.md."""
    path = normalize_page_path(value)
    if key == "child_of" and path.startswith(WIKI_FOLDER) and not path.endswith(".md"):
        return hub_page_path(path)
    return path


def _links_of(data: dict[str, Any]) -> dict[str, list[str]]:
    return {
        key: [link_path(key, v) for v in link_values(data.get(key)) if isinstance(v, str)]
        for key in TYPED_LINK_KEYS
    }


@dataclass(frozen=True)
class PlanContent:
    """What a plan needs, from a validated proposal or leniently from raw data."""

    title: str
    description: str
    type: str
    body: str
    links: dict[str, list[str]]
    pkf_version: str | None
    related: tuple[str, ...] = ()  # memory_write relation 'related': typed, not hierarchical


def lenient_content(data: dict[str, Any]) -> PlanContent:
    return PlanContent(
        text_field(data, "title", "untitled proposal"),
        text_field(data, "description"),
        text_field(data, "type", "note"),
        text_field(data, "body"),
        _links_of(data),
        data.get("pkfVersion") if isinstance(data.get("pkfVersion"), str) else None,
        tuple(normalize_page_path(v) for v in link_values(data.get("related"))
              if isinstance(v, str)),
    )


def proposal_content(proposal: Proposal) -> PlanContent:
    links = {key: [link_path(key, v) for v in getattr(proposal, key)] for key in TYPED_LINK_KEYS}
    return PlanContent(
        proposal.title,
        proposal.description,
        proposal.type,
        proposal.body,
        links,
        proposal.pkfVersion,
        tuple(normalize_page_path(v) for v in proposal.related),
    )


def _section_source(memory: MemoryBlock, anchor: str) -> tuple[str, str]:
    for entry in memory.sections:
        if normalize_anchor(entry.anchor) == anchor:
            return entry.memoryRole.value, entry.source
    return memory.memoryRole.value, memory.source


def _memory_dict(memory: MemoryBlock) -> dict[str, Any]:
    """The block as a new page carries it, with section anchors in their one spelling."""
    block = memory.model_dump(mode="json", exclude_none=True)
    for entry in block.get("sections", []):
        entry["anchor"] = normalize_anchor(entry["anchor"])
    return block


def _merge_memory(existing: object, memory: MemoryBlock, anchors: list[str]) -> dict[str, Any]:
    """The page's memory block after a proposal rewrote `anchors` of it."""
    block = dict(existing) if isinstance(existing, dict) else {}
    if not block.get("memoryRole") or not block.get("source"):
        # A page written by hand gets a block that says so; its proposed sections are listed.
        block["memoryRole"] = memory.memoryRole.value
        block["source"] = HAND_WRITTEN_SOURCE
    sections = [dict(s) for s in block.get("sections") or [] if isinstance(s, dict)]
    for anchor in anchors:
        if not anchor:
            continue
        role, source = _section_source(memory, anchor)
        entry = {"anchor": anchor, "memoryRole": role, "source": source}
        index = next((i for i, s in enumerate(sections) if s.get("anchor") == anchor), None)
        if index is not None:
            sections[index] = entry
        elif (role, source) != (block["memoryRole"], block["source"]):
            sections.append(entry)
    block["sections"] = sections
    if not sections:
        block.pop("sections")
    return block


def _merge_links(meta: dict[str, Any], links: dict[str, list[str]]) -> None:
    for key, values in links.items():
        current = [str(v) for v in link_values(meta.get(key))]
        for value in values:
            if value not in current:
                current.append(value)
        if current:
            meta[key] = current


@dataclass(frozen=True)
class PlanRequest:
    """A checked proposal's placement and content, and the write's clock and name prefix."""

    placement: Placement
    memory: MemoryBlock
    content: PlanContent
    now_iso: str
    prefix: str
    asset_id: str | None = None  # the deliverable's asset: a new revision extends its page


def _extend_plan(
    path: str, text: str, updates: list[SectionUpdate], request: PlanRequest, *, merged: bool
) -> PagePlan:
    page = split_page(text, file=path)
    if has_open_fence(page.body):
        raise Rejection(
            "placement_required",
            "placement.page",
            f"page {path!r} has a code fence that is never closed, so its sections cannot be "
            "told apart; close the fence in the page, or propose a new leaf",
        )
    body, touched, superseded = merge_sections(page.body, updates, now_iso=request.now_iso)
    meta = dict(page.meta)
    if touched:
        meta["memory"] = _merge_memory(meta.get("memory"), request.memory, touched)
        _merge_links(meta, {k: v for k, v in request.content.links.items() if k != "child_of"})
    new_text = plan_page_text(text, meta, body, now_iso=request.now_iso, file=path)
    return PagePlan(
        path,
        meta,
        body,
        new_text,
        len(new_text or text),
        created=False,
        merged=merged,
        hub=None,
        anchors=tuple(touched),
        superseded=superseded,
    )


def _leaf_updates(content: PlanContent, memory: MemoryBlock) -> list[SectionUpdate]:
    split = split_sections(content.body)
    _title, intro = strip_title_line(split.preamble)
    updates = [SectionUpdate("", "", intro, memory.source)]
    for section in split.sections:
        updates.append(
            SectionUpdate(
                section.anchor,
                section.markup,
                section.text,
                _section_source(memory, section.anchor)[1],
            )
        )
    return updates


def _slug(title: str) -> str:
    try:
        return slug_from_title(title)
    except AmbiguousNameError:
        return "untitled-proposal"


def plan_page(view: MemoryView, request: PlanRequest) -> PagePlan:
    """The page write of a proposal whose placement was checked.

    A new leaf extends, rather than forks: the page adopted from an earlier revision of the same
    deliverable, else the page with the same slug under the hub.
    """
    if request.placement.kind != "new_leaf":
        return _section_plan(view, request)
    placement, content = request.placement, request.content
    historian = historian_hub(placement.hub or "")
    if historian is not None:  # sessions/, plans/, executions/: hubs of their own
        return _historian_plan(view, historian, request)
    hub = hub_page_path(placement.hub or "")
    folder = PurePosixPath(hub).parent.as_posix()
    slug = _slug(content.title)
    asset_id = request.asset_id
    prior = view.page_of_asset(asset_id) if asset_id else None
    existing = prior if prior and view.exists(prior) else view.page_with_slug(folder, slug)
    topic_page = getattr(view, "topic_page", None)
    if existing is None and topic_page is not None:  # same topic, other wording: extend it
        existing = topic_page(folder, content.title, content.description)
    if existing is not None:
        text = view.text(existing) or ""
        updates = _leaf_updates(content, request.memory)
        plan = _extend_plan(existing, text, updates, request, merged=True)
        # The page stays listed by its own hub (a rerun after a crash heals a missing entry).
        parents = [str(p) for p in link_values(plan.meta.get("child_of"))]
        return replace(plan, hub=next((p for p in parents if view.is_hub(p)), None))
    return _new_leaf_plan(f"{folder}/{request.prefix}__{slug}.md", hub, request)


def _historian_plan(view: MemoryView, folder: str, request: PlanRequest) -> PagePlan:
    """A session, plan or execution record: `<folder>/<prefix>__<slug>.md`, of the folder's
    type, listed by index.md (no hub page); the same title again extends that record."""
    slug = _slug(request.content.title)
    existing = view.page_with_slug(folder, slug)
    if existing is not None:
        plan = _extend_plan(existing, view.text(existing) or "",
                            _leaf_updates(request.content, request.memory), request, merged=True)
        return replace(plan, hub=None)
    content = replace(request.content, type=HISTORIAN_TYPES[f"{folder}/"])
    plan = _new_leaf_plan(f"{folder}/{request.prefix}__{slug}.md", "",
                          replace(request, content=content))
    return replace(plan, hub=None)


def _section_plan(view: MemoryView, request: PlanRequest) -> PagePlan:
    """A section written into an existing page (extend_section, append_section)."""
    placement, content = request.placement, request.content
    path = normalize_page_path(placement.page or "")
    anchor = normalize_anchor(placement.section or "")
    text = view.text(path) or ""
    lines = content.body.strip("\n").split("\n")
    first = heading_text(lines[0])
    own_heading = None
    if first is not None and anchor_of(first) == anchor:
        own_heading = without_explicit_anchor(first)
        lines = lines[1:]
    section_text = "\n".join(lines).strip("\n")
    title = (placement.heading or own_heading or content.title).strip() or anchor
    heading = f"## {title}"
    if anchor_of(title) != anchor:
        heading += f" {{#{anchor}}}"
    source = _section_source(request.memory, anchor)[1]
    update = SectionUpdate(anchor, heading, section_text, source)
    return _extend_plan(path, text, [update], request, merged=False)


def _new_leaf_plan(path: str, hub: str, request: PlanRequest) -> PagePlan:
    content, now_iso = request.content, request.now_iso
    child_of = [*([hub] if hub else []), *(link for link in content.links["child_of"] if link != hub)]
    meta = new_page_meta(
        now_iso,
        prefix=request.prefix,
        type=content.type,
        title=content.title,
        description=content.description,
        child_of=child_of,
        derived_from=content.links["derived_from"],
        supersedes=content.links["supersedes"],
        superseded_by=content.links["superseded_by"],
        memory=_memory_dict(request.memory),
    )
    if content.pkf_version:
        meta["pkfVersion"] = content.pkf_version
    if content.related:
        meta["related"] = list(content.related)
    body = content.body.strip("\n")
    if not has_title(body):
        body = f"# {content.title}\n\n{body}"
    body += "\n"
    text = plan_page_text(None, meta, body, now_iso=now_iso, file=path) or ""
    return PagePlan(
        path,
        meta,
        body,
        text,
        len(text),
        created=True,
        merged=False,
        hub=hub,
        anchors=tuple(split_sections(body).anchors()),
    )


__all__ = [
    "HAND_WRITTEN_SOURCE",
    "MemoryView",
    "PagePlan",
    "PlanContent",
    "PlanRequest",
    "Rejection",
    "hub_page_path",
    "lenient_content",
    "link_path",
    "link_values",
    "normalize_page_path",
    "plan_page",
    "proposal_content",
    "text_field",
]
