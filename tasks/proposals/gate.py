"""The proposal write gate: checks in a fixed order; the first failure is the verdict.

Nothing here writes. `gate_proposal` reads the memory only through a `MemoryView` (a read-only
snapshot plus what earlier proposals of the same batch wrote) and returns a `Verdict`: rejected
with the first failing code of REJECTION_CODES and the field at fault, a duplicate of what was
already adopted, or accepted with the `PagePlan` a single writer applies.

Proposal files are read by tasks.proposals.parse, the page write is planned by
tasks.proposals.plan, page sections and their anchors are tasks.markdown.sections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Literal

from pydantic import ValidationError

from schemas.page import TYPED_LINK_KEYS, MemoryBlock, PageFrontmatter, second_sentence
from schemas.proposal import Adoption, Placement, Proposal
from tasks.distill.entity_pages import MANAGED_SECTIONS
from tasks.markdown.blocks import anchor_of, normalize_anchor
from tasks.markdown.links import typed_anchor_links
from tasks.markdown.sections import SUPERSEDED_ANCHOR, has_open_fence, split_sections
from tasks.proposals.parse import ProposalInput
from tasks.proposals.plan import (
    MemoryView,
    PagePlan,
    PlanRequest,
    Rejection,
    hub_page_path,
    lenient_content,
    link_path,
    link_values,
    normalize_page_path,
    plan_page,
    proposal_content,
    text_field,
)
from tasks.proposals.tool_fields import is_tool_shaped, tool_proposal
from tasks.store.errors import AmbiguousNameError, MembankError
from tasks.store.layout import ENTITY_FOLDER, WIKI_FOLDER
from tasks.store.names import (
    PROPOSABLE_HISTORIAN,
    historian_hub,
    is_ambiguous,
    is_hub_page,
    slug_from_title,
)
from tasks.store.pages import split_page

ASSET_URI_PREFIX = "prismer://asset/"
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def asset_pointers(body: str) -> list[str]:
    """Asset ids of the body's <a rel="derived-from" href="prismer://asset/<id>"> pointers."""
    return _asset_ids(typed_anchor_links(body))


def _asset_ids(typed_links: list[tuple[str, str]]) -> list[str]:
    return [href[len(ASSET_URI_PREFIX) :].split("#")[0].split("/")[0]
            for rel, href in typed_links
            if "derived-from" in rel.split() and href.startswith(ASSET_URI_PREFIX)]




Outcome = Literal["accepted", "rejected", "duplicate"]


@dataclass(frozen=True)
class Verdict:
    name: str
    outcome: Outcome
    digest: str
    code: str | None = None
    field: str | None = None
    message: str = ""
    hint: str | None = None
    proposal: Proposal | None = None
    plan: PagePlan | None = None
    adoption: Adoption | None = None



_HINTS = {
    "evolution_metadata_required": "add memory: {memoryRole: knowledge|procedure|action_result, "
    "source: <where this came from>} at the top level (not under extra), and the same two keys "
    "on every memory.sections[] entry; fix that field and resubmit",
    "placement_required": "name where it goes: placement {kind: new_leaf, hub: <one of the hubs>} "
    "or {kind: extend_section|append_section, page: <existing page>, section: <anchor>} (with "
    "memory_write's fields: parentHubPath for a new page, or op rewrite-section|append-section "
    "with path and section)",
    "deliverable_pointer_missing": "a page from a deliverable carries deliverableSource {assetId, "
    'contentHash, sizeBytes} and exactly one <a rel="derived-from" '
    'href="prismer://asset/<assetId>"> pointer (or a derived_from link to its raw file)',
    "sharding_required": "split it: propose the parts as sections or ingest the source so it is "
    "sharded into an index page plus shard pages",
    "dead_link": "copy link targets verbatim from existing root-relative paths",
    "invalid_frontmatter": "fix the named field; the contract is schemas/proposal.py",
    "ambiguous_name": "choose an intention-revealing name (dependencyRelation, not item)",
    "duplicate": "nothing to do: it is already in the memory",
    "graph_owned_section": "state the facts in a source and ingest it (distill puts them in the "
    "graph and on the page), or write a section of your own: append_section with another anchor",
}
# Sections of an entity page that distill renders from the graph (tasks/distill/entity_pages.py).
_GRAPH_OWNED = frozenset(anchor_of(heading) for heading in MANAGED_SECTIONS)


