"""HTML sources as markdown (markdownify over BeautifulSoup's stdlib parser). Pure, no I/O.

Pages, outlines, token counts, shards and distill all work from the converted markdown; the raw
copy keeps the exact HTML bytes. Line numbers of an HTML source (shards, provenance) therefore
count lines of the converted text, which is what its source page shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

HTML_SUFFIXES = frozenset({".html", ".htm"})
_NOT_CONTENT = ("head", "script", "style", "noscript", "template", "iframe", "svg")
_BLANK_RUNS_RE = re.compile(r"\n[ \t]*(?:\n[ \t]*){2,}")
_TRAILING_SPACE_RE = re.compile(r"(?<![ \t])[ \t]++\n")  # a run is tried from its start only
# A rule first would read as a YAML frontmatter opener to markdown tools: a leading one goes.
_LEADING_RULES_RE = re.compile(r"\A(?:---\n+)+")
# markdownify converts recursively (a few frames per element): an element this deep is replaced
# by its text (in order, markup dropped), so 20,000 nested <div> convert in linear time.
MAX_ELEMENT_DEPTH = 64


@dataclass(frozen=True)
class HtmlSource:
    markdown: str
    title: str | None
    description: str | None


def _code_language(element: Any) -> str | None:
    """`language-python` (or `lang-python`) on a <pre> or its <code> names the fence language."""
    for node in (element, element.find("code")):
        for name in (node.get("class") or []) if node is not None else []:
            for prefix in ("language-", "lang-"):
                if name.startswith(prefix):
                    return str(name[len(prefix):])
    return None


@lru_cache(maxsize=1)
def _converter() -> Any:
    # Imported on first use: BeautifulSoup costs ~0.1 s, which commands without HTML never pay.
    from markdownify import MarkdownConverter

    # No escapes of _ and *: the text is read by agents and matched by distill, not rendered.
    return MarkdownConverter(heading_style="ATX", bullets="-", escape_underscores=False,
                             escape_asterisks=False, code_language_callback=_code_language)


def _text(value: Any) -> str | None:
    text = " ".join(str(value).split()) if value else ""
    return text or None


def flatten_deep_elements(soup: Any, max_depth: int) -> int:
    """Replace every element at `max_depth` by its plain text (walked iteratively: no
    recursion on the input's depth); return how many were replaced."""
    from bs4.element import NavigableString, Tag

    flattened = 0
    stack: list[tuple[Any, int]] = [(soup, 0)]
    while stack:
        node, depth = stack.pop()
        for child in [c for c in node.children if isinstance(c, Tag)]:
            if depth + 1 < max_depth:
                stack.append((child, depth + 1))
            else:
                text = " ".join(child.get_text(" ").split())
                child.replace_with(NavigableString(f" {text} " if text else " "))
                flattened += 1
    return flattened


def html_to_markdown(html: str) -> HtmlSource:
    """The document's content as markdown, with its <title> and meta description."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    title = _text(soup.title.get_text()) if soup.title else None
    meta = soup.find("meta", attrs={"name": re.compile("^description$", re.IGNORECASE)})
    description = _text(meta.get("content")) if meta is not None else None
    for element in soup(list(_NOT_CONTENT)):
        element.decompose()
    flatten_deep_elements(soup, MAX_ELEMENT_DEPTH)
    markdown = _converter().convert_soup(soup)
    markdown = _BLANK_RUNS_RE.sub("\n\n", _TRAILING_SPACE_RE.sub("\n", markdown)).strip("\n")
    markdown = _LEADING_RULES_RE.sub("", markdown)
    return HtmlSource(markdown + "\n" if markdown else "", title, description)
