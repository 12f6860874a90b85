"""YAML read from files (front matter of sources, pages and proposals), loaded safely. Pure.

- libyaml's safe loader: no arbitrary tags.
- No aliases. An alias bomb (each level `&b [*a, *a, ...]` of the one before) is cheap to load
  but expands exponentially as soon as anything walks the result (validation, hashing,
  dumping): a 0.9 KB proposal took 3.5 GB. Front matter never needs an alias, so a document with
  one is a YAMLError naming the line of its anchor.
- What the mapping's keys looked like: the line each key is on (provenance cites it), keys
  written twice (YAML keeps the last silently; callers warn) and each scalar as written
  (`title: 1.10` is the text "1.10", which YAML would read as the float 1.1).
- Front matter as people write it (`title: ADR004: Module Export Structure`): when strict YAML
  fails, the simple lines it cannot read are read as text and named for a warning
  (load_yaml_quoting_plain_values); an alias is never forgiven.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from tasks.markdown.frontmatter import QuotedValue, quote_plain_values
from tasks.store.simple_yaml import load_simple

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlAliasError(yaml.YAMLError):  # type: ignore[misc]  # PyYAML ships no type stubs
    """A YAML document uses an alias (`*name` or a `<<: *name` merge)."""


@dataclass(frozen=True)
class DuplicateKey:
    key: str
    line: int  # 0-based line of the repeated key in the YAML text
    first_line: int  # 0-based line where the key was first written


@dataclass
class YamlLayout:
    """Where the top-level keys of a YAML mapping were written (0-based lines of the YAML text)."""

    lines: dict[str, int] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)  # plain scalars, as written
    duplicates: list[DuplicateKey] = field(default_factory=list)


def _reject_aliases(root: yaml.Node) -> None:
    """An alias is a node reached twice (the composer hands out the anchored node again)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise YamlAliasError(f"YAML alias of the anchor at line {node.start_mark.line + 1}: "
                                 "aliases are not allowed here (write the value out)")
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))


def _layout(root: yaml.Node) -> YamlLayout:
    layout = YamlLayout()
    if not isinstance(root, yaml.MappingNode):
        return layout
    for key_node, value_node in root.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        key, line = key_node.value, key_node.start_mark.line
        if key in layout.lines:
            layout.duplicates.append(DuplicateKey(key, line, layout.lines[key]))
        else:
            layout.lines[key] = line
        if isinstance(value_node, yaml.ScalarNode) and not value_node.style:
            layout.written[key] = value_node.value
    return layout


def load_yaml_with_layout(text: str) -> tuple[Any, YamlLayout]:
    """The document's data (aliases rejected) and where its top-level keys were written."""
    loader = _LOADER(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None, YamlLayout()
        if "*" in text:  # an alias is written `*name`: without a star there is none to find
            _reject_aliases(root)
        return loader.construct_document(root), _layout(root)
    finally:
        loader.dispose()


def load_yaml(text: str) -> Any:
    """The document's data, aliases rejected (raises yaml.YAMLError). Front matter in the
    subset membank writes is read by tasks.store.simple_yaml (the same data, 5-10x faster)."""
    simple = load_simple(text)
    if simple is not None:
        return simple
    loader = _LOADER(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        if "*" in text:
            _reject_aliases(root)
        return loader.construct_document(root)
    finally:
        loader.dispose()


def as_written(value: Any, layout: YamlLayout, key: str) -> Any:
    """A plain scalar YAML typed (a number, a boolean, a date) as the text written; strings and
    structures unchanged."""
    if isinstance(value, str) or key not in layout.written:
        return value
    if value is None or isinstance(value, bool | int | float) or hasattr(value, "isoformat"):
        return layout.written[key]
    return value


def load_yaml_quoting_plain_values(text: str) -> tuple[Any, YamlLayout, list[QuotedValue]]:
    """load_yaml_with_layout; when strict YAML fails (not on an alias), once more with the
    top-level plain values YAML cannot read quoted (tasks.markdown.frontmatter's line-based
    reading), returning the lines so read for a warning. Raises the alias error when either
    reading meets an alias, else the strict error when there is no such line or the document
    still fails (nested blocks, lists it cannot read)."""
    try:
        data, layout = load_yaml_with_layout(text)
    except YamlAliasError:
        raise
    except yaml.YAMLError as strict:
        repaired, quoted = quote_plain_values(text)
        if not quoted:
            raise
        try:
            data, layout = load_yaml_with_layout(repaired)
        except YamlAliasError:
            raise
        except yaml.YAMLError:
            raise strict from None
        return data, layout, quoted
    return data, layout, []
