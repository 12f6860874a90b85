"""Markdown pages with YAML frontmatter (tasks.markdown.frontmatter, safe loader).

Rendering is deterministic: fixed key order, block style, a blank line before the body and one
trailing newline. created_at never changes on update; updated_at refreshes only on real change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from schemas.page import PageFrontmatter, ordered_frontmatter
from tasks.markdown.frontmatter import body_after, find_front_matter, opens_front_matter
from tasks.store.clock import parse_utc
from tasks.store.contracts import validate_model
from tasks.store.errors import ContractError, InputError
from tasks.store.names import utc_prefix
from tasks.store.safe_yaml import load_yaml

_TIME_LIKE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}")


class _PageDumper(yaml.SafeDumper):  # type: ignore[misc]  # PyYAML ships no type stubs
    """Quotes time-like strings ('2026-03-24T22:40:05Z') as the spec's examples do."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "'" if _TIME_LIKE_RE.match(value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_PageDumper.add_representer(str, _represent_str)


# A base chosen at run time (libyaml may be absent), and PyYAML ships no type stubs.
class _FastPageDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """libyaml's emitter: about 10x faster; used only for frontmatter whose bytes it writes
    exactly as _PageDumper does (plain keys, printable BMP text; see _fast_dump_safe)."""


_FastPageDumper.add_representer(str, _represent_str)
# Text both emitters write alike: printable characters of the Basic Multilingual Plane.
_PLAIN_TEXT_RE = re.compile("^[\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$")
_PLAIN_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
# Keys whose change alone is not a change of the page.
_VOLATILE_KEYS = frozenset({"updated_at"})


@dataclass(frozen=True)
class Page:
    meta: dict[str, Any]
    body: str


def split_page(text: str, *, file: str | Path | None = None) -> Page:
    """Split frontmatter from body (tasks.markdown.frontmatter); YAML is loaded with the safe
    loader (no arbitrary tags, no aliases). The blank lines before the body are dropped."""
    block = find_front_matter(text)
    if block is None:
        if opens_front_matter(text):
            raise ContractError(
                "malformed YAML frontmatter: the '---' on line 1 is never closed",
                file=file,
                hint="frontmatter is a YAML mapping between two '---' lines",
            )
        return Page({}, text)
    try:
        meta = load_yaml(block.yaml(text))  # aliases rejected: no alias bomb
    except (yaml.YAMLError, ValueError) as exc:
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ContractError(
            f"malformed YAML frontmatter: {detail}",
            file=file,
            hint="frontmatter is a YAML mapping between two '---' lines",
        ) from exc
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise ContractError(
            f"frontmatter is a {type(meta).__name__}, not a mapping",
            file=file,
            hint="write `key: value` lines between the '---' lines",
        )
    return Page(meta, body_after(text, block))


def parse_page_meta(meta: dict[str, Any], *, file: str | Path | None) -> PageFrontmatter:
    return validate_model(PageFrontmatter, meta, file=file)


def read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise InputError("file does not exist", file=path) from exc
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror}", file=path) from exc
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContractError(
            f"invalid UTF-8 at byte offset {exc.start}", file=path, hint="pages are UTF-8 text"
        ) from exc


def read_page(path: Path) -> Page:
    return split_page(read_text(path), file=path)


