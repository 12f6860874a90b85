"""Warning boxes in the markup families teams write them in (pure): a Docusaurus, HackMD or
VuePress container (`:::warning` ... `:::`), a GitBook hint (`{% hint style="danger" %}` ...
`{% endhint %}`) and a GitHub alert (`> [!WARNING]` over its quoted lines). The text of a
warning, danger or caution box is what the page flags as a risk; a note's or a tip's is not."""

from __future__ import annotations

import re

from tasks.extract.genre_text import MAX_SPAN_LINES
from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure
from tasks.extract.text import joined_lines, plain_text, shorten

_RISK_KINDS = frozenset({"warning", "danger", "caution"})
_OPEN_RE = re.compile(r"^\s{0,3}(?::::+\s*(?P<colon>[A-Za-z]+)\b.*"
                      r"|\{%\s*hint\s+style=\"(?P<hint>[A-Za-z]+)\"\s*%\}"
                      r"|>\s*\[!(?P<alert>[A-Za-z]+)\]\s*)$")
_COLON_CLOSE_RE = re.compile(r"^\s{0,3}:::+\s*$")
_HINT_CLOSE_RE = re.compile(r"^\s*\{%\s*endhint\s*%\}\s*$")


def risk_boxes(structure: Structure) -> list[LineSpan]:
    """The text of each warning, danger or caution box, with its lines."""
    text = structure.text
    if ":::" not in text and "{% hint" not in text and "[!" not in text:
        return []  # a literal test first: most pages have no box
    lines = structure.visible
    found: list[LineSpan] = []
    for index, (_, line) in enumerate(lines):
        if ":::" not in line and "{%" not in line and "[!" not in line:
            continue
        opened = _OPEN_RE.match(line)
        if opened is None:
            continue
        kind = (opened["colon"] or opened["hint"] or opened["alert"] or "").lower()
        body: list[tuple[int, str]] = []
        for later, said in lines[index + 1 : index + 1 + MAX_SPAN_LINES]:
            if opened["alert"]:
                if not said.lstrip().startswith(">"):
                    break
                said = said.lstrip()[1:]
            elif _COLON_CLOSE_RE.match(said) or _HINT_CLOSE_RE.match(said):
                break
            body.append((later, said.strip()))
        words = [(n, said) for n, said in body if said]
        if kind in _RISK_KINDS and words:
            told = plain_text(joined_lines(said for _, said in words))
            if len(told.split()) >= 4:
                found.append((shorten(told), words[0][0], words[-1][0]))
    return found
