"""Re-wrap a markdown document's prose at another width, and compare the entities the extractor
makes of each version (issue 23 item 4: a name broken across a line end is still one name).

Only top-level paragraphs are re-wrapped (the block model, tasks/markdown): never code, tables,
headings, lists, quotes, HTML or front matter; a paragraph with a hard line break (two trailing
blanks or a backslash) or a line of fields is left as it is, and no line of a re-wrapped paragraph starts with a word
that would open a block (a list marker, a heading, a quote, a table row, a fence); a code span
is never broken.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tasks.extract.facts import extract_facts
from tasks.extract.model import SourceRef
from tasks.markdown.blocks import top_level_blocks
from tasks.markdown.frontmatter import find_front_matter

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "distill"
GOLD = FIXTURES / "subjects"
# A word that would open a block (or a setext underline) when it starts a line.
# A line of fields ("Author: Hana Okafor", "**Status:** Accepted"): its line ends are meaningful.
_FIELD_LINE = re.compile(r"^[*_]{0,2}[A-Z][\w /-]{0,30}[*_]{0,2}:")
_OPENS_BLOCK = re.compile(r"^(?:[-+*>#|=`~]|\d{1,9}[.)]$|<)")
UNWRAPPED = 0  # the width that writes each paragraph on one line


def rewrap(text: str, width: int) -> str:
    """`text` with each top-level prose paragraph filled to `width` columns (UNWRAPPED: one line)."""
    text = text.replace("\r\n", "\n")
    front = find_front_matter(text)
    head_end = 0 if front is None else front.lines
    lines = text.split("\n")
    body = lines[head_end:]
    out = list(body)
    for block in reversed(top_level_blocks("\n".join(body), len(body))):
        if block.kind != "paragraph":
            continue
        para = body[block.start:block.end]
        if not para or any(line.endswith(("  ", "\\")) or _FIELD_LINE.match(line) for line in para):
            continue
        out[block.start:block.end] = _fill(_words(" ".join(line.strip() for line in para)), width)
    return "\n".join(lines[:head_end] + out)


def _words(text: str) -> list[str]:
    """The paragraph's words, a code span one word (editors' wrapping never breaks one)."""
    words: list[str] = []
    inside = False
    for word in text.split():
        if inside:
            words[-1] += f" {word}"
        else:
            words.append(word)
        inside ^= word.count("`") % 2 == 1
    return words


def _fill(words: list[str], width: int) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    size = 0
    for word in words:
        fits = width == UNWRAPPED or size + 1 + len(word) <= width
        if current and not fits and not _OPENS_BLOCK.match(word):
            lines.append(" ".join(current))
            current, size = [], 0
        size += len(word) + (1 if current else 0)
        current.append(word)
    if current:
        lines.append(" ".join(current))
    return lines


Entities = frozenset[tuple[str, str]]


def entities_of(text: str, path: str) -> Entities:
    """The (name, type) of every entity the extractor makes of one document."""
    source = SourceRef("rewrap", "sources/rewrap.md", path, path)
    result = extract_facts(text, source)
    facts = [*result.entities, *([result.subject] if result.subject else [])]
    return frozenset((fact.ref.names[0], fact.ref.entity_type) for fact in facts)


def set_documents(name: str) -> list[Path]:
    """The fixture documents of a development set (its gold file's `fix:` paths)."""
    import json
    gold = json.loads((GOLD / f"{name}.json").read_text(encoding="utf-8"))
    return [FIXTURES / path.removeprefix("fix:") for path in gold["documents"] if path.startswith("fix:")]


@dataclass(frozen=True)
class Difference:
    """An entity one version makes and the other does not, and its class."""

    document: str
    width: int
    name: str
    entity_type: str
    side: str  # "original" (lost by the re-wrap) or "rewrapped" (made only by it)
    kind: str  # cut | joined | duplicate | other


def differences(path: Path, widths: Iterable[int]) -> list[Difference]:
    text = path.read_text(encoding="utf-8")
    original = entities_of(text, path.name)
    found: list[Difference] = []
    for width in widths:
        wrapped = entities_of(rewrap(text, width), path.name)
        for side, mine, other in (("original", original, wrapped), ("rewrapped", wrapped, original)):
            for name, kind in sorted(mine - other):
                found.append(Difference(path.name, width, name, kind, side,
                                        _classify(name, {n for n, _ in other}, {n for n, _ in mine})))
    return found


def _classify(name: str, other: set[str], mine: set[str]) -> str:
    """cut: a start or an end of a longer name of the other version (a name cut at a line end);
    joined: longer than a name of the other version which it starts or ends (joined across a line
    end); duplicate: a start or end of a longer name of the same version; else other."""
    lower = name.lower()
    if any(_part_of(lower, o.lower()) for o in mine if o != name):
        return "duplicate"
    if any(_part_of(lower, o.lower()) for o in other):
        return "cut"
    if any(_part_of(o.lower(), lower) for o in other):
        return "joined"
    return "other"


def _part_of(short: str, long: str) -> bool:
    return len(short) < len(long) and (long.startswith(short + " ") or long.endswith(" " + short))
