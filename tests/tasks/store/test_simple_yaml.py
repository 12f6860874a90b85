"""tasks.store.simple_yaml: whatever the fast reader returns is what the YAML loader returns."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.store import simple_yaml
from tasks.store.pages import dump_frontmatter, new_page_meta, render_page, split_page
from tasks.store.simple_yaml import load_simple

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _yaml(text: str) -> Any:
    return yaml.load(text, Loader=_LOADER)


def _same_or_none(text: str) -> bool:
    """True when the fast reader declined, or read what the YAML loader reads."""
    fast = load_simple(text)
    if fast is None:
        return False
    assert fast == _yaml(text), text
    assert all(type(v) is type(w) for v, w in zip(fast.values(), _yaml(text).values(), strict=True))
    return True


_keys = st.one_of(st.sampled_from(["title", "description", "type", "child_of", "on", "null",
                                   "yes", "y", "n", "_x", "True"]),
                  st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True))
_scalars = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="ab :#-'\"[]{},&*!|>%@`~.0123456789eE+TZ\u00e9\u2028\x85\t", max_size=20),
    st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
    st.dates(), st.datetimes(timezones=st.just(dt.UTC)),
    st.sampled_from(["2026-01-10T08:00:00Z", "1.10", "yes", "~", "<<", "=", "1:20", "0x1f",
                     ".inf", "a: b", "a #b", "a#b", "a:b", "x:", " x", "x ", ""]))
_values = st.one_of(_scalars, st.lists(_scalars, max_size=4),
                    st.dictionaries(_keys, _scalars, max_size=2))


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(_keys, _values, max_size=8))
def test_dumped_front_matter_reads_the_same(meta: dict[str, Any]) -> None:
    """Front matter as yaml.dump and membank's page writer write it."""
    _same_or_none(yaml.dump(meta, sort_keys=False, default_flow_style=False, allow_unicode=True,
                            width=10_000) if meta else "")
    _same_or_none(dump_frontmatter(meta))


_LINES = ["title: a", "title: 'a'", "title: 'it''s'", "title: 'a' b", "x: []", "x:", "- a",
          "- 'b'", "-", "  - a", "- - a", "  y: b", "# note", "", "x: a # c", "x: a#c",
          "x: 'a", "x: \"a\"", "x: [a]", "x: {a: b}", "x: |", "x: >", "x: &a b", "x: *a",
          "x: !!str 1", "x: 1", "x: true", "x: ~", "x: 2026-01-10", "x: a: b", "x: a:b",
          "x:  a", "x: a ", "x:\ta", "? x", "x: -a", "x: - a", "---", "...", "%YAML 1.1",
          "x: \u00e9t\u00e9", "x: a\u2028b", "x: \x85", "x: \ufeffa", "on: a", "1: a",
          "x: <<", "x: =", "x: a,b", "x: {", "x: }", "x: a]", "  z: 'c'", "  y: 1", "   y: b",
          "  y:", "  y: []", "  on: a", "  y: a # c", "\ty: b"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_LINES), min_size=1, max_size=7))
def test_line_soup_reads_the_same_or_falls_back(lines: list[str]) -> None:
    """Lines of every shape the subset excludes, mixed with those it reads: the fast reader
    never returns something the YAML loader would not (nor reads what YAML refuses)."""
    text = "\n".join(lines) + "\n"
    if load_simple(text) is not None:
        _same_or_none(text)


def test_pages_membank_writes_take_the_fast_path() -> None:
    meta = new_page_meta("2026-01-10T08:00:00Z", type="entity", title="component-1",
                         description="Entity: it's a component #1.", child_of=["wiki/index.md"],
                         aliases=[], derived_from=["raw/a.md", "raw/b.md"])
    text = dump_frontmatter(meta)
    assert load_simple(text) == meta == _yaml(text)
    assert split_page(render_page(meta, "# Body\n")).meta == meta


def test_entity_pages_memory_block_takes_the_fast_path() -> None:
    """An entity page's nested `memory:` mapping (yaml.dump's two-blank indent) is read by the
    fast reader, as YAML reads it, and the keys after it too."""
    meta = new_page_meta("2026-01-10T08:00:00Z", type="entity", title="pie-dark",
                         memory={"memoryRole": "knowledge", "source": "distilled: from 'x'"},
                         aliases=["pie dark"], entity_type="component")
    text = dump_frontmatter(meta)
    assert "\nmemory:\n  memoryRole: knowledge\n" in text
    assert load_simple(text) == meta == _yaml(text)
    assert load_simple("x:\n  y: b\n  z: []\nw: v\n") == {"x": {"y": "b", "z": []}, "w": "v"}


def test_what_it_declines() -> None:
    for text in ("x: 1\n", "x: true\n", "x: 2026-01-10\n", "x:\n", "x: a\nx: b\n",
                 "x: a # c\n", "x: \"a\"\n",
                 "x:\n  y: b\n   c\n", "x:\n  y:\n", "x:\n  y: 1\n", "x:\n  y: a\n  y: b\n",
                 "x:\n    y: b\n", "x:\n  - a\n", "x:\n  y: b\n- c\n", "x:\n  on: b\n", "", "x: a", "x: a\n\n", "x: ~\n"):
        assert load_simple(text) is None, text


def test_remembered_lines_read_the_same_and_lists_are_never_shared(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines already read (simple_yaml's memo) give what they gave the first time; each call
    returns lists of its own; a full memo is forgotten, not wrong."""
    text = "type: entity\nchild_of:\n- wiki/entities/index.md\naliases: []\ntitle: 'x: y'\n"
    first, second = load_simple(text), load_simple(text)
    assert first == second == _yaml(text)
    assert first is not None and second is not None
    first["child_of"].append("changed")
    first["aliases"].append("changed")
    assert second["child_of"] == ["wiki/entities/index.md"] and second["aliases"] == []
    assert load_simple("title: 1\n") is None and load_simple("title: 1\n") is None
    monkeypatch.setattr(simple_yaml, "_MEMO_MAX", 2)
    for n in range(10):
        page = f"title: t{n}\nupdated_at: '2026-01-10T08:00:0{n}Z'\nn: {n}\n"
        assert load_simple(page) is None  # n: a number
        plain = page.replace(f"n: {n}\n", "")
        assert load_simple(plain) == _yaml(plain) == {
            "title": f"t{n}", "updated_at": f"2026-01-10T08:00:0{n}Z"}
    assert len(simple_yaml._scalars) <= 2 and len(simple_yaml._key_lines) <= 2
