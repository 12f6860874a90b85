"""scan_headings (newline-anchored regex) agrees with the straightforward ^-anchored scan."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.markdown.blocks import Heading
from tasks.markdown.outline import scan_headings
from tests.conftest import CORPUS

_REFERENCE_RE = re.compile(
    r"^ {0,3}(?:(?P<hashes>#{1,6})(?:[ \t]+(?P<title>.*?))?[ \t#]*$|(?P<fence>`{3,}|~{3,}))", re.MULTILINE)


def reference_scan(text: str) -> list[Heading]:
    headings: list[Heading] = []
    fence: str | None = None
    for match in _REFERENCE_RE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        marker = match.group("fence")
        if marker:
            rest = text[match.end():].split("\n", 1)[0]
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence) and not rest.strip():
                fence = None
        elif fence is None and match.group("hashes"):
            title = (match.group("title") or "").strip()
            if title:
                headings.append(Heading(len(match.group("hashes")), title, line))
    return headings


_PIECES = st.sampled_from(["#", "##", "###", "#######", " ", "  ", "    ", "\t", "\n", "\n\n", "\r\n",
                           "\r", "```", "````", "~~~", "``", "`", "~", "py", "Title", "x #"])


@settings(max_examples=600, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_scan_matches_reference_on_generated_text(text: str) -> None:
    assert scan_headings(text) == reference_scan(text)


def test_scan_matches_reference_on_corpus() -> None:
    files = sorted(p for p in CORPUS.rglob("*.md") if p.is_file())
    assert files, CORPUS
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert scan_headings(text) == reference_scan(text), path