def _field_name(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _errors_under(errors: list[Any], key: str) -> list[Any]:
    return [e for e in errors if e["loc"] and e["loc"][0] == key]


def _first_error(errors: list[Any], code: str) -> Rejection:
    error = errors[0]
    where = _field_name(tuple(error["loc"]))
    return Rejection(code, where, f"field '{where}': {error['msg']}")


def _check_memory(data: dict[str, Any], errors: list[Any]) -> MemoryBlock:
    if "memory" not in data or data["memory"] is None:
        extra = data.get("extra")
        if isinstance(extra, dict) and "memory" in extra:
            raise Rejection(
                "evolution_metadata_required",
                "memory",
                "field 'memory' is nested under 'extra', where it reads as no block at "
                "all; write memory as a top-level key",
            )
        raise Rejection(
            "evolution_metadata_required",
            "memory",
            "field 'memory' is missing: a proposal declares memory: {memoryRole, source}",
        )
    memory_errors = _errors_under(errors, "memory")
    if memory_errors:
        raise _first_error(memory_errors, "evolution_metadata_required")
    memory = MemoryBlock.model_validate(data["memory"])
    seen: set[str] = set()
    for i, section in enumerate(memory.sections):
        anchor = normalize_anchor(section.anchor)
        if anchor in seen:
            raise Rejection(
                "evolution_metadata_required",
                f"memory.sections[{i}].anchor",
                f"field 'memory.sections[{i}].anchor': {anchor!r} is declared twice",
            )
        seen.add(anchor)
    return memory


def _hub_list(view: MemoryView, data: dict[str, Any] | None = None) -> str:
    hubs = view.hubs()
    listed = ", ".join(hubs) if hubs else "none (run `membank init`)"
    listed += "; historian folders: " + ", ".join(PROPOSABLE_HISTORIAN)
    return listed + _nearby(view, data)


def _nearby(view: MemoryView, data: dict[str, Any] | None) -> str:
    """'; nearest pages: ...; hubs that fit: ...' for the proposal's topic, when the view has
    the search index's matcher (optional: a view without it gives plain messages)."""
    suggest = getattr(view, "topic_suggestions", None)
    if suggest is None or not isinstance(data, dict):
        return ""
    topic = " ".join(str(data.get(k) or "") for k in ("title", "description")).strip()
    found = suggest(topic) if topic else ""
    return f"; {found}" if found else ""


def _check_placement(data: dict[str, Any], errors: list[Any], view: MemoryView) -> Placement:
    raw = data.get("placement")
    if raw is None:
        raise Rejection(
            "placement_required",
            "placement",
            f"field 'placement' is missing: a proposal names where it goes; existing "
            f"hubs: {_hub_list(view, data)}",
        )
    placement_errors = _errors_under(errors, "placement")
    if placement_errors:
        kind = raw.get("kind") if isinstance(raw, dict) else None
        leaf = kind is None or kind in ("new_leaf", "new-leaf")
        reject = _first_error(placement_errors, "placement_required")
        if leaf:
            reject.message += f"; existing hubs: {_hub_list(view, data)}"
        raise reject
    placement = Placement.model_validate(raw)
    if placement.kind == "new_leaf":
        hub = hub_page_path(placement.hub or "")
        if historian_hub(placement.hub or "") is None and not view.is_hub(hub):
            raise Rejection(
                "placement_required",
                "placement.hub",
                f"field 'placement.hub': {placement.hub!r} is not an existing hub page; "
                f"existing hubs: {_hub_list(view, data)}",
            )
        return placement
    return _check_section_placement(placement, data, view)


def _check_section_placement(placement: Placement, data: dict[str, Any],
                             view: MemoryView) -> Placement:
    """An extend or append placement: a wiki leaf page that exists and a writable section."""
    page = normalize_page_path(placement.page or "")
    anchor = normalize_anchor(placement.section or "")
    if not page.startswith(WIKI_FOLDER) or not page.endswith(".md"):
        raise Rejection(
            "placement_required",
            "placement.page",
            f"field 'placement.page': {placement.page!r} is not a wiki page "
            "(proposals extend pages under wiki/)",
        )
    if is_hub_page(page):
        raise Rejection(
            "placement_required",
            "placement.page",
            f"field 'placement.page': {page!r} is a folder hub, regenerated from its children; "
            "extend a leaf page, or add a new_leaf under this hub",
        )
    text = view.text(page)
    if text is None:
        raise Rejection(
            "placement_required",
            "placement.page",
            f"field 'placement.page': page {page!r} does not exist; to add a page use "
            f"kind new_leaf with one of the hubs: {_hub_list(view, data)}",
        )
    try:
        existing = split_page(text, file=page)
    except MembankError as exc:
        raise Rejection(
            "placement_required",
            "placement.page",
            f"field 'placement.page': page {page!r} cannot be extended: {exc.cause}",
        ) from exc
    if not anchor or anchor == SUPERSEDED_ANCHOR:
        raise Rejection(
            "placement_required",
            "placement.section",
            f"field 'placement.section': {placement.section!r} cannot be written "
            f"('{SUPERSEDED_ANCHOR}' keeps the record of rewritten sections)",
        )
    anchors = [a for a in split_sections(existing.body).anchors() if a != SUPERSEDED_ANCHOR]
    if page.startswith(ENTITY_FOLDER) and existing.meta.get("type") == "entity" \
            and anchor in _GRAPH_OWNED:
        raise Rejection(
            "graph_owned_section",
            "placement.section",
            f"field 'placement.section': section {anchor!r} of entity page {page!r} is rendered "
            "from the knowledge graph (the entity's observations, relations and their sources); "
            "rewriting it here would leave the page and the graph saying different things",
        )
    if placement.kind == "extend_section" and anchor not in anchors:
        raise Rejection(
            "placement_required",
            "placement.section",
            f"field 'placement.section': page {page!r} has no section {anchor!r}; its "
            f"sections: {', '.join(anchors) or 'none'} (use append_section to add one)",
        )
    return placement.model_copy(update={"page": page, "section": anchor})


def _check_deliverable(data: dict[str, Any], errors: list[Any], view: MemoryView,
                       typed_links: list[tuple[str, str]]) -> None:
    pointers = _asset_ids(typed_links)
    raw = data.get("deliverableSource")
    if raw is None:
        if pointers:
            raise Rejection(
                "deliverable_pointer_missing",
                "deliverableSource",
                f"field 'deliverableSource' is missing but the body points at asset "
                f"{pointers[0]!r}: declare {{assetId, contentHash, sizeBytes}}",
            )
        return
    deliverable_errors = _errors_under(errors, "deliverableSource")
    if deliverable_errors:
        raise _first_error(deliverable_errors, "deliverable_pointer_missing")
    asset_id = str(raw["assetId"])
    if len(pointers) > 1:
        raise Rejection(
            "deliverable_pointer_missing",
            "body",
            f"field 'body' carries {len(pointers)} derived-from asset pointers; exactly "
            "one is allowed",
        )
    if pointers and pointers[0] != asset_id:
        raise Rejection(
            "deliverable_pointer_missing",
            "body",
            f"field 'body' points at asset {pointers[0]!r} but deliverableSource.assetId "
            f"is {asset_id!r}",
        )
    if not pointers:
        linked = {normalize_page_path(str(x)) for x in link_values(data.get("derived_from"))}
        if not linked & view.raw_paths_of_asset(asset_id):
            raise Rejection(
                "deliverable_pointer_missing",
                "body",
                f'field \'body\' has no <a rel="derived-from" href="{ASSET_URI_PREFIX}'
                f'{asset_id}"> pointer and derived_from names no raw file of that asset',
            )



def _check_links(data: dict[str, Any], plan: PagePlan, view: MemoryView,
                 typed_links: list[tuple[str, str]]) -> None:
    for key in (*TYPED_LINK_KEYS, "related"):
        for i, value in enumerate(link_values(data.get(key))):
            if not isinstance(value, str):
                continue  # not a path at all: invalid_frontmatter says so
            where = f"{key}[{i}]"
            path = link_path(key, value)
            if _SCHEME_RE.match(path) or path.startswith("/") or ".." in PurePosixPath(path).parts:
                raise Rejection(
                    "dead_link",
                    where,
                    f"field '{where}': {value!r} is not a root-relative path inside the "
                    'memory (asset pointers go in the body as <a rel="derived-from">)',
                )
            if not view.exists(path):
                raise Rejection(
                    "dead_link", where, f"field '{where}': {value!r} does not exist in the memory"
                )
    folder = PurePosixPath(plan.path).parent
    for rel, href in typed_links:
        target = href.split("#")[0]
        if not target or _SCHEME_RE.match(target):
            continue
        resolved: list[str] = []
        for part in (folder / target).parts:
            if part == "..":
                if not resolved:
                    raise Rejection(
                        "dead_link",
                        "body",
                        f'field \'body\': <a rel="{rel}" href="{href}"> leaves the memory',
                    )
                resolved.pop()
            elif part != ".":
                resolved.append(part)
        if not view.exists("/".join(resolved)):
            raise Rejection(
                "dead_link",
                "body",
                f'field \'body\': <a rel="{rel}" href="{href}"> points at a page that '
                "does not exist",
            )


def _check_frontmatter(errors: list[Any], data: dict[str, Any]) -> None:
    rest = [
        e
        for e in errors
        if not e["loc"] or e["loc"][0] not in {"memory", "placement", "deliverableSource"}
    ]
    if rest:
        raise _first_error(rest, "invalid_frontmatter")
    if has_open_fence(data["body"]):
        raise Rejection(
            "invalid_frontmatter",
            "body",
            "field 'body': a fenced code block is never closed; close it so the page's sections "
            "stay readable",
        )
    split = split_sections(data["body"])
    if Placement.model_validate(data["placement"]).kind == "new_leaf":
        _check_one_sentence(str(data["description"]))
        anchors = split.anchors()
        if SUPERSEDED_ANCHOR in anchors:
            raise Rejection(
                "invalid_frontmatter",
                "body",
                f"field 'body': section anchor '{SUPERSEDED_ANCHOR}' is reserved for the "
                "record of rewritten sections",
            )
    elif len(split.sections) > 1 or (split.sections and split.preamble.strip()):
        raise Rejection(
            "invalid_frontmatter",
            "body",
            "field 'body': a section proposal is the text of one section; it may start "
            "with that section's '## ' heading but holds no other level-2 heading "
            "(use '###', or propose a new_leaf)",
        )


def _check_one_sentence(description: str) -> None:
    """A page's description is one sentence (PKF invariant 1): it feeds previews and the TOC.
    Only a page's own description is checked; a section write leaves the page's as it is."""
    second = second_sentence(description)
    if second is not None:
        raise Rejection(
            "invalid_frontmatter",
            "description",
            f"field 'description': more than one sentence (a second starts at {second!r}); "
            "a description is one sentence, the rest belongs in the body",
        )


def _check_names(proposal: Proposal) -> None:
    try:
        slug_from_title(proposal.title)
    except AmbiguousNameError as exc:
        raise Rejection("ambiguous_name", "title", f"field 'title': {exc.cause}") from exc
    section = proposal.placement.section
    if proposal.placement.kind == "append_section" and section and is_ambiguous(section):
        raise Rejection(
            "ambiguous_name",
            "placement.section",
            f"field 'placement.section': anchor {section!r} is ambiguous",
        )


def _check_duplicate(proposal: Proposal, digest: str, view: MemoryView) -> Adoption | None:
    key = proposal.deliverableSource.key if proposal.deliverableSource else None
    return view.adoption(digest, key)


def _check_section_anchors(memory: MemoryBlock, data: dict[str, Any], placement: Placement) -> None:
    """Per-section entries must name sections the proposal actually writes."""
    if not memory.sections:
        return
    if placement.kind == "new_leaf":
        body = text_field(data, "body")
        written = set(split_sections(body).anchors())
    else:
        written = {normalize_anchor(placement.section or "")}
    for i, section in enumerate(memory.sections):
        if normalize_anchor(section.anchor) not in written:
            raise Rejection(
                "evolution_metadata_required",
                f"memory.sections[{i}].anchor",
                f"field 'memory.sections[{i}].anchor': the proposal writes no section "
                f"{section.anchor!r}; its sections: {', '.join(sorted(written)) or 'none'}",
            )



def gate_proposal(
    item: ProposalInput, view: MemoryView, *, now_iso: str, prefix: str, page_limit_chars: int
) -> Verdict:
    """Check one proposal in the fixed order; the first failure is the verdict."""
    try:
        return _gate(item, view, now_iso=now_iso, prefix=prefix, page_limit_chars=page_limit_chars)
    except Rejection as reject:
        return Verdict(
            item.name,
            "rejected",
            item.digest,
            code=reject.code,
            field=reject.field,
            message=reject.message,
            hint=reject.hint or _HINTS[reject.code],
        )
    except ValidationError as exc:  # the merged page would break the page contract
        return Verdict(
            item.name,
            "rejected",
            item.digest,
            code="invalid_frontmatter",
            field="frontmatter",
            message=f"the resulting page is invalid: {exc.errors(include_url=False)[0]['msg']}",
            hint=_HINTS["invalid_frontmatter"],
        )


def _gate(
    item: ProposalInput, view: MemoryView, *, now_iso: str, prefix: str, page_limit_chars: int
) -> Verdict:
    """The checks in their order; a failing check raises Rejection."""
    if item.data is None:
        raise Rejection(
            "invalid_frontmatter", "frontmatter", f"cannot read the proposal: {item.error}"
        )
    data = item.data
    if is_tool_shaped(data):  # the spec's memory_write fields instead of a placement block
        data = tool_proposal(data, view.text, lambda: _hub_list(view, item.data))
    valid: Proposal | None = None
    errors: list[Any] = []
    try:
        valid = Proposal.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    typed_links = typed_anchor_links(text_field(data, "body"))  # read once, checked twice
    memory = _check_memory(data, errors)
    placement = _check_placement(data, errors, view)
    _check_section_anchors(memory, data, placement)
    _check_deliverable(data, errors, view, typed_links)
    # A proposal that validated is planned once; otherwise a lenient plan sizes it and
    # resolves its links, and the verdict is a rejection at invalid_frontmatter at the latest.
    content = proposal_content(valid) if valid else lenient_content(data)
    request = PlanRequest(placement, memory, content, now_iso, prefix, _asset_id(data))
    plan = plan_page(view, request)
    adopted = _check_duplicate(valid, item.digest, view) if valid is not None else None
    if valid is not None and adopted is not None:  # adopted already: it writes nothing, so
        # no size check (the page it extended may have grown since)
        return _duplicate(item, valid.model_copy(update={"placement": placement}), adopted,
                          _nearby(view, data))
    _check_size(plan, page_limit_chars)
    _check_links(data, plan, view, typed_links)
    _check_frontmatter(errors, data)
    proposal = (valid or Proposal.model_validate(data)).model_copy(
        update={"placement": placement}
    )
    _check_names(proposal)
    adoption = _check_duplicate(proposal, item.digest, view)
    if adoption is not None:
        return _duplicate(item, proposal, adoption, _nearby(view, data))
    if plan.text is not None:
        # Belt and braces: what we would write must itself pass the page contract.
        PageFrontmatter.model_validate(plan.meta)
    return Verdict(item.name, "accepted", item.digest, proposal=proposal, plan=plan)


def _asset_id(data: dict[str, Any]) -> str | None:
    deliverable = data.get("deliverableSource")
    asset_id = deliverable.get("assetId") if isinstance(deliverable, dict) else None
    return asset_id if isinstance(asset_id, str) else None


def _check_size(plan: PagePlan, page_limit_chars: int) -> None:
    if plan.size > page_limit_chars:
        # No clock-made name in the message: a replayed rejection is byte-identical.
        what = f"a new leaf under {plan.hub}" if plan.created else f"page {plan.path}"
        raise Rejection(
            "sharding_required",
            "body",
            f"field 'body': {what} would be {plan.size:,} characters, "
            f"over the {page_limit_chars:,} limit of one page",
        )


def _duplicate(item: ProposalInput, proposal: Proposal, adoption: Adoption, nearby: str) -> Verdict:
    what = (
        f"deliverable {proposal.deliverableSource.assetId}"
        if proposal.deliverableSource and adoption.deliverable_key
        else "this proposal"
    )
    return Verdict(
        item.name,
        "duplicate",
        item.digest,
        code="duplicate",
        field="deliverableSource" if proposal.deliverableSource else None,
        message=f"{what} was already adopted into {adoption.page} at "
        f"{adoption.adoptedAtUtc} (dedupe hit, not a new revision){nearby}",
        hint=_HINTS["duplicate"],
        proposal=proposal,
        adoption=adoption,
    )


__all__ = [
    "ASSET_URI_PREFIX",
    "MemoryView",
    "PagePlan",
    "Verdict",
    "asset_pointers",
    "gate_proposal",
]
