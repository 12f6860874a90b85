"""A page body as the search index, `show` and `browse` see it: tasks.markdown.blocks' level-2
sections, the same sections and anchors the proposal gate extends.

The preamble (anchor "") comes first when it has text. Deeper headings (and an h1) stay with
the section they belong to, as its subheadings, so a search on them lands on that section.

BM25 ranks sections; the semantic side ranks passages: a section, or a part of a long one of
about PASSAGE_CHARS characters, cut before a deeper heading or at a blank line outside fenced
code, each with its own vector. A passage belongs to its section, so a hit on it names the
section that answers; a page's similarity comes from its best passage (and the whole page).
"""

from __future__ import annotations

from collections.abc import Iterator

from tasks.markdown.blocks import BodyBlocks, Section, read_blocks, sections
from tasks.markdown.frontmatter import find_front_matter
from tasks.markdown.outline import content_fence

PageSection = Section  # the index's name for a section (tasks/search/index.py builds one)
# A passage's size, in characters: about a screen of text. A section up to 1.5 times it stays
# whole (no stub of a few lines is cut off its end).
PASSAGE_CHARS = 2_000


# tasks/ingest/source_pages.py: an ingested document follows this heading verbatim
SOURCE_CONTENT = "\n## Content\n"


def page_blocks(body: str) -> BodyBlocks:
    """The body's blocks. The front matter of a document an ingested source page keeps under
    `## Content` is read as one code block: markdown would read its `---` lines as a thematic
    break and a setext underline, so its last key would be a heading of its own."""
    at = body.find(SOURCE_CONTENT)
    if at < 0:
        return read_blocks(body)
    start = at + len(SOURCE_CONTENT)
    while body.startswith("\n", start):
        start += 1
    block = find_front_matter(body[start:])
    if block is None:
        return read_blocks(body)
    close = start + block.yaml_end
    close_end = body.find("\n", close)
    close_end = len(body) if close_end < 0 else close_end
    yaml_text = body[body.find("\n", start):close]
    fence = content_fence(yaml_text)  # longer than any backtick run inside: nothing closes it
    masked = f"{body[:start]}{fence}{yaml_text}{fence}{body[close_end:]}"
    return read_blocks(masked, body.split("\n"))


def page_sections(body: str) -> list[Section]:
    """The preamble (when it has text) and each `##` section, in page order."""
    return _sections(page_blocks(body))


def _sections(blocks: BodyBlocks) -> list[Section]:
    preamble, *rest = sections(blocks, 2)
    return [preamble, *rest] if preamble.text.strip() else rest


Passage = tuple[int, Section]  # (the index of its section in the page's sections, the passage)


def page_parts(body: str, size: int = PASSAGE_CHARS) -> tuple[list[Section], list[Passage]]:
    """The page's sections (as page_sections), and its passages: each section longer than
    1.5 * `size` cut into parts of about `size` characters (each a Section with its section's
    anchor and heading, its own text, the subheadings inside it and its own line range)."""
    blocks = page_blocks(body)
    found = _sections(blocks)
    if all(len(s.text) <= size * 3 // 2 for s in found):
        return found, list(enumerate(found))
    fenced = {n for fence in blocks.fences for n in range(fence.start + 1, fence.end)}
    heads = {h.line: h.text for h in blocks.headings}
    out: list[Passage] = []
    for index, section in enumerate(found):
        if len(section.text) <= size * 3 // 2:
            out.append((index, section))
            continue
        for start, end in _cuts(blocks.lines, section, fenced, heads, size):
            text = "\n".join(blocks.lines[start:end]).strip("\n")
            if text.strip():
                subheadings = tuple(t for n, t in heads.items() if start <= n < end)
                out.append((index, Section(section.anchor, section.heading, subheadings, text,
                                           section.level, section.line, start, end,
                                           section.markup)))
    return found, out


def _cuts(lines: tuple[str, ...], section: Section, fenced: set[int], heads: dict[int, str],
          size: int) -> Iterator[tuple[int, int]]:
    """Line ranges [start, end) of a long section's passages: a passage ends before a heading
    or a blank line outside fenced code once it holds `size` characters (half of it before a
    heading), and the last takes what remains."""
    start, held = section.body_line, 0
    for n in range(section.body_line, section.end):
        line = lines[n]
        if n > start and n not in fenced and (
                (n in heads and held >= size // 2) or (held >= size and not line.strip())):
            if section.end - n > 1 and sum(len(x) for x in lines[n:section.end]) > size // 4:
                yield start, n
                start, held = n, 0
        held += len(line) + 1
    yield start, section.end
