"""A page as the index reads it: `##` sections for BM25, and passages of a bounded size (cut
before a deeper heading or at a blank line outside fenced code) for the semantic side."""

from __future__ import annotations

from tasks.search.sections import page_parts, page_sections


def test_short_sections_are_their_own_passages() -> None:
    body = "Intro line.\n\n## Alpha\n\nA short section.\n\n## Beta\n\nAnother one.\n"
    sections, passages = page_parts(body, size=200)
    assert [s.anchor for s in sections] == ["", "alpha", "beta"]
    assert passages == list(enumerate(sections))
    assert page_sections(body) == sections


def test_a_long_section_is_cut_into_passages_that_keep_its_anchor() -> None:
    paragraphs = "\n\n".join(f"Paragraph {n} " + "word " * 30 for n in range(12))
    fence = "```\n" + "\n\n".join(f"code line {n}" for n in range(40)) + "\n```"
    body = (f"## Long part\n\n{paragraphs}\n\n### Deeper\n\n{fence}\n\nAfter the fence.\n\n"
            "## Tail\n\nShort.\n")
    sections, passages = page_parts(body, size=400)
    assert [s.anchor for s in sections] == ["long-part", "tail"]
    cut = [p for index, p in passages if index == 0]
    assert len(cut) > 3 and {p.anchor for p in cut} == {"long-part"}
    assert {p.heading for p in cut} == {"Long part"}
    # together they hold the whole section, in order, and no cut falls inside the fence
    assert "\n\n".join(p.text for p in cut).split() == sections[0].text.split()
    assert all(p.text.count("```") in (0, 2) for p in cut)
    assert any(p.subheadings == ("Deeper",) for p in cut)
    assert all(len(p.text) <= 400 * 3 for p in cut if "```" not in p.text)
    assert passages[-1] == (1, sections[1])


# An ingested source page (tasks/ingest/source_pages.py) keeps its document verbatim under
# `## Content`, front matter included.
_SOURCE_PAGE = ("# Rollout\n\nSource: [raw](raw.md).\n\n## Outline\n\n- Rollout (line 6)\n\n"
                "## Content\n\n---\ntitle: Rollout\ndate: 2024-08-14\n---\n\n# Rollout\n\n"
                "We roll out in waves.\n\n## Waves\n\nThree of them.\n")


def test_an_ingested_documents_front_matter_is_not_a_section() -> None:
    sections = page_sections(_SOURCE_PAGE)
    assert [s.anchor for s in sections] == ["", "outline", "content", "waves"]
    content = sections[2]
    assert content.subheadings == ("Rollout",)
    assert content.text.startswith("---\ntitle: Rollout\ndate: 2024-08-14\n---\n")
    assert page_parts(_SOURCE_PAGE)[0] == sections


def test_front_matter_elsewhere_and_content_without_it_read_as_markdown() -> None:
    plain = _SOURCE_PAGE.replace("---\ntitle: Rollout\ndate: 2024-08-14\n---\n\n", "")
    assert [s.anchor for s in page_sections(plain)] == ["", "outline", "content", "waves"]
    # not under `## Content`: a setext heading, as markdown reads it
    other = _SOURCE_PAGE.replace("## Content", "## Notes")
    assert "title-rollout-date-2024-08-14" in [s.anchor for s in page_sections(other)]