def _fast_dump_safe(value: object) -> bool:
    """True when libyaml is known to write the same bytes as the pure emitter for `value`."""
    if isinstance(value, str):
        return bool(_PLAIN_TEXT_RE.match(value))
    if isinstance(value, dict):
        return all(isinstance(k, str) and _PLAIN_KEY_RE.match(k) and _fast_dump_safe(v)
                   for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(_fast_dump_safe(item) and not isinstance(item, list | tuple) for item in value)
    return value is None or isinstance(value, bool | int)


def dump_frontmatter(meta: dict[str, Any]) -> str:
    ordered = ordered_frontmatter(meta)
    text: str = yaml.dump(
        ordered,
        Dumper=_FastPageDumper if _fast_dump_safe(ordered) else _PageDumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=10_000,
    )
    return text


def render_page(meta: dict[str, Any], body: str) -> str:
    """The one text form of a page."""
    return _joined(_head(meta), body.strip("\n"))


def _head(meta: dict[str, Any]) -> str:
    return f"---\n{dump_frontmatter(meta)}---\n"


def _joined(head: str, text: str) -> str:
    """render_page's text from its frontmatter block and its body stripped of blank edges."""
    return f"{head}\n{text}\n" if text else head


def _is_joined(existing: str, head: str, text: str) -> bool:
    """existing == _joined(head, text), without building the page (10 MB for index.md)."""
    if not text:
        return existing == head
    at = len(head) + 1
    return (len(existing) == at + len(text) + 1 and existing.startswith(head)
            and existing[at - 1] == "\n" and existing.startswith(text, at) and existing[-1] == "\n")


def _strips_to(body: str, text: str) -> bool:
    """body.strip("\n") == text, without copying body."""
    start, end = 0, len(body)
    while start < end and body[start] == "\n":
        start += 1
    while end > start and body[end - 1] == "\n":
        end -= 1
    return end - start == len(text) and body.startswith(text, start)


def new_page_meta(now_iso: str, *, prefix: str | None = None, **fields: Any) -> dict[str, Any]:
    """Metadata for a page created now: created_at = updated_at = now."""
    return {
        "created_at": now_iso,
        "updated_at": now_iso,
        "utc_datetime_prefix": prefix or utc_prefix(now_iso),
        **fields,
    }


def plan_page_text(  # noqa: PLR0913  split: the caller's parse of existing, keyword-only
        existing: str | None, meta: dict[str, Any], body: str, *, now_iso: str,
        file: str | Path | None = None, split: Page | None = None) -> str | None:
    """The text to write for a page, or None when nothing really changed.

    Keeps the existing created_at and utc_datetime_prefix; refreshes updated_at only when the
    content (other keys or body) differs from what is on disk. `split`: split_page(existing),
    when the caller has it already (index.md is 10 MB at 100,000 pages).
    """
    wanted = dict(meta)
    wanted.setdefault("created_at", now_iso)
    wanted.setdefault("utc_datetime_prefix", utc_prefix(wanted["created_at"]))
    if existing is None:
        wanted["updated_at"] = not_before(wanted.get("updated_at") or now_iso, wanted["created_at"])
        return render_page(wanted, body)
    old = split if split is not None else split_page(existing, file=file)
    for key in ("created_at", "utc_datetime_prefix"):
        if key in old.meta:
            wanted[key] = old.meta[key]
    wanted["updated_at"] = old.meta.get("updated_at", now_iso)
    # (render_page's text, compared and joined without a copy more than needed: index.md is
    # 10 MB at 100,000 pages)
    head, text = _head(wanted), body.strip("\n")
    if _is_joined(existing, head, text):
        return None
    old_content = {k: v for k, v in ordered_frontmatter(old.meta).items() if k not in _VOLATILE_KEYS}
    new_content = {k: v for k, v in ordered_frontmatter(wanted).items() if k not in _VOLATILE_KEYS}
    if old_content == new_content and _strips_to(old.body, text):
        return _joined(head, text)  # only formatting differs: normalize without touching updated_at
    wanted["updated_at"] = not_before(now_iso, wanted["created_at"])
    return _joined(_head(wanted), text)


def changed_page_head(old_meta: dict[str, Any], meta: dict[str, Any], *, now_iso: str) -> str:
    """The front matter block plan_page_text writes when the page's body changed (old_meta:
    the page's as read): for a caller that splices the body's bytes itself."""
    wanted = dict(meta)
    wanted.setdefault("created_at", now_iso)
    wanted.setdefault("utc_datetime_prefix", utc_prefix(wanted["created_at"]))
    for key in ("created_at", "utc_datetime_prefix"):
        if key in old_meta:
            wanted[key] = old_meta[key]
    wanted["updated_at"] = not_before(now_iso, wanted["created_at"])
    return _head(wanted)


def not_before(updated: str, created: object) -> str:
    """updated_at, or created_at when the clock reads earlier than it (a clock set back, a memory
    copied from a machine whose clock ran ahead): a page whose updated_at precedes its
    created_at is one the page contract rejects."""
    if not isinstance(created, str) or updated >= created:
        return updated
    try:
        return created if parse_utc(updated) < parse_utc(created) else updated
    except ValueError:
        return updated  # not a time: the page contract names it


__all__ = [
    "Page",
    "changed_page_head",
    "dump_frontmatter",
    "new_page_meta",
    "parse_page_meta",
    "plan_page_text",
    "read_page",
    "read_text",
    "render_page",
    "split_page",
]
