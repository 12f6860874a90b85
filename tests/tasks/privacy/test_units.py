"""Units of a page: whole list items, blocks and sections; never a line of one alone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.markdown.links import link_targets
from tasks.privacy.units import has_content, matching_units, remove_units

TOPIC = "falcon"


def topical(text: str) -> bool:
    return TOPIC in text.casefold()


def test_units_are_list_items_blocks_and_sections() -> None:
    body = ("# Title\n\nIntro about Falcon.\n\n- one\n- about falcon\n  continued\n  - nested\n- three\n\n"
            "## Falcon rollout\n\nunder it\n\n- in it\n\n## Other\n\nKeep me.\n\n```\ncode falcon\n```\n")
    units = matching_units(body, topical)
    assert [u.kind for u in units] == ["paragraph", "list item", "section", "fence"]
    assert remove_units(body, units) == "# Title\n\n- one\n- three\n\n## Other\n\nKeep me.\n"


def test_reference_definitions_are_units_too() -> None:
    body = "# Links\n\n[a]: https://example.org/a\n[falcon]: https://example.org/falcon\n\n- Falcon item\n"
    units = matching_units(body, topical)
    assert [u.kind for u in units] == ["reference definition", "list item"]
    left = remove_units(body, units)
    assert left == "# Links\n\n[a]: https://example.org/a\n" and has_content(left)


def test_has_content_and_links() -> None:
    assert not has_content("# Only a heading\n\n## And another\n")
    assert has_content("# Title\n\n- an item\n")
    assert link_targets("see [the page](../sources/x.md#part) and ![img](a.png)") == [
        "../sources/x.md#part", "a.png"]


words = st.lists(st.sampled_from(["alpha", "beta", "gamma", "falco", "falcons", "Falcon", "delta"]),
                 min_size=1, max_size=5).map(" ".join)
blocks = st.lists(st.one_of(
    st.tuples(st.just("p"), words),
    st.tuples(st.just("li"), words),
    st.tuples(st.sampled_from(["h2", "h3"]), words),
    st.tuples(st.just("ref"), words),
), min_size=1, max_size=14)


def render(doc: list[tuple[str, str]]) -> str:
    out: list[str] = []
    for position, (kind, text) in enumerate(doc):
        if kind == "li":
            tight = position > 0 and doc[position - 1][0] == "li"
            out.append(("" if tight else "\n") + f"- {text}")
        elif kind == "p":
            out.append(f"\n{text}")
        elif kind == "ref":
            out.append(f"\n[{text}]: https://example.org/{position}")
        else:
            out.append(f"\n{'#' * int(kind[1])} {text}")
    return "\n".join(out).lstrip("\n") + "\n"


def expected_kept(doc: list[tuple[str, str]]) -> list[str]:
    """Blocks that stay: not naming the topic, and not under a heading that names it."""
    kept, cut_level = [], None
    for position, (kind, text) in enumerate(doc):
        if kind.startswith("h"):
            level = int(kind[1])
            if cut_level is not None and level <= cut_level:
                cut_level = None
            if cut_level is None and topical(text):
                cut_level = level
        if cut_level is None and not topical(text):
            kept.append(f"{'#' * int(kind[1])} {text}" if kind.startswith("h")
                        else f"- {text}" if kind == "li"
                        else f"[{text}]: https://example.org/{position}" if kind == "ref" else text)
    return kept


@settings(max_examples=200, deadline=None)
@given(blocks)
def test_forget_removes_whole_units_that_name_the_topic_and_nothing_else(doc: list[tuple[str, str]]) -> None:
    body = render(doc)
    units = matching_units(body, topical)
    lines = body.split("\n")
    for unit in units:  # every removed unit names the topic (a section: in its heading)
        first = lines[unit.start] if unit.kind == "section" else "\n".join(lines[unit.start:unit.end])
        assert topical(first)
    result = remove_units(body, units)
    assert [line for line in result.split("\n") if line.strip()] == expected_kept(doc)
    assert not topical(result)
