"""Proposal files as read: markdown with YAML front matter or a PKF v1.1 header (its
<script type="application/prismer+json"> object, tasks.proposals.pkf), or JSON(C); never raises.

A proposal's digest is the sha256 of its canonical JSON form, so its markdown and JSON spellings
hash alike and a replay is recognised (tasks.proposals.gate's duplicate check).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import orjson

from tasks.markdown.frontmatter import opens_front_matter
from tasks.proposals.pkf import opens_pkf_header, split_pkf_header
from tasks.store.errors import MembankError
from tasks.store.jsonc import loads_jsonc
from tasks.store.pages import split_page

PROPOSAL_SUFFIXES = (".md", ".markdown", ".pkf", ".json", ".jsonc")


@dataclass(frozen=True)
class ProposalInput:
    """One proposal as read: its data, or why it could not be read, and its content digest."""

    name: str
    data: dict[str, Any] | None
    digest: str
    error: str | None = None


def canonical_digest(data: Any) -> str:
    """sha256 of the canonical JSON form: the markdown and JSON spellings hash alike."""
    raw = orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def parse_proposal(raw: bytes, *, name: str) -> ProposalInput:
    """Parse a proposal file's bytes (markdown with frontmatter, or JSON); never raises."""
    byte_digest = "sha256:" + hashlib.sha256(raw).hexdigest()
    suffix = PurePosixPath(name).suffix.lower()
    if suffix not in PROPOSAL_SUFFIXES:
        return ProposalInput(
            name, None, byte_digest, f"not a proposal file: expected {', '.join(PROPOSAL_SUFFIXES)}"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ProposalInput(name, None, byte_digest, f"invalid UTF-8 at byte offset {exc.start}")
    try:
        if suffix in {".json", ".jsonc"}:
            data = loads_jsonc(text, file=name)
        else:
            if opens_pkf_header(text):  # a PKF v1.1 body: its JSON header is the front matter
                meta, body = split_pkf_header(text, file=name)
            elif opens_front_matter(text):
                page = split_page(text, file=name)
                meta, body = dict(page.meta), page.body
            else:
                return ProposalInput(
                    name,
                    None,
                    byte_digest,
                    "no frontmatter: a proposal starts with a '---' YAML block or a PKF "
                    '<script type="application/prismer+json"> header',
                )
            if "body" in meta:
                return ProposalInput(
                    name,
                    None,
                    byte_digest,
                    "`body` is not a frontmatter key: the body follows the front matter",
                )
            data = {**meta, "body": body}
    except MembankError as exc:
        return ProposalInput(name, None, byte_digest, exc.cause)
    except (ValueError, RecursionError) as exc:  # json5 / yaml oddities beyond our wrappers
        return ProposalInput(name, None, byte_digest, f"cannot parse: {exc}")
    if not isinstance(data, dict):
        return ProposalInput(
            name,
            None,
            byte_digest,
            f"a proposal is a mapping of fields, not a {type(data).__name__}",
        )
    try:
        digest = canonical_digest(data)
    except (TypeError, orjson.JSONEncodeError):
        digest = byte_digest
    return ProposalInput(name, data, digest)


__all__ = ["PROPOSAL_SUFFIXES", "ProposalInput", "canonical_digest", "parse_proposal"]
