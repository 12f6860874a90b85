"""The index reads front matter with tasks.store.simple_yaml: what it gives is what libyaml's base
loader (the index's fallback) gives, or it steps aside."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.search.pages import _LOADER
from tasks.store.simple_yaml import load_simple

TRICKY = "ab:-'\" #[]{},&*!|>%@`?~\t\r\x85\u2028é東\\/.0"
KEYS = st.sampled_from(["title", "type", "child_of", "aliases", "x", "a-b", "on", "title"])
SCALARS = st.one_of(st.text(alphabet=TRICKY, max_size=12),
                    st.sampled_from(["Concept 1", "'2026-01-10T08:00:00Z'", "it's: ok", "a #b",
                                     "''", "'it''s'", "\"q\"", "\"a\\b\"", "x:", "- y", "~"]))
LINES = st.one_of(
    st.builds(lambda k, v: f"{k}: {v}", KEYS, SCALARS),
    st.builds(lambda k: f"{k}:", KEYS),
    st.builds(lambda v: f"- {v}", SCALARS),
    st.sampled_from(["", "  indented: x", "# comment", "key:value", "- ", "---", "k:  spaced  "]))


def _base(source: str) -> object:
    try:
        return yaml.load(source, Loader=_LOADER)
    except yaml.YAMLError:
        return "error"


@settings(max_examples=1500, deadline=None)
@given(st.lists(LINES, max_size=8))
def test_the_fast_reader_equals_the_base_loader_or_declines(lines: list[str]) -> None:
    source = "\n".join(lines) + "\n"
    fast = load_simple(source)
    if fast is not None:
        assert fast == (_base(source) or {}), source


def test_membank_front_matter_takes_the_fast_path() -> None:
    source = ("created_at: '2026-01-10T08:00:00Z'\ntype: source\ntitle: Source document 0\n"
              "description: Summary of source document 0.\nderived_from:\n- raw/a.md\n"
              "child_of:\n- wiki/sources/index.md\naliases: []\n")
    assert load_simple(source) == _base(source)
    source = source.replace("aliases: []\n", "aliases:\n- 'x: y'\n- plain\n")
    assert load_simple(source) == _base(source)
    assert load_simple(source) is not None
