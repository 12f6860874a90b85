"""An exact fast reader for the front matter membank itself writes (tasks.store.pages). Pure.

Reading 100,000 pages' front matter with libyaml's safe loader cost a third of a full
reconcile: libyaml composes in C, but every node is then resolved and constructed in Python.
The front matter membank writes (yaml.dump, block style, one key per line) is a small subset of
YAML: `key: value` lines whose value is a single-quoted string or a plain string, `key:`
followed by indentless `- item` lines (or `key: []`), and `key:` followed by `  sub: value`
lines (one nested mapping of such values, an entity page's `memory:`). `load_simple` reads
exactly that subset and returns None for anything else (a comment, a double-quoted or
multi-line value, a deeper nesting, a flow collection, a duplicate key, a value YAML would read
as a number, a boolean, a null or a timestamp, an anchor, a character libyaml refuses); the
caller then loads the text with the full YAML loader. Whatever it returns equals what the safe
loader returns for the same text (property test: tests/tasks/store/test_simple_yaml.py).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

# Characters libyaml reads alike in every context, and that are never a line break to it:
# printable ASCII and the printable BMP (no NEL, LS, PS, BOM, surrogates).
_SAFE_TEXT_RE = re.compile("^[\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$")
_KEY_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$")
# A plain scalar that stays one plain string in a block mapping value or sequence entry: it
# opens with no indicator, holds no ': ' or ' #', ends neither with ':' nor with a blank.
_PLAIN_RE = re.compile(r"^[^\s\-?:,\[\]{}#&*!|>'\"%@`](?:[^:#]|:(?=[^\s])|(?<=\S)#)*(?<![\s:])$")
_QUOTED_RE = re.compile(r"^'((?:[^']|'')*)'$")
_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()
_RESOLVED_FIRST = frozenset(_RESOLVER.yaml_implicit_resolvers)  # first characters ("" too)


# Lines repeat from page to page (types, hubs, times, `key:` heads): what each line reads as
# is kept, up to _MEMO_MAX lines (then forgotten at once). Pure functions of the line.
_MEMO_MAX = 1 << 16
_scalars: dict[str, str | None] = {}
_key_lines: dict[str, tuple[str, str | None] | None] = {}


def _scalar(text: str) -> str | None:
    """The string a single-quoted or plain scalar on one line reads as; None when it is
    anything else (or a plain scalar YAML resolves to another type)."""
    try:
        return _scalars[text]
    except KeyError:
        pass
    if len(_scalars) >= _MEMO_MAX:
        _scalars.clear()
    value = _scalars[text] = _read_scalar(text)
    return value


def _read_scalar(text: str) -> str | None:
    if text.startswith("'"):
        quoted = _QUOTED_RE.match(text)
        return quoted.group(1).replace("''", "'") if quoted else None
    if not _PLAIN_RE.match(text):
        return None
    return text if _is_str(text) else None


def _is_str(text: str) -> bool:
    """Whether YAML's implicit resolvers leave a plain scalar a string (only the scalars whose
    first character opens one of their patterns are looked at)."""
    if text[:1] not in _RESOLVED_FIRST:
        return True
    return bool(_RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == _STR_TAG)


def _items(lines: list[str], start: int) -> tuple[list[str], int] | None:
    """The indentless `- item` lines from `start`: their strings and the next line's index."""
    items: list[str] = []
    n = start
    while n < len(lines) and lines[n].startswith("- "):
        item = _scalar(lines[n][2:])
        if item is None:
            return None
        items.append(item)
        n += 1
    if n < len(lines) and lines[n].startswith(("-", " ")):
        return None  # a bare '-', a nested or indented block: not this subset
    return items, n


def _mapping(lines: list[str], start: int) -> tuple[dict[str, Any], int] | None:
    """The `  key: value` lines from `start` (indented two blanks, as yaml.dump writes a nested
    mapping: the `memory:` block of an entity page): their mapping of strings and the next
    line's index; None for anything else (a deeper indent, a nested list or null, a repeat)."""
    nested: dict[str, Any] = {}
    n = start
    while n < len(lines) and lines[n].startswith("  "):
        line = lines[n][2:]
        head = _key_lines[line] if line in _key_lines else _key_line(line)
        if head is None or head[1] is None or head[0] in nested:
            return None  # (a line opening with a third blank fails the key pattern)
        value: list[str] | str | None = [] if head[1] == "[]" else _scalar(head[1])
        if value is None:
            return None
        nested[head[0]] = value
        n += 1
    if n < len(lines) and lines[n].startswith(("-", " ")):
        return None
    return nested, n


def _key_line(line: str) -> tuple[str, str | None] | None:
    """A `key: value` or `key:` line's key and value text (None after `key:`); None when the
    line is not one or YAML would not read its key as a string. Kept in _key_lines."""
    match = _KEY_RE.match(line)
    head = (match.group(1), match.group(2)) if match and _is_str(match.group(1)) else None
    if len(_key_lines) >= _MEMO_MAX:
        _key_lines.clear()
    _key_lines[line] = head
    return head


def load_simple(text: str) -> dict[str, Any] | None:
    """The mapping a front matter text holds when it is in the subset membank writes, else
    None (load it with the YAML loader)."""
    if not text.endswith("\n") or not _SAFE_TEXT_RE.match(text):
        return None
    lines = text[:-1].split("\n")
    data: dict[str, Any] = {}
    n = 0
    while n < len(lines):
        line = lines[n]
        try:
            head = _key_lines[line]
        except KeyError:
            head = _key_line(line)
        if head is None:
            return None
        key, value = head
        if key in data:
            return None
        if value is None and n + 1 < len(lines) and lines[n + 1].startswith("  "):
            nested = _mapping(lines, n + 1)  # `key:` then its indented `sub: value` lines
            if nested is None:
                return None
            data[key], n = nested
            continue
        if value is None:  # `key:` then its list
            listed = _items(lines, n + 1)
            if listed is None or listed[1] == n + 1:
                return None  # no item: YAML reads a null
            data[key], n = listed
            continue
        data[key] = [] if value == "[]" else _scalar(value)
        if data[key] is None:
            return None
        n += 1
    return data or None
