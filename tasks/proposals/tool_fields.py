"""A proposal written with spec/wiki-memory-pkf.md's memory_write fields, as the gate reads it.

    path* content* title parentHubPath relation (child-of|related)
    op (replace|append-section|rewrite-section) section visibility

become our proposal fields (`placement:` and `body`), so the memory_write tool and a proposal
file with these fields in its front matter (`membank propose`) pass the same gate. `content` may
open with its own front matter (description, type, memory, typed links): those keys join the
proposal, and so do those of a PKF v1.1 body's JSON header (tasks.proposals.pkf). A new page
is named by the gate (`<hub folder>/<UTC prefix>__<slug of title>.md`); the written path is in
the report. relation 'related' makes the new page a child of the hub of parentHubPath's folder
with a typed `related` link to parentHubPath; visibility takes only 'workspace' (one local
root). Pure: the memory is read through `exists`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from tasks.markdown.frontmatter import opens_front_matter
from tasks.proposals.pkf import opens_pkf_header, split_pkf_header
from tasks.proposals.plan import Rejection, hub_page_path, link_values, normalize_page_path
from tasks.store.errors import MembankError
from tasks.store.pages import split_page

TOOL_FIELDS = ("path", "content", "parentHubPath", "relation", "op", "section", "visibility")
OPS = ("replace", "append-section", "rewrite-section")
RELATIONS = ("child-of", "related")
VISIBILITIES = ("workspace",)


def is_tool_shaped(data: dict[str, Any]) -> bool:
    """Written with the memory_write fields rather than a `placement:` block."""
    return "placement" not in data and any(key in data for key in TOOL_FIELDS)


def _choice(data: dict[str, Any], key: str, allowed: tuple[str, ...], default: str | None) -> str | None:
    value = data.get(key, default)
    if value is None or (isinstance(value, str) and value in allowed):
        return value
    if key == "visibility":
        raise Rejection("invalid_frontmatter", key, f"field 'visibility': {value!r} cannot be "
                        "honoured: a local memory root is one workspace, shared by everyone who "
                        "reads it, so it takes only 'workspace'")
    raise Rejection("placement_required", key,
                    f"field '{key}': {value!r} is not one of {', '.join(allowed)}")


def _content(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The content's own front matter and its body."""
    if "content" in data and "body" in data:
        raise Rejection("invalid_frontmatter", "content",
                        "field 'content': give the text as content or as the body, not both")
    text = data.get("content", data.get("body"))
    if not isinstance(text, str):
        raise Rejection("invalid_frontmatter", "content", "field 'content' is missing or not text")
    if opens_pkf_header(text):  # a PKF v1.1 body: its JSON header is the front matter
        try:
            return split_pkf_header(text, file="content")
        except MembankError as exc:
            raise Rejection("invalid_frontmatter", "content",
                            f"field 'content': its PKF header cannot be read: {exc.cause}") from exc
    if not opens_front_matter(text):
        return {}, text
    try:
        page = split_page(text, file="content")
    except MembankError as exc:
        raise Rejection("invalid_frontmatter", "content",
                        f"field 'content': its front matter cannot be read: {exc.cause}") from exc
    return dict(page.meta), page.body


def _default_title(path: str) -> str:
    return PurePosixPath(path).stem.split("__", 1)[-1].replace("-", " ").strip()


def _page_meta(text: str | None, path: str) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        return dict(split_page(text, file=path).meta)
    except MembankError:
        return {}


def tool_proposal(data: dict[str, Any], page_text: Callable[[str], str | None],
                  hubs: Callable[[], str]) -> dict[str, Any]:
    """`data` with the memory_write fields replaced by `placement` and `body`; a Rejection
    (the gate's codes) when they cannot place the page. A section written into an existing page
    takes that page's title, description and type unless it names its own."""
    op = _choice(data, "op", OPS, "replace")
    relation = _choice(data, "relation", RELATIONS, "child-of")
    _choice(data, "visibility", VISIBILITIES, None)
    meta, body = _content(data)
    path = data.get("path")
    if not isinstance(path, str) or not normalize_page_path(path):
        raise Rejection("placement_required", "path", "field 'path' is missing: name the page "
                        "to write (a new leaf's path, or an existing page to extend)")
    path = normalize_page_path(path)
    proposal = {**meta, **{k: v for k, v in data.items() if k not in (*TOOL_FIELDS, "body")},
                "body": body}
    existing = page_text(path)
    if op != "replace":
        page = _page_meta(existing, path)
        for key in ("title", "description", "type"):
            if key not in proposal and isinstance(page.get(key), str):
                proposal[key] = page[key]
        proposal.setdefault("title", _default_title(path))
        kind = "extend_section" if op == "rewrite-section" else "append_section"
        proposal["placement"] = {"kind": kind, "page": path, "section": data.get("section")}
        return proposal
    proposal.setdefault("title", _default_title(path))
    if existing is not None:
        raise Rejection("placement_required", "op", f"field 'op': 'replace' would rewrite the whole "
                        f"page {path!r}; extend it at section granularity (op rewrite-section with "
                        "one of its sections, or append-section with a new one)")
    hub = data.get("parentHubPath")
    if not isinstance(hub, str) or not hub.strip():
        raise Rejection("placement_required", "parentHubPath", "field 'parentHubPath' is missing: "
                        f"a new page is attached under a hub; existing hubs: {hubs()}")
    if relation == "related":  # a child of the hub of that page's folder, related to the page
        target = normalize_page_path(hub)
        proposal["related"] = [*link_values(proposal.get("related")), target]
        hub = hub_page_path(target if not target.endswith(".md")
                            else PurePosixPath(target).parent.as_posix())
    proposal["placement"] = {"kind": "new_leaf", "hub": hub}
    return proposal
