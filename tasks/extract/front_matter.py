"""A source's front matter: the mapping, the body lines after it, and the line of each key.

`split_frontmatter` is the only place extraction splits front matter from the body; where the
block opens and closes is the shared markdown layer's rule (tasks/markdown/frontmatter.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import yaml

from tasks.markdown.frontmatter import find_front_matter
from tasks.store.safe_yaml import as_written, load_yaml_quoting_plain_values


def split_frontmatter(text: str) -> tuple[dict[str, Any], list[str], int]:
    """(frontmatter mapping, body lines, number of the first body line)."""
    text = text.replace("\r\n", "\n")  # line numbers as editors count them
    block = find_front_matter(text)
    if block is None:
        return {}, text.split("\n"), 1
    yaml_text = block.yaml(text)
    try:
        meta = _front_matter(yaml_text)
    except yaml.YAMLError:
        meta = _loose_frontmatter(yaml_text.split("\n"))
    if not isinstance(meta, dict):
        meta = {}
    return meta, text[block.body_start :].split("\n"), block.lines + 1


class _FrontMatter(dict[str, Any]):
    """A front-matter mapping that knows the source line of each key (provenance cites it)."""

    line_of: dict[str, int]


def _front_matter(yaml_text: str) -> Any:
    """Aliases rejected (no alias bomb); text keys kept as written (`title: 1.10`); simple
    values strict YAML cannot read (`title: ADR004: Module ...`) read as text, on their line."""
    data, layout, _ = load_yaml_quoting_plain_values(yaml_text)
    if not isinstance(data, dict):
        return data or {}
    meta = _FrontMatter({k: as_written(v, layout, k) if k in ("title", "description") else v
                         for k, v in data.items()})
    meta.line_of = {key: line + 2 for key, line in layout.lines.items()}  # after the '---' line
    return meta


def _loose_frontmatter(lines: list[str]) -> dict[str, Any]:
    """`key: value` lines of frontmatter that is not valid YAML even so (a nested block or a
    list that cannot be read, an alias): the lines that look simple, without their lines."""
    meta: dict[str, Any] = {}
    for line in lines:
        match = re.match(r"^([A-Za-z_][\w-]*):\s+(.+)$", line)
        if match:
            meta.setdefault(match.group(1), match.group(2).strip().strip("'\""))
    return meta


def key_lines(meta: Mapping[str, Any]) -> Mapping[str, int]:
    """The source line of each front-matter key (empty when not known: loose front matter)."""
    return meta.line_of if isinstance(meta, _FrontMatter) else {}


def meta_line(meta: Mapping[str, Any], key: str) -> int:
    """The source line a front-matter key was written on (1 when unknown)."""
    return key_lines(meta).get(key, 1)
