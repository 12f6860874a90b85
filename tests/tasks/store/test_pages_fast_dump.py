"""The fast (libyaml) frontmatter dumper is used only where it writes the pure dumper's bytes."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.store.pages import _fast_dump_safe, _FastPageDumper, _PageDumper, dump_frontmatter

TEXT = st.text(st.characters(max_codepoint=0x2FFFF), max_size=30)
KEYS = st.text(st.characters(max_codepoint=0x7F), min_size=0, max_size=12)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | TEXT
    | st.sampled_from(["yes", "~", "2026-03-24T22:40:05Z", "a: b"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)


def dumped(meta: dict, dumper: type) -> str:
    return yaml.dump(
        meta,
        Dumper=dumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=10_000,
    )


# The session's Prefect test server thread also draws from `random`; not our strategies.
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=6))
def test_fast_dumper_writes_the_same_bytes_wherever_it_is_used(meta: dict) -> None:
    if _fast_dump_safe(meta):
        assert dumped(meta, _FastPageDumper) == dumped(meta, _PageDumper)


def test_astral_text_uses_the_pure_dumper() -> None:
    meta = {"type": "note", "title": "release 🎉"}
    assert not _fast_dump_safe(meta)
    assert dump_frontmatter(meta) == dumped(meta, _PageDumper)
